/**
 * The naming rules of tools, in one place. A distilled tool's name becomes a folder under `tools/` and a tool name
 * in Claude Code, so it is checked before anything is written (a name like `../../x` must never reach the file
 * system). A base tool served by an MCP server is named `<server>__<tool>` in the library, so a server name never
 * contains `__` and a distilled tool's never does either (it could not be told from a base tool's). The library's
 * own tool names are reserved: an agent's tool list holds them next to the distilled tools, and the Messages API
 * refuses a list that repeats a name.
 */
import { PROPOSE_TOOL_NAME } from "../distill/prompts.ts";

/** A distilled tool's name: it must fit Claude Code's 64-character cap after the plugin's 28-character prefix. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{2,35}$/;

/** The separator of `<server>__<tool>`. */
export const SERVER_SEPARATOR = "__";

/** The tools tooldistill itself offers to agents (the plugin's `td` server, a distiller's model). */
export const RESERVED_TOOL_NAMES: readonly string[] = [PROPOSE_TOOL_NAME];

/**
 * Prefixes kept for tools tooldistill may offer later (`td_` is the plugin's server, `tooldistill_` and `distill_`
 * the library's verbs, `propose_distilled_` the proposal tool's family), so a new one never collides with a tool
 * already in a registry.
 */
export const RESERVED_TOOL_NAME_PREFIXES: readonly string[] = [
  "td_",
  "tooldistill_",
  "distill_",
  "propose_distilled_",
];

/** What is wrong with a distilled tool's name, or null when it is valid: the shape, then the reserved names. */
export function toolNameProblem(name: string): string | null {
  return toolNameShapeProblem(name) ?? reservedNameProblem(name);
}

/**
 * What is wrong with the shape of a name (the pattern, no `__`), or null. Enough to place a file safely: the tool
 * files of a version stored before a name was reserved stay readable, so a person can still deprecate it.
 */
export function toolNameShapeProblem(name: string): string | null {
  if (!TOOL_NAME_PATTERN.test(name)) {
    return `tool name '${name}' must match ${TOOL_NAME_PATTERN.source} (lowercase letters, digits and _, 3 to 36 characters)`;
  }
  if (name.includes(SERVER_SEPARATOR)) return `tool name '${name}' must not contain '${SERVER_SEPARATOR}'`;
  return null;
}

/** Why `name` is reserved for tooldistill's own tools, or null. */
export function reservedNameProblem(name: string): string | null {
  if (RESERVED_TOOL_NAMES.includes(name)) {
    return `tool name '${name}' is reserved: it is the name of a tool tooldistill itself offers to agents; choose another name`;
  }
  const prefix = RESERVED_TOOL_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix === undefined) return null;
  return `tool name '${name}' is reserved: names starting with '${prefix}' are kept for tooldistill's own tools; choose another name`;
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
