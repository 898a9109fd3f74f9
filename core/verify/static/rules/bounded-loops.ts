/** Rule `bounded-loops`: the only loop is `for…of` over a bounded list. */
import type { StaticRule } from "../types.ts";

const BOUNDED = "use for…of over a bounded list";

const messages = {
  while: `'while' is not allowed: ${BOUNDED}`,
  do: `'do' is not allowed: ${BOUNDED}`,
  for: `'for(;;)' is not allowed: ${BOUNDED}`,
  forIn: "'for…in' is not allowed: use for…of over Object.keys(...)",
} as const;

/** A distilled tool is a fixed sequence of base calls: a loop without a bound has no place in it. */
export const boundedLoops: StaticRule<keyof typeof messages> = {
  id: "bounded-loops",
  description: "no while, do…while, for(;;) or for…in: loop with for…of over a bounded list",
  messages,
  visitor: {
    WhileStatement(path, state) {
      state.report(boundedLoops, "while", path.node, "while");
    },
    DoWhileStatement(path, state) {
      state.report(boundedLoops, "do", path.node, "do");
    },
    ForStatement(path, state) {
      state.report(boundedLoops, "for", path.node, "for");
    },
    ForInStatement(path, state) {
      state.report(boundedLoops, "forIn", path.node, "for");
    },
  },
};
