/**
 * The store's records: what the registry's methods take and give back, whichever engine keeps it, and the one key
 * a version's rows are grouped by. How a database row becomes one of these is row-mappers.ts's.
 */
import type { BaseFailureClass } from "../base-tools/base-failure.ts";
import type { CallKind, CallRecord, OpenProblem, Status, ToolDef, Verdict } from "../types.ts";

/** The key of a version (or of any row of one) in a map: its name and number, which no tool name can blur. */
export function versionKey(r: { name: string; version: number }): string {
  return `${r.name}\u0000${r.version}`;
}

export interface VersionRecord {
  name: string;
  version: number;
  status: Status;
  problems: OpenProblem[];
  baseline: number | null;
  baselineTokens: number | null;
  sourceTrace: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  testInputs: Record<string, unknown>[];
  sourceHash: string;
  verdict: Verdict | null;
  queuedRebuild: boolean;
  rebuildNote: string | null;
  createdAt: string;
  /** The recorded live runs (of the version it replaced) it was replayed against at verification. */
  replayRuns: RunRef[];
}

/** One live run of a distilled tool: the trace it ran in and the id of its call there. */
export interface RunRef {
  trace: string;
  call: number;
}

/** A successful live run of a distilled tool version: its input, its result and the base calls made inside it. */
export interface LiveRun extends RunRef {
  /** The version that ran. */
  version: number;
  /** The input as the tool received it (`raw_args`); its canonical args for a run recorded before that was kept. */
  input: Record<string, unknown>;
  output: unknown;
  /** When the run started (ISO 8601, UTC). */
  at: string;
  /** Its base calls in order. */
  calls: CallRecord[];
}

/** One row of a version's status history. */
export interface HistoryRecord {
  name: string;
  version: number;
  from: Status | null;
  to: Status;
  reason: string;
  evidence: unknown;
  at: string;
}

/** A base tool a version depends on; `avoided` when every call of it failed in the source run. */
export interface DependencyRecord {
  name: string;
  version: number;
  baseTool: string;
  fingerprint: string | null;
  avoided: boolean;
}

/** Live-run counters of a version; exposure ranks by `successes`. */
export interface RunStats {
  name: string;
  version: number;
  runs: number;
  successes: number;
  failures: number;
  /** Runs that ended with `notApplicable(reason)`: neither a success nor a failure. */
  notApplicable: number;
  innerCalls: number;
  lastRunAt: string | null;
}

/**
 * How a live run of a distilled tool ended: `ok`, `declared` (it finished after a base call answered an outcome
 * its call site declared, e.g. a 409 handled by a lookup: a success, not a failure), `not_applicable` (the tool
 * said so on purpose), `caller` (a base tool refused what the caller's input passed straight through:
 * core/lifecycle/input-attribution.ts), or a failure by its cause (`tool`, `infrastructure`, `host`: see FailureCause).
 */
export type RunOutcome = "ok" | "not_applicable" | "tool" | "infrastructure" | "host" | "caller" | "declared";

/** One live run of a distilled tool version, as recorded. */
export interface RunRecord {
  name: string;
  version: number;
  outcome: RunOutcome;
  traceId: string | null;
  callId: number | null;
  innerCalls: number;
  /** A failure's kind, cause, message, step and tool, or a not-applicable reason. */
  evidence: unknown;
  at: string;
}

/** What the store knows of one base tool's health: its infrastructure failures and the last probe. */
export interface BaseHealthRecord {
  tool: string;
  /** Infrastructure failures ever recorded. */
  failures: number;
  /** Infrastructure failures since it last answered (0: healthy as far as calls show). */
  consecutive: number;
  lastError: string | null;
  lastFailureAt: string | null;
  lastOkAt: string | null;
  /** The health probe's last answer, or null when it was never probed. */
  probeOk: boolean | null;
  probedAt: string | null;
}

/** A base tool definition a version was verified against; `definition` is null for ones stored before it was kept. */
export interface VerifiedDefinition {
  name: string;
  version: number;
  baseTool: string;
  fingerprint: string;
  definition: ToolDef | null;
  verifiedAt: string;
}

/** Trace-level flags that drive the nudge and the fallback distiller. */
export interface TraceFlags {
  nudged: boolean;
  proposed: boolean;
  replaceName: string | null;
}

/** Fields of a new call row. `note` says what recording had to clip of its arguments. */
export interface NewCall {
  traceId: string;
  tool: string;
  kind: CallKind;
  args: Record<string, unknown>;
  parentId?: number | null;
  version?: number | null;
  externalId?: string | null;
  note?: string | null;
  /** A distilled call's input exactly as received, as JSON text (canonical.ts's `receivedText`); replay reads it. */
  rawArgs?: string | null;
}

/** What a base call says of its tool's health: it answered, or it is down (an infrastructure failure). */
export type HealthSignal = { ok: true } | { ok: false; error: string };

/** How a call ended: its output, or its error message (for a base call, with the host's classification of it). */
export type CallOutcome = { output: unknown } | { error: string; failure?: BaseFailureClass };

/** One live run to record. */
export interface NewRun {
  name: string;
  version: number;
  outcome: RunOutcome;
  innerCalls: number;
  traceId?: string | null;
  callId?: number | null;
  evidence?: unknown;
}

/** Where a Claude Code session is: its current span and whether the user confirmed it with /tooldistill:distill. */
export interface SessionSpan {
  sessionId: string;
  span: number;
  confirmed: boolean;
}

/** What a new draft version is made of. */
export interface NewVersion {
  name: string;
  code: string;
  description: string;
  inputSchema: Record<string, unknown>;
  testInputs: Record<string, unknown>[];
  sourceTrace: string | null;
  reason: string;
}

/** A guarded status change: nothing is written unless the stored status is still `expect`. */
export interface StatusChange {
  name: string;
  version: number;
  expect: Status;
  to: Status;
  problems: readonly OpenProblem[];
  reason: string;
  evidence?: unknown;
}

/** A version `prune` removed. */
export interface PrunedVersion {
  name: string;
  version: number;
  status: Status;
  /** When it got that status. */
  since: string;
}

/** A base tool definition to add to a version's set. */
export interface NewDefinition {
  baseTool: string;
  fingerprint: string;
  definition: ToolDef | null;
}
