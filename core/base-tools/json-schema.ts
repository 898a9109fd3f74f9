/**
 * Validation of values against JSON Schemas: a distilled tool's `inputSchema` (the proposer's data) and base
 * tools' input schemas (an MCP server's data). Both run on the host's thread, so regular expressions run on the
 * linear-time engine of schema-limits.ts, never on V8's backtracking one.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import type { JsonSchema } from "../types.ts";
import { compileLinear, type LinearRegExp } from "./json-schema-limits.ts";

/**
 * Ajv's `code.regExp`: every `pattern` and `patternProperties` key is compiled with RE2. A pattern RE2 cannot
 * compile only reaches here from a base tool's schema (the static check refuses it in a distilled tool's): it
 * is not checked here, so a server's lookahead does not block every call to its tool; the server still checks
 * its own input.
 */
const linearRegExp = Object.assign(
  (pattern: string, flags: string): LinearRegExp & { toString(): string } => {
    let compiled: LinearRegExp;
    try {
      compiled = compileLinear(pattern);
    } catch {
      compiled = { test: () => true };
    }
    return { test: (text) => compiled.test(text), toString: () => `/${pattern}/${flags}` };
  },
  { code: "re2js" },
) satisfies NonNullable<NonNullable<Options["code"]>["regExp"]>;

// One compiler for tool schemas: lenient about unknown keywords (tool authors use many), strict about data.
// Formats are not validated, so `format` runs no regular expression either.
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  validateFormats: false,
  code: { regExp: linearRegExp },
});

/** Most compiled schemas kept; a proposer can make any number of distinct ones, so the cache is bounded. */
const MAX_CACHED = 256;
const cache = new Map<string, { schema: JsonSchema; validate: ValidateFunction }>();

/** Validates `value` against a JSON Schema; returns readable problems (empty when valid). */
export function schemaProblems(schema: JsonSchema, value: unknown): string[] {
  let validate: ValidateFunction;
  try {
    validate = compiled(schema);
  } catch (err) {
    return [`the schema itself is invalid: ${(err as Error).message}`];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
}

function compiled(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit !== undefined) {
    // Most recently used last, so the oldest is the first to go.
    cache.delete(key);
    cache.set(key, hit);
    return hit.validate;
  }
  const validate = ajv.compile(schema);
  cache.set(key, { schema, validate });
  if (cache.size > MAX_CACHED) {
    const [oldestKey, oldest] = cache.entries().next().value!;
    cache.delete(oldestKey);
    // Ajv keeps every compiled schema by object too; without this the bound would hold for our map only.
    ajv.removeSchema(oldest.schema);
  }
  return validate;
}

function describeError(e: ErrorObject): string {
  const where = e.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "";
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `missing required property '${where ? `${where}.` : ""}${String(params["missingProperty"])}'`;
    case "additionalProperties":
      return `unknown property '${where ? `${where}.` : ""}${String(params["additionalProperty"])}'`;
    case "enum":
      return `${where || "value"} must be one of ${JSON.stringify(params["allowedValues"])}`;
    default:
      return `${where || "value"} ${e.message ?? "is invalid"}`;
  }
}
