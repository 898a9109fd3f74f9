/** Rule `imported-names`: the imported names are never redeclared; `call` is only called, `distilledTool` only exported. */
import { IMPORTED_NAMES, MODULE } from "../library-import.ts";
import { isBindingName } from "../name-uses.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  redeclared: `'{{name}}' cannot be redeclared: it is imported from "${MODULE}"`,
  callDirectly: `'call' must be called directly: call("<base tool>", {...})`,
  exportOnly: "'distilledTool' may only be used as export default distilledTool({...})",
} as const;

/** Every base call must be a `call(...)` the check can read: `call` passed around or shadowed hides one. */
export const importedNames: StaticRule<keyof typeof messages> = {
  id: "imported-names",
  description:
    "call, distilledTool and notApplicable are not redeclared; call is only called directly, distilledTool only in the default export",
  messages,
  visitor: {
    Identifier(path, state) {
      const { node, parent } = path;
      if (!IMPORTED_NAMES.has(node.name) || !isBindingName(path)) return;
      const binding = path.scope.getBinding(node.name);
      if (binding && binding.kind !== "module") {
        if (binding.identifier === node) {
          state.report(importedNames, "redeclared", node, node.name, { name: node.name });
        }
        return;
      }
      if (node.name === "call" && !(parent.type === "CallExpression" && path.key === "callee")) {
        state.report(importedNames, "callDirectly", node, "call");
      }
      const inDefaultExport =
        path.key === "callee" && path.parentPath?.parent.type === "ExportDefaultDeclaration";
      if (node.name === "distilledTool" && !inDefaultExport) {
        state.report(importedNames, "exportOnly", node, "distilledTool");
      }
    },
  },
};
