/**
 * The library as the project's own entry points see it: the CLI (cli/), the Claude Code adapter (claude-code/),
 * the hooks (hooks/), the plugin's MCP server (server/) and the build scripts (scripts/). They import core only
 * through this barrel (or the public one); the linter holds them to it. Users import `tooldistill` (index.ts).
 * Explicit named exports only. ClaudeDistiller is left out: ToolDistill loads it (and its SDK) only when a
 * distiller runs, and no entry point needs it directly.
 */
export { canonicalArgs, isPlainObject } from "./canonical.ts";
export type { Config, McpServerConfig, ModuleRef } from "./config.ts";
export {
  defaultConfig,
  loadConfig,
  SAMPLE_CONFIG,
  validateConfig,
} from "./config.ts";
export { CONFIG_FILE_NAME, findConfig } from "./config-file.ts";
export type { Distiller, Proposal } from "./distiller.ts";
export type { DoctorReport } from "./doctor.ts";
export { doctor } from "./doctor.ts";
export type { ErrorCode } from "./errors.ts";
export { DistillError, errorMessage } from "./errors.ts";
export { appendLog } from "./log-file.ts";
export { stderrLogger } from "./logger.ts";
export { loadMcpServers } from "./mcp-config.ts";
export { mcpHookResponseToValue, mcpResultToValue } from "./mcp-result.ts";
export type { MCPToolkitOptions } from "./mcp-toolkit.ts";
export { MCPToolkit } from "./mcp-toolkit.ts";
export { importRef } from "./module-ref.ts";
export { MIN_NODE_VERSION, nodeVersionProblem } from "./node-version.ts";
export { nudgeText, PROPOSE_TOOL_NAME } from "./prompts.ts";
export { engineWasmPath, WASM_FILE } from "./quickjs-engine.ts";
export type { Clipped } from "./recordable.ts";
export { clipDepth } from "./recordable.ts";
export type { HookSettings, Settings } from "./settings.ts";
export { DEFAULT_SETTINGS, hookSettings } from "./settings.ts";
export type { SpillReport } from "./spill.ts";
export { applySpills, spillEvent } from "./spill.ts";
export type {
  DependencyRecord,
  HistoryRecord,
  NewCall,
  RunStats,
  StoreOptions,
  VersionRecord,
} from "./store.ts";
// adapterSql: the adapters' way into the store's database, for the tables they own (never in the public barrel).
export { adapterSql, Store } from "./store.ts";
export type { StoreStatement } from "./store-database.ts";
export { clip, oneLine } from "./text.ts";
export type { ChangeEntry, ChangeReport, HealthReport } from "./tool-changes.ts";
export type { ToolDistillOptions } from "./tool-distill.ts";
export { proposeToolDefinition, ToolDistill } from "./tool-distill.ts";
export { countToolFiles } from "./tool-files.ts";
export { baseToolName, splitBaseToolName } from "./tool-names.ts";
export type { ExecuteResult, Trace } from "./trace.ts";
export { resultContent, worthDistilling } from "./trace.ts";
export type {
  CallKind,
  CallRecord,
  Executor,
  Logger,
  Status,
  ToolDef,
  TraceRecord,
  UsageTotals,
  Verdict,
} from "./types.ts";
export { Statuses, silentLogger } from "./types.ts";
export { verdictReport, verdictText } from "./verdict.ts";
export { deprecate, exposedVersions, resolveVersion, toolDefinition, unavailableReason } from "./versions.ts";
