import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ToolDistill,
  cachedBaseTools
} from "./chunk-Z6YTYEAU.js";
import {
  importRef,
  loadConfig
} from "./chunk-B7GDOBBU.js";
import "./chunk-7UKZNJZ7.js";
import "./chunk-KRCWJSM7.js";
import "./chunk-M2JIIHS7.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// hooks/fallback-run.ts
import { appendFileSync } from "node:fs";
import { join } from "node:path";
async function runFallback(configPath, traceId) {
  const config = await loadConfig(configPath);
  const logFile = join(config.store, "hooks.log");
  const log = (level) => (message) => appendFileSync(logFile, `${(/* @__PURE__ */ new Date()).toISOString()} fallback ${level}: ${message}
`);
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
    td.setTools(cachedBaseTools(td.store));
    await td.openTrace(traceId).finish();
  } catch (err) {
    logger.error(err instanceof Error ? err.stack ?? err.message : String(err));
  } finally {
    await td.close();
  }
}
export {
  runFallback
};
