import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/mcp-result.ts
var McpToolError = class extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "McpToolError";
  }
};
function textBlocks(content) {
  const texts = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text } = block;
    if (type === "text" && typeof text === "string") texts.push(text);
  }
  return texts;
}
function textValue(texts) {
  if (texts.length === 0) return void 0;
  if (texts.length === 1) return jsonOrText(texts[0]);
  return texts.join("\n");
}
function jsonOrText(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
function mcpContentToValue(content) {
  const value = textValue(textBlocks(content));
  return value === void 0 ? null : value;
}
function mcpResultToValue(result) {
  const texts = textBlocks(Array.isArray(result.content) ? result.content : []);
  if (result.isError === true) {
    let message = texts.join("\n");
    if (message === "" && result.structuredContent !== void 0) {
      message = JSON.stringify(result.structuredContent);
    }
    throw new McpToolError(message === "" ? "the MCP tool returned an error without a message" : message);
  }
  if (result.structuredContent !== void 0) return result.structuredContent;
  const value = textValue(texts);
  return value === void 0 ? null : value;
}
function mcpHookResponseToValue(response) {
  if (Array.isArray(response)) return mcpContentToValue(response);
  if (typeof response === "string") return jsonOrText(response);
  if (typeof response === "object" && response !== null) {
    const r = response;
    if (r.structuredContent !== void 0) return r.structuredContent;
    if (Array.isArray(r.content) && Object.keys(r).every((k) => k === "content" || k === "isError")) {
      return mcpContentToValue(r.content);
    }
    return response;
  }
  return response ?? null;
}

export {
  McpToolError,
  mcpResultToValue,
  mcpHookResponseToValue
};
