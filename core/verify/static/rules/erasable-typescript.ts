/** Rule `erasable-typescript`: only TypeScript that erases to plain JavaScript (no enum, namespace, decorator…). */
import type { StaticRule } from "../types.ts";

const NON_ERASABLE = "non-erasable TypeScript";

const messages = {
  enum: `'enum' is not allowed: ${NON_ERASABLE}; use an object literal`,
  namespace: `'{{kind}}' is not allowed: ${NON_ERASABLE}`,
  parameterProperty: `parameter property '{{name}}' is not allowed: ${NON_ERASABLE}`,
  decorator: `decorator '{{token}}' is not allowed: ${NON_ERASABLE}`,
} as const;

/** The sandbox runs the source with its types stripped: TypeScript that compiles to code would change what runs. */
export const erasableTypescript: StaticRule<keyof typeof messages> = {
  id: "erasable-typescript",
  description:
    "only TypeScript that type stripping erases: no enum, namespace or module, parameter property or decorator",
  messages,
  visitor: {
    TSEnumDeclaration(path, state) {
      state.report(erasableTypescript, "enum", path.node, "enum");
      path.skip();
    },
    TSModuleDeclaration(path, state) {
      const kind = path.node.kind ?? "namespace";
      state.report(erasableTypescript, "namespace", path.node, kind, { kind });
      path.skip();
    },
    TSParameterProperty(path, state) {
      const param = path.node.parameter;
      const name = param.type === "Identifier" ? param.name : state.tokens.of(param);
      state.report(erasableTypescript, "parameterProperty", path.node, name, { name });
    },
    Decorator(path, state) {
      const token = state.tokens.of(path.node);
      state.report(erasableTypescript, "decorator", path.node, token, { token });
      path.skip();
    },
  },
};
