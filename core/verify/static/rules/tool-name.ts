/** Rule `tool-name`: the tool's name is a valid distilled tool name that no base tool has. */
import { toolNameProblem } from "../../../util/tool-names.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  invalid: "{{problem}}",
  shadowsBase: "tool name '{{name}}' is a base tool's name: a distilled tool must not shadow a base tool",
} as const;

/** The name becomes a folder and an MCP tool name, and an agent must never reach a distilled tool by mistake. */
export const toolName: StaticRule<keyof typeof messages> = {
  id: "tool-name",
  description:
    "the name follows the distilled tool naming rules (util/tool-names.ts) and is no base tool's name",
  messages,
  config(state, config) {
    const prop = config.properties.get("name");
    const name = config.name;
    if (prop === undefined || name === null) return;
    const problem = toolNameProblem(name);
    if (problem !== null) state.report(toolName, "invalid", prop, name, { problem });
    if (state.baseByName.has(name)) state.report(toolName, "shadowsBase", prop, name, { name });
  },
};
