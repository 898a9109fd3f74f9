/** The public API of tooldistill. Explicit named exports only: what is not here is internal. */
// First, before any module that needs a newer Node runs: an old Node gets one line saying which Node to use.
import "./node-gate.ts";

export type { BaseFailure, BaseFailureClass } from "./base-failure.ts";
export { classifyBaseFailure } from "./base-failure.ts";
export type { CallSite } from "./call-sites.ts";
export type { ClaudeDistillerOptions } from "./claude-distiller.ts";
export { ClaudeDistiller } from "./claude-distiller.ts";
export type { Config, ConfigProblem, McpServerConfig, ModuleRef } from "./config.ts";
export { loadConfig, validateConfig } from "./config.ts";
export type { KeyPath } from "./config-yaml.ts";
export type { DefinitionStatus } from "./definitions.ts";
export type { DeclaredOutcomes, DistilledToolDefinition } from "./distilled-tool.ts";
export { call, distilledTool, notApplicable } from "./distilled-tool.ts";
export type { Distiller, DistillReason, DistillRequest, Proposal, VerifyFn } from "./distiller.ts";
export { PROPOSE_INPUT_SCHEMA, proposalPrompt } from "./distiller.ts";
export type { ErrorCode } from "./errors.ts";
export { DistillError } from "./errors.ts";
export { fingerprint } from "./fingerprint.ts";
export type { LiveHow, LiveOptions, LivePlan, PlanStep } from "./live-plan.ts";
export { stderrLogger } from "./logger.ts";
export type { ResolvedMcpServer, ResolvedRemoteServer, ResolvedStdioServer } from "./mcp-config.ts";
export { mcpResultToValue } from "./mcp-result.ts";
export type { MCPToolkitCloseOptions, MCPToolkitOptions, McpServerFailure } from "./mcp-toolkit.ts";
export { MCPToolkit } from "./mcp-toolkit.ts";
export { MIN_NODE_VERSION } from "./node-version.ts";
export { PROPOSE_TOOL_NAME } from "./prompts.ts";
export type { BaseToolHealth } from "./recovery.ts";
export type {
  CallRow,
  HistoryRow,
  MetaRow,
  RegistryBatch,
  RegistryChange,
  RegistryChangeListener,
  RegistryData,
  RegistryStore,
  RunRow,
  SessionRow,
  SessionSpan,
  StoreKind,
  TraceRow,
  TransferCounts,
  VerifiedDefinitionRow,
  VersionRow,
} from "./registry-store.ts";
export type {
  BaseToolReport,
  CostSide,
  DayPoint,
  FailureItem,
  Report,
  ReportAction,
  ReportOptions,
  RunCost,
  RunPoint,
  TimelineEntry,
  TokenTotals,
  ToolReport,
  ToolSavings,
} from "./report.ts";
export { reportHtml } from "./report-html.ts";
export { runTokens } from "./run-tokens.ts";
export type {
  FailureCause,
  SandboxCall,
  SandboxFailure,
  SandboxFailureKind,
  SandboxLimits,
  SandboxOptions,
  SandboxOutcome,
  SandboxRunRequest,
  SandboxStats,
} from "./sandbox.ts";
export { Sandbox } from "./sandbox.ts";
export type { DemotionRule, RetryRule, Settings } from "./settings.ts";
export { DEFAULT_SETTINGS } from "./settings.ts";
export type {
  BaseHealthRecord,
  CallOutcome,
  DependencyRecord,
  HistoryRecord,
  NewCall,
  NewDefinition,
  NewRun,
  NewVersion,
  PrunedVersion,
  RunOutcome,
  RunRecord,
  RunStats,
  StatusChange,
  StoreOptions,
  TraceFlags,
  VerifiedDefinition,
  VersionRecord,
} from "./store.ts";
export { Store } from "./store.ts";
export type { LifecycleProblem } from "./store-invariants.ts";
export type { LiveRun, RunRef } from "./store-rows.ts";
export type { ChangeEntry, ChangeReport, HealthReport } from "./tool-changes.ts";
export type { ToolDistillOptions } from "./tool-distill.ts";
export { ToolDistill } from "./tool-distill.ts";
export type { AutoPromote } from "./tool-effects.ts";
export type { ExecuteOptions, ExecuteResult, Trace, UsageLike } from "./trace.ts";
export type {
  CallKind,
  CallRecord,
  CheckResult,
  Executor,
  HealthProbe,
  JsonSchema,
  Logger,
  OpenProblem,
  Problem,
  Status,
  ToolAnnotations,
  ToolDef,
  ToolInput,
  ToolInputSchema,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
  VerdictEvidence,
} from "./types.ts";
export { silentLogger } from "./types.ts";
export { verdictReport, verdictText } from "./verdict.ts";
