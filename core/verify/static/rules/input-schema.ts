/** Rule `input-schema`: the input schema is an object schema built only of literals, within the host's limits. */
import { isPlainObject } from "../../../util/canonical.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  literalsOnly:
    "'inputSchema' may contain only literals (strings, numbers, booleans, null, arrays and objects of those)",
  objectType: `'inputSchema' must be an object with type: "object"`,
  limit: "{{problem}}",
} as const;

/** The schema is read without running the tool, and compiled and run on the host at every replay and call. */
export const inputSchema: StaticRule<keyof typeof messages> = {
  id: "input-schema",
  description:
    'inputSchema is a literal JSON Schema with type: "object", within the limits the host compiles (docs/verification.md)',
  messages,
  config(state, config) {
    const prop = config.properties.get("inputSchema");
    const literal = config.schemaLiteral;
    if (prop === undefined || literal === null) return;
    for (const node of literal.notLiterals) {
      state.report(inputSchema, "literalsOnly", node, state.tokens.of(node));
    }
    if (literal.notLiterals.length > 0) return;
    const value = literal.value;
    if (!(isPlainObject(value) && value["type"] === "object")) {
      state.report(inputSchema, "objectType", prop, "inputSchema");
    }
    for (const problem of config.schemaLimits)
      state.report(inputSchema, "limit", prop, "inputSchema", { problem });
  },
};
