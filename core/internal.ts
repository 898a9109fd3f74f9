/**
 * What the project's own entry points need of the library beyond its public API: the CLI (cli/), the Claude Code
 * adapter (claude-code/), the hooks (hooks/), the plugin's MCP server (server/) and the build scripts (scripts/).
 * They import the public API from core/index.ts and the rest from here, nothing else of core; the linter holds them
 * to it. Explicit named exports only, none of them public (test/exports.test.ts keeps index.ts the public list).
 */
export { canonicalArgs, isPlainObject } from "./canonical.ts";
export { defaultConfig, SAMPLE_CONFIG } from "./config.ts";
export { CONFIG_FILE_NAME, findConfig } from "./config-file.ts";
export { localFolder } from "./config-store.ts";
export type { DoctorReport } from "./doctor.ts";
export { doctor } from "./doctor.ts";
export { expandVars } from "./env-vars.ts";
export { errorMessage } from "./errors.ts";
export {
  exposedVersions,
  exposedVersionsSync,
  toolDefinition,
  unavailableReason,
} from "./exposure.ts";
export { isExposed } from "./lifecycle.ts";
export { lineDiff } from "./line-diff.ts";
export { planText } from "./live-plan.ts";
export { appendLog } from "./log-file.ts";
export { loadMcpServers } from "./mcp-config.ts";
export { mcpHookResponseToValue } from "./mcp-result.ts";
export { importRef } from "./module-ref.ts";
export { nodeVersionProblem } from "./node-version.ts";
export { isPostgresUrl, refusePostgresUrl } from "./postgres-connect.ts";
export { nudgeText, TOOL_FORMAT_GUIDE } from "./prompts.ts";
export { engineWasmPath, WASM_FILE } from "./quickjs-engine.ts";
export type { Clipped } from "./recordable.ts";
export { clipDepth } from "./recordable.ts";
export type { RegistryFileHeader } from "./registry-file.ts";
export { exportRegistryFile, importRegistryFile } from "./registry-file.ts";
export { loadConfiguredStore } from "./registry-loader.ts";
export type { RegistryStore, TransferCounts } from "./registry-store.ts";
export { copyRegistry } from "./registry-transfer.ts";
export { buildReport } from "./report.ts";
export { CHART_FILES, chartAssetPath } from "./report-html.ts";
export { WORKER_FILE } from "./sandbox-workers.ts";
export type { HookSettings } from "./settings.ts";
export { hookSettings } from "./settings.ts";
export type { SpillReport } from "./spill.ts";
export { applySpills, pendingSpills, spillEvent } from "./spill.ts";
export { applySpillsToRegistry } from "./spill-registry.ts";
// The embedded store behind a registry, for what only SQLite has (the plugin's session tables, spill files).
export { embeddedStore, SqliteRegistryStore } from "./sqlite-registry-store.ts";
export type { SessionSpan } from "./store-sessions.ts";
export { advanceSpan, findSessionSpan, markSpanConfirmed, sessionSpan } from "./store-sessions.ts";
export { clip, oneLine } from "./text.ts";
export { proposeToolDefinition } from "./tool-distill.ts";
export { countToolFiles } from "./tool-files.ts";
export { baseToolName, splitBaseToolName } from "./tool-names.ts";
export { resultContent, worthDistilling } from "./trace.ts";
export { Statuses } from "./types.ts";
export { evidenceLines } from "./verdict.ts";
export type { PromotionPreview } from "./version-lookup.ts";
export { promotionPreview, resolveVersion } from "./version-lookup.ts";
export { deprecate, prune } from "./versions.ts";
