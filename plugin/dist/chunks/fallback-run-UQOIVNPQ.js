import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpilledEvents,
  cachedBaseTools,
  sessionOfTrace
} from "./chunk-HGEIAQBH.js";
import {
  appendLog
} from "./chunk-WOXAJQJ5.js";
import "./chunk-IUMFZZRM.js";
import {
  ToolDistill
} from "./chunk-J64JK7AG.js";
import {
  importRef
} from "./chunk-WSTLYW53.js";
import "./chunk-I42C2654.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-KJIBML44.js";
import "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-FLNVHBNK.js";
import "./chunk-WGRAGIMS.js";
import {
  embeddedStore
} from "./chunk-6X6CQ3U3.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-JFH4BXRI.js";
import "./chunk-RXOWFUTW.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-3GICA5WK.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-F7FMCNXH.js";
import "./chunk-PLUU42V4.js";
import "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
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
