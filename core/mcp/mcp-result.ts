/**
 * MCP tool results as library values. Shared by the toolkit (live calls) and the plugin's hooks
 * (recorded calls) so fixtures and live results have the same value; it must not import the MCP SDK
 * because the hooks are bundled with `node:` built-ins only.
 *
 * What Claude Code 2.1.197 hands a PostToolUse hook as `tool_response` (observed, see
 * test/fixtures/claude-code-payloads/): a result with `structuredContent` arrives as the JSON *text* of that
 * structuredContent (its text blocks are dropped, and the model sees the same text); any other result arrives
 * as its array of content blocks. So a result's value is its structuredContent when it has one, else what its
 * text says.
 */
import { DistillError } from "../errors.ts";

/** The text blocks of an MCP content array, in order. */
function textBlocks(content: readonly unknown[]): string[] {
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type === "text" && typeof text === "string") texts.push(text);
  }
  return texts;
}

/** The value of a content array's text, or `undefined` when it has none. */
function textValue(texts: readonly string[]): unknown {
  if (texts.length === 0) return undefined;
  if (texts.length === 1) return jsonOrText(texts[0]!);
  return texts.join("\n");
}

/** Plain text is a legitimate result; only text that parses as JSON is a structured value. */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The value of a content array (a result without structuredContent): a single JSON text block → the parsed
 * value; other text → the text joined with "\n"; no text → null.
 */
export function mcpContentToValue(content: unknown[]): unknown {
  const value = textValue(textBlocks(content));
  return value === undefined ? null : value;
}

/**
 * The value of an MCP `tools/call` result: its `structuredContent` when it has one (what Claude Code shows the
 * model and its hooks), else as `mcpContentToValue`. A result with `isError` set (the tool answered that the call
 * failed) throws DistillError `MCP_TOOL` with the result's text (and its structured content as the cause).
 */
export function mcpResultToValue(result: {
  content?: unknown[] | undefined;
  structuredContent?: unknown;
  isError?: boolean | undefined;
}): unknown {
  const texts = textBlocks(Array.isArray(result.content) ? result.content : []);
  if (result.isError === true) {
    let message = texts.join("\n");
    if (message === "" && result.structuredContent !== undefined) {
      message = JSON.stringify(result.structuredContent);
    }
    // The structured content goes along as the cause: its fields (a `status`) are the only signal of what the
    // failure was, since the text may echo the arguments (see base-failure.ts).
    const structured = result.structuredContent;
    throw new DistillError(
      "MCP_TOOL",
      message === "" ? "the MCP tool returned an error without a message" : message,
      structured !== null && typeof structured === "object" ? { cause: structured } : undefined,
    );
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  const value = textValue(texts);
  return value === undefined ? null : value;
}

/**
 * The value of an MCP tool's `tool_response` in a Claude Code PostToolUse hook, equal to what `mcpResultToValue`
 * gives for the same result live: an array is the result's content blocks; a string is the JSON text of its
 * structuredContent; an object is a whole result (`{ content, structuredContent }`) or already the value.
 */
export function mcpHookResponseToValue(response: unknown): unknown {
  if (Array.isArray(response)) return mcpContentToValue(response);
  if (typeof response === "string") return jsonOrText(response);
  if (typeof response === "object" && response !== null) {
    const r = response as { content?: unknown; structuredContent?: unknown };
    if (r.structuredContent !== undefined) return r.structuredContent;
    if (Array.isArray(r.content) && Object.keys(r).every((k) => k === "content" || k === "isError")) {
      return mcpContentToValue(r.content);
    }
    return response;
  }
  return response ?? null;
}
