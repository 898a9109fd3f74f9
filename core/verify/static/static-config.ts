/**
 * Reads the `distilledTool({...})` literal without running the tool: which object is the config, its keys, and
 * the name, description and input schema as literals (they become the tool's metadata) and the check function.
 * Reading reports nothing: the rules with a `config` check (config-keys, literal-metadata, tool-name, …) judge
 * what was read.
 */
import type { Node } from "@babel/traverse";
import { schemaLimitProblems } from "../../base-tools/json-schema-limits.ts";
import { isPlainObject } from "../../util/canonical.ts";
import { literalValue, propertyKey, stringValue, unwrap } from "./static-values.ts";
import type { ConfigKey, ConfigProperty, NodeOf, Statement, ToolConfig } from "./types.ts";

/** The keys `distilledTool({...})` accepts, in the order messages list them. */
export const CONFIG_KEYS: readonly ConfigKey[] = ["name", "description", "inputSchema", "run", "check"];

/** The keys it must have. */
export const REQUIRED_CONFIG_KEYS: readonly ConfigKey[] = ["name", "description", "inputSchema", "run"];

/** True for one of CONFIG_KEYS. */
export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

/** The object of `export default distilledTool({...})`, or null when the default export is not that. */
export function configObject(stmt: NodeOf<"ExportDefaultDeclaration">): NodeOf<"ObjectExpression"> | null {
  const decl = unwrap(stmt.declaration);
  const arg = decl.type === "CallExpression" && decl.arguments.length === 1 ? decl.arguments[0] : undefined;
  const isTool =
    decl.type === "CallExpression" &&
    decl.callee.type === "Identifier" &&
    decl.callee.name === "distilledTool" &&
    arg?.type === "ObjectExpression";
  return isTool ? arg : null;
}

/** Reads the config of a module's top level, or null when it has no `export default distilledTool({...})`. */
export function readConfig(body: readonly Statement[]): ToolConfig | null {
  const stmt = body.find((s) => s.type === "ExportDefaultDeclaration");
  const object = stmt ? configObject(stmt) : null;
  if (object === null) return null;
  const properties = new Map<ConfigKey, ConfigProperty>();
  for (const prop of object.properties) {
    const key = prop.type === "SpreadElement" || prop.computed ? null : propertyKey(prop);
    if (key !== null && isConfigKey(key) && !properties.has(key)) properties.set(key, prop as ConfigProperty);
  }
  const schemaProp = properties.get("inputSchema");
  const schemaLiteral = schemaProp === undefined ? null : readSchemaLiteral(schemaProp);
  // The schema is compiled and run on the host at every replay and live call: bounded before either.
  const schemaLimits =
    schemaLiteral === null || schemaLiteral.notLiterals.length > 0
      ? []
      : schemaLimitProblems(schemaLiteral.value).map((p) => p.message);
  const schema = schemaLiteral?.value;
  const check = properties.get("check");
  return {
    object,
    properties,
    name: stringOf(properties.get("name")),
    description: stringOf(properties.get("description")),
    schemaLiteral,
    schemaLimits,
    inputSchema:
      schemaLiteral !== null &&
      schemaLiteral.notLiterals.length === 0 &&
      isPlainObject(schema) &&
      schemaLimits.length === 0
        ? schema
        : null,
    hasCheck: check !== undefined,
    checkFunction: check !== undefined && isFunction(check, false) ? functionOf(check) : null,
  };
}

/** The value of a key that must be a string literal, or null. */
function stringOf(prop: ConfigProperty | undefined): string | null {
  return prop?.type === "ObjectProperty" ? stringValue(prop.value) : null;
}

function readSchemaLiteral(prop: ConfigProperty): { value: unknown; notLiterals: Node[] } {
  const notLiterals: Node[] = [];
  const value = prop.type === "ObjectProperty" ? literalValue(prop.value, notLiterals) : undefined;
  if (prop.type === "ObjectMethod") notLiterals.push(prop);
  return { value, notLiterals };
}

/** True when the key's value is a function (a method, an arrow or a function expression), async when it must be. */
export function isFunction(prop: ConfigProperty, mustBeAsync: boolean): boolean {
  if (prop.type === "ObjectMethod") return prop.kind === "method" && (prop.async || !mustBeAsync);
  const value = unwrap(prop.value);
  return (
    (value.type === "ArrowFunctionExpression" || value.type === "FunctionExpression") &&
    (value.async || !mustBeAsync)
  );
}

/** The function node of a key whose value is a function. */
export function functionOf(prop: ConfigProperty): Node {
  return prop.type === "ObjectMethod" ? prop : unwrap(prop.value);
}
