/**
 * How the `td` server's tools look to Claude Code: the MCP form of the library's offer, with the per-tool
 * `_meta` that decides whether Claude Code (2.1.332 and later) loads a tool upfront or defers it behind ToolSearch.
 */
import type { DistilledOffer, ToolDef } from "../core/index.ts";

/**
 * Claude Code (2.1.332 and later) defers MCP tools behind `ToolSearch` unless a tool's `_meta` carries this: the
 * model then sees the tool's schema from the session's first request. Older releases ignore it (they load every
 * tool upfront anyway). See docs/claude-code.md for what it costs and why the proposal tool stays deferred.
 */
export const ALWAYS_LOAD_META = "anthropic/alwaysLoad";

/** A tool as `tools/list` sends it. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; [k: string]: unknown };
  _meta?: Record<string, unknown>;
}

/** The MCP form of a tool; `alwaysLoad` exempts it from Claude Code's deferral. */
function mcpTool(t: ToolDef, alwaysLoad: boolean): McpTool {
  return {
    name: t.name,
    description: t.description,
    inputSchema: { ...t.input_schema, type: "object" },
    ...(alwaysLoad ? { _meta: { [ALWAYS_LOAD_META]: true } } : {}),
  };
}

/**
 * The tool list: `propose_distilled_tool` stays deferred (it is only needed after /tooldistill:distill, whose
 * context tells the model to load it with ToolSearch), every distilled tool is loaded upfront, because a
 * shortcut the model has to search for is one it rarely calls.
 */
export function listedTools(offer: DistilledOffer): { tools: McpTool[] } {
  return { tools: [mcpTool(offer.propose, false), ...offer.distilled.map((t) => mcpTool(t, true))] };
}

/** A fingerprint of the distilled tools as Claude Code sees them (names and descriptions): what a change announces. */
export function listSignature(tools: readonly ToolDef[]): string {
  return tools
    .map((t) => `${t.name}:${t.description}`)
    .sort()
    .join("\n");
}
