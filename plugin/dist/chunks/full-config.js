import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import "./chunk-QYIALDTZ.js";
import "./chunk-6TYRKRPH.js";
import "./chunk-3Y2YTLYP.js";
import {
  hookSettings,
  loadConfig
} from "./chunk-HBRSV4NN.js";
import "./chunk-Q5FRN7I7.js";
import "./chunk-QMZU5RRW.js";
import "./chunk-POCT4HZ6.js";
import "./chunk-O4NDKIK6.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-IR76D6NA.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-27JIJYWJ.js";
import "./chunk-EPNEU7NH.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-GLB7ED25.js";
import {
  loadMcpServers
} from "./chunk-UNPHGQIK.js";
import "./chunk-XNNFATCV.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
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
