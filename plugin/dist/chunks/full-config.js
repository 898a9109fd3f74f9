import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  hookSettings,
  loadConfig
} from "./chunk-KKCDEYRK.js";
import "./chunk-Y7RINLA7.js";
import "./chunk-QUTUH7BC.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-NM5GKLPT.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-MWG6DU3D.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import {
  loadMcpServers
} from "./chunk-7JG2XOTS.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-XSOUOFOT.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
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
