/**
 * The base tool definitions the plugin's MCP server last listed, cached in the store's meta table: hooks never
 * start MCP servers, yet need the schemas to record canonical arguments, and so does the fallback distiller.
 */
import type { Store, ToolDef } from "../core/index.ts";

/** Store meta key of the base tool definitions the plugin's MCP server last listed (hooks never start servers). */
export const BASE_TOOLS_META_KEY = "claude-code.base-tools";

/** The base tool definitions the plugin's MCP server cached in the store (empty when it has not yet run). */
export function cachedBaseTools(store: Store): ToolDef[] {
  const text = store.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? (parsed as ToolDef[]) : [];
}

/** Caches the base tool definitions for the hooks and the fallback distiller. */
export function cacheBaseTools(store: Store, tools: readonly ToolDef[]): void {
  const text = JSON.stringify(tools);
  if (store.getMeta(BASE_TOOLS_META_KEY) !== text) store.setMeta(BASE_TOOLS_META_KEY, text);
}
