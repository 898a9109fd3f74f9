/** Rule `plain-code`: plain objects and functions, without classes, generators, `this`, labels or `debugger`. */
import type { StaticRule } from "../types.ts";

const messages = {
  class: "'class' is not allowed: use plain objects and functions",
  generator: "generator functions are not allowed: return an array instead",
  yield: "'yield' is not allowed: return an array instead",
  this: "'this' is not allowed in a distilled tool",
  super: "'super' is not allowed in a distilled tool",
  label: "label '{{label}}' is not allowed: use for…of with break or return",
  debugger: "'debugger' is not allowed in a distilled tool",
  importMeta: "'import.meta' is not allowed in a distilled tool",
} as const;

/** A fixed sequence of base calls needs none of these, and each makes the code harder to read statically. */
export const plainCode: StaticRule<keyof typeof messages> = {
  id: "plain-code",
  description:
    "no class, generator, yield, this, super, label, debugger or import.meta: plain objects and functions",
  messages,
  visitor: {
    Class(path, state) {
      state.report(plainCode, "class", path.node, "class");
    },
    Function(path, state) {
      if (path.node.generator) state.report(plainCode, "generator", path.node, "*");
    },
    YieldExpression(path, state) {
      state.report(plainCode, "yield", path.node, "yield");
    },
    ThisExpression(path, state) {
      state.report(plainCode, "this", path.node, "this");
    },
    Super(path, state) {
      state.report(plainCode, "super", path.node, "super");
    },
    LabeledStatement(path, state) {
      const label = path.node.label.name;
      state.report(plainCode, "label", path.node, label, { label });
    },
    DebuggerStatement(path, state) {
      state.report(plainCode, "debugger", path.node, "debugger");
    },
    MetaProperty(path, state) {
      if (path.node.meta.name === "import") state.report(plainCode, "importMeta", path.node, "import.meta");
      // `import` and `meta` are not names the code reads: the name rules must not see them.
      path.skip();
    },
  },
};
