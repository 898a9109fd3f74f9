/**
 * MCP tool results as library values. Shared by the toolkit (live calls) and the plugin's hooks
 * (recorded calls) so fixtures and live results have the same shape; it must not import the MCP SDK
 * because the hooks are bundled with `node:` built-ins only.
 */

/** A tool call that the MCP server answered with `isError: true`; the message is the result's text. */
export class McpToolError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpToolError";
  }
}

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
  if (texts.length === 1) {
    const only = texts[0]!;
    try {
      return JSON.parse(only);
    } catch {
      // Plain text is a legitimate result; only a single block that parses is a structured value.
      return only;
    }
  }
  return texts.join("\n");
}

/**
 * The value of a content array as a Claude Code hook sees it (`tool_response` of an MCP tool):
 * a single JSON text block → the parsed value; other text → the text joined with "\n"; no text → null.
 */
export function mcpContentToValue(content: unknown[]): unknown {
  const value = textValue(textBlocks(content));
  return value === undefined ? null : value;
}

/**
 * The value of an MCP `tools/call` result: as `mcpContentToValue`, falling back to `structuredContent`
 * when there is no text. Throws `McpToolError` with the result's text when `isError` is set.
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
    throw new McpToolError(message === "" ? "the MCP tool returned an error without a message" : message);
  }
  const value = textValue(texts);
  if (value !== undefined) return value;
  return result.structuredContent ?? null;
}
