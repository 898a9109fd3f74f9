/**
 * MCP server entries: Claude Code's `.mcp.json` plus inline entries, merged by name and with
 * `${VAR}` / `${VAR:-default}` expanded from the environment. Pure of the MCP SDK: the plugin reads
 * server names through this module too.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { expandVars } from "../config/env-vars.ts";
import { DistillError } from "../errors.ts";
import { isPlainObject } from "../util/canonical.ts";
import { serverNameProblem } from "../util/tool-names.ts";

/** One MCP server entry, as written in `.mcp.json` or inline in the config (Claude Code's structure). */
export interface McpServerConfig {
  type?: "stdio" | "http" | "sse";
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

/** A stdio server entry after expansion: spawned as `command args` with the parent env plus `env`. */
export interface ResolvedStdioServer {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** An HTTP (Streamable HTTP) or legacy SSE server entry after expansion. */
export interface ResolvedRemoteServer {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}

/** A server entry with its transport decided and every `${VAR}` expanded. */
export type ResolvedMcpServer = ResolvedStdioServer | ResolvedRemoteServer;

const TYPES = ["stdio", "http", "sse"] as const;

/**
 * Reads the `.mcp.json` file (when given), merges `inline` over it by server name (an inline entry
 * replaces the file's entry of that name), expands variables and decides each server's transport.
 * Every problem is reported at once in one `DistillError`.
 */
export async function loadMcpServers(options: {
  mcpConfigPath: string | null;
  inline: Record<string, McpServerConfig>;
  env?: NodeJS.ProcessEnv;
}): Promise<Record<string, ResolvedMcpServer>> {
  const fromFile = options.mcpConfigPath === null ? {} : await readMcpJson(options.mcpConfigPath);
  const merged: Record<string, unknown> = { ...fromFile, ...options.inline };
  const env = options.env ?? process.env;
  const problems: string[] = [];
  const servers: Record<string, ResolvedMcpServer> = {};
  for (const [name, entry] of Object.entries(merged)) {
    const resolved = resolveServer(name, entry, env, problems);
    if (resolved !== null) servers[name] = resolved;
  }
  if (problems.length > 0) throw new DistillError("CONFIG_INVALID", problems.join("\n"));
  return servers;
}

/** The `mcpServers` object of a `.mcp.json` file, entries unchecked (they are checked after merging). */
async function readMcpJson(path: string): Promise<Record<string, unknown>> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new DistillError(
        "CONFIG_NOT_FOUND",
        `mcp_config: ${file} does not exist; create it or correct the mcp_config path`,
        { cause: err },
      );
    }
    throw new DistillError("CONFIG_INVALID", `mcp_config: cannot read ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DistillError("CONFIG_INVALID", `${file}: invalid JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!isPlainObject(data) || !isPlainObject(data["mcpServers"])) {
    throw new DistillError(
      "CONFIG_INVALID",
      `${file}: expected Claude Code's format {"mcpServers": {"<name>": {...}}}`,
    );
  }
  return data["mcpServers"];
}

function resolveServer(
  name: string,
  entry: unknown,
  env: NodeJS.ProcessEnv,
  problems: string[],
): ResolvedMcpServer | null {
  const where = `mcp server '${name}'`;
  const before = problems.length;
  const nameProblem = serverNameProblem(name);
  if (nameProblem) problems.push(`${where}: ${nameProblem}`);
  if (!isPlainObject(entry)) {
    problems.push(`${where}: expected an object with command or url`);
    return null;
  }
  const type = entry["type"];
  if (type !== undefined && !(TYPES as readonly unknown[]).includes(type)) {
    problems.push(`${where}: type must be one of stdio, http, sse (got ${JSON.stringify(type)})`);
  }
  const command = field(entry, "command", where, problems, isString, "a string");
  const url = field(entry, "url", where, problems, isString, "a string");
  const args = field(entry, "args", where, problems, isStringArray, "an array of strings");
  const envEntries = field(entry, "env", where, problems, isStringRecord, "an object of strings");
  const headers = field(entry, "headers", where, problems, isStringRecord, "an object of strings");
  if (problems.length > before) return null;

  const expand = (value: string, key: string): string =>
    expandVars(value, env, (varName) =>
      problems.push(
        `mcp server '${name}': environment variable ${varName} is not set (used in ${key}); ` +
          `set it or write \${${varName}:-default}`,
      ),
    );
  const resolvedType = (type as McpServerConfig["type"]) ?? (command !== undefined ? "stdio" : "http");
  if (resolvedType === "stdio") {
    if (command === undefined) {
      problems.push(`${where}: a stdio server needs a command`);
      return null;
    }
    return {
      type: "stdio",
      command: expand(command, "command"),
      args: (args ?? []).map((arg, i) => expand(arg, `args[${i}]`)),
      env: mapValues(envEntries ?? {}, (value, key) => expand(value, `env.${key}`)),
    };
  }
  if (url === undefined) {
    problems.push(
      type === undefined
        ? `${where}: needs a command (stdio) or a url (http, sse)`
        : `${where}: type ${resolvedType} needs a url`,
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
    headers: mapValues(headers ?? {}, (value, key) => expand(value, `headers.${key}`)),
  };
}

/**
 * The value at `key` when it is absent or of the shape `is` accepts; otherwise a problem saying it must be `what`.
 */
function field<T>(
  entry: Record<string, unknown>,
  key: string,
  where: string,
  problems: string[],
  is: (value: unknown) => value is T,
  what: string,
): T | undefined {
  const value = entry[key];
  if (value === undefined || is(value)) return value as T | undefined;
  problems.push(`${where}: ${key} must be ${what}`);
  return undefined;
}

const isString = (v: unknown): v is string => typeof v === "string";
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isStringRecord = (v: unknown): v is Record<string, string> =>
  isPlainObject(v) && Object.values(v).every(isString);

function mapValues(
  record: Record<string, string>,
  fn: (value: string, key: string) => string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value, key)]));
}
