/**
 * How the host names a failed run from what it saw: an exception out of the engine itself (its native stack, an
 * abort), the instance's memory refused to grow past its cap, or an error the tool's code threw, whose text (guest
 * text, so clipped) says what and, from its stack, at which line of the tool.
 */
import { errorMessage } from "../errors.ts";
import { clip } from "../util/text.ts";
import { TOOL_FILE } from "./sandbox-guest.ts";
import type { SandboxFailure, SandboxLimits } from "./types.ts";

/** Longest tool name (or other guest-chosen text) that goes into a message, clipped beyond. */
export const MAX_NAME_CHARS = 128;
/** Longest error text of a tool's code that goes into a failure message. */
export const MAX_ERROR_CHARS = 1000;
/** Separates the parts of one string the prelude hands the host (a C string would stop at a NUL). */
export const SEPARATOR = "\u001f";

const TOOL_LINE = new RegExp(`\\(${TOOL_FILE.replace(".", "\\.")}:(\\d+)`);

/** The run's memory cap was hit: the host saw the instance's memory refuse to grow. */
export function memoryFailure(limits: Pick<SandboxLimits, "memoryMb">): SandboxFailure {
  return {
    kind: "memory",
    cause: "tool",
    message: `the tool used more than ${limits.memoryMb} MB of memory and was stopped`,
  };
}

/** The engine itself threw while running the tool's code. */
export function engineFailure(
  err: unknown,
  growthRefused: boolean,
  limits: Pick<SandboxLimits, "memoryMb">,
): SandboxFailure {
  if (growthRefused) return memoryFailure(limits);
  if (err instanceof RangeError) {
    return {
      kind: "stack",
      cause: "tool",
      message: "the tool's code nested too deeply (the engine's stack is exhausted) and was stopped",
    };
  }
  return {
    kind: "crashed",
    cause: "tool",
    message: `the engine stopped running the tool's code: ${clip(errorMessage(err), MAX_ERROR_CHARS)}`,
  };
}

/** An error the tool's code threw, described by the prelude; the engine's stack limit has a text of its own. */
export function guestFailure(
  text: string,
  prefix: string,
  kind: "code_error" | "bad_module",
): SandboxFailure {
  // The engine's own limit: its InternalError, or the SyntaxError its JSON parser throws at the same limit.
  if (text.startsWith("InternalError: stack overflow") || text.startsWith("SyntaxError: stack overflow")) {
    return {
      kind: "stack",
      cause: "tool",
      message: "the tool's code nested too deeply (the engine's stack limit) and was stopped",
    };
  }
  return { kind, cause: "tool", message: prefix + text };
}

/** The prelude's description of an error (`<text>\u001f<stack>`) as one clipped line with the tool's line. */
export function describedError(described: string): string {
  const [text = "", stack = ""] = described.split(SEPARATOR);
  const line = TOOL_LINE.exec(stack)?.[1];
  return clip(text, MAX_ERROR_CHARS) + (line ? ` (line ${line})` : "");
}

/** A run that ended without a result or a failure the host saw: the engine's fault, never the tool's. */
export function unknownFailure(): SandboxFailure {
  return { kind: "engine", cause: "host", message: "the run ended without an outcome" };
}

/** A failure of the tool's own code or result: evidence against the tool. */
export function codeError(message: string): SandboxFailure {
  return { kind: "code_error", cause: "tool", message };
}

/**
 * The tool's result from the prelude's tagged text ("R" and its JSON, or "U" and why it has none), parsed by the
 * host itself; the failure when it is not JSON or passes `maxBytes`.
 */
export function readResult(tagged: string, maxBytes: number): { result: unknown } | SandboxFailure {
  if (tagged.startsWith("U")) {
    return codeError(`the tool's result is not JSON-serialisable: ${describedError(tagged.slice(1))}`);
  }
  const json = tagged.slice(1);
  const bytes = Buffer.byteLength(json);
  if (bytes > maxBytes) {
    return {
      kind: "message_limit",
      cause: "tool",
      message: `the tool's result is ${bytes} bytes, more than the ${maxBytes}-byte limit`,
    };
  }
  try {
    return { result: JSON.parse(json) };
  } catch (err) {
    return codeError(`the tool's result is not JSON: ${errorMessage(err)}`);
  }
}

/** The definition the module made is not a tool (`kind`: the prelude's answer): the module's fault. */
export function badDefinition(kind: string | null): SandboxFailure {
  const message =
    kind === "no-run"
      ? "the tool has no run function"
      : kind === "bad-check"
        ? "the tool's check must be a function"
        : "the module's default export must be distilledTool({ name, description, inputSchema, run, check? })";
  return { kind: "bad_module", cause: "tool", message };
}

/** `check(result)` answered without holding (`verdict`: the prelude's "A", or "F" and what it returned). */
export function checkRefused(verdict: string | null): SandboxFailure {
  const message =
    verdict === "A"
      ? "check(result) returned a promise: check must answer at once (not async, no await)"
      : `check(result) returned ${clip(verdict?.slice(1) ?? "nothing", MAX_NAME_CHARS)}`;
  return { kind: "check_failed", cause: "tool", message };
}
