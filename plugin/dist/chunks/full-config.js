import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import "./chunk-6XGZWFWT.js";
import "./chunk-BD5LZ5WU.js";
import {
  loadMcpServers
} from "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import "./chunk-ASUB56OA.js";
import {
  hookSettings,
  loadConfig
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
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// hooks/full-config.ts
import { readFileSync } from "node:fs";
async function loadFullConfig(configPath, env) {
  const config = await loadConfig(configPath);
  return { config, settings: hookSettings(config.settings), baseServers: await baseServers(config, env) };
}
async function baseServers(config, env) {
  try {
    return Object.keys(
      await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers, env })
    );
  } catch (err) {
    if (config.mcpConfig === null || err instanceof DistillError && err.code === "CONFIG_NOT_FOUND")
      throw err;
    const raw = JSON.parse(readFileSync(config.mcpConfig, "utf8"));
    return [.../* @__PURE__ */ new Set([...Object.keys(raw.mcpServers ?? {}), ...Object.keys(config.mcpServers)])];
  }
}
export {
  loadFullConfig
};
