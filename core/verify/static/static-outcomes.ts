/**
 * The static check's rules for declared outcomes (declared-outcomes.ts): the third argument of `call` is a
 * literal object whose keys are outcome names and whose values are arrow functions without parameters. Each rule
 * is a named function over the check's state; its message names the token and says what to write instead.
 */
import type { Node } from "@babel/traverse";
import { DECLARED_OUTCOMES, isDeclaredOutcome, OUTCOMES_ARG_INDEX } from "../../trace/declared-outcomes.ts";
import { suggestion } from "../../util/did-you-mean.ts";
import type { CallNode } from "../call-sites.ts";
import type { CheckState } from "./static-check.ts";
import { propertyKey } from "./static-values.ts";

const NAMES = Object.keys(DECLARED_OUTCOMES);
const SHAPE = `write call("<tool>", {...}, { conflict: () => call("<lookup>", {...}) }) or { notFound: () => notApplicable("why") }`;
const OUTCOME_LIST = NAMES.map((n) => `'${n}'`).join(", ");

/** Runs every declared-outcome rule on one base call. */
export function checkDeclaredOutcomes(state: CheckState, node: CallNode): void {
  if (checkCallArity(state, node)) return;
  const options = node.arguments[OUTCOMES_ARG_INDEX];
  if (options === undefined) return;
  if (options.type !== "ObjectExpression") {
    checkOptionsLiteral(state, options);
    return;
  }
  const seen = new Set<string>();
  for (const prop of options.properties) {
    if (prop.type !== "ObjectProperty" || prop.computed || propertyKey(prop) === null) {
      checkOutcomeKey(state, prop);
      continue;
    }
    const name = propertyKey(prop)!;
    if (!isDeclaredOutcome(name)) {
      checkUnknownOutcome(state, prop.key, name);
      continue;
    }
    if (seen.has(name)) checkDuplicateOutcome(state, prop.key, name);
    seen.add(name);
    checkHandler(state, prop.value, name);
  }
}

/** Rule `call-arity`: `call` takes a name, arguments and declared outcomes, nothing more. True when it reported. */
function checkCallArity(state: CheckState, node: CallNode): boolean {
  const extra = node.arguments[OUTCOMES_ARG_INDEX + 1];
  if (extra === undefined) return false;
  state.add(
    extra,
    state.tokens.of(extra),
    `call takes at most three arguments (the base tool, its arguments, the declared outcomes): ${SHAPE}`,
  );
  return true;
}

/** Rule `outcome-options-literal`: the declared outcomes are an object literal, so the check can read them. */
function checkOptionsLiteral(state: CheckState, options: Node): void {
  state.add(
    options,
    state.tokens.of(options),
    `the third argument of call must be a literal object of declared outcomes (${OUTCOME_LIST}), so the check can read them: ${SHAPE}`,
  );
}

/** Rule `outcome-key`: each declared outcome is a plain `name: handler` property (no spread, method, computed key). */
function checkOutcomeKey(state: CheckState, prop: Node): void {
  state.add(
    prop,
    state.tokens.of(prop),
    `a declared outcome must be a plain property 'name: () => …' with a literal name (${OUTCOME_LIST}): ${SHAPE}`,
  );
}

/** Rule `outcome-unknown`: only the outcomes of the executor's error contract can be declared. */
function checkUnknownOutcome(state: CheckState, key: Node, name: string): void {
  state.add(
    key,
    name,
    `'${name}' is not a declared outcome${suggestion(name, NAMES)}: a call can declare ${OUTCOME_LIST} (409, 404, 410, 422); any other failure fails the tool`,
  );
}

/** Rule `outcome-duplicate`: an outcome is declared once per call. */
function checkDuplicateOutcome(state: CheckState, key: Node, name: string): void {
  state.add(key, name, `the outcome '${name}' is declared twice in one call: keep one handler`);
}

/** Rules `outcome-handler-arrow` and `outcome-handler-params`: a handler is an arrow function of no parameters. */
function checkHandler(state: CheckState, value: Node, name: string): void {
  if (value.type !== "ArrowFunctionExpression") {
    state.add(
      value,
      state.tokens.of(value),
      `the handler of '${name}' must be an arrow function, run only when the base call answers that outcome: ${name}: () => …`,
    );
    return;
  }
  const param = value.params[0];
  if (param !== undefined) {
    state.add(
      param,
      state.tokens.of(param),
      `the handler of '${name}' takes no parameters (the error's text is the base tool's, not data to act on): use the values the call was made with`,
    );
  }
}
