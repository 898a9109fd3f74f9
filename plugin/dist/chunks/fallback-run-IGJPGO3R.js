import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ToolDistill,
  applySpilledEvents,
  cachedBaseTools,
  sessionOfTrace
} from "./chunk-XYEQALVK.js";
import "./chunk-BUWLCMXS.js";
import "./chunk-PDJ2QRKC.js";
import {
  importRef
} from "./chunk-MDT5I2XD.js";
import "./chunk-KRCWJSM7.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-UTY5CP2H.js";

// hooks/fallback-run.ts
import { join } from "node:path";

// core/log-file.ts
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
var DEFAULT_LOG_BYTES = 1024 * 1024;
function appendLog(file, line, maxBytes = DEFAULT_LOG_BYTES) {
  const text = `${line.endsWith("\n") ? line.slice(0, -1) : line}
`;
  try {
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      mkdirSync(dirname(file), { recursive: true });
    }
    if (size > 0 && size + Buffer.byteLength(text) > maxBytes) {
      try {
        renameSync(file, `${file}.1`);
      } catch {
      }
    }
    appendFileSync(
      file,
      Buffer.byteLength(text) > maxBytes ? `${text.slice(0, maxBytes - 20)}\u2026 [cut]
` : text
    );
    return true;
  } catch {
    return false;
  }
}

// hooks/fallback-run.ts
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
    applySpilledEvents(td.store, sessionOfTrace(traceId), baseServers);
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
