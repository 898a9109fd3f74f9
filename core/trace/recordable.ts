/**
 * What the store keeps of a value it records: nesting clipped at a depth the JSON encoder and the canonical form
 * can walk (10,000 levels overflow the stack), cycles cut, and an output over `max_output_bytes` replaced by its
 * beginning. Whatever is clipped is said in a note kept on the call, never silently dropped.
 */
import { errorMessage } from "../errors.ts";
import { setOwn } from "../util/canonical.ts";

/** Default cap of one recorded output (`max_output_bytes`): a few MB keeps a trace readable and its row small. */
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** Nesting deeper than this is replaced by a marker: real tool data is rarely 20 levels deep. */
export const MAX_RECORDED_DEPTH = 200;

/** How much of a clipped output is kept, in characters of its JSON text. */
const PREVIEW_CHARS = 4000;

/** A value made safe to record, and what was done to it (null when nothing). */
export interface Clipped<T = unknown> {
  value: T;
  note: string | null;
}

/**
 * A copy of `value` with nesting deeper than `maxDepth` replaced by a marker string and cycles cut. Returns the
 * value itself (no copy) when nothing needed clipping, which is the common case.
 */
export function clipDepth<T>(value: T, maxDepth = MAX_RECORDED_DEPTH): Clipped<T> {
  if (!needsClip(value, maxDepth, 0, [])) return { value, note: null };
  let deep = false;
  let cycle = false;
  const copy = (v: unknown, depth: number, ancestors: object[]): unknown => {
    if (typeof v !== "object" || v === null) return v;
    if (ancestors.includes(v)) {
      cycle = true;
      return "[clipped: circular reference]";
    }
    if (depth >= maxDepth) {
      deep = true;
      return `[clipped: nested deeper than ${maxDepth} levels]`;
    }
    ancestors.push(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map((x) => copy(x, depth + 1, ancestors));
    else {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) setOwn(o, k, copy(x, depth + 1, ancestors));
      out = o;
    }
    ancestors.pop();
    return out;
  };
  const value2 = copy(value, 0, []) as T;
  const parts: string[] = [];
  if (deep) parts.push(`nesting deeper than ${maxDepth} levels was clipped`);
  if (cycle) parts.push("a circular reference was cut");
  return { value: value2, note: parts.join("; ") };
}

/** True when some branch is deeper than `maxDepth` or refers back to an ancestor; stops at the first one. */
function needsClip(v: unknown, maxDepth: number, depth: number, ancestors: object[]): boolean {
  if (typeof v !== "object" || v === null) return false;
  if (depth >= maxDepth || ancestors.includes(v)) return true;
  ancestors.push(v);
  const children = Array.isArray(v) ? v : Object.values(v);
  for (const child of children) {
    if (needsClip(child, maxDepth, depth + 1, ancestors)) return true;
  }
  ancestors.pop();
  return false;
}

/**
 * The JSON text the store keeps of an output: depth-clipped, and replaced by the beginning of its text (as a
 * JSON string) when it is over `maxBytes`. `clipped` tells replay the value is not the one the tool returned.
 */
export function recordableOutput(
  value: unknown,
  maxBytes: number,
): { text: string; note: string | null; clipped: boolean } {
  const safe = clipDepth(value);
  let text: string;
  try {
    text = JSON.stringify(safe.value) ?? "null";
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      text: JSON.stringify(`[not recorded: the output is not JSON (${why})]`),
      note: `the output could not be recorded as JSON: ${why}`,
      clipped: true,
    };
  }
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { text, note: safe.note, clipped: safe.note !== null };
  const note =
    `output clipped: ${formatBytes(bytes)} is over the ${formatBytes(maxBytes)} cap (max_output_bytes in ` +
    `tooldistill.yaml); its first ${PREVIEW_CHARS.toLocaleString("en-US")} characters are kept`;
  return {
    text: JSON.stringify(`${text.slice(0, PREVIEW_CHARS)}… [clipped]`),
    note: safe.note ? `${safe.note}; ${note}` : note,
    clipped: true,
  };
}

/** An error message as kept: at most `maxBytes` characters, with the cut said. */
export function recordableError(message: string, maxBytes: number): { text: string; note: string | null } {
  if (message.length <= maxBytes) return { text: message, note: null };
  return {
    text: `${message.slice(0, maxBytes)}… [clipped]`,
    note: `error message clipped at ${formatBytes(maxBytes)} (max_output_bytes in tooldistill.yaml)`,
  };
}

/** 12.3 MB, 4 MB, 900 bytes: for notes people read. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Number((n / 1024).toFixed(1))} KB`;
  return `${Number((n / (1024 * 1024)).toFixed(1))} MB`;
}

/**
 * Text for a tool_result: strings as they are, anything else as JSON; a value JSON cannot encode (a cycle,
 * nesting deep enough to overflow the encoder) is clipped first, as the store records it.
 */
export function resultContent(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "null";
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    try {
      return JSON.stringify(clipDepth(value).value) ?? "null";
    } catch (err) {
      return `[the result could not be encoded as JSON: ${errorMessage(err)}]`;
    }
  }
}
