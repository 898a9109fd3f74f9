/**
 * The recording entry: what the plugin's hooks and the claude-code/ modules they load need of the library, and
 * nothing more. A hook is a new process on every tool call, so what this barrel reaches is what each one loads:
 * never `ToolDistill`, `pg`, Babel or QuickJS (biome.json holds hooks/ and claude-code/ to this barrel;
 * test/hook-bundles.test.ts reads the rendered hooks to prove none of them is inside). Explicit named exports.
 */

export { findConfig } from "./config/config-file.ts";
export { localFolder } from "./config/config-store.ts";
export type { HookSettings } from "./config/settings.ts";
export { nudgeText, PROPOSE_TOOL_NAME, TOOL_FORMAT_GUIDE } from "./distill/prompts.ts";
export { DistillError, errorMessage } from "./errors.ts";
export { mcpHookResponseToValue } from "./mcp/mcp-result.ts";
export type { CallOutcome, NewCall } from "./store/records.ts";
export type { RegistryData, RegistryStore } from "./store/registry-store.ts";
export type { SpillReport } from "./store/spill.ts";
export { spillEvent } from "./store/spill.ts";
export { applySpillsToRegistry } from "./store/spill-registry.ts";
export { SqliteRegistryStore } from "./store/sqlite/sqlite-registry-store.ts";
export { isPostgresUrl } from "./store/store-url.ts";
export type { Clipped } from "./trace/recordable.ts";
export { clipDepth, resultContent } from "./trace/recordable.ts";
export { worthDistilling } from "./trace/trace-state.ts";
export type { CallKind, CallRecord, ToolDef, UsageTotals } from "./types.ts";
export { canonicalArgs, isPlainObject } from "./util/canonical.ts";
export { appendLog } from "./util/log-file.ts";
export { clip, oneLine } from "./util/text.ts";
export { baseToolName } from "./util/tool-names.ts";
