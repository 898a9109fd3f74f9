/**
 * Where `tooldistill.yaml` is, without reading it: kept apart from config.ts (YAML, ajv) so that the plugin's
 * hooks, which run on every tool call, can find the file without loading the parser.
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";

/** The file `findConfig` looks for and `tooldistill init` writes. */
export const CONFIG_FILE_NAME = "tooldistill.yaml";

/** `tooldistill.yaml` in `startDir` (default: the current folder), or null; deliberately no walking up. */
export function findConfig(startDir: string = process.cwd()): string | null {
  const candidate = resolve(startDir, CONFIG_FILE_NAME);
  return existsSync(candidate) && statSync(candidate).isFile() ? candidate : null;
}
