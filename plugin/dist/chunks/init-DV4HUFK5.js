import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  output
} from "./chunk-ZEIOH4VZ.js";
import {
  EXIT
} from "./chunk-Q764J24N.js";
import "./chunk-IYMYVRKQ.js";
import "./chunk-KNTWPZCL.js";
import "./chunk-2CDCRBX2.js";
import {
  CONFIG_FILE_NAME,
  SAMPLE_CONFIG,
  loadConfig
} from "./chunk-Q43EQ4S5.js";
import "./chunk-AKW4E22I.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-C76PIVXH.js";
import "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import {
  Store
} from "./chunk-UMZBALXE.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-GHTTQKRX.js";
import {
  refusePostgresUrl
} from "./chunk-KWE2AXCZ.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
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
