/**
 * The store's records and how a database row becomes one. SQLite gives back flat columns (JSON as text, booleans
 * as 0/1, snake_case names); the rest of the library sees the records below. Pure: no database here.
 */
import type { BaseFailureClass } from "../base-tools/base-failure.ts";
import type {
  CallKind,
  CallRecord,
  OpenProblem,
  Status,
  ToolDef,
  TraceRecord,
  TraceSource,
  Verdict,
} from "../types.ts";
import { NO_EVIDENCE } from "../types.ts";

/** A stored distilled tool version (without its code, which lives in the tool file). */
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

/**
 * One column's value as an engine returns it: node:sqlite's SQLOutputValue (a blob as bytes), plus PostgreSQL's
 * real booleans. Written out here so the records stay engine-neutral (only store/sqlite/ imports node:sqlite).
 */
export type ColumnValue = null | number | bigint | string | Uint8Array | boolean;

/**
 * A row as node:sqlite returns it: column name → value. PostgreSQL's rows (postgres-database.ts) take the same
 * shape, with real booleans, so one set of mappers serves both.
 */
export type Row = Record<string, ColumnValue>;

/** The time every row is stamped with: ISO 8601, UTC, so text order is time order. */
export function now(): string {
  return new Date().toISOString();
}

/** A value for a nullable JSON column: `undefined` is stored as NULL. */
export function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function parse(text: unknown): unknown {
  return typeof text === "string" ? JSON.parse(text) : null;
}

/**
 * Defines `target[key]` as the JSON column `raw`, parsed (and mapped) on first read: an ordinary enumerable property
 * for everyone who reads it (spreads, JSON, deep equality), which costs nothing for the many readers that never
 * look at it (every exposure read and start-up review lists all versions; few of them read a verdict).
 */
function lazyJson<T>(target: object, key: string, raw: unknown, map: (value: unknown) => T): void {
  let value: T;
  let parsed = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!parsed) {
        value = map(parse(raw));
        parsed = true;
      }
      return value;
    },
    set: (next: T) => {
      value = next;
      parsed = true;
    },
  });
}

/** A text column. */
export function text(r: Row, column: string): string {
  return r[column] as string;
}

/** A nullable text column. */
export function textOrNull(r: Row, column: string): string | null {
  return (r[column] as string | null | undefined) ?? null;
}

/** A nullable number column (PostgreSQL's bigint arrives as a number too, see postgres-connect.ts). */
export function numberOrNull(r: Row, column: string): number | null {
  const v = r[column];
  return v === null || v === undefined ? null : Number(v);
}

/** A `versions` row as a record. */
export function versionFromRow(r: Row): VersionRecord {
  const record = {
    name: text(r, "name"),
    version: Number(r["version"]),
    status: r["status"] as Status,
    problems: parse(r["problems"]) as OpenProblem[],
    baseline: numberOrNull(r, "baseline"),
    baselineTokens: numberOrNull(r, "baseline_tokens"),
    sourceTrace: textOrNull(r, "source_trace"),
    description: text(r, "description"),
    inputSchema: parse(r["input_schema"]) as Record<string, unknown>,
    testInputs: parse(r["test_inputs"]) as Record<string, unknown>[],
    sourceHash: text(r, "source_hash"),
  };
  lazyJson(record, "verdict", r["verdict"], (v) => withEvidence(v as Verdict | null));
  return Object.assign(record as VersionRecord, {
    queuedRebuild: Boolean(r["queued_rebuild"]),
    rebuildNote: textOrNull(r, "rebuild_note"),
    createdAt: text(r, "created_at"),
    replayRuns: (parse(r["replay_runs"]) as RunRef[] | null) ?? [],
  });
}

/** A `status_history` row as a record. */
export function historyFromRow(r: Row): HistoryRecord {
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    from: textOrNull(r, "from_status") as Status | null,
    to: r["to_status"] as Status,
    reason: text(r, "reason"),
    evidence: parse(r["evidence"]),
    at: text(r, "at"),
  };
}

/** A `dependencies` row as a record. */
export function dependencyFromRow(r: Row): DependencyRecord {
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    baseTool: text(r, "base_tool"),
    fingerprint: textOrNull(r, "fingerprint"),
    avoided: Boolean(r["avoided"]),
  };
}

/** A version's `run_stats` row (or its absence: zeros) as a record. */
export function runStatsFromRow(name: string, version: number, r: Row | undefined): RunStats {
  return {
    name,
    version,
    runs: Number(r?.["runs"] ?? 0),
    successes: Number(r?.["successes"] ?? 0),
    failures: Number(r?.["failures"] ?? 0),
    notApplicable: Number(r?.["not_applicable"] ?? 0),
    innerCalls: Number(r?.["inner_calls"] ?? 0),
    lastRunAt: r === undefined ? null : textOrNull(r, "last_run_at"),
  };
}

/** A `runs` row as a record. */
export function runFromRow(r: Row): RunRecord {
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    outcome: r["outcome"] as RunOutcome,
    traceId: textOrNull(r, "trace_id"),
    callId: numberOrNull(r, "call_id"),
    innerCalls: Number(r["inner_calls"]),
    evidence: parse(r["evidence"]),
    at: text(r, "at"),
  };
}

/** A `base_health` row as a record. */
export function baseHealthFromRow(r: Row): BaseHealthRecord {
  const probe = r["probe_ok"];
  return {
    tool: text(r, "tool"),
    failures: Number(r["failures"]),
    consecutive: Number(r["consecutive"]),
    lastError: textOrNull(r, "last_error"),
    lastFailureAt: textOrNull(r, "last_failure_at"),
    lastOkAt: textOrNull(r, "last_ok_at"),
    probeOk: probe === null || probe === undefined ? null : Boolean(probe),
    probedAt: textOrNull(r, "probed_at"),
  };
}

/** A `verified_definitions` row as a record. */
export function verifiedDefinitionFromRow(r: Row): VerifiedDefinition {
  const record = {
    name: text(r, "name"),
    version: Number(r["version"]),
    baseTool: text(r, "base_tool"),
    fingerprint: text(r, "fingerprint"),
  };
  // A review compares every version's fingerprints; only a changed tool's definition is ever read.
  lazyJson(record, "definition", r["definition"], (v) => v as ToolDef | null);
  return Object.assign(record as VerifiedDefinition, { verifiedAt: text(r, "verified_at") });
}

/** A `traces` row as a record. */
export function traceFromRow(r: Row): TraceRecord {
  const outcome = r["outcome"];
  return {
    id: text(r, "id"),
    task: text(r, "task"),
    source: r["source"] as TraceSource,
    outcome: outcome === null || outcome === undefined ? null : Boolean(outcome),
    usage: {
      input_tokens: Number(r["input_tokens"]),
      output_tokens: Number(r["output_tokens"]),
      cache_creation_input_tokens: Number(r["cache_creation_input_tokens"]),
      cache_read_input_tokens: Number(r["cache_read_input_tokens"]),
    },
    startedAt: text(r, "started_at"),
    endedAt: textOrNull(r, "ended_at"),
    note: textOrNull(r, "note"),
  };
}

/** A trace's flag columns (or their absence: all unset) as a record. */
export function traceFlagsFromRow(r: Row | undefined): TraceFlags {
  return {
    nudged: Boolean(r?.["nudged"]),
    proposed: Boolean(r?.["proposed"]),
    replaceName: r === undefined ? null : textOrNull(r, "replace_name"),
  };
}

/** A `calls` row as a record. */
/**
 * A distilled call's input as the tool received it: its `raw_args` text, or `stored` (the canonical args) for a
 * row recorded before it was kept or whose text no longer reads as an object.
 */
export function receivedInput(r: Row, stored: Record<string, unknown>): Record<string, unknown> {
  const raw = r["raw_args"];
  if (typeof raw !== "string") return stored;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : stored;
  } catch {
    return stored;
  }
}

export function callFromRow(r: Row): CallRecord {
  return {
    id: Number(r["id"]),
    traceId: text(r, "trace_id"),
    seq: Number(r["seq"]),
    parentId: numberOrNull(r, "parent_id"),
    tool: text(r, "tool"),
    kind: r["kind"] as CallKind,
    args: parse(r["args"]) as Record<string, unknown>,
    status: r["status"] as CallRecord["status"],
    output: parse(r["output"]),
    error: textOrNull(r, "error"),
    latencyMs: numberOrNull(r, "latency_ms"),
    version: numberOrNull(r, "version"),
    note: textOrNull(r, "note"),
    clipped: Boolean(r["clipped"]),
    failure: textOrNull(r, "failure") as BaseFailureClass | null,
  };
}

/** A verdict stored before verdicts had an evidence block gets an empty one, so every reader sees one shape. */
function withEvidence(v: Verdict | null): Verdict | null {
  return v === null || v.evidence !== undefined ? v : { ...v, evidence: { ...NO_EVIDENCE, writes: [] } };
}
