import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpilledEvents,
  cachedBaseTools,
  sessionOfTrace
} from "./chunk-YBVVUZGW.js";
import {
  ToolDistill,
  appendLog,
  importRef
} from "./chunk-KKCDEYRK.js";
import "./chunk-Y7RINLA7.js";
import "./chunk-QUTUH7BC.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import {
  embeddedStore
} from "./chunk-NM5GKLPT.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-MWG6DU3D.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-7JG2XOTS.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-XSOUOFOT.js";
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
