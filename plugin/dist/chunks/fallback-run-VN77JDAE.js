import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpilledEvents,
  cachedBaseTools,
  sessionOfTrace
} from "./chunk-WLDVZ5FR.js";
import {
  appendLog
} from "./chunk-QYIALDTZ.js";
import "./chunk-6TYRKRPH.js";
import {
  ToolDistill
} from "./chunk-3Y2YTLYP.js";
import {
  importRef
} from "./chunk-HBRSV4NN.js";
import "./chunk-Q5FRN7I7.js";
import "./chunk-QMZU5RRW.js";
import "./chunk-POCT4HZ6.js";
import "./chunk-O4NDKIK6.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import {
  embeddedStore
} from "./chunk-IR76D6NA.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-27JIJYWJ.js";
import "./chunk-EPNEU7NH.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-GLB7ED25.js";
import "./chunk-UNPHGQIK.js";
import "./chunk-XNNFATCV.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// hooks/fallback-run.ts
import { join } from "node:path";
async function runFallback(configPath, traceId) {
  const { loadFullConfig } = await import("./full-config.js");
  const { config, baseServers } = await loadFullConfig(configPath, process.env);
  const logFile = join(config.store, "hooks.log");
  const log = (level) => (message) => void appendLog(logFile, `${(/* @__PURE__ */ new Date()).toISOString()} fallback ${level}: ${message}`);
  const logger = { info: log("info"), warn: log("warn"), error: log("error") };
  const distiller = config.distiller ? await importRef(config.distiller) : void 0;
  const td = new ToolDistill({
    ...config.settings,
    store: config.store,
    logger,
    checkSchemasOnStart: false,
    ...distiller ? { distiller } : {}
  });
  try {
    const sqlite = embeddedStore(td.store, "the plugin's fallback distiller");
    const tools = await sqlite.exclusive((store) => {
      applySpilledEvents(store, sessionOfTrace(traceId), baseServers);
      return cachedBaseTools(store);
    });
    td.setTools(tools);
    await (await td.openTrace(traceId)).finish();
  } catch (err) {
    logger.error(err instanceof Error ? err.stack ?? err.message : String(err));
  } finally {
    await td.close();
  }
}
export {
  runFallback
};
