/**
 * What an MCP failure means and says: a tool's own error result, a lost connection, a timeout, an HTTP status or
 * a network error, each turned into the text people and the model read. The SDK's error classes come in through
 * `McpSdk` because the SDK loads lazily (see mcp-sdk.ts).
 */
import { DistillError, errorMessage } from "../errors.ts";
import type { McpSdk } from "./mcp-sdk.ts";

/** True for a tool's own `isError` result (mcp-result.ts): the server answered, the call failed. */
export function isToolError(err: unknown): boolean {
  return err instanceof DistillError && err.code === "MCP_TOOL";
}

/** A failure's message, with the HTTP status or the network cause in front when there is one. */
export function describeFailure(sdk: McpSdk, err: unknown): string {
  if ((err instanceof sdk.StreamableHTTPError || err instanceof sdk.SseError) && err.code !== undefined) {
    return `HTTP ${err.code}: ${err.message}`;
  }
  if (err instanceof TypeError && err.message === "fetch failed" && err.cause instanceof Error) {
    return `fetch failed: ${err.cause.message}`;
  }
  return errorMessage(err);
}

/** Whether an error of a request says the connection is gone (as opposed to a tool or protocol error). */
export function connectionGone(sdk: McpSdk, err: unknown): boolean {
  if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.ConnectionClosed) return true;
  // HTTP: the server is unreachable, or it restarted and forgot our session.
  if (err instanceof TypeError && err.message === "fetch failed") return true;
  if (err instanceof sdk.StreamableHTTPError && err.code === 404) return true;
  return err instanceof Error && err.message === "Not connected";
}

/** The error a failed call of tool `name` throws: a DistillError as it is, anything else as DistillError MCP. */
export function callFailure(sdk: McpSdk, name: string, err: unknown, callTimeoutMs: number): Error {
  if (err instanceof DistillError) return err;
  if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.RequestTimeout) {
    return new DistillError("MCP", `'${name}' timed out after ${callTimeoutMs} ms`, { cause: err });
  }
  return new DistillError("MCP", `'${name}' failed: ${describeFailure(sdk, err)}`, { cause: err });
}

/** Why connecting to a server failed at `step`, with the last lines it wrote on stderr. */
export function connectFailureReason(
  sdk: McpSdk,
  err: unknown,
  step: string,
  connectTimeoutMs: number,
  stderrTail: readonly string[],
): string {
  let reason: string;
  if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.RequestTimeout) {
    reason = `timed out after ${connectTimeoutMs} ms waiting for ${step}`;
  } else if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.ConnectionClosed) {
    reason = `the server closed the connection during ${step}`;
  } else {
    reason = describeFailure(sdk, err);
  }
  const tail = stderrTail.filter((line) => line.trim() !== "");
  return tail.length === 0 ? reason : `${reason}; server stderr: ${tail.join(" | ")}`;
}
