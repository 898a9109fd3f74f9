/**
 * The executor's error contract: what a failed base call says, read only from out-of-band signals (an HTTP
 * status, a transport or system error code, an MCP error code, the host's own timeouts), never from the error's
 * text, which may echo whatever a distilled tool put into its arguments. One module owns it; retries, declared
 * outcomes, failure causes and base tool health all read this classification. See docs/lifecycle.md.
 */
import { DistillError } from "../errors.ts";

/**
 * `infrastructure`: the base tool could not answer (down, slow, unreachable). `conflict` (409), `not_found`
 * (404), `gone` (410), `unprocessable` (422): it answered a known business outcome, which a call site may
 * declare (`call(tool, args, { conflict: () => … })`). `rejected`: it refused the call, or nothing explains the
 * failure; evidence against the tool that made it unless a call site declared the outcome.
 */
export type BaseFailureClass =
  | "infrastructure"
  | "conflict"
  | "not_found"
  | "gone"
  | "unprocessable"
  | "rejected";

/** Every class, in a fixed order (the store keeps one per failed call). */
export const BASE_FAILURE_CLASSES: readonly BaseFailureClass[] = [
  "infrastructure",
  "conflict",
  "not_found",
  "gone",
  "unprocessable",
  "rejected",
];

/** What a failed base call was, and the signal that said so (for messages: `HTTP 503`, `ECONNRESET`, `none`). */
export interface BaseFailure {
  kind: BaseFailureClass;
  signal: string;
  /**
   * True when trying the same call again may succeed: an infrastructure failure other than the host's own
   * timeout (a timed-out call may still be running, so a second one would run beside it).
   */
  retryable: boolean;
}

/** The error of a base call made by a distilled tool that did not answer within its own timeout. */
export function baseCallTimeout(tool: string, ms: number): DistillError {
  return new DistillError("TIMEOUT", `base tool '${tool}' did not answer within ${ms / 1000} s`);
}

/**
 * A failure replayed from the record: its message, and the class the store kept for it when it happened (so
 * replay gives the code the same classification the live call had, without reading the text).
 */
export class RecordedBaseFailure extends Error {
  readonly failure: BaseFailureClass;
  constructor(message: string, failure: BaseFailureClass) {
    super(message);
    this.name = "RecordedBaseFailure";
    this.failure = failure;
  }
}

/** Transport and system error codes (Node, undici, axios) that mean the service could not be reached or answer. */
const TRANSPORT_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ESOCKETTIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EPROTO",
  "ERR_NETWORK",
  "ERR_SOCKET_CONNECTION_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** JSON-RPC codes of the MCP SDK's `McpError` that mean the server could not answer (closed, timed out, crashed). */
const MCP_INFRASTRUCTURE_CODES: ReadonlySet<number> = new Set([-32000, -32001, -32603]);

/** How deep `cause` chains and `AggregateError` members are followed. */
const MAX_DEPTH = 8;

/** An HTTP status as the contract reads it. */
export function classifyStatus(status: number): BaseFailureClass {
  if (status >= 500 || status === 429 || status === 408) return "infrastructure";
  if (status === 409) return "conflict";
  if (status === 404) return "not_found";
  if (status === 410) return "gone";
  if (status === 422) return "unprocessable";
  return "rejected";
}

/**
 * Classifies what the executor threw (or a failed fetch `Response`). Signals, first found wins along the error
 * and its `cause` chain: the host's own timeout and the MCP toolkit's transport errors; a class recorded with a
 * replayed failure; an HTTP status (`status`, `statusCode`, `response.status`, `response.statusCode`, a numeric
 * `code` from 100 to 599 as the MCP SDK's HTTP errors carry it); an `McpError` code; a transport or system error
 * code (`code`, also in the members of an `AggregateError`); a `TimeoutError` (an aborted fetch). An MCP tool's
 * own `isError` result is the tool answering: `rejected`, unless its structured content carries a status.
 * Nothing else, and never the message text: a failure with no signal is `rejected`.
 */
export function classifyBaseFailure(err: unknown): BaseFailure {
  return signalOf(err, 0) ?? { kind: "rejected", signal: "none", retryable: false };
}

function found(kind: BaseFailureClass, signal: string, retryable = kind === "infrastructure"): BaseFailure {
  return { kind, signal, retryable };
}

function signalOf(e: unknown, depth: number): BaseFailure | null {
  if (depth > MAX_DEPTH || e === null || typeof e !== "object") return null;
  if (e instanceof RecordedBaseFailure) return found(e.failure, "recorded");
  if (e instanceof DistillError) {
    if (e.code === "TIMEOUT") return found("infrastructure", "host timeout", false);
    // The toolkit wraps what the SDK threw. Only a protocol error the server answered (an McpError such as
    // InvalidParams) says the call was wrong; an HTTP status here is the transport's (a 404 is a lost session, not
    // a missing record), and without a cause the toolkit itself saw the transport fail: an outage either way.
    if (e.code === "MCP") {
      const inner = signalOf(e.cause, depth + 1);
      if (inner?.kind === "rejected" && inner.signal.startsWith("MCP error")) return inner;
      return found("infrastructure", inner?.signal ?? "MCP transport");
    }
    // A tool's own isError result: only its structured content (the cause) can say more than "it answered".
    if (e.code === "MCP_TOOL") return signalOf(e.cause, depth + 1);
  }
  const o = e as Record<string, unknown>;
  const response = o["response"] !== null && typeof o["response"] === "object" ? o["response"] : null;
  const r = (response ?? {}) as Record<string, unknown>;
  for (const [value, name] of [
    [o["status"], "status"],
    [o["statusCode"], "statusCode"],
    [r["status"], "response.status"],
    [r["statusCode"], "response.statusCode"],
  ] as const) {
    if (isHttpStatus(value)) return found(classifyStatus(value), `HTTP ${value} (${name})`);
  }
  const code = o["code"];
  if (isHttpStatus(code)) return found(classifyStatus(code), `HTTP ${code} (code)`);
  if (typeof code === "number" && Number.isInteger(code) && code < 0) {
    return MCP_INFRASTRUCTURE_CODES.has(code)
      ? found("infrastructure", `MCP error ${code}`)
      : found("rejected", `MCP error ${code}`);
  }
  if (typeof code === "string" && TRANSPORT_CODES.has(code)) return found("infrastructure", code);
  if (o["name"] === "TimeoutError") return found("infrastructure", "TimeoutError");
  if (Array.isArray(o["errors"])) {
    // An AggregateError (a connection tried on every address): an outage when any member says so.
    const members = o["errors"].map((m) => signalOf(m, depth + 1)).filter((m) => m !== null);
    const down = members.find((m) => m.kind === "infrastructure");
    if (down ?? members[0]) return down ?? members[0]!;
  }
  return signalOf(o["cause"], depth + 1);
}

function isHttpStatus(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 100 && value <= 599;
}
