import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  hookSettings,
  loadConfig
} from "./chunk-T74VXFOG.js";
import "./chunk-KWROAIR3.js";
import "./chunk-4VDOQW56.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-3U4J7U5A.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-KWZDXMQB.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import {
  loadMcpServers
} from "./chunk-LPGC4WEZ.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-4UHCGHMJ.js";
import "./chunk-F4WBWD6I.js";
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
