/** Rule `call-arguments`: a base call's literal arguments fit the base tool's current input schema. */
import type { Node } from "@babel/traverse";
import type { ToolDef } from "../../../types.ts";
import { isPlainObject } from "../../../util/canonical.ts";
import { suggestion } from "../../../util/did-you-mean.ts";
import { literalKeys, stringValue } from "../static-values.ts";
import type { CheckState, StaticRule } from "../types.ts";

const messages = {
  unknownProperty: "call to '{{tool}}' — unknown property '{{key}}'{{suggestion}}",
  missingProperty: "call to '{{tool}}' — missing required property '{{key}}' of '{{tool}}'",
} as const;

/** Compares the literal keys of a base call's arguments with the base tool's current input schema. */
function checkArguments(state: CheckState, tool: ToolDef, keys: ReadonlyMap<string, Node>, at: Node): void {
  const schema = tool.input_schema;
  const properties = schema["properties"];
  const additional = schema["additionalProperties"];
  const open =
    (additional !== undefined && additional !== false) || schema["patternProperties"] !== undefined;
  if (isPlainObject(properties) && !open) {
    const known = Object.keys(properties);
    for (const [key, node] of keys) {
      if (!Object.hasOwn(properties, key)) {
        state.report(callArguments, "unknownProperty", node, key, {
          tool: tool.name,
          key,
          suggestion: suggestion(key, known),
        });
      }
    }
  }
  const required = Array.isArray(schema["required"]) ? schema["required"] : [];
  for (const key of required) {
    if (typeof key === "string" && !keys.has(key)) {
      state.report(callArguments, "missingProperty", at, tool.name, { tool: tool.name, key });
    }
  }
}

/** Arguments the base tool would refuse fail every run; checked where their keys are literals. */
export const callArguments: StaticRule<keyof typeof messages> = {
  id: "call-arguments",
  description:
    "the literal keys of a base call's arguments are properties of the base tool's input schema, with every required one",
  messages,
  baseCall(state, node) {
    const [first, second] = node.arguments;
    const name = first ? stringValue(first) : null;
    const tool = name === null ? undefined : state.baseByName.get(name);
    if (tool === undefined) return;
    if (second === undefined) checkArguments(state, tool, new Map(), node);
    else if (second.type === "ObjectExpression") {
      const keys = literalKeys(second);
      if (keys !== null) checkArguments(state, tool, keys, second);
    }
  },
};
