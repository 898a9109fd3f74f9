/**
 * The registry as the library's operations see it, whatever keeps it: `RegistryStore`, an async interface with
 * two implementations. `SqliteRegistryStore` (sqlite-registry-store.ts) keeps one folder (`registry.db` plus the
 * tool files under `tools/`), and `PostgresStore` (postgres-store.ts) keeps everything, tool code included, in one
 * PostgreSQL database that workers on many machines share. `openRegistryStore` (registry-open.ts) picks one from
 * the `store:` setting.
 *
 * The data methods are written once (tables/, bound in registry-data.ts) over each engine's driver (engine.ts); a
 * transaction's `tx` has the same data methods, so an operation written against `RegistryData` runs inside or
 * outside a transaction alike.
 */

import type {
  CallKind,
  CallRecord,
  Status,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
} from "../types.ts";
import type {
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
} from "./records.ts";
import type { RegistryBatch, TransferCounts } from "./transfer-rows.ts";

/** Which engine keeps a registry. */
export type StoreKind = "sqlite" | "postgres";

/**
 * What a registry keeps: traces, their calls, distilled tool versions with their code, verdicts, status history,
 * dependencies (with the base tools' fingerprints), run counters and small cached values. Every method is one
 * atomic write or one consistent read; several writes that belong together go in one `transaction`.
 */
export interface RegistryData {
  // Traces.

  /** Creates a trace row; a trace that already exists is left as it is (recorders may race to create it). */
  createTrace(id: string, task: string, source: TraceSource): Promise<void>;
  /** The trace, or null. */
  getTrace(id: string): Promise<TraceRecord | null>;
  /** Ids of the traces whose id starts with `prefix` (at most `limit`, default 10), newest first. */
  traceIdsStartingWith(prefix: string, limit?: number): Promise<string[]>;
  /** Traces, newest first (at most `limit`, default 50). */
  listTraces(limit?: number): Promise<TraceRecord[]>;
  /** Sets the task text. */
  setTask(id: string, task: string): Promise<void>;
  /** Records the caller's verdict on the run. */
  setOutcome(id: string, success: boolean): Promise<void>;
  /** Adds usage to the trace's totals atomically (several processes may add at once). */
  addUsage(id: string, usage: UsageTotals): Promise<void>;
  /** Marks the trace ended; the first end time is kept. */
  endTrace(id: string): Promise<void>;
  /** Records why something that should have happened at the end of the run did not. */
  setTraceNote(id: string, note: string): Promise<void>;
  /** Nudge and proposal bookkeeping (all unset for an unknown trace). */
  getTraceFlags(id: string): Promise<TraceFlags>;
  /** Sets the nudge at most once: false when another caller (in any process) already took it. */
  claimNudge(id: string): Promise<boolean>;
  /** Marks the trace as having had a proposal. */
  markProposed(id: string): Promise<void>;
  /** Sets the name a replacement should be proposed under. */
  setReplaceName(id: string, name: string): Promise<void>;

  // Calls.

  /** Appends a started call; its seq is the next of its trace, without gaps or duplicates across processes. */
  startCall(call: NewCall): Promise<number>;
  /** Appends a call that already finished, in one write. */
  appendCall(call: NewCall, outcome: CallOutcome, latencyMs: number | null): Promise<number>;
  /**
   * Appends a finished base call and counts what it says of its tool's health (`recordBaseHealth`) in the same
   * write: one statement, one round trip, on PostgreSQL; one transaction on SQLite. `health` null: nothing to count.
   */
  appendBaseCall(
    call: NewCall,
    outcome: CallOutcome,
    latencyMs: number | null,
    health: HealthSignal | null,
  ): Promise<number>;
  /** Inserts a finished call at `seq`, moving the trace's later calls one place on (a call learnt afterwards). */
  insertCallAt(call: NewCall, outcome: CallOutcome, latencyMs: number | null, seq: number): Promise<number>;
  /** Completes a call with its output (clipped at the store's cap; the call's note says so). */
  finishCall(id: number, output: unknown, latencyMs: number | null): Promise<void>;
  /** Completes a call with its error. */
  failCall(id: number, error: string, latencyMs: number | null): Promise<void>;
  /** Changes what a recorded call counts as. */
  setCallKind(id: number, kind: CallKind, version: number | null): Promise<void>;
  /** The newest call under an external id in the traces whose ids start with `traceIdPrefix`, or null. */
  getCallByExternalId(externalId: string, traceIdPrefix: string): Promise<CallRecord | null>;
  /** Calls still `started` under an external id, newest first, in any trace. */
  startedCallsByExternalId(externalId: string): Promise<CallRecord[]>;
  /** Every call of a trace in seq order, inner calls included. */
  getCalls(traceId: string): Promise<CallRecord[]>;
  /** Top-level base calls that finished (ok or error). */
  countTopLevelBaseCalls(traceId: string): Promise<number>;
  /** Replaces a call's recorded arguments, and its input as received (`rawArgs`, see NewCall) when given. */
  setCallArgs(id: number, args: Record<string, unknown>, rawArgs?: string | null): Promise<void>;

  // Small cached values.

  /** A small cached value (JSON text), or null. */
  getMeta(key: string): Promise<string | null>;
  /** Stores a small cached value. */
  setMeta(key: string, value: string): Promise<void>;

  // Claude Code sessions: the plugin's spans (a span is one task, recorded as the trace `<session>.<span>`), and
  // the spilled hook events already applied.

  /** The current span of a Claude Code session, created as span 1 on first sight (hooks may race to create it). */
  sessionSpan(sessionId: string): Promise<SessionSpan>;
  /** The current span, or null for a session never seen. */
  findSessionSpan(sessionId: string): Promise<SessionSpan | null>;
  /** Moves a session to its next span when it is still at `from` (two racing processes advance it once). */
  advanceSpan(sessionId: string, from: number): Promise<void>;
  /** Marks a span as confirmed by the user (`/tooldistill:distill`): the next ordinary prompt starts a new span. */
  markSpanConfirmed(sessionId: string, span: number): Promise<void>;
  /**
   * Records a spilled hook event as applied; false when it already was. Called in the transaction that applies
   * the event, it makes the event's effects and its mark one commit: exactly once, across processes.
   */
  claimSpillEvent(eventId: string): Promise<boolean>;
  /** Forgets applied event ids older than `before` (an ISO time): their spill files are long gone. */
  pruneSpillApplied(before: string): Promise<void>;

  // Versions, their code, history, dependencies and run counters.

  /** A version's code; NOT_FOUND when it is missing (SQLite: its file under tools/ was removed). */
  readCode(name: string, version: number): Promise<string>;
  /**
   * Stores a new draft version with its code and its first history row; its number is the next of its name,
   * without gaps or duplicates however many processes propose at once.
   */
  createVersion(v: NewVersion): Promise<VersionRecord>;
  /** A version (without its code), or null. */
  getVersion(name: string, version: number): Promise<VersionRecord | null>;
  /** Versions, by name then version; optionally one name and/or one status. */
  listVersions(filter?: { name?: string; status?: Status }): Promise<VersionRecord[]>;
  /**
   * Applies a status change and its history row in one write. `expect` guards against a concurrent change: when
   * the stored status differs, nothing is written and false is returned.
   */
  setStatus(change: StatusChange): Promise<boolean>;
  /** Stores the latest verdict and the measured baseline of a version. */
  setVerification(
    name: string,
    version: number,
    verdict: Verdict,
    baselineTokens: number | null,
  ): Promise<void>;
  /** Queues (or unqueues) a version for a rebuild, with the note the distiller will get. */
  setQueuedRebuild(name: string, version: number, queued: boolean, note: string | null): Promise<void>;
  /** The status history of a version, oldest first. */
  getHistory(name: string, version: number): Promise<HistoryRecord[]>;
  /** The newest history row of every version, by name then version. */
  latestHistory(): Promise<HistoryRecord[]>;
  /** The order in which versions last became active (0 when never), for telling two actives apart. */
  lastActivation(name: string, version: number): Promise<number>;
  /** Appends a history row without changing the version. */
  addHistory(h: Omit<HistoryRecord, "at">): Promise<void>;
  /** Replaces the dependency rows of a version. */
  setDependencies(
    name: string,
    version: number,
    deps: Omit<DependencyRecord, "name" | "version">[],
  ): Promise<void>;
  /** Dependencies of one version, or of every version when no name is given. */
  getDependencies(name?: string, version?: number): Promise<DependencyRecord[]>;
  /** Counts one live run of a version. */
  recordRun(run: NewRun): Promise<void>;
  /** Run counters of a version (zeros when it never ran). */
  getRunStats(name: string, version: number): Promise<RunStats>;
  /** Run counters of every version that ran (one read, for ranking the exposed set). */
  allRunStats(): Promise<RunStats[]>;

  // Lifecycle for agents that write (issue 12) and verification evidence (issue 13).

  /** The oldest version of `name` with this code hash that is not rejected, or null (one code, one version). */
  versionWithCode(name: string, sourceHash: string): Promise<VersionRecord | null>;
  /** Removes versions in `statuses` older than `before` (an ISO time; null: any age) with their history and code. */
  pruneVersions(statuses: readonly Status[], before: string | null): Promise<PrunedVersion[]>;
  /** Adds base tool definitions a version was verified against to its set. */
  addVerifiedDefinitions(name: string, version: number, defs: readonly NewDefinition[]): Promise<void>;
  /** The definitions versions were verified against: one version's, or every one's. */
  verifiedDefinitions(name?: string, version?: number): Promise<VerifiedDefinition[]>;
  /** Records the live runs a version was replayed against, so re-verification replays the same ones. */
  setReplayRuns(name: string, version: number, runs: readonly RunRef[]): Promise<void>;
  /** The newest `limit` successful live runs of a version, with their inputs and inner calls. */
  liveRuns(name: string, version: number, limit: number): Promise<LiveRun[]>;
  /** The live runs named by `refs` that are still stored. */
  liveRunsOf(refs: readonly RunRef[]): Promise<LiveRun[]>;
  /** The newest `limit` runs of a version, newest first; only the given outcomes when `outcomes` is set. */
  recentRuns(
    name: string,
    version: number,
    limit: number,
    outcomes?: readonly RunOutcome[],
  ): Promise<RunRecord[]>;
  /** Counts a base tool's answer (`ok`) or infrastructure failure (with its error) in its health. */
  recordBaseHealth(tool: string, ok: boolean, error?: string | null): Promise<void>;
  /** Records what the health probe said of a base tool. */
  recordProbe(tool: string, ok: boolean): Promise<void>;
  /** Every base tool with a health record, by name. */
  baseHealth(): Promise<BaseHealthRecord[]>;

  /**
   * Runs `fn` in one transaction and commits once when it resolves; a throw rolls everything back and is
   * rethrown. Inside, use `tx` (never the store itself: a call on the store from inside its own transaction is a
   * USAGE error, since on SQLite it would wait for the transaction that waits for it). Called on a `tx`, it joins
   * the open transaction. Keep `fn` to store work: no model or network calls while the transaction holds locks.
   */
  transaction<T>(fn: (tx: RegistryData) => Promise<T>): Promise<T>;
  /**
   * Called on a transaction's `tx`: runs `fn` in a savepoint, so a throw undoes only what `fn` wrote, is rethrown,
   * and leaves the transaction usable (one spilled hook event that fails does not undo the others). Called on the
   * store itself, outside any transaction, it is a USAGE error.
   */
  savepoint<T>(fn: (tx: RegistryData) => Promise<T>): Promise<T>;
}

/** A version's status changed (promoted, demoted, replaced, proposed); or the feed may have missed some. */
export type RegistryChange =
  | { type: "status"; name: string; version: number; from: Status | null; to: Status }
  /** The feed was interrupted (a lost connection, now restored): re-read whatever the listener follows. */
  | { type: "resync" };

/** Hears the registry's changes; see `RegistryStore.onChange`. */
export type RegistryChangeListener = (change: RegistryChange) => void;

/** A registry opened by this process: the data methods plus what only the whole store can do. */
export interface RegistryStore extends RegistryData {
  readonly kind: StoreKind;
  /** Where the registry is, for messages: the folder, or the URL without its password. */
  readonly location: string;
  /** Opened for reading only: nothing was created or migrated, and writes fail. */
  readonly readOnly: boolean;
  /** Where a version's code lives, for messages (a file path, or the database and the row). */
  codeLocation(name: string, version: number): string;

  /**
   * Runs `fn` while holding the lock of tool `name`, which at most one holder in every process sharing the
   * registry has at a time (PostgreSQL: an advisory lock on its own connection; SQLite: a lease row taken in a
   * short write transaction). Reentrant within one async flow. `fn` may run long (a re-verification, a rebuild)
   * and uses the store normally. Take the lock before opening a transaction, never inside one.
   */
  withToolLock<T>(name: string, fn: () => Promise<T>): Promise<T>;

  /**
   * Calls `listener` for every status change committed by any process using the registry, this one included
   * (every new history row: proposals, promotions, demotions, replacements, repairs). PostgreSQL delivers them by
   * LISTEN/NOTIFY as they commit; SQLite polls the history every 250 ms. Resolves once the feed is live (a change
   * committed after that is heard) with the function that stops it. A listener's throw is logged, not rethrown.
   */
  onChange(listener: RegistryChangeListener): Promise<() => Promise<void>>;

  /** True when the registry holds nothing at all: no trace, call, version, history row, cached value or session. */
  isEmpty(): Promise<boolean>;
  /**
   * Reads the whole registry from one consistent snapshot, in the order `importRegistry` needs it (TRANSFER_ORDER),
   * a page at a time; versions come with their code. Other processes keep writing meanwhile.
   */
  exportRegistry(): AsyncIterable<RegistryBatch>;
  /**
   * Writes what `exportRegistry` read into this registry, in one transaction: all of it or nothing. Refuses (a
   * STORE error, nothing written) when this registry is not empty. Ids, timestamps and the order of traces are
   * kept, so the copy reads back the same.
   */
  importRegistry(batches: AsyncIterable<RegistryBatch>): Promise<TransferCounts>;

  /** Stops the change feed, waits for nothing else, and closes the connections; the store is unusable after. */
  close(): Promise<void>;
}

export type {
  CallRow,
  HistoryRow,
  MetaRow,
  RegistryBatch,
  RunRow,
  SessionRow,
  TraceRow,
  TransferCounts,
  VerifiedDefinitionRow,
  VersionRow,
} from "./transfer-rows.ts";
export {
  emptyCounts,
  INTERNAL_META_PREFIX,
  TRANSFER_ORDER,
} from "./transfer-rows.ts";
