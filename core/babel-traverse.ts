/** @babel/traverse, the walk the static check's rules run in. */
import traverseModule from "@babel/traverse";

/** Babel's `traverse` function. */
export type Traverse = typeof traverseModule.default;

// @babel/traverse is CommonJS: Node's ESM loader hands us `module.exports`, a bundler may hand us the function.
const loaded: Traverse =
  (traverseModule as { default?: Traverse }).default ?? (traverseModule as unknown as Traverse);

/** Babel's `traverse`. */
export function traverse(): Traverse {
  return loaded;
}
