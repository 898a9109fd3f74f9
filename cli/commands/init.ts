/** `init`: a commented sample config and the store it names. The only command that creates a store. */
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { DistillError, loadConfig, Store } from "../../core/index.ts";
import { CONFIG_FILE_NAME, SAMPLE_CONFIG } from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output } from "../format.ts";

/** Writes the sample config (never over an existing file) and creates its store. */
export async function init(ctx: ContextOf<"init">): Promise<number> {
  const file = ctx.configPath ?? resolve(ctx.io.cwd, CONFIG_FILE_NAME);
  if (existsSync(file)) {
    throw new DistillError(
      "USAGE",
      `${file} already exists: init never overwrites it. Edit it, or move it away and run init again.`,
    );
  }
  writeFileSync(file, SAMPLE_CONFIG, { flag: "wx" });
  const config = await loadConfig(file);
  new Store(config.store).close();
  output(ctx, { config: file, store: config.store }, () =>
    [
      `created ${file}`,
      `created the store at ${config.store}`,
      "Next: point executor and tools (or mcp_config) in the config at your base tools.",
    ].join("\n"),
  );
  return EXIT.ok;
}
