/**
 * Which tool a name Claude Code reports stands for: `mcp__<server>__<tool>` of a configured server is the base
 * tool `<server>__<tool>`, the plugin's own tools are the proposal tool and distilled tools, anything else (Bash,
 * Read, other MCP servers) is `other`.
 */
import { baseToolName, type CallKind, PROPOSE_TOOL_NAME } from "../core/recording.ts";
import { PLUGIN_TOOL_PREFIX } from "./plugin-names.ts";

/** How a tool Claude Code reports is recorded: the library's name and what the call counts as. */
export interface ToolIdentity {
  tool: string;
  kind: CallKind;
}

/** The prefix Claude Code puts before every MCP tool's name: `mcp__<server>__<tool>`. */
const MCP_PREFIX = "mcp__";

/** Claude Code's name for an MCP server in tool names: characters other than letters, digits, _ and - become _. */
function normalizedServer(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** Claude Code's built-in search for deferred tools (2.1.332 defers every MCP tool behind it). */
export const TOOL_SEARCH = "ToolSearch";

/**
 * True for a `ToolSearch` call: it only loads tool schemas, so it is recorded neither as a base call nor as a
 * step of the task, and a trace reads the same whether the release deferred its tools or not.
 */
export function isToolSearch(name: string | undefined): boolean {
  return name === TOOL_SEARCH;
}

/** True when Claude Code's name is an MCP tool's (of any server, the plugin's included). */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_PREFIX);
}

/** The library's name and the call kind of a tool Claude Code reports, given the project's base servers. */
export function identifyTool(name: string, baseServers: readonly string[]): ToolIdentity {
  if (name.startsWith(PLUGIN_TOOL_PREFIX)) {
    const tool = name.slice(PLUGIN_TOOL_PREFIX.length);
    return { tool, kind: tool === PROPOSE_TOOL_NAME ? "proposal" : "distilled" };
  }
  if (isMcpToolName(name)) {
    const rest = name.slice(MCP_PREFIX.length);
    for (const server of baseServers) {
      const prefix = baseToolName(normalizedServer(server), ""); // `<server>__`, as Claude Code spells the server
      if (rest.startsWith(prefix) && rest.length > prefix.length) {
        return { tool: baseToolName(server, rest.slice(prefix.length)), kind: "base" };
      }
    }
  }
  return { tool: name, kind: "other" };
}
