/**
 * How Claude Code names the plugin's own things: the tools of its `td` MCP server and the slash command by which
 * the user confirms a task. Claude Code derives them from the plugin's and the server's names.
 */

/** The plugin's MCP server is `td` in plugin `tooldistill`: Claude Code names its tools with this prefix. */
export const PLUGIN_TOOL_PREFIX = "mcp__plugin_tooldistill_td__";

/** The slash command (as the hooks see its name) by which the user confirms a task and asks for a tool. */
export const DISTILL_COMMAND = "tooldistill:distill";

/** True for `/tooldistill:distill` with or without notes, as UserPromptSubmit reports it (not expanded). */
export function isDistillPrompt(prompt: string): boolean {
  return /^\s*\/tooldistill:distill(\s|$)/.test(prompt);
}
