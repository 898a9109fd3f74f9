/**
 * The Node.js the library needs. `node:sqlite` (unflagged) and `.ts` modules in a config need 22.18; an older
 * Node would fail with "No such built-in module: node:sqlite" or a syntax error, which says nothing about why.
 * The library loads `node:sqlite` only after `assertNodeVersion`, and the public entry calls it on import.
 */
import { DistillError } from "../errors.ts";

/** The oldest Node.js the library runs on. */
export const MIN_NODE_VERSION = "22.18";

/** The one-line message for an older Node, or null when `version` is new enough. */
export function nodeVersionProblem(version: string = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 18)) return null;
  return `tooldistill needs Node.js ${MIN_NODE_VERSION} or newer (found v${version})`;
}

/** Throws a NODE_VERSION error naming the Node it needs when this one is older. */
export function assertNodeVersion(): void {
  const problem = nodeVersionProblem();
  if (problem !== null) throw new DistillError("NODE_VERSION", problem);
}
