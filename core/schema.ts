import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { JsonSchema } from "./types.ts";

// One compiler for tool schemas: lenient about unknown keywords (tool authors use many), strict about data.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const cache = new Map<string, ValidateFunction>();

/** Validates `value` against a JSON Schema; returns readable problems (empty when valid). */
export function schemaProblems(schema: JsonSchema, value: unknown): string[] {
  let validate: ValidateFunction;
  try {
    const key = JSON.stringify(schema);
    validate = cache.get(key) ?? ajv.compile(schema);
    cache.set(key, validate);
  } catch (err) {
    return [`the schema itself is invalid: ${(err as Error).message}`];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
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
