import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  output
} from "./chunk-QHP767UQ.js";
import {
  EXIT
} from "./chunk-ZNOIUMSU.js";
import "./chunk-WOXAJQJ5.js";
import "./chunk-IUMFZZRM.js";
import "./chunk-J64JK7AG.js";
import {
  CONFIG_FILE_NAME,
  SAMPLE_CONFIG,
  loadConfig
} from "./chunk-WSTLYW53.js";
import "./chunk-I42C2654.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-KJIBML44.js";
import "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-FLNVHBNK.js";
import "./chunk-WGRAGIMS.js";
import {
  Store
} from "./chunk-6X6CQ3U3.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-JFH4BXRI.js";
import {
  refusePostgresUrl
} from "./chunk-RXOWFUTW.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-3GICA5WK.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-F7FMCNXH.js";
import "./chunk-PLUU42V4.js";
import "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
import "./chunk-WEYMVVQ3.js";
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
  new Store(config.store).close();
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
