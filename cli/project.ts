/**
 * What a command works on: the config it means, the store that config names, and the library built from it.
 * Only `init` creates a store; every other command needs one that exists.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config, Logger, RegistryStore, ToolDistill } from "../core/index.ts";
import {
  CONFIG_FILE_NAME,
  countToolFiles,
  DistillError,
  defaultConfig,
  findConfig,
  isPostgresUrl,
  loadConfig,
  loadConfiguredStore,
} from "../core/read.ts";
import type { CliIO, CommandContext } from "./types.ts";

/** The part of a command's context that says where it works. */
export type Where = Pick<CommandContext, "io" | "configPath">;

/** The config the command means: --config, else ./tooldistill.yaml, else the defaults (store ./.tooldistill). */
export async function projectConfig(where: Where): Promise<Config> {
  if (where.configPath !== undefined) return loadConfig(where.configPath);
  const found = findConfig(where.io.cwd);
  return found === null ? defaultConfig(where.io.cwd) : loadConfig(found);
}

/**
 * Runs `fn` with the config's registry (a folder or a PostgreSQL URL), closing it afterwards. `read` opens it
 * read-only (list, show, traces), so looking never changes anything, not even a migration.
 */
export async function withRegistry<T>(
  where: Where,
  fn: (store: RegistryStore) => Promise<T>,
  mode: "read" | "write" = "write",
): Promise<T> {
  const config = await projectConfig(where);
  requireStore(config);
  const store = await loadConfiguredStore(config, { readOnly: mode === "read", logger: ioLogger(where.io) });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Runs `fn` with a ToolDistill built from the config, closing it (store, sandbox, MCP servers) afterwards. */
export async function withLibrary<T>(where: Where, fn: (td: ToolDistill) => Promise<T>): Promise<T> {
  const config = await projectConfig(where);
  requireStore(config);
  // The whole library loads only for the verbs that run or check tools: a read never pays for it.
  const { ToolDistill } = await import("../core/index.ts");
  const td = await ToolDistill.fromLoadedConfig(config, { logger: ioLogger(where.io) });
  try {
    return await fn(td);
  } finally {
    await td.close();
  }
}

/** A store that does not exist is named with how to get one, instead of being created empty. */
function requireStore(config: Config): void {
  // A database is there or not: opening it says which, and how to reach it.
  if (isPostgresUrl(config.store)) return;
  // A path that is there but is no store folder (a file, a broken store) is for the store itself to explain.
  if (
    existsSync(config.store) &&
    !existsSync(join(config.store, "tools")) &&
    !existsSync(join(config.store, ".gitignore"))
  )
    return;
  if (existsSync(join(config.store, "registry.db")) || countToolFiles(config.store) > 0) return;
  const where = config.path === null ? `no ${CONFIG_FILE_NAME} in ${config.dir} and ` : "";
  throw new DistillError(
    "NOT_FOUND",
    `${where}no store at ${config.store}: nothing has been recorded there yet. ` +
      (config.path === null
        ? "Run this in the project's folder, pass --config <path to its tooldistill.yaml>, or run tooldistill init."
        : `Check store: in ${config.path}, or record a run first.`),
  );
}

/** Library messages go to stderr, info included: stdout stays the command's output. */
export function ioLogger(io: CliIO): Logger {
  return {
    info: (m) => io.stderr(`${m}\n`),
    warn: (m) => io.stderr(`${m}\n`),
    error: (m) => io.stderr(`${m}\n`),
  };
}
