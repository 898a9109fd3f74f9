import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  output
} from "./chunk-XI77YA5Y.js";
import {
  EXIT
} from "./chunk-3CDQHHHB.js";
import "./chunk-QYIALDTZ.js";
import "./chunk-6TYRKRPH.js";
import "./chunk-3Y2YTLYP.js";
import {
  CONFIG_FILE_NAME,
  SAMPLE_CONFIG,
  loadConfig
} from "./chunk-HBRSV4NN.js";
import "./chunk-Q5FRN7I7.js";
import "./chunk-QMZU5RRW.js";
import "./chunk-POCT4HZ6.js";
import "./chunk-O4NDKIK6.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import {
  Store
} from "./chunk-IR76D6NA.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-27JIJYWJ.js";
import {
  refusePostgresUrl
} from "./chunk-EPNEU7NH.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-GLB7ED25.js";
import "./chunk-UNPHGQIK.js";
import "./chunk-XNNFATCV.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
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
