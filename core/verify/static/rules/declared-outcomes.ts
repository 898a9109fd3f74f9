/**
 * Rule `declared-outcomes`: `call` takes at most three arguments, and the third (declared-outcomes.ts) is a literal
 * object whose keys are outcome names and whose values are arrow functions without parameters.
 */
import type { Node } from "@babel/traverse";
import {
  DECLARED_OUTCOMES,
  isDeclaredOutcome,
  OUTCOMES_ARG_INDEX,
} from "../../../trace/declared-outcomes.ts";
import { suggestion } from "../../../util/did-you-mean.ts";
import { propertyKey } from "../static-values.ts";
import type { CheckState, StaticRule } from "../types.ts";

const NAMES = Object.keys(DECLARED_OUTCOMES);
const SHAPE = `write call("<tool>", {...}, { conflict: () => call("<lookup>", {...}) }) or { notFound: () => notApplicable("why") }`;
const OUTCOME_LIST = NAMES.map((n) => `'${n}'`).join(", ");

const messages = {
  arity: `call takes at most three arguments (the base tool, its arguments, the declared outcomes): ${SHAPE}`,
  optionsLiteral: `the third argument of call must be a literal object of declared outcomes (${OUTCOME_LIST}), so the check can read them: ${SHAPE}`,
  key: `a declared outcome must be a plain property 'name: () => …' with a literal name (${OUTCOME_LIST}): ${SHAPE}`,
  unknown: `'{{name}}' is not a declared outcome{{suggestion}}: a call can declare ${OUTCOME_LIST} (409, 404, 410, 422); any other failure fails the tool`,
  duplicate: "the outcome '{{name}}' is declared twice in one call: keep one handler",
  handlerArrow:
    "the handler of '{{name}}' must be an arrow function, run only when the base call answers that outcome: {{name}}: () => …",
  handlerParams:
    "the handler of '{{name}}' takes no parameters (the error's text is the base tool's, not data to act on): use the values the call was made with",
} as const;

/** A handler is an arrow function of no parameters, so it can act only on the values the call was made with. */
function checkHandler(state: CheckState, value: Node, name: string): void {
  if (value.type !== "ArrowFunctionExpression") {
    state.report(declaredOutcomes, "handlerArrow", value, state.tokens.of(value), { name });
    return;
  }
  const param = value.params[0];
  if (param !== undefined) {
    state.report(declaredOutcomes, "handlerParams", param, state.tokens.of(param), { name });
  }
}

/** The host lets an outcome apply only at a site that declares it: the check must read every declaration. */
export const declaredOutcomes: StaticRule<keyof typeof messages> = {
  id: "declared-outcomes",
  description:
    "call takes at most three arguments; the third is a literal object of declared outcomes, each a known name once, its handler an arrow function of no parameters",
  messages,
  baseCall(state, node) {
    const extra = node.arguments[OUTCOMES_ARG_INDEX + 1];
    if (extra !== undefined) {
      state.report(declaredOutcomes, "arity", extra, state.tokens.of(extra));
      return;
    }
    const options = node.arguments[OUTCOMES_ARG_INDEX];
    if (options === undefined) return;
    if (options.type !== "ObjectExpression") {
      state.report(declaredOutcomes, "optionsLiteral", options, state.tokens.of(options));
      return;
    }
    const seen = new Set<string>();
    for (const prop of options.properties) {
      const name = prop.type !== "ObjectProperty" || prop.computed ? null : propertyKey(prop);
      if (prop.type !== "ObjectProperty" || name === null) {
        state.report(declaredOutcomes, "key", prop, state.tokens.of(prop));
      } else if (!isDeclaredOutcome(name)) {
        state.report(declaredOutcomes, "unknown", prop.key, name, {
          name,
          suggestion: suggestion(name, NAMES),
        });
      } else {
        if (seen.has(name)) state.report(declaredOutcomes, "duplicate", prop.key, name, { name });
        seen.add(name);
        checkHandler(state, prop.value, name);
      }
    }
  },
};
