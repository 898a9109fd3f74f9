/**
 * The naming rules of tools, in one place. A distilled tool's name becomes a folder under `tools/` and a tool name
 * in Claude Code, so it is checked before anything is written (a name like `../../x` must never reach the file
 * system). A base tool served by an MCP server is named `<server>__<tool>` in the library, so a server name never
 * contains `__` and a distilled tool's never does either (it could not be told from a base tool's).
 */

/** A distilled tool's name: it must fit Claude Code's 64-character cap after the plugin's 28-character prefix. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{2,35}$/;

/** The separator of `<server>__<tool>`. */
export const SERVER_SEPARATOR = "__";

/** What is wrong with a distilled tool's name, or null when it is valid. */
export function toolNameProblem(name: string): string | null {
  if (!TOOL_NAME_PATTERN.test(name)) {
    return `tool name '${name}' must match ${TOOL_NAME_PATTERN.source} (lowercase letters, digits and _, 3 to 36 characters)`;
  }
  if (name.includes(SERVER_SEPARATOR)) return `tool name '${name}' must not contain '${SERVER_SEPARATOR}'`;
  return null;
}

/** What is wrong with an MCP server's name, or null: the part before `__` of its tools' names. */
export function serverNameProblem(name: string): string | null {
  if (name === "") return "a server name must not be empty";
  if (name.includes(SERVER_SEPARATOR)) {
    return `a server name must not contain '${SERVER_SEPARATOR}' (tools are named <server>${SERVER_SEPARATOR}<tool>)`;
  }
  return null;
}

/** The library's name of tool `tool` of MCP server `server`. */
export function baseToolName(server: string, tool: string): string {
  return `${server}${SERVER_SEPARATOR}${tool}`;
}

/** The server and tool of a `<server>__<tool>` name, or null when it has no server part. */
export function splitBaseToolName(name: string): { server: string; tool: string } | null {
  const at = name.indexOf(SERVER_SEPARATOR);
  if (at <= 0 || at + SERVER_SEPARATOR.length >= name.length) return null;
  return { server: name.slice(0, at), tool: name.slice(at + SERVER_SEPARATOR.length) };
}
