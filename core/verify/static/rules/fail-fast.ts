/** Rule `fail-fast`: nothing catches a failed base call (`try`, `.catch`, `.then` with a rejection handler). */
import { isMember, memberName } from "../static-values.ts";
import type { MemberNode, StaticRule } from "../types.ts";

const FAIL_FAST = "a failed base call must fail the tool so the agent can fall back";

const messages = {
  try: `'try' is not allowed: ${FAIL_FAST}`,
  catch: `'.catch' is not allowed: ${FAIL_FAST}`,
  thenRejection: `'.then' with a rejection handler is not allowed: ${FAIL_FAST}`,
} as const;

/** A tool that hides a failure answers wrongly instead of letting the agent do the task by hand. */
export const failFast: StaticRule<keyof typeof messages> = {
  id: "fail-fast",
  description:
    "no try, no .catch and no .then with a rejection handler: a failed base call fails the tool, so the agent falls back",
  messages,
  visitor: {
    TryStatement(path, state) {
      state.report(failFast, "try", path.node, "try");
    },
    "MemberExpression|OptionalMemberExpression"(path, state) {
      const node = path.node as MemberNode;
      if (memberName(node) === "catch") state.report(failFast, "catch", node.property, "catch");
    },
    CallExpression(path, state) {
      const { callee } = path.node;
      if (isMember(callee) && memberName(callee) === "then" && path.node.arguments.length >= 2) {
        state.report(failFast, "thenRejection", callee.property, "then");
      }
    },
  },
};
