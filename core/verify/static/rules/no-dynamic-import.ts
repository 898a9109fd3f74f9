/** Rule `no-dynamic-import`: no `import()`: the tool imports only the library, statically. */
import { ONLY_IMPORT } from "../library-import.ts";
import type { StaticRule } from "../types.ts";

const messages = {
  dynamicImport: `dynamic import() is not allowed: ${ONLY_IMPORT}`,
} as const;

/** `import()` would reach a module loader; the static imports are the only ones the check can read. */
export const noDynamicImport: StaticRule<keyof typeof messages> = {
  id: "no-dynamic-import",
  description: "no dynamic import(): a tool imports only distilledTool, call and notApplicable, statically",
  messages,
  visitor: {
    CallExpression(path, state) {
      const { callee } = path.node;
      if (callee.type === "Import") state.report(noDynamicImport, "dynamicImport", callee, "import");
    },
  },
};
