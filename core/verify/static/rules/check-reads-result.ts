/** Rule `check-reads-result`: check() looks only at the result: no base call and no notApplicable() inside it. */
import { isImported, isInside } from "../library-import.ts";
import { stringValue } from "../static-values.ts";
import type { StaticRule } from "../types.ts";

const MAKE_CALLS_IN_RUN = "check looks only at the result run() returned; make base calls in run()";

const messages = {
  call: `call inside check() is not allowed: ${MAKE_CALLS_IN_RUN}`,
  callTo: `call to '{{tool}}' inside check() is not allowed: ${MAKE_CALLS_IN_RUN}`,
  notApplicable:
    'notApplicable() inside check() is not allowed: check looks only at the result; end run() with return notApplicable("why") instead',
} as const;

/** check() runs after the run, in its own instance, to judge the result: it has nothing to call. */
export const checkReadsResult: StaticRule<keyof typeof messages> = {
  id: "check-reads-result",
  description:
    "check() makes no base call and does not call notApplicable(): it only judges the result run() returned",
  messages,
  visitor: {
    CallExpression(path, state) {
      const { callee } = path.node;
      if (callee.type !== "Identifier" || !isInside(path, state.checkFunction)) return;
      if (callee.name === "call" && isImported(path, "call")) {
        const first = path.node.arguments[0];
        const tool = first ? stringValue(first) : null;
        if (tool === null) state.report(checkReadsResult, "call", path.node, "call");
        else state.report(checkReadsResult, "callTo", path.node, "call", { tool });
      } else if (callee.name === "notApplicable" && isImported(path, "notApplicable")) {
        state.report(checkReadsResult, "notApplicable", path.node, "notApplicable");
      }
    },
  },
};
