import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  output
} from "./chunk-SDNSSE42.js";
import {
  EXIT
} from "./chunk-JFCIHAGY.js";
import {
  CONFIG_FILE_NAME,
  SAMPLE_CONFIG,
  loadConfig
} from "./chunk-66WDDRXQ.js";
import "./chunk-ZTOAOY7G.js";
import "./chunk-PKRKCUPB.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import {
  Store
} from "./chunk-UAOKGEVO.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-MOQGWUYL.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-7JG2XOTS.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-XSOUOFOT.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/init.ts
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
async function init(ctx) {
  const file = ctx.configPath ?? resolve(ctx.io.cwd, CONFIG_FILE_NAME);
  if (existsSync(file)) {
    throw new DistillError(
      "USAGE",
      `${file} already exists: init never overwrites it. Edit it, or move it away and run init again.`
    );
  }
  writeFileSync(file, SAMPLE_CONFIG, { flag: "wx" });
  const config = await loadConfig(file);
  new Store(config.store).close();
  output(
    ctx,
    { config: file, store: config.store },
    () => [
      `created ${file}`,
      `created the store at ${config.store}`,
      "Next: point executor and tools (or mcp_config) in the config at your base tools."
    ].join("\n")
  );
  return EXIT.ok;
}
export {
  init
};
