import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  output
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-6XGZWFWT.js";
import "./chunk-BD5LZ5WU.js";
import "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import "./chunk-ASUB56OA.js";
import {
  CONFIG_FILE_NAME,
  SAMPLE_CONFIG,
  loadConfig
} from "./chunk-G4NVZV74.js";
import {
  SqliteRegistryStore
} from "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import {
  refusePostgresUrl
} from "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-RTC3Y7I5.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-UEVEZT5O.js";
import "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/init.ts
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
async function init(ctx) {
  const file = ctx.configPath ?? resolve(ctx.io.cwd, CONFIG_FILE_NAME);
  const kept = existsSync(file);
  if (!kept) writeFileSync(file, SAMPLE_CONFIG, { flag: "wx" });
  const config = await loadConfig(file);
  refusePostgresUrl(config.store, "init");
  const existed = existsSync(config.store);
  await SqliteRegistryStore.open(config.store).close();
  output(
    ctx,
    { config: file, store: config.store, config_created: !kept, store_created: !existed },
    () => [
      kept ? `kept ${file} (it exists; init never overwrites it)` : `created ${file}`,
      existed ? `the store at ${config.store} already exists` : `created the store at ${config.store}`,
      ...kept ? [] : ["Next: point executor and tools (or mcp_config) in the config at your base tools."]
    ].join("\n")
  );
  return EXIT.ok;
}
export {
  init
};
