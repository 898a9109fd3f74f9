/** Shapes shared by every module of the library. Pure data: no behaviour lives here. */

import type { BaseFailureClass } from "./base-tools/base-failure.ts";

/** A JSON Schema object as found in a tool's `input_schema`. */
export type JsonSchema = Record<string, unknown>;

/** MCP tool annotations, kept on MCP-served tools because they take part in fingerprints. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A tool's input schema: a JSON Schema object with `type: "object"`, typed so a ToolDef can be passed to
 * `client.messages.create({ tools })` of the Anthropic SDK as it is.
 */
export interface ToolInputSchema {
  type: "object";
  [key: string]: unknown;
}

/** An Anthropic-format tool definition (`annotations` only for MCP-served base tools). */
export interface ToolDef {
  name: string;
  description: string;
  input_schema: ToolInputSchema;
  annotations?: ToolAnnotations;
}

/**
 * A base tool definition as a caller gives it: an Anthropic SDK `Tool` (whose description is optional) or a
 * ToolDef. The library fills a missing description with "".
 */
export interface ToolInput {
  name: string;
  description?: string | undefined;
  input_schema: ToolInputSchema;
  annotations?: ToolAnnotations | undefined;
}

/** Runs one base tool: returns a JSON-serialisable value (or a promise of one), throws to signal failure. */
export type Executor = (name: string, args: Record<string, unknown>) => unknown;

/** Says whether a base tool is reachable again; used only by `health()`. */
export type HealthProbe = (name: string) => boolean | Promise<boolean>;

/** Where library code reports what it cannot throw; library code never calls `console.*`. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that drops everything: the default when the caller gives none. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/**
 * One finding of a check. `rule` names what found it: a static check rule's id (docs/verification.md lists them)
 * or the id of another check's finding (`replay-mismatch`, `call-limit`, …), stable for programs to branch on.
 * `line`/`token` point into the tool's source where the check is about code.
 */
export interface Problem {
  rule: string;
  line?: number;
  token?: string;
  message: string;
}

/** Result of one of the three checks. */
export interface CheckResult {
  ok: boolean;
  problems: Problem[];
}

/**
 * Lifecycle statuses. `rejected`: a proposal that failed verification (never offered; its number is taken again by
 * the tool's next proposal). `superseded`: a verified version that was never promoted before a newer one was.
 */
export const Statuses = [
  "draft",
  "verified",
  "active",
  "suspect",
  "deprecated",
  "rejected",
  "superseded",
] as const;
/** Lifecycle status of a distilled tool version. */
export type Status = (typeof Statuses)[number];

export const OpenProblems = [
  "schema_changed",
  "runtime_failure",
  "avoided_tool_recovered",
  "dependency_missing",
] as const;
/** An open problem of a version; a version is suspect while its set of open problems is not empty. */
export type OpenProblem = (typeof OpenProblems)[number];

/**
 * The verdict of verification: one shape for `propose_distilled_tool`, `verify` and a distiller's retry.
 * `calls` is the replayed base call count (the largest over the test inputs), `limit` = baseline × (1 − min_call_reduction).
 */
export interface Verdict {
  name: string;
  version: number;
  status: Status;
  checks: { static: CheckResult; replay: CheckResult; efficiency: CheckResult };
  calls: number | null;
  baseline: number | null;
  limit: number | null;
  liveCalls: string[];
  /** What verification measured beyond the three checks, and how the version was (or waits to be) promoted. */
  evidence: VerdictEvidence;
}

/**
 * The evidence block of a verdict: one shape for the verdict a model reads, `show`, and `list --json`. A part is
 * null when verification did not get far enough to measure it.
 */
export interface VerdictEvidence {
  /**
   * The `call(...)` sites of the code that ran in a replay that passed, of all of them; the others, each marked
   * `inFailedReplay` when it did run, but only in a replay that failed.
   */
  callSites: {
    covered: number;
    total: number;
    uncovered: { line: number; tool: string | null; inFailedReplay?: true }[];
  } | null;
  /** Literals that reach a base call's arguments, checked against the source run; the ones only warned about. */
  literals: { checked: number; warned: string[] } | null;
  /** Recorded successful runs the version reproduced, of those it was replayed against; why the others did not. */
  runs: { reproduced: number; total: number; notReproduced: { trace: string; why: string }[] } | null;
  /** The base tools it calls that may change something (not annotated read-only), sorted. */
  writes: string[];
  /**
   * How the version became active, or why it waits: e.g. "auto_promote (read-only tools only)", "auto_promote: all",
   * "waits for tooldistill promote: it calls tools that may write", "promoted by a person". Null while unverified.
   */
  promotion: string | null;
}

/** The evidence of a verdict before anything was measured (copy it before changing it). */
export const NO_EVIDENCE: Readonly<VerdictEvidence> = Object.freeze({
  callSites: null,
  literals: null,
  runs: null,
  writes: [],
  promotion: null,
});

/** Anthropic usage totals summed over a run (`recordUsage`). */
export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** How a recorded call relates to distillation: base tools count toward baselines, the rest never do. */
export const CallKinds = ["base", "distilled", "proposal", "other"] as const;
export type CallKind = (typeof CallKinds)[number];

/** Where a trace came from: the SDK loop or a Claude Code session span. */
export type TraceSource = "sdk" | "claude-code";

/** A recorded run, as stored. `outcome` is null until the caller sets it. */
export interface TraceRecord {
  id: string;
  task: string;
  source: TraceSource;
  outcome: boolean | null;
  usage: UsageTotals;
  startedAt: string;
  endedAt: string | null;
  /** Why the fallback distiller did not produce a tool, when it ran and failed. */
  note: string | null;
}

/** A recorded tool call. `status` is `started` until it finishes; started-only calls never count. */
export interface CallRecord {
  id: number;
  traceId: string;
  seq: number;
  parentId: number | null;
  tool: string;
  kind: CallKind;
  /** Canonical arguments (see canonical.ts). */
  args: Record<string, unknown>;
  status: "started" | "ok" | "error";
  output: unknown;
  error: string | null;
  latencyMs: number | null;
  /** Distilled calls: the version that ran. */
  version: number | null;
  /** What recording had to clip (nesting, the output size cap), or null. */
  note: string | null;
  /** The stored output is not the value the tool returned (clipped): replay cannot answer from it. */
  clipped: boolean;
  /**
   * A failed base call: what the host's classification of the executor's error said (base-failure.ts), so replay
   * reads the class the live call had rather than its text; null for calls recorded before classes were, and for
   * calls that did not fail or are not base calls.
   */
  failure: BaseFailureClass | null;
}
