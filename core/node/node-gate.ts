/**
 * Imported first by the public entry: throws `tooldistill needs Node.js 22.18 or newer (found v20.x)` on an old
 * Node before any other module of the library runs (none imports node:sqlite statically, so they all load).
 */
import { assertNodeVersion } from "./node-version.ts";

assertNodeVersion();
