/**
 * `init`: a commented sample config and the store it names. The only command that creates a folder store. An
 * existing config is kept as it is (never overwritten) and its store is created, so a project that checked in
 * its tooldistill.yaml gets going with `init` like a new one.
 */
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadConfig } from "../../core/index.ts";
import {
  CONFIG_FILE_NAME,
  refusePostgresUrl,
  SAMPLE_CONFIG,
  SqliteRegistryStore,
} from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output } from "../format.ts";

/** Writes the sample config (never over an existing file, which is kept) and creates the store it names. */
export async function init(ctx: ContextOf<"init">): Promise<number> {
  const file = ctx.configPath ?? resolve(ctx.io.cwd, CONFIG_FILE_NAME);
  const kept = existsSync(file);
  if (!kept) writeFileSync(file, SAMPLE_CONFIG, { flag: "wx" });
  const config = await loadConfig(file);
  refusePostgresUrl(config.store, "init");
  const existed = existsSync(config.store);
  await SqliteRegistryStore.open(config.store).close();
  output(ctx, { config: file, store: config.store, config_created: !kept, store_created: !existed }, () =>
    [
      kept ? `kept ${file} (it exists; init never overwrites it)` : `created ${file}`,
      existed ? `the store at ${config.store} already exists` : `created the store at ${config.store}`,
      ...(kept ? [] : ["Next: point executor and tools (or mcp_config) in the config at your base tools."]),
    ].join("\n"),
  );
  return EXIT.ok;
}
