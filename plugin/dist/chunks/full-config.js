import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadConfig
} from "./chunk-TIDZQEJV.js";
import "./chunk-C6ST5AO6.js";
import "./chunk-N7AFQOOM.js";
import "./chunk-T3E2EGFY.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-RYZN5VFB.js";
import {
  loadMcpServers
} from "./chunk-OQJ7Q6KP.js";
import "./chunk-6IVW537M.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-UTY5CP2H.js";

// hooks/full-config.ts
import { readFileSync } from "node:fs";
async function loadFullConfig(configPath, env) {
  const config = await loadConfig(configPath);
  return { config, baseServers: await baseServers(config, env) };
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
