/** Rule `call-literal-name`: a base call names its base tool by a string literal. */

import { stringValue } from "../static-values.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  literalName: "call needs a string-literal base tool name as its first argument so dependencies can be read",
} as const;

/** The tool's dependencies are read from its source: a computed name hides one. */
export const callLiteralName: StaticRule<keyof typeof messages> = {
  id: "call-literal-name",
  description:
    "every base call names its base tool by a string literal, so the tool's dependencies can be read",
  messages,
  baseCall(state, node) {
    const first = node.arguments[0];
    if (first !== undefined && stringValue(first) !== null) return;
    state.report(callLiteralName, "literalName", first ?? node, first ? state.tokens.of(first) : "call");
  },
};
