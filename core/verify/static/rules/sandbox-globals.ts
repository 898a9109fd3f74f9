/** Rule `sandbox-globals`: no global or member the sandbox leaves out (timers, eval, Math.random, the clock). */
import { ABSENT_GLOBALS, ABSENT_MEMBERS, NO_CLOCK } from "../../../sandbox/sandbox-guest.ts";
import { nameUses } from "../name-uses.ts";
import { memberName } from "../static-values.ts";
import type { CheckState, NodeOf, StaticRule } from "../types.ts";

const messages = {
  absentGlobal: "'{{name}}' is not available: {{why}}",
  absentMember: "'{{member}}' is not available: {{why}}",
  clockCall: `'Date()' reads the clock: ${NO_CLOCK}`,
  clockNew: `'new Date()' reads the clock: ${NO_CLOCK}`,
} as const;

/** `Date()` and `new Date()` read the clock, which the sandbox does not have. */
function checkClock(state: CheckState, node: NodeOf<"CallExpression" | "NewExpression">): void {
  const { callee } = node;
  if (callee.type !== "Identifier" || callee.name !== "Date") return;
  if (node.type === "CallExpression") state.report(sandboxGlobals, "clockCall", callee, "Date()");
  else if (node.arguments.length === 0) state.report(sandboxGlobals, "clockNew", node, "new Date()");
}

/** The engine has none of these: the code would fail at run time, so it is told before, with the reason. */
export const sandboxGlobals: StaticRule<keyof typeof messages> = {
  id: "sandbox-globals",
  description:
    "no global the sandbox leaves out (timers, eval, Function, WebAssembly, Proxy …), no Math.random or Date.now, no Date() or new Date()",
  messages,
  visitor: {
    ...nameUses(
      (state, name, node, isObjectKey) => {
        if (!isObjectKey && !name.startsWith("__") && Object.hasOwn(ABSENT_GLOBALS, name)) {
          state.report(sandboxGlobals, "absentGlobal", node, name, { name, why: ABSENT_GLOBALS[name]! });
        }
      },
      (state, node) => {
        const name = memberName(node);
        const owner = node.object.type === "Identifier" ? node.object.name : null;
        const why = owner === null || name === null ? undefined : ABSENT_MEMBERS[`${owner}.${name}`];
        if (why !== undefined) {
          const member = `${owner}.${name}`;
          state.report(sandboxGlobals, "absentMember", node, member, { member, why });
        }
      },
    ),
    NewExpression(path, state) {
      checkClock(state, path.node);
    },
    CallExpression(path, state) {
      checkClock(state, path.node);
    },
  },
};
