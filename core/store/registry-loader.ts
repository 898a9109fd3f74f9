/**
 * Opening a registry from the entry points that share core/internal.ts with the hooks (the CLI): registry-open.ts,
 * and with it both store implementations, is imported on first use, so the hook bundles, which must start in a
 * few milliseconds and never load `pg`, do not carry it.
 */
import type { Config } from "../config/config.ts";
import type { RegistryStore } from "./registry-store.ts";
import type { StoreOptions } from "./store-open.ts";

/** `openConfiguredStore` (registry-open.ts), loaded on first use. */
export async function loadConfiguredStore(
  config: Config,
  options: StoreOptions = {},
  location: string = config.store,
): Promise<RegistryStore> {
  return (await import("./registry-open.ts")).openConfiguredStore(config, options, location);
}
