/**
 * The base tool definitions the plugin's MCP server last listed, cached in the registry's meta table: hooks never
 * start MCP servers, yet need the schemas to record canonical arguments, and so does the fallback distiller.
 */
import type { RegistryData, ToolDef } from "../core/recording.ts";

/** Store meta key of the base tool definitions the plugin's MCP server last listed (hooks never start servers). */
export const BASE_TOOLS_META_KEY = "claude-code.base-tools";

/** The base tool definitions the plugin's MCP server cached in the store (empty when it has not yet run). */
export async function cachedBaseTools(data: RegistryData): Promise<ToolDef[]> {
  const text = await data.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? (parsed as ToolDef[]) : [];
}

/** Caches the base tool definitions for the hooks and the fallback distiller (a write only when they changed). */
export async function cacheBaseTools(data: RegistryData, tools: readonly ToolDef[]): Promise<void> {
  const text = JSON.stringify(tools);
  if ((await data.getMeta(BASE_TOOLS_META_KEY)) !== text) await data.setMeta(BASE_TOOLS_META_KEY, text);
}
