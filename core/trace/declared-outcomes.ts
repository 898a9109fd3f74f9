/**
 * Declared business outcomes: what a call site says to do when its base call answers a known business error,
 * written as a literal options object in the third argument of `call`:
 *
 *   const account = await call("directory_create_account", { email }, {
 *     conflict: () => call("directory_find_account", { email }),
 *   });
 *
 * The names are a small fixed set, each answering one class of the executor's error contract (base-failure.ts).
 * The static check reads the keys of each site (they travel with the site, `CallSite.outcomes`); at run time the
 * host alone decides that an outcome applies, from its own classification of the error and that site's declared
 * keys, and only then lets the code's handler run. Pure: syntax and names in, names out.
 */
import type { BaseFailureClass } from "../base-tools/base-failure.ts";
import type { CallNode } from "../verify/call-sites.ts";
import { propertyKey } from "../verify/static/static-values.ts";

/** The outcomes a call site may declare, by the key it declares them under, and the failure class each answers. */
export const DECLARED_OUTCOMES = Object.freeze({
  conflict: "conflict",
  notFound: "not_found",
  gone: "gone",
  unprocessable: "unprocessable",
} as const satisfies Record<string, BaseFailureClass>);

/** One key of DECLARED_OUTCOMES. */
export type DeclaredOutcome = keyof typeof DECLARED_OUTCOMES;

/** Where `call` takes its declared outcomes in the tool's source: the third argument (0-based index 2). */
export const OUTCOMES_ARG_INDEX = 2;

/** True for a key of DECLARED_OUTCOMES. */
export function isDeclaredOutcome(name: string): name is DeclaredOutcome {
  return Object.hasOwn(DECLARED_OUTCOMES, name);
}

/** The outcome a failure of class `failure` takes at a site that declared `declared`, or null: it fails the run. */
export function declaredOutcomeFor(
  failure: BaseFailureClass,
  declared: readonly string[] | undefined,
): DeclaredOutcome | null {
  for (const name of declared ?? []) {
    if (isDeclaredOutcome(name) && DECLARED_OUTCOMES[name] === failure) return name;
  }
  return null;
}

/**
 * The outcome keys a call site declares: the known names among the plain keys of a literal object in its third
 * argument, sorted. Anything the static check refuses (a computed key, a spread, an unknown name) declares
 * nothing, so the host never lets an outcome apply that the check did not read.
 */
export function declaredOutcomeNames(node: CallNode): string[] {
  const options = node.arguments[OUTCOMES_ARG_INDEX];
  if (options === undefined || options.type !== "ObjectExpression") return [];
  const names = new Set<string>();
  for (const prop of options.properties) {
    if (prop.type !== "ObjectProperty" || prop.computed) continue;
    const key = propertyKey(prop);
    if (key !== null && isDeclaredOutcome(key) && prop.value.type === "ArrowFunctionExpression")
      names.add(key);
  }
  return [...names].sort();
}
