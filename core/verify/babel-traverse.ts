/**
 * @babel/traverse, loaded when the first check walks a tree: importing it takes about 80 ms, and most processes
 * that import the library (the CLI listing tools, the plugin's server starting) never check any code.
 */
import { createRequire } from "node:module";
import type babelTraverse from "@babel/traverse";

/** Babel's `traverse` function. */
export type Traverse = typeof babelTraverse.default;

let loaded: Traverse | undefined;

/**
 * Babel's `traverse`, required on first use. It is CommonJS, so a require keeps the static check synchronous.
 * Under Node an ES module has no `require`, and `createRequire` loads the package from node_modules. The plugin's
 * esbuild bundles have no node_modules: esbuild bundles only a free `require("…")` of a literal (not one made by
 * `createRequire`), wraps the package so that it runs on that call, and defines `require` for the bundle.
 */
export function traverse(): Traverse {
  loaded ??= (
    (typeof require === "function"
      ? require("@babel/traverse")
      : createRequire(import.meta.url)("@babel/traverse")) as typeof babelTraverse
  ).default;
  return loaded;
}
