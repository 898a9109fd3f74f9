/**
 * The hooks' full config loader: tooldistill.yaml through core/config/config.ts (YAML, ajv) and the server names through
 * core/mcp/mcp-config.ts. Loaded only when hook-config.ts's cache is stale; the bundle keeps it out of the hook files.
 */
import { readFileSync } from "node:fs";
import { type Config, DistillError, loadConfig } from "../core/index.ts";
import { type HookSettings, hookSettings, loadMcpServers } from "../core/internal.ts";

/** The resolved config, the settings the hooks read, and the names of the project's MCP servers (never starts one). */
export async function loadFullConfig(
  configPath: string,
  env: NodeJS.ProcessEnv,
): Promise<{ config: Config; settings: HookSettings; baseServers: string[] }> {
  const config = await loadConfig(configPath);
  return { config, settings: hookSettings(config.settings), baseServers: await baseServers(config, env) };
}

async function baseServers(config: Config, env: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    return Object.keys(
      await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers, env }),
    );
  } catch (err) {
    // An unexpandable ${VAR} must not stop recording: the names are all a hook needs. A missing file is reported.
    if (config.mcpConfig === null || (err instanceof DistillError && err.code === "CONFIG_NOT_FOUND"))
      throw err;
    const raw = JSON.parse(readFileSync(config.mcpConfig, "utf8")) as {
      mcpServers?: Record<string, unknown>;
    };
    return [...new Set([...Object.keys(raw.mcpServers ?? {}), ...Object.keys(config.mcpServers)])];
  }
}
