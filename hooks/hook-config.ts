/**
 * What a hook needs from the project's config (store, base server names, the settings hooks read), cached in a small JSON
 * file in the plugin's data folder. A hook runs on every tool call; the full loader (YAML, ajv, .mcp.json) costs
 * more than the recording itself, so it runs only when tooldistill.yaml or the .mcp.json it names has changed
 * (mtime, ctime, size) since the cache was written. Without `CLAUDE_PLUGIN_DATA` there is no cache.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HookSettings } from "../core/recording.ts";

/** The part of a resolved config the hooks read. */
export interface HookConfig {
  /** Absolute path of tooldistill.yaml. */
  path: string;
  store: string;
  /** Names of the project's MCP servers: their tools are the base tools. */
  baseServers: string[];
  settings: HookSettings;
}

/** A cache entry: the config plus the stamps of the files it was read from. */
interface CacheEntry {
  version: typeof CACHE_VERSION;
  configStamp: string;
  mcpConfig: string | null;
  mcpStamp: string | null;
  config: HookConfig;
}

// Bump when HookConfig or the way it is derived changes: older entries are then ignored.
const CACHE_VERSION = 2;

/** A file's identity for the cache; null when it cannot be read (the full loader then reports why). */
function stamp(path: string): string | null {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`;
  } catch {
    return null;
  }
}

/** FNV-1a of the config path: a file name per project without loading node:crypto (entries check their path). */
function cacheFile(dataDir: string, configPath: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < configPath.length; i++) {
    hash ^= configPath.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return join(dataDir, "config-cache", `${hash.toString(16).padStart(8, "0")}.json`);
}

function cached(file: string, configPath: string): HookConfig | null {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
  } catch {
    return null; // no entry yet, or a torn one from an older build: the full loader rewrites it
  }
  if (entry.version !== CACHE_VERSION || entry.config?.path !== configPath) return null;
  if (entry.configStamp !== stamp(configPath)) return null;
  if (entry.mcpConfig !== null && entry.mcpStamp !== stamp(entry.mcpConfig)) return null;
  return entry.config;
}

/**
 * The hook's view of `configPath`: from the cache when its files are unchanged, else from the full loader
 * (which throws CONFIG_INVALID for a broken file, exactly as before), then cached. A cache that cannot be
 * written is reported through `warn` and costs only speed.
 */
export async function hookConfig(
  configPath: string,
  env: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): Promise<HookConfig> {
  const dataDir = env["CLAUDE_PLUGIN_DATA"];
  const file = dataDir ? cacheFile(dataDir, configPath) : null;
  if (file) {
    const hit = cached(file, configPath);
    if (hit) return hit;
  }
  // Stamped before reading: a file edited while it is being loaded leaves a stale stamp, so the next hook reloads.
  const configStamp = stamp(configPath);
  const { loadFullConfig } = await import("./full-config.ts");
  const { config: full, settings, baseServers } = await loadFullConfig(configPath, env);
  const mcpStamp = full.mcpConfig === null ? null : stamp(full.mcpConfig);
  const config: HookConfig = {
    path: configPath,
    store: full.store,
    baseServers,
    settings,
  };
  if (file && configStamp !== null && (full.mcpConfig === null || mcpStamp !== null)) {
    const entry: CacheEntry = {
      version: CACHE_VERSION,
      configStamp,
      mcpConfig: full.mcpConfig,
      mcpStamp,
      config,
    };
    try {
      mkdirSync(join(file, ".."), { recursive: true });
      // Write then rename: concurrent hooks never read a half-written entry.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(entry));
      renameSync(tmp, file);
    } catch (err) {
      warn(`cannot cache the config in ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return config;
}
