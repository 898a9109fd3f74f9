import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpilledEvents,
  cachedBaseTools,
  sessionOfTrace
} from "./chunk-RMQIEP62.js";
import {
  appendLog
} from "./chunk-N74P55HM.js";
import "./chunk-D2GMMLZA.js";
import "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import {
  ToolDistill
} from "./chunk-33C2RXKH.js";
import {
  importRef,
  localFolder
} from "./chunk-IHWPCLUK.js";
import "./chunk-J46PTQO6.js";
import "./chunk-3E2GSH4V.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-2PK73LHC.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-3GICA5WK.js";
import "./chunk-NW7IKZUA.js";
import "./chunk-JZ3MG7G2.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-6P6L5GZQ.js";
import "./chunk-WGRAGIMS.js";
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
