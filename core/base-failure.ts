/**
 * What a failed base call says about the distilled tool that made it. A base tool that is down, slow or
 * unreachable (a 5xx, a timeout, a lost connection, a server gone, a message too large for the transport)
 * says nothing about the distilled tool: it counts against the base tool's health. A base tool that
 * refused the arguments it was given (a 4xx, a validation or schema error) is evidence against the tool.
 */
import { DistillError } from "./errors.ts";

/** `infrastructure`: the base tool could not answer. `rejected`: it answered that the call was wrong. */
export type BaseFailureClass = "infrastructure" | "rejected";

/** The error of a base call made by a distilled tool that did not answer within its own timeout. */
export function baseCallTimeout(tool: string, ms: number): DistillError {
  return new DistillError("TIMEOUT", `base tool '${tool}' did not answer within ${ms / 1000} s`);
}

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** Text that only an unavailable service writes: status lines, timeouts, dropped connections. */
const INFRASTRUCTURE_TEXT =
  /\b(50[0-4]|429|408)\b|service unavailable|bad gateway|gateway time-?out|too many requests|rate.?limit|\btimed out\b|request timeout|socket hang up|connection (?:closed|reset|refused|lost)|not connected|fetch failed|server (?:gone|exited|closed|unavailable)|unavailable|\bis down\b|\boutage\b|message too large|payload too large/i;

/**
 * Classifies a base call's failure from what the executor threw: our own timeout, the MCP toolkit's
 * transport errors, an HTTP status or network error code on the error (or its cause), then its text.
 * Anything else is `rejected`: a failure nobody explained is treated as the call's fault.
 */
export function classifyBaseFailure(err: unknown): BaseFailureClass {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    // Our own timeouts, and the toolkit's transport failures (DistillError MCP); MCP_TOOL is a tool's own isError
    // result: the tool answered, so only its text (an upstream 503, "service unavailable") can still say it was down.
    if (e instanceof DistillError && (e.code === "TIMEOUT" || e.code === "MCP")) return "infrastructure";
    if (e instanceof DistillError && e.code === "MCP_TOOL") break;
    if (typeof e !== "object") break;
    const { status, statusCode, code } = e as { status?: unknown; statusCode?: unknown; code?: unknown };
    const http = typeof status === "number" ? status : typeof statusCode === "number" ? statusCode : null;
    if (http !== null) return http >= 500 || http === 429 || http === 408 ? "infrastructure" : "rejected";
    if (typeof code === "string" && NETWORK_CODES.has(code)) return "infrastructure";
    e = (e as { cause?: unknown }).cause;
  }
  const text = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  return INFRASTRUCTURE_TEXT.test(text) ? "infrastructure" : "rejected";
}
