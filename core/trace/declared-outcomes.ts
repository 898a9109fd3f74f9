/**
 * Declared business outcomes: what a call site says to do when its base call answers a known business error,
 * written as a literal options object in the third argument of `call`:
 *
 *   const account = await call("directory_create_account", { email }, {
 *     conflict: () => call("directory_find_account", { email }),
 *   });
 *
 * The names are a small fixed set, each answering one class of the executor's error contract (base-failure.ts).
 * The static check reads the keys of each site (call-sites.ts; they travel with the site, `CallSite.outcomes`); at
 * run time the host alone decides that an outcome applies, from its own classification of the error and that
 * site's declared keys, and only then lets the code's handler run. Pure, and free of the syntax tree: names in,
 * names out.
 */
import type { BaseFailureClass } from "../base-tools/base-failure.ts";

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
