/**
 * The static check's rules on the module's top level: only `distilledTool` and `call` are imported, and besides
 * types the module holds one `export default distilledTool({...})`, whose object the config rules read.
 */

import { LIBRARY_NAMES } from "../module-body.ts";
import type { CheckState } from "./static-check.ts";
import { type NodeOf, unwrap } from "./static-values.ts";

/** The module a distilled tool imports from. */
export const MODULE = "tooldistill";

/** What a distilled tool may import, for messages. */
export const ONLY_IMPORT = `only { distilledTool, call, notApplicable } from "${MODULE}"`;

const TOP_LEVEL = "only imports and one export default distilledTool({...}) are allowed at top level";

type Statement = NodeOf<"Program">["body"][number];

/** Judges imports and top-level statements; returns the object of `export default distilledTool({...})`. */
export function checkTopLevel(
  state: CheckState,
  body: readonly Statement[],
): NodeOf<"ObjectExpression"> | null {
  let config: NodeOf<"ObjectExpression"> | null = null;
  let sawDefault = false;
  for (const stmt of body) {
    switch (stmt.type) {
      case "ImportDeclaration":
        checkImport(state, stmt);
        break;
      case "ExportDefaultDeclaration":
        // The parser already rejects a second default export.
        sawDefault = true;
        config = checkDefaultExport(state, stmt);
        break;
      case "ExportNamedDeclaration":
        if (
          stmt.exportKind !== "type" &&
          stmt.declaration?.type !== "TSTypeAliasDeclaration" &&
          stmt.declaration?.type !== "TSInterfaceDeclaration"
        ) {
          state.add(stmt, "export", TOP_LEVEL);
        }
        break;
      case "TSTypeAliasDeclaration":
      case "TSInterfaceDeclaration":
      case "EmptyStatement":
        break;
      default:
        if (!state.bannedStatements.has(stmt.type)) state.add(stmt, state.tokens.first(stmt), TOP_LEVEL);
    }
  }
  if (!sawDefault) {
    state.add(
      null,
      undefined,
      "missing export default distilledTool({ name, description, inputSchema, run })",
    );
  }
  return config;
}

/** The default export is `distilledTool({...})` with one object literal; returns that object. */
function checkDefaultExport(
  state: CheckState,
  stmt: NodeOf<"ExportDefaultDeclaration">,
): NodeOf<"ObjectExpression"> | null {
  const decl = unwrap(stmt.declaration);
  const arg = decl.type === "CallExpression" && decl.arguments.length === 1 ? decl.arguments[0] : undefined;
  if (
    decl.type === "CallExpression" &&
    decl.callee.type === "Identifier" &&
    decl.callee.name === "distilledTool" &&
    arg?.type === "ObjectExpression"
  ) {
    return arg;
  }
  state.add(
    decl,
    state.tokens.of(decl),
    "export default must be distilledTool({...}) with one object literal",
  );
  return null;
}

/** Imports come only from "tooldistill", by name, under their own names, so base calls can be read. */
function checkImport(state: CheckState, stmt: NodeOf<"ImportDeclaration">): void {
  const from = stmt.source.value;
  if (from !== MODULE) {
    state.add(stmt.source, from, `import from '${from}' is not allowed: ${ONLY_IMPORT}`);
    return;
  }
  if (stmt.importKind === "type") return;
  for (const spec of stmt.specifiers) {
    const local = spec.local.name;
    if (spec.type === "ImportDefaultSpecifier") {
      state.add(spec, local, `default import '${local}' is not allowed: ${ONLY_IMPORT}`);
    } else if (spec.type === "ImportNamespaceSpecifier") {
      state.add(spec, local, `namespace import '${local}' is not allowed: ${ONLY_IMPORT}`);
    } else if (spec.importKind !== "type") {
      const imported = spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value;
      if (!LIBRARY_NAMES.includes(imported)) {
        state.add(spec, imported, `import of '${imported}' is not allowed: ${ONLY_IMPORT}`);
      } else if (local !== imported) {
        state.add(
          spec.local,
          local,
          `import of '${imported}' as '${local}' is not allowed: import it under its own name so base calls can be read`,
        );
      }
    }
  }
}
