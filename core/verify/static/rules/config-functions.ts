/** Rule `config-functions`: `run` is an async function; `check`, when given, a plain synchronous function. */
import { functionOf, isFunction } from "../static-config.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  runAsync: "'run' must be an async function: async run(input) { ... }",
  checkFunction: "'check' must be a function of the result: check: (result) => ...",
  checkAsync:
    "'check' must not be async: an async check returns a Promise, which always counts as passing; return true or false from a plain function",
  checkGenerator: "'check' must return true or false, not be a generator",
} as const;

/** `run` makes the base calls, so it awaits them; `check` judges the result at once, so it returns a boolean. */
export const configFunctions: StaticRule<keyof typeof messages> = {
  id: "config-functions",
  description:
    "run is an async function; check is a plain function of the result, neither async nor a generator",
  messages,
  config(state, { properties }) {
    const run = properties.get("run");
    if (run !== undefined && !isFunction(run, true)) state.report(configFunctions, "runAsync", run, "run");
    const check = properties.get("check");
    if (check === undefined) return;
    if (!isFunction(check, false)) {
      state.report(configFunctions, "checkFunction", check, "check");
      return;
    }
    const fn = functionOf(check);
    if ("async" in fn && fn.async) state.report(configFunctions, "checkAsync", check, "async");
    if ("generator" in fn && fn.generator) state.report(configFunctions, "checkGenerator", check, "*");
  },
};
