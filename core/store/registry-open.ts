/**
 * Opening the registry the `store:` setting names: a folder is the embedded SQLite store; a `postgres://` (or
 * `postgresql://`) URL is a PostgreSQL database, whose module and `pg` are loaded only then.
 */
import type { Config } from "../config/config.ts";
import { DistillError } from "../errors.ts";
import type { RegistryStore } from "./registry-store.ts";
import { SqliteRegistryStore } from "./sqlite/sqlite-registry-store.ts";
import type { StoreOptions } from "./store-open.ts";
import { isPostgresUrl } from "./store-url.ts";

/** How a registry is opened; the PostgreSQL-only options are ignored for a folder. */
export interface RegistryStoreOptions extends StoreOptions {
  /** PostgreSQL: connections of this process's pool (default 10). */
  poolSize?: number;
  /** PostgreSQL: how long connecting may take before the server counts as unreachable (default 10 s). */
  connectTimeoutMs?: number;
}

/** Opens (creating and migrating unless read-only) the registry at `location`: a folder, or a PostgreSQL URL. */
export async function openRegistryStore(
  location: string,
  options: RegistryStoreOptions = {},
): Promise<RegistryStore> {
  if (isPostgresUrl(location)) {
    const { PostgresStore } = await import("./postgres/postgres-store.ts");
    const { readOnly, maxOutputBytes, poolSize, connectTimeoutMs, logger } = options;
    return PostgresStore.open(location, {
      ...(readOnly !== undefined && { readOnly }),
      ...(maxOutputBytes !== undefined && { maxOutputBytes }),
      ...(poolSize !== undefined && { poolSize }),
      ...(connectTimeoutMs !== undefined && { connectTimeoutMs }),
      ...(logger !== undefined && { logger }),
    });
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location.trim());
  if (scheme) {
    throw new DistillError(
      "CONFIG_INVALID",
      `store: in tooldistill.yaml is a ${scheme[1]}:// URL, which tooldistill cannot use: give a folder (e.g. .tooldistill) for the embedded SQLite store, or a postgres://user:password@host:5432/database URL.`,
    );
  }
  const store = SqliteRegistryStore.open(location, options);
  try {
    await store.checkOnOpen();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** How the config's registry is opened: its settings for the store (pool, timeouts, output cap). */
export function configuredStoreOptions(config: Config): RegistryStoreOptions {
  return {
    maxOutputBytes: config.settings.maxOutputBytes,
    poolSize: config.settings.storePoolSize,
    connectTimeoutMs: config.settings.storeConnectTimeoutMs,
  };
}

/**
 * Opens the registry `store:` of `config` names (or `location`, e.g. a copy's target), with the config's store
 * settings; `options` adds to them (readOnly, logger).
 */
export function openConfiguredStore(
  config: Config,
  options: StoreOptions = {},
  location: string = config.store,
): Promise<RegistryStore> {
  return openRegistryStore(location, { ...configuredStoreOptions(config), ...options });
}
