/**
 * The one parse of a distilled tool's source that the static check, call-site counting and argument provenance
 * share: a TypeScript module, without error recovery. Decorators parse only so that the static check can refuse
 * them by name; parentheses are not nodes (every analysis reads through them).
 */
import { parse } from "@babel/parser";

/** A parsed tool source: Babel's `File` node. */
export type ToolAst = ReturnType<typeof parse>;

/** Parses `source`; throws Babel's SyntaxError (or a RangeError when it nests too deeply) when it does not parse. */
export function parseTool(source: string): ToolAst {
  return parse(source, {
    sourceType: "module",
    plugins: ["typescript", "decorators-legacy"],
    errorRecovery: false,
  });
}
