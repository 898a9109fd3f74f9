/** Rule `module-shape`: besides imports and types, the module is one `export default distilledTool({...})`. */
import { configObject } from "../static-config.ts";
import { unwrap } from "../static-values.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  topLevel: "only imports and one export default distilledTool({...}) are allowed at top level",
  missingDefault: "missing export default distilledTool({ name, description, inputSchema, run })",
  defaultExport: "export default must be distilledTool({...}) with one object literal",
} as const;

/** The config is read from one literal without running anything, so nothing else may run at load. */
export const moduleShape: StaticRule<keyof typeof messages> = {
  id: "module-shape",
  description:
    "the top level holds only imports, types and one export default distilledTool({...}) with one object literal",
  messages,
  program(state, body) {
    let sawDefault = false;
    for (const stmt of body) {
      switch (stmt.type) {
        case "ImportDeclaration":
        case "TSTypeAliasDeclaration":
        case "TSInterfaceDeclaration":
        case "EmptyStatement":
          break;
        case "ExportDefaultDeclaration":
          // The parser already rejects a second default export.
          sawDefault = true;
          if (configObject(stmt) === null) {
            const decl = unwrap(stmt.declaration);
            state.report(moduleShape, "defaultExport", decl, state.tokens.of(decl));
          }
          break;
        case "ExportNamedDeclaration":
          if (
            stmt.exportKind !== "type" &&
            stmt.declaration?.type !== "TSTypeAliasDeclaration" &&
            stmt.declaration?.type !== "TSInterfaceDeclaration"
          ) {
            state.report(moduleShape, "topLevel", stmt, "export");
          }
          break;
        default:
          // A statement a walk rule refuses (a class, a loop) is reported once, by that rule.
          if (!state.walkedStatements.has(stmt.type)) {
            state.report(moduleShape, "topLevel", stmt, state.tokens.first(stmt));
          }
      }
    }
    if (!sawDefault) state.report(moduleShape, "missingDefault", null, undefined);
  },
};
