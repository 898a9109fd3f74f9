/**
 * A distilled tool's name. It becomes a folder under `tools/` and a tool name in Claude Code, so it is checked
 * before anything is written: a name like `../../x` must never reach the file system.
 */

/** A distilled tool's name: it must fit Claude Code's 64-character cap after the plugin's 28-character prefix. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{2,35}$/;

/** What is wrong with a tool name, or null when it is valid. */
export function toolNameProblem(name: string): string | null {
  if (!TOOL_NAME_PATTERN.test(name)) {
    return `tool name '${name}' must match ${TOOL_NAME_PATTERN.source} (lowercase letters, digits and _, 3 to 36 characters)`;
  }
  if (name.includes("__")) return `tool name '${name}' must not contain '__'`;
  return null;
}
