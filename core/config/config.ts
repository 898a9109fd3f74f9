/**
 * `tooldistill.yaml`: read, parse and validate it (ajv schema, then normalisation, then cross-field rules),
 * reporting every problem at once with its key and line, and import the modules it references.
 */
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { DistillError, errorMessage } from "../errors.ts";
import type { McpServerConfig } from "../mcp/mcp-config.ts";
import { isPlainObject } from "../util/canonical.ts";
import { suggestion } from "../util/did-you-mean.ts";
import { serverNameProblem } from "../util/tool-names.ts";
import { CONFIG_FILE_NAME, findConfig } from "./config-file.ts";
import { storeLocation, storeProblems } from "./config-store.ts";
import { type KeyPath, parseYaml } from "./config-yaml.ts";
import { type ModuleRef, parseModuleRef } from "./module-ref.ts";
import {
  DEFAULT_SETTINGS,
  type Settings,
  sampleSettings,
  settingsFromFile,
  settingsSchemaProperties,
} from "./settings.ts";

export type { McpServerConfig, ModuleRef };
export { CONFIG_FILE_NAME, findConfig };

/** A resolved configuration: absolute paths, module references parsed, every setting filled in. */
export interface Config {
  /** Absolute path of the file; null when there is no file and these are the defaults. */
  path: string | null;
  /** Folder the relative paths of the file resolve against. */
  dir: string;
  /**
   * Where the registry is, `${VAR}`s expanded: an absolute folder (the embedded SQLite store) or a
   * `postgres://` URL. `openConfiguredStore` (registry-open.ts) opens either.
   */
  store: string;
  executor: ModuleRef | null;
  tools: ModuleRef | null;
  healthProbe: ModuleRef | null;
  distiller: ModuleRef | null;
  /** Absolute path of the `.mcp.json` file. */
  mcpConfig: string | null;
  /** Inline entries exactly as written: `${VAR}` expansion belongs to the MCP module. */
  mcpServers: Record<string, McpServerConfig>;
  settings: Settings;
}

/** One thing wrong with a config file: `path` is the key path (`mcpServers.billing.url`), `line` 1-based. */
export interface ConfigProblem {
  path: string;
  line: number | null;
  message: string;
}

const MODULE_REF_KEYS = [
  ["executor", "executor"],
  ["tools", "tools"],
  ["health_probe", "healthProbe"],
  ["distiller", "distiller"],
] as const;

const MODULE_REF_HINT = "must be 'path#export', e.g. ./tools.ts#executeTool";

const moduleRefSchema = { type: "string", pattern: "^[^#]+#[^#\\s]+$", description: MODULE_REF_HINT };
const pathSchema = { type: "string", minLength: 1, description: "must be a path (a non-empty string)" };
const storeSchema = {
  type: "string",
  minLength: 1,
  description: "must be a folder or a postgres:// URL (a non-empty string)",
};
const _booleanSchema = { type: "boolean", description: "must be a boolean" };
const stringMapSchema = (of: string) => ({
  type: "object",
  additionalProperties: { type: "string", description: "must be a string" },
  description: `must be a mapping of ${of} to strings`,
});

const serverSchema = {
  type: "object",
  description: "must be a mapping with type, command, args, env, url or headers",
  properties: {
    type: { type: "string", enum: ["stdio", "http", "sse"], description: "must be one of stdio, http, sse" },
    command: { type: "string", minLength: 1, description: "must be a command (a non-empty string)" },
    args: {
      type: "array",
      items: { type: "string", description: "must be a string" },
      description: "must be a list of strings",
    },
    env: stringMapSchema("variable names"),
    url: { type: "string", minLength: 1, description: "must be a URL (a non-empty string)" },
    headers: stringMapSchema("header names"),
  },
  additionalProperties: false,
};

// Each leaf carries its user-facing message in `description`: ajv (verbose) hands the failing
// schema back with every error, so the message table lives next to the rule it explains.
const configSchema = {
  type: "object",
  description: "must be a mapping of keys to values",
  properties: {
    store: storeSchema,
    executor: moduleRefSchema,
    tools: moduleRefSchema,
    health_probe: moduleRefSchema,
    distiller: moduleRefSchema,
    ...settingsSchemaProperties(),
    mcp_config: pathSchema,
    mcpServers: {
      type: "object",
      additionalProperties: serverSchema,
      description: "must be a mapping of server names to server entries",
    },
  },
  additionalProperties: false,
};

let compiled: ReturnType<Ajv["compile"]> | null = null;
function schemaValidator(): ReturnType<Ajv["compile"]> {
  compiled ??= new Ajv({ allErrors: true, verbose: true, strict: true }).compile(configSchema);
  return compiled;
}

/** How a value looks in "(got …)": scalars as YAML would show them, containers by kind. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (value !== null && typeof value === "object") return "a mapping";
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** JSON pointer → key path, with list indexes as numbers so callers can tell them from keys. */
function pointerToKeyPath(pointer: string, data: unknown): KeyPath {
  const path: KeyPath = [];
  let current = data;
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      const index = Number(segment);
      path.push(index);
      current = current[index];
    } else {
      path.push(segment);
      current = isPlainObject(current) ? current[segment] : undefined;
    }
  }
  return path;
}

function schemaProblems(errors: ErrorObject[], data: unknown): { keyPath: KeyPath; message: string }[] {
  const found: { keyPath: KeyPath; message: string }[] = [];
  const seen = new Set<string>();
  const add = (keyPath: KeyPath, message: string) => {
    // One message per key: `type` and `enum` (or `minimum`) can both fail on the same value.
    const id = JSON.stringify(keyPath);
    if (seen.has(id)) return;
    seen.add(id);
    found.push({ keyPath, message });
  };
  for (const error of errors) {
    const keyPath = pointerToKeyPath(error.instancePath, data);
    const parent = error.parentSchema as { description?: string; properties?: object } | undefined;
    if (error.keyword === "additionalProperties") {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      add([...keyPath, key], `unknown key${suggestion(key, Object.keys(parent?.properties ?? {}))}`);
    } else {
      add(keyPath, `${parent?.description ?? error.message ?? "is invalid"} (got ${shown(error.data)})`);
    }
  }
  return found;
}

/** The transport an entry means: explicit `type`, else stdio when it has a command, else http when it has a url. */
function serverType(entry: Record<string, unknown>): "stdio" | "http" | "sse" | null {
  const type = entry["type"];
  if (type === "stdio" || type === "http" || type === "sse") return type;
  if (type !== undefined) return null; // already reported by the schema
  if (entry["command"] !== undefined) return "stdio";
  if (entry["url"] !== undefined) return "http";
  return null;
}

function crossFieldProblems(data: Record<string, unknown>): { keyPath: KeyPath; message: string }[] {
  const found: { keyPath: KeyPath; message: string }[] = [];
  const hasExecutor = data["executor"] !== undefined;
  const hasTools = data["tools"] !== undefined;
  if (hasExecutor !== hasTools) {
    found.push({
      keyPath: [hasExecutor ? "executor" : "tools"],
      message: "executor and tools go together: set both, or neither and use mcp_config",
    });
  }
  const servers = data["mcpServers"];
  if (isPlainObject(servers)) {
    for (const [name, entry] of Object.entries(servers)) {
      const problem = serverNameProblem(name);
      if (problem) found.push({ keyPath: ["mcpServers", name], message: problem });
      if (!isPlainObject(entry)) continue;
      const type = serverType(entry);
      const article = type === "stdio" ? "a" : "an";
      if (type === null && entry["type"] === undefined) {
        found.push({
          keyPath: ["mcpServers", name],
          message: "needs 'command' (a stdio server) or 'url' (an http or sse server)",
        });
      } else if (type === "stdio") {
        if (entry["command"] === undefined) {
          found.push({ keyPath: ["mcpServers", name], message: "a stdio server needs 'command'" });
        }
        if (entry["url"] !== undefined) {
          found.push({
            keyPath: ["mcpServers", name, "url"],
            message: "a stdio server takes 'command', not 'url'",
          });
        }
      } else if (type !== null) {
        if (entry["url"] === undefined) {
          found.push({ keyPath: ["mcpServers", name], message: `${article} ${type} server needs 'url'` });
        }
        if (entry["command"] !== undefined) {
          found.push({
            keyPath: ["mcpServers", name, "command"],
            message: `${article} ${type} server takes 'url', not 'command'`,
          });
        }
      }
    }
  }
  return found;
}

/** Snake-case file keys → the resolved object; only called once the schema has passed. */
function normalise(data: Record<string, unknown>, file: string, dir: string, env: NodeJS.ProcessEnv): Config {
  const config = defaultConfig(dir);
  config.path = resolve(file);
  if (typeof data["store"] === "string") config.store = storeLocation(data["store"], dir, env);
  for (const [key, field] of MODULE_REF_KEYS) {
    const raw = data[key];
    if (typeof raw === "string") config[field] = parseModuleRef(key, raw, dir);
  }
  if (typeof data["mcp_config"] === "string") config.mcpConfig = resolve(dir, data["mcp_config"]);
  if (isPlainObject(data["mcpServers"])) {
    config.mcpServers = structuredClone(data["mcpServers"]) as Record<string, McpServerConfig>;
  }
  config.settings = settingsFromFile(data);
  return config;
}

/**
 * Validates parsed config data (pure): ajv schema, then normalisation, then cross-field rules.
 * Returns every problem at once; `config` is null whenever there is at least one.
 */
export function validateConfig(
  data: unknown,
  options: {
    file: string;
    dir: string;
    lineOf?: (keyPath: KeyPath) => number | null;
    /** Where `${VAR}` in `store:` expands from (default process.env). */
    env?: NodeJS.ProcessEnv;
  },
): { config: Config | null; problems: ConfigProblem[] } {
  const env = options.env ?? process.env;
  // An empty file parses to null: it means "all defaults", not "wrong type".
  const value = data === null || data === undefined ? {} : data;
  const validate = schemaValidator();
  const found = validate(value) ? [] : schemaProblems(validate.errors ?? [], value);
  if (isPlainObject(value)) found.push(...crossFieldProblems(value), ...storeProblems(value, env));
  const lineOf = options.lineOf ?? (() => null);
  const problems = found
    .map(({ keyPath, message }) => ({ path: keyPath.join("."), line: lineOf(keyPath), message }))
    .sort((a, b) => (a.line ?? Number.POSITIVE_INFINITY) - (b.line ?? Number.POSITIVE_INFINITY));
  if (problems.length > 0 || !isPlainObject(value)) return { config: null, problems };
  return { config: normalise(value, options.file, options.dir, env), problems };
}

/** One problem as printed: `tooldistill.yaml:LINE: key: message`. */
export function formatConfigProblem(fileName: string, problem: ConfigProblem): string {
  const where = problem.line === null ? fileName : `${fileName}:${problem.line}`;
  return problem.path === ""
    ? `${where}: ${problem.message}`
    : `${where}: ${problem.path}: ${problem.message}`;
}

/** The configuration when there is no file at all: every default, the store at `dir/.tooldistill`. */
export function defaultConfig(dir: string): Config {
  const base = resolve(dir);
  return {
    path: null,
    dir: base,
    store: join(base, ".tooldistill"),
    executor: null,
    tools: null,
    healthProbe: null,
    distiller: null,
    mcpConfig: null,
    mcpServers: {},
    settings: { ...DEFAULT_SETTINGS },
  };
}

/**
 * Reads and validates a config file: the given path, else `./tooldistill.yaml`, else the defaults.
 * Throws CONFIG_NOT_FOUND for a missing explicit path and CONFIG_INVALID listing every problem, one per line.
 */
export async function loadConfig(path?: string): Promise<Config> {
  let file: string;
  if (path === undefined) {
    const found = findConfig();
    if (found === null) return defaultConfig(process.cwd());
    file = found;
  } else {
    file = resolve(path);
    if (!existsSync(file)) {
      throw new DistillError(
        "CONFIG_NOT_FOUND",
        `${path}: no such config file; run \`tooldistill init\` to create one, or pass --config <path> to an existing one`,
      );
    }
    if (statSync(file).isDirectory()) {
      throw new DistillError(
        "CONFIG_NOT_FOUND",
        `${path} is a folder, not a config file: pass the path of the ${CONFIG_FILE_NAME} in it (${join(path, CONFIG_FILE_NAME)})`,
      );
    }
  }
  const name = basename(file);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new DistillError("CONFIG_INVALID", `${name}: cannot read the file: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  const { data, syntax, lineOf } = parseYaml(text);
  if (syntax.length > 0) {
    const lines = syntax.map((problem) => formatConfigProblem(name, { path: "", ...problem }));
    throw new DistillError("CONFIG_INVALID", lines.join("\n"));
  }
  const { config, problems } = validateConfig(data, { file, dir: dirname(file), lineOf });
  if (config === null) {
    throw new DistillError("CONFIG_INVALID", problems.map((p) => formatConfigProblem(name, p)).join("\n"));
  }
  return config;
}

/** The commented sample `tooldistill init` writes; it validates as is, and with its optional lines uncommented. */
export const SAMPLE_CONFIG: string = `# tooldistill.yaml: read by the tooldistill CLI and ToolDistill.fromConfig().
# Paths are relative to this file. Module references are path#export (no space before the #).

# Where the registry lives: a folder (the embedded SQLite database and the tool files), or a PostgreSQL
# database that many processes and machines share: store: \${DATABASE_URL} (postgres://user:password@host/db).
store: .tooldistill

# Your base tools: executor(name, args) runs one of them and returns a JSON-serialisable value
# (or throws), tools is the array of Anthropic-format definitions. Set both, or neither and use MCP servers below.
executor: ./tools.ts#executeTool
tools: ./tools.ts#TOOLS

# Optional: probe(name) returns whether a base tool is reachable again; used only by \`tooldistill health\`.
# health_probe: ./tools.ts#probe
# Optional: a custom Distiller instead of the built-in one that asks Claude.
# distiller: ./distill.ts#distiller

${sampleSettings()}

# Base tools from MCP servers, instead of executor and tools: each tool is named <server>__<tool>.
# mcp_config points at a file in Claude Code's .mcp.json format, {"mcpServers": {"<name>": {...}}}.
# mcp_config: .mcp.json
# Inline entries have the same structure and are merged over the file's by name;
# \${VAR} and \${VAR:-default} in them expand from the environment.
# mcpServers:
#   billing:
#     type: http
#     url: http://localhost:8787/mcp
#     headers:
#       Authorization: "Bearer \${BILLING_TOKEN}"
#   gmail:
#     command: node
#     args: [./servers/gmail.ts]
#     env:
#       GMAIL_FAKE: "1"
`;
