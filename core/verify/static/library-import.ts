/**
 * What a distilled tool imports from "tooldistill", as the static rules read it: the module's name, the sentence
 * their messages use for what may be imported, and whether a name refers to the import or to a local declaration.
 */
import type { NodePath } from "@babel/traverse";

/** The module a distilled tool imports from. */
export const MODULE = "tooldistill";

/** What a distilled tool may import, for messages. */
export const ONLY_IMPORT = `only { distilledTool, call, notApplicable } from "${MODULE}"`;

/** The names a tool imports from the library, which the rules follow through the code. */
export const IMPORTED_NAMES: ReadonlySet<string> = new Set(["call", "distilledTool", "notApplicable"]);

/** True when `name` refers to the import (or to no binding at all), not to a local declaration. */
export function isImported(path: NodePath, name: string): boolean {
  const binding = path.scope.getBinding(name);
  return binding === undefined || binding.kind === "module";
}

/** True when `path` is inside the function node `fn` (the config's check function); false when `fn` is null. */
export function isInside(path: NodePath, fn: object | null): boolean {
  return fn !== null && path.findParent((p) => p.node === fn) !== null;
}
