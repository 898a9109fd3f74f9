/** Rule `no-escape-hatch`: no name that reaches outside the tool's own data, and no reserved `__` name. */
import { ABSENT_GLOBALS } from "../../../sandbox/sandbox-guest.ts";
import { ONLY_IMPORT } from "../library-import.ts";
import { nameUses } from "../name-uses.ts";
import type { StaticRule } from "../types.ts";

/** Names that reach outside the tool's own data; banned as identifiers and as property names that are read. */
const ESCAPE_HATCHES: ReadonlySet<string> = new Set([
  "globalThis",
  "global",
  "process",
  "require",
  "module",
  "Buffer",
  "fetch",
  "constructor",
  "prototype",
  "Reflect",
  "clearImmediate",
  "arguments",
  "import",
]);

const messages = {
  reserved: "'{{name}}' is not allowed: names starting with __ are reserved",
  require: `'require' is not allowed: ${ONLY_IMPORT}`,
  escape: "'{{name}}' is not allowed in a distilled tool",
} as const;

/** The sandbox contains the code either way; these names say early that the code tries to leave its data. */
export const noEscapeHatch: StaticRule<keyof typeof messages> = {
  id: "no-escape-hatch",
  description:
    "no name starting with __ and no name that reaches outside the tool's data (globalThis, process, require, constructor, prototype, arguments …)",
  messages,
  visitor: nameUses((state, name, node, isObjectKey) => {
    if (name.startsWith("__")) state.report(noEscapeHatch, "reserved", node, name, { name });
    // A global the sandbox leaves out is sandbox-globals' to report, with its own reason.
    else if (isObjectKey || Object.hasOwn(ABSENT_GLOBALS, name) || !ESCAPE_HATCHES.has(name)) return;
    else if (name === "require") state.report(noEscapeHatch, "require", node, name);
    else state.report(noEscapeHatch, "escape", node, name, { name });
  }),
};
