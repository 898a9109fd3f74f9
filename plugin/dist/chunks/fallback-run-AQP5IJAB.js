import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpilledEvents,
  cachedBaseTools,
  sessionOfTrace
} from "./chunk-HZDX3NIU.js";
import {
  appendLog
} from "./chunk-6XGZWFWT.js";
import "./chunk-BD5LZ5WU.js";
import "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import {
  ToolDistill
} from "./chunk-ASUB56OA.js";
import {
  importRef,
  localFolder
} from "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
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

// hooks/fallback-run.ts
import { dirname, join } from "node:path";
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
    const spillRoot = localFolder(config.store, dirname(configPath));
    await applySpilledEvents(td.store, spillRoot, sessionOfTrace(traceId), baseServers);
    td.setTools(await cachedBaseTools(td.store));
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
