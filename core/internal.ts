/**
 * What the project's own entry points need of the library beyond its public API: the CLI (cli/), the Claude Code
 * adapter (claude-code/), the hooks (hooks/), the plugin's MCP server (server/) and the build scripts (scripts/).
 * They import the public API from core/index.ts and the rest from here, nothing else of core; the linter holds them
 * to it. Explicit named exports only, none of them public (test/exports.test.ts keeps index.ts the public list).
 */

export { defaultConfig, SAMPLE_CONFIG } from "./config/config.ts";
export { CONFIG_FILE_NAME, findConfig } from "./config/config-file.ts";
export { localFolder } from "./config/config-store.ts";
export { expandVars } from "./config/env-vars.ts";
export { importRef } from "./config/module-ref.ts";
export type { HookSettings } from "./config/settings.ts";
export { hookSettings } from "./config/settings.ts";
export { nudgeText, TOOL_FORMAT_GUIDE } from "./distill/prompts.ts";
export { errorMessage } from "./errors.ts";
export {
  exposedVersions,
  toolDefinition,
  unavailableReason,
} from "./lifecycle/exposure.ts";
export { isExposed } from "./lifecycle/lifecycle.ts";
export type { PromotionPreview } from "./lifecycle/version-lookup.ts";
export { promotionPreview, resolveVersion } from "./lifecycle/version-lookup.ts";
export { deprecate, prune } from "./lifecycle/versions.ts";
export { loadMcpServers } from "./mcp/mcp-config.ts";
export { mcpHookResponseToValue } from "./mcp/mcp-result.ts";
export { nodeVersionProblem } from "./node/node-version.ts";
export { buildReport } from "./report/report.ts";
export { CHART_FILES, chartAssetPath } from "./report/report-html.ts";
export { engineWasmPath, WASM_FILE } from "./sandbox/quickjs-engine.ts";
export { WORKER_FILE } from "./sandbox/sandbox-workers.ts";
export type { DoctorReport } from "./store/doctor.ts";
export { doctor } from "./store/doctor.ts";
export type { SessionSpan } from "./store/records.ts";
export { loadConfiguredStore } from "./store/registry-loader.ts";
export type { RegistryStore, TransferCounts } from "./store/registry-store.ts";
export type { SpillReport } from "./store/spill.ts";
export { pendingSpills, spillEvent } from "./store/spill.ts";
export { applySpillsToRegistry } from "./store/spill-registry.ts";
// The embedded store behind a registry, for what only SQLite has (the plugin's session tables, spill files).
export { SqliteRegistryStore } from "./store/sqlite/sqlite-registry-store.ts";
export { isPostgresUrl, refusePostgresUrl } from "./store/store-url.ts";
export { countToolFiles } from "./store/tool-files.ts";
export type { RegistryFileHeader } from "./store/transfer/registry-file.ts";
export { exportRegistryFile, importRegistryFile } from "./store/transfer/registry-file.ts";
export { copyRegistry } from "./store/transfer/registry-transfer.ts";
export { OfferReader } from "./tool-distill/offer.ts";
export { proposeToolDefinition } from "./tool-distill/tool-distill.ts";
export type { Clipped } from "./trace/recordable.ts";
export { clipDepth, resultContent } from "./trace/recordable.ts";
export { worthDistilling } from "./trace/trace-state.ts";
export { Statuses } from "./types.ts";
export { canonicalArgs, isPlainObject } from "./util/canonical.ts";
export { lineDiff } from "./util/line-diff.ts";
export { appendLog } from "./util/log-file.ts";
export { clip, oneLine } from "./util/text.ts";
export { baseToolName, splitBaseToolName } from "./util/tool-names.ts";
export { planText } from "./verify/replay/live-plan.ts";
export { evidenceLines } from "./verify/verdict.ts";
