/**
 * Module references of the config (`executor: ./tools.ts#executeTool`): parsed against the config's folder and
 * imported, with errors that name the key, the file and the export.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { DistillError, errorMessage } from "../errors.ts";
import { suggestion } from "../util/did-you-mean.ts";

/** A `path#export` reference from the config; `file` is absolute, `raw` is the value as written. */
export interface ModuleRef {
  key: string;
  file: string;
  exportName: string;
  raw: string;
}

/** A `path#export` string (valid by the config schema) as a reference resolved against `dir`. */
export function parseModuleRef(key: string, raw: string, dir: string): ModuleRef {
  const hash = raw.lastIndexOf("#");
  return { key, file: resolve(dir, raw.slice(0, hash)), exportName: raw.slice(hash + 1), raw };
}

/** Imports the export a `path#export` reference names; throws MODULE_LOAD naming the key, file and export. */
export async function importRef<T = unknown>(ref: ModuleRef): Promise<T> {
  const hash = ref.raw.lastIndexOf("#");
  const written = hash >= 0 ? ref.raw.slice(0, hash) : ref.raw;
  if (!existsSync(ref.file)) {
    throw new DistillError("MODULE_LOAD", `${ref.key}: cannot import ${written}: file not found`);
  }
  let namespace: Record<string, unknown>;
  try {
    namespace = await import(pathToFileURL(ref.file).href);
  } catch (err) {
    throw new DistillError("MODULE_LOAD", `${ref.key}: cannot import ${written}: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  if (!(ref.exportName in namespace)) {
    const hint = suggestion(ref.exportName, Object.keys(namespace));
    throw new DistillError("MODULE_LOAD", `${ref.key}: ${written} has no export '${ref.exportName}'${hint}`);
  }
  return namespace[ref.exportName] as T;
}
