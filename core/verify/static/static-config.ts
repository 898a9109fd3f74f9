/**
 * The static check's rules on the `distilledTool({...})` literal: its keys, and the name, description and input
 * schema read from it without running the tool (they become the tool's metadata), `run` and `check`.
 */
import type { Node } from "@babel/traverse";
import { schemaLimitProblems } from "../../base-tools/json-schema-limits.ts";
import type { JsonSchema } from "../../types.ts";
import { isPlainObject } from "../../util/canonical.ts";
import { suggestion } from "../../util/did-you-mean.ts";
import { toolNameProblem } from "../../util/tool-names.ts";
import type { CheckState } from "./static-check.ts";
import { literalValue, type NodeOf, propertyKey, stringValue, unwrap } from "./static-values.ts";

const CONFIG_KEYS = ["name", "description", "inputSchema", "run", "check"] as const;
const REQUIRED_CONFIG_KEYS = ["name", "description", "inputSchema", "run"] as const;

type ConfigKey = (typeof CONFIG_KEYS)[number];
type ConfigProperty = NodeOf<"ObjectProperty" | "ObjectMethod">;
type ConfigProperties = ReadonlyMap<ConfigKey, ConfigProperty>;

/** What the config literal says; a field is null when it could not be read as a literal. */
export interface ToolConfig {
  name: string | null;
  description: string | null;
  inputSchema: JsonSchema | null;
  hasCheck: boolean;
  /** The check function's node: base calls inside it are refused. */
  checkFunction: Node | null;
}

/** Reads the literals of `distilledTool({...})` and checks each key's shape. */
export function readConfig(state: CheckState, object: NodeOf<"ObjectExpression">): ToolConfig {
  const props = checkConfigKeys(state, object);
  const name = readName(state, props.get("name"));
  const description = readDescription(state, props.get("description"));
  const inputSchema = readInputSchema(state, props.get("inputSchema"));
  checkRun(state, props.get("run"));
  const check = props.get("check");
  const checkFunction = readCheck(state, check);
  return { name, description, inputSchema, hasCheck: check !== undefined, checkFunction };
}

/** Only the known keys, each once, with every required one present. */
function checkConfigKeys(state: CheckState, object: NodeOf<"ObjectExpression">): ConfigProperties {
  const props = new Map<ConfigKey, ConfigProperty>();
  for (const prop of object.properties) {
    const key = prop.type === "SpreadElement" || prop.computed ? null : propertyKey(prop);
    if (key === null) {
      state.add(
        prop,
        state.tokens.first(prop),
        `distilledTool({...}) accepts only plain keys: ${CONFIG_KEYS.join(", ")}`,
      );
    } else if (!isConfigKey(key)) {
      state.add(
        prop,
        key,
        `unknown key '${key}' in distilledTool({...})${suggestion(key, CONFIG_KEYS)}: allowed keys are ${CONFIG_KEYS.join(", ")}`,
      );
    } else if (props.has(key)) {
      state.add(prop, key, `duplicate key '${key}' in distilledTool({...})`);
    } else {
      props.set(key, prop as ConfigProperty);
    }
  }
  for (const key of REQUIRED_CONFIG_KEYS) {
    if (!props.has(key)) state.add(object, undefined, `distilledTool({...}) has no '${key}'`);
  }
  return props;
}

function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

/** The value of a key that must be a string literal. */
function readString(state: CheckState, key: ConfigKey, prop: ConfigProperty | undefined): string | null {
  if (prop === undefined) return null;
  const value = prop.type === "ObjectProperty" ? stringValue(prop.value) : null;
  if (value === null) {
    state.add(prop, key, `'${key}' must be a string literal so it can be read without running the tool`);
  }
  return value;
}

/** The tool's name: a valid distilled tool name that no base tool has. */
function readName(state: CheckState, prop: ConfigProperty | undefined): string | null {
  const name = readString(state, "name", prop);
  if (name === null || prop === undefined) return name;
  const problem = toolNameProblem(name);
  if (problem !== null) state.add(prop, name, problem);
  if (state.baseByName.has(name)) {
    state.add(
      prop,
      name,
      `tool name '${name}' is a base tool's name: a distilled tool must not shadow a base tool`,
    );
  }
  return name;
}

/** The description an agent reads to choose the tool: not blank. */
function readDescription(state: CheckState, prop: ConfigProperty | undefined): string | null {
  const description = readString(state, "description", prop);
  if (description !== null && prop !== undefined && description.trim() === "") {
    state.add(prop, "description", "'description' must not be empty: say what the tool does");
  }
  return description;
}

/** The input schema: an object schema built only of literals. */
function readInputSchema(state: CheckState, prop: ConfigProperty | undefined): JsonSchema | null {
  if (prop === undefined) return null;
  const bad: Node[] = [];
  const value = prop.type === "ObjectProperty" ? literalValue(prop.value, bad) : undefined;
  if (prop.type === "ObjectMethod") bad.push(prop);
  for (const node of bad) {
    state.add(
      node,
      state.tokens.of(node),
      "'inputSchema' may contain only literals (strings, numbers, booleans, null, arrays and objects of those)",
    );
  }
  if (bad.length > 0) return null;
  if (!(isPlainObject(value) && value["type"] === "object")) {
    state.add(prop, "inputSchema", `'inputSchema' must be an object with type: "object"`);
  }
  // The schema is compiled and run on the host at every replay and live call: bounded before either.
  const limits = schemaLimitProblems(value);
  for (const problem of limits) state.add(prop, "inputSchema", problem.message);
  return isPlainObject(value) && limits.length === 0 ? value : null;
}

/** `run` makes the base calls, so it is async. */
function checkRun(state: CheckState, prop: ConfigProperty | undefined): void {
  if (prop !== undefined && !isFunction(prop, true)) {
    state.add(prop, "run", "'run' must be an async function: async run(input) { ... }");
  }
}

/** `check` judges the result synchronously; returns its function node. */
function readCheck(state: CheckState, prop: ConfigProperty | undefined): Node | null {
  if (prop === undefined) return null;
  if (!isFunction(prop, false)) {
    state.add(prop, "check", "'check' must be a function of the result: check: (result) => ...");
    return null;
  }
  const fn = prop.type === "ObjectMethod" ? prop : unwrap(prop.value);
  if ("async" in fn && fn.async) {
    state.add(
      prop,
      "async",
      "'check' must not be async: an async check returns a Promise, which always counts as passing; return true or false from a plain function",
    );
  }
  if ("generator" in fn && fn.generator) {
    state.add(prop, "*", "'check' must return true or false, not be a generator");
  }
  return fn;
}

function isFunction(prop: ConfigProperty, mustBeAsync: boolean): boolean {
  if (prop.type === "ObjectMethod") return prop.kind === "method" && (prop.async || !mustBeAsync);
  const value = unwrap(prop.value);
  return (
    (value.type === "ArrowFunctionExpression" || value.type === "FunctionExpression") &&
    (value.async || !mustBeAsync)
  );
}
