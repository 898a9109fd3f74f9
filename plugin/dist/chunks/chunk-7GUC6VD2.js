import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  PROPOSE_TOOL_NAME
} from "./chunk-6YXHXBUL.js";

// core/util/tool-names.ts
var TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{2,35}$/;
var SERVER_SEPARATOR = "__";
var RESERVED_TOOL_NAMES = [PROPOSE_TOOL_NAME];
var RESERVED_TOOL_NAME_PREFIXES = [
  "td_",
  "tooldistill_",
  "distill_",
  "propose_distilled_"
];
function toolNameProblem(name) {
  return toolNameShapeProblem(name) ?? reservedNameProblem(name);
}
function toolNameShapeProblem(name) {
  if (!TOOL_NAME_PATTERN.test(name)) {
    return `tool name '${name}' must match ${TOOL_NAME_PATTERN.source} (lowercase letters, digits and _, 3 to 36 characters)`;
  }
  if (name.includes(SERVER_SEPARATOR)) return `tool name '${name}' must not contain '${SERVER_SEPARATOR}'`;
  return null;
}
function reservedNameProblem(name) {
  if (RESERVED_TOOL_NAMES.includes(name)) {
    return `tool name '${name}' is reserved: it is the name of a tool tooldistill itself offers to agents; choose another name`;
  }
  const prefix = RESERVED_TOOL_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix === void 0) return null;
  return `tool name '${name}' is reserved: names starting with '${prefix}' are kept for tooldistill's own tools; choose another name`;
}
function serverNameProblem(name) {
  if (name === "") return "a server name must not be empty";
  if (name.includes(SERVER_SEPARATOR)) {
    return `a server name must not contain '${SERVER_SEPARATOR}' (tools are named <server>${SERVER_SEPARATOR}<tool>)`;
  }
  return null;
}
function baseToolName(server, tool) {
  return `${server}${SERVER_SEPARATOR}${tool}`;
}
function splitBaseToolName(name) {
  const at = name.indexOf(SERVER_SEPARATOR);
  if (at <= 0 || at + SERVER_SEPARATOR.length >= name.length) return null;
  return { server: name.slice(0, at), tool: name.slice(at + SERVER_SEPARATOR.length) };
}

export {
  toolNameProblem,
  toolNameShapeProblem,
  serverNameProblem,
  baseToolName,
  splitBaseToolName
};
