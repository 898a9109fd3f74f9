/** Rule `unknown-base-tool`: a base call names a current base tool. */
import { suggestion } from "../../../util/did-you-mean.ts";
import { stringValue } from "../static-values.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  unknown: "call to '{{tool}}' — no such base tool{{suggestion}}",
} as const;

/** A call to a tool that does not exist fails every run: told with the name meant, when one is close. */
export const unknownBaseTool: StaticRule<keyof typeof messages> = {
  id: "unknown-base-tool",
  description: "every base call names a current base tool (a close name is suggested)",
  messages,
  baseCall(state, node) {
    const first = node.arguments[0];
    const tool = first ? stringValue(first) : null;
    if (first === undefined || tool === null || state.baseByName.has(tool)) return;
    // An MCP tool's name is often written without the prefix the agent saw it with.
    const typed = tool.startsWith("mcp__") ? tool.slice("mcp__".length) : tool;
    state.report(unknownBaseTool, "unknown", first, tool, {
      tool,
      suggestion: suggestion(typed, state.baseByName.keys()),
    });
  },
};
