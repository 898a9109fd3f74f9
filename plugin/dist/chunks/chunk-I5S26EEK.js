import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  expandVars
} from "./chunk-PLUU42V4.js";
import {
  serverNameProblem
} from "./chunk-7GUC6VD2.js";
import {
  isPlainObject
} from "./chunk-6YXHXBUL.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// core/mcp/mcp-config.ts
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
var TYPES = ["stdio", "http", "sse"];
async function loadMcpServers(options) {
  const fromFile = options.mcpConfigPath === null ? {} : await readMcpJson(options.mcpConfigPath);
  const merged = { ...fromFile, ...options.inline };
  const env = options.env ?? process.env;
  const problems = [];
  const servers = {};
  for (const [name, entry] of Object.entries(merged)) {
    const resolved = resolveServer(name, entry, env, problems);
    if (resolved !== null) servers[name] = resolved;
  }
  if (problems.length > 0) throw new DistillError("CONFIG_INVALID", problems.join("\n"));
  return servers;
}
async function readMcpJson(path) {
  const file = resolve(path);
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if (err.code === "ENOENT") {
      throw new DistillError(
        "CONFIG_NOT_FOUND",
        `mcp_config: ${file} does not exist; create it or correct the mcp_config path`,
        { cause: err }
      );
    }
    throw new DistillError("CONFIG_INVALID", `mcp_config: cannot read ${file}: ${err.message}`, {
      cause: err
    });
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DistillError("CONFIG_INVALID", `${file}: invalid JSON: ${err.message}`, {
      cause: err
    });
  }
  if (!isPlainObject(data) || !isPlainObject(data["mcpServers"])) {
    throw new DistillError(
      "CONFIG_INVALID",
      `${file}: expected Claude Code's format {"mcpServers": {"<name>": {...}}}`
    );
  }
  return data["mcpServers"];
}
function resolveServer(name, entry, env, problems) {
  const where = `mcp server '${name}'`;
  const before = problems.length;
  const nameProblem = serverNameProblem(name);
  if (nameProblem) problems.push(`${where}: ${nameProblem}`);
  if (!isPlainObject(entry)) {
    problems.push(`${where}: expected an object with command or url`);
    return null;
  }
  const type = entry["type"];
  if (type !== void 0 && !TYPES.includes(type)) {
    problems.push(`${where}: type must be one of stdio, http, sse (got ${JSON.stringify(type)})`);
  }
  const command = field(entry, "command", where, problems, isString, "a string");
  const url = field(entry, "url", where, problems, isString, "a string");
  const args = field(entry, "args", where, problems, isStringArray, "an array of strings");
  const envEntries = field(entry, "env", where, problems, isStringRecord, "an object of strings");
  const headers = field(entry, "headers", where, problems, isStringRecord, "an object of strings");
  if (problems.length > before) return null;
  const expand = (value, key) => expandVars(
    value,
    env,
    (varName) => problems.push(
      `mcp server '${name}': environment variable ${varName} is not set (used in ${key}); set it or write \${${varName}:-default}`
    )
  );
  const resolvedType = type ?? (command !== void 0 ? "stdio" : "http");
  if (resolvedType === "stdio") {
    if (command === void 0) {
      problems.push(`${where}: a stdio server needs a command`);
      return null;
    }
    return {
      type: "stdio",
      command: expand(command, "command"),
      args: (args ?? []).map((arg, i) => expand(arg, `args[${i}]`)),
      env: mapValues(envEntries ?? {}, (value, key) => expand(value, `env.${key}`))
    };
  }
  if (url === void 0) {
    problems.push(
      type === void 0 ? `${where}: needs a command (stdio) or a url (http, sse)` : `${where}: type ${resolvedType} needs a url`
    );
    return null;
  }
  const expandedUrl = expand(url, "url");
  if (problems.length === before && !/^https?:\/\/./.test(expandedUrl)) {
    problems.push(`${where}: url must start with http:// or https:// (got '${expandedUrl}')`);
  }
  return {
    type: resolvedType,
    url: expandedUrl,
    headers: mapValues(headers ?? {}, (value, key) => expand(value, `headers.${key}`))
  };
}
function field(entry, key, where, problems, is, what) {
  const value = entry[key];
  if (value === void 0 || is(value)) return value;
  problems.push(`${where}: ${key} must be ${what}`);
  return void 0;
}
var isString = (v) => typeof v === "string";
var isStringArray = (v) => Array.isArray(v) && v.every(isString);
var isStringRecord = (v) => isPlainObject(v) && Object.values(v).every(isString);
function mapValues(record, fn) {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value, key)]));
}

export {
  loadMcpServers
};
