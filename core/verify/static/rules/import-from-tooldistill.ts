/** Rule `import-from-tooldistill`: imports come only from "tooldistill", by name, under their own names. */
import { LIBRARY_NAMES } from "../../module-body.ts";
import { MODULE, ONLY_IMPORT } from "../library-import.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  source: `import from '{{from}}' is not allowed: ${ONLY_IMPORT}`,
  defaultImport: `default import '{{name}}' is not allowed: ${ONLY_IMPORT}`,
  namespaceImport: `namespace import '{{name}}' is not allowed: ${ONLY_IMPORT}`,
  unknownName: `import of '{{name}}' is not allowed: ${ONLY_IMPORT}`,
  alias:
    "import of '{{name}}' as '{{local}}' is not allowed: import it under its own name so base calls can be read",
  importEquals: `'import {{name}} =' is not allowed: ${ONLY_IMPORT}`,
} as const;

/** Base calls can be read only when `call` is the library's, imported under its own name. */
export const importFromTooldistill: StaticRule<keyof typeof messages> = {
  id: "import-from-tooldistill",
  description: `imports come only from "${MODULE}", by name (distilledTool, call, notApplicable), under their own names`,
  messages,
  program(state, body) {
    for (const stmt of body) {
      if (stmt.type !== "ImportDeclaration") continue;
      const from = stmt.source.value;
      if (from !== MODULE) {
        state.report(importFromTooldistill, "source", stmt.source, from, { from });
        continue;
      }
      if (stmt.importKind === "type") continue;
      for (const spec of stmt.specifiers) {
        const local = spec.local.name;
        if (spec.type === "ImportDefaultSpecifier") {
          state.report(importFromTooldistill, "defaultImport", spec, local, { name: local });
        } else if (spec.type === "ImportNamespaceSpecifier") {
          state.report(importFromTooldistill, "namespaceImport", spec, local, { name: local });
        } else if (spec.importKind !== "type") {
          const imported = spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value;
          if (!LIBRARY_NAMES.includes(imported)) {
            state.report(importFromTooldistill, "unknownName", spec, imported, { name: imported });
          } else if (local !== imported) {
            state.report(importFromTooldistill, "alias", spec.local, local, { name: imported, local });
          }
        }
      }
    }
  },
  visitor: {
    TSImportEqualsDeclaration(path, state) {
      state.report(importFromTooldistill, "importEquals", path.node, "import", { name: path.node.id.name });
      path.skip();
    },
  },
};
