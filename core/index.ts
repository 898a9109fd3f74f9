/** The public API of tooldistill. Explicit named exports only: what is not here is internal. */
// First, before any module that needs a newer Node runs: an old Node gets one line saying which Node to use.
import "./node/node-gate.ts";

export type { BaseFailure, BaseFailureClass } from "./base-tools/base-failure.ts";
export { classifyBaseFailure } from "./base-tools/base-failure.ts";
export { fingerprint } from "./base-tools/fingerprint.ts";
export type { AutoPromote } from "./base-tools/tool-effects.ts";
export type { BaseToolHealth, ChangeEntry, ChangeReport, HealthReport } from "./base-tools/types.ts";
export type { DefinitionStatus } from "./base-tools/verified-definitions.ts";
export type { Config, ConfigProblem, McpServerConfig, ModuleRef } from "./config/config.ts";
export { loadConfig, validateConfig } from "./config/config.ts";
export type { KeyPath } from "./config/config-yaml.ts";
export type { DemotionRule, RetryRule, Settings } from "./config/settings.ts";
export { DEFAULT_SETTINGS } from "./config/settings.ts";
export type { ClaudeDistillerOptions } from "./distill/claude-distiller.ts";
export { ClaudeDistiller } from "./distill/claude-distiller.ts";
export type { Distiller, DistillReason, DistillRequest, Proposal, VerifyFn } from "./distill/distiller.ts";
export { PROPOSE_INPUT_SCHEMA, proposalPrompt } from "./distill/distiller.ts";
export { PROPOSE_TOOL_NAME } from "./distill/prompts.ts";
export type { DeclaredOutcomes, DistilledToolDefinition } from "./distill/tool-declaration.ts";
export { call, distilledTool, notApplicable } from "./distill/tool-declaration.ts";
export type { ErrorCode } from "./errors.ts";
export { DistillError } from "./errors.ts";
export type { ResolvedMcpServer, ResolvedRemoteServer, ResolvedStdioServer } from "./mcp/mcp-config.ts";
export { mcpResultToValue } from "./mcp/mcp-result.ts";
export type { MCPToolkitCloseOptions, MCPToolkitOptions, McpServerFailure } from "./mcp/mcp-toolkit.ts";
export { MCPToolkit } from "./mcp/mcp-toolkit.ts";
export { MIN_NODE_VERSION } from "./node/node-version.ts";
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
} from "./report/report.ts";
export { reportHtml } from "./report/report-html.ts";
export { Sandbox } from "./sandbox/sandbox.ts";
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
} from "./sandbox/types.ts";
export type {
  BaseHealthRecord,
  CallOutcome,
  DependencyRecord,
  HealthSignal,
  HistoryRecord,
  LiveRun,
  NewCall,
  NewDefinition,
  NewRun,
  NewVersion,
  PrunedVersion,
  RunOutcome,
  RunRecord,
  RunRef,
  RunStats,
  SessionSpan,
  StatusChange,
  TraceFlags,
  VerifiedDefinition,
  VersionRecord,
} from "./store/records.ts";
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
  StoreKind,
  TraceRow,
  TransferCounts,
  VerifiedDefinitionRow,
  VersionRow,
} from "./store/registry-store.ts";
export type { StoreOptions } from "./store/store-open.ts";
export type { DistilledOffer } from "./tool-distill/offer.ts";
export type { ToolDistillOptions } from "./tool-distill/tool-distill.ts";
export { ToolDistill } from "./tool-distill/tool-distill.ts";
export { runTokens } from "./trace/run-tokens.ts";
export type { ExecuteOptions, ExecuteResult, Trace, UsageLike } from "./trace/trace.ts";
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
export { stderrLogger } from "./util/logger.ts";
export type { CallSite } from "./verify/call-sites.ts";
export type { LiveOptions, LivePlan } from "./verify/replay/live-plan.ts";
export type { LiveHow, PlanStep } from "./verify/types.ts";
export { verdictReport, verdictText } from "./verify/verdict.ts";
