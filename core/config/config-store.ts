/**
 * The `store:` key of tooldistill.yaml: a folder (the embedded SQLite store) or a `postgres://` URL, with `${VAR}`
 * and `${VAR:-default}` expanded from the environment as in the MCP entries, so credentials stay out of the file.
 */
import { join, resolve } from "node:path";
import { errorMessage } from "../errors.ts";
import { isPostgresUrl, parseStoreUrl } from "../store/store-url.ts";
import type { KeyPath } from "./config-yaml.ts";
import { expandVars } from "./env-vars.ts";

/** Where a valid `store:` value points: the URL, or the folder resolved against the config file's folder. */
export function storeLocation(raw: string, dir: string, env: NodeJS.ProcessEnv): string {
  const store = expandVars(raw, env, () => {}).trim();
  return isPostgresUrl(store) ? store : resolve(dir, store);
}

/**
 * What is wrong with `store:` once its `${VAR}`s are expanded: an unset variable (named, with how to set it), an
 * expansion to nothing, a URL of another scheme, a malformed PostgreSQL URL.
 */
export function storeProblems(
  data: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): { keyPath: KeyPath; message: string }[] {
  const raw = data["store"];
  if (typeof raw !== "string" || raw === "") return [];
  const found: { keyPath: KeyPath; message: string }[] = [];
  const add = (message: string) => found.push({ keyPath: ["store"], message });
  const store = expandVars(raw, env, (varName) =>
    add(
      `environment variable ${varName} is not set: set it (e.g. ${varName}=postgres://user:password@host:5432/database) or write \${${varName}:-.tooldistill} for a fallback`,
    ),
  ).trim();
  if (found.length > 0) return found;
  if (store === "") {
    add(`${raw} expands to nothing: set the variable to a folder or a postgres:// URL`);
  } else if (isPostgresUrl(store)) {
    try {
      parseStoreUrl(store);
    } catch (err) {
      add(errorMessage(err).replace(/^store: in tooldistill\.yaml /, ""));
    }
  } else {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(store);
    if (scheme) {
      add(
        `a ${scheme[1]}:// URL cannot be a store: give a folder (e.g. .tooldistill) or a postgres://user:password@host:5432/database URL`,
      );
    }
  }
  return found;
}

/**
 * The folder of what stays on this machine: the plugin hooks' log and spill files. A folder store keeps them in
 * its own folder; a PostgreSQL store has none, so they go to `.tooldistill/` beside tooldistill.yaml (each
 * developer's machine has its own, and only that machine's td server applies its spill files).
 */
export function localFolder(store: string, configDir: string): string {
  return isPostgresUrl(store) ? join(configDir, ".tooldistill") : store;
}
