/**
 * The store: `<root>/registry.db` (SQLite, WAL) plus tool files under `<root>/tools/<name>/v<N>.ts`.
 *
 * One class, because the store has one transaction boundary: every write is one short `BEGIN IMMEDIATE`
 * transaction on one open database, and `transaction()` nests the writes of several tables (a status change and
 * its history, a trace and its first call) into one commit. The SQL of each table lives in its concept module
 * (store-traces.ts, store-calls.ts, store-versions.ts, store-bookkeeping.ts), as functions over the open database
 * this class holds privately; opening and explaining failures live in store-open.ts, the schema in
 * store-schema.ts, the records in store-rows.ts. The API is synchronous and SQL-free, so another backend can
 * stand behind the same methods.
 */
import { join } from "node:path";
import { stderrLogger } from "./logger.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./recordable.ts";
import * as bookkeeping from "./store-bookkeeping.ts";
import type { CallOutcome, NewCall } from "./store-calls.ts";
import * as calls from "./store-calls.ts";
import type { StoreDatabase } from "./store-database.ts";
import { checkOnOpen, type LifecycleProblem } from "./store-invariants.ts";
import { openDatabase } from "./store-open.ts";
import type { DependencyRecord, HistoryRecord, RunStats, TraceFlags, VersionRecord } from "./store-rows.ts";
import * as traces from "./store-traces.ts";
import type { NewVersion, StatusChange } from "./store-versions.ts";
import * as versions from "./store-versions.ts";
import { readToolCode, toolFilePath } from "./tool-files.ts";
import type {
  CallKind,
  CallRecord,
  Logger,
  Status,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
} from "./types.ts";

export type { CallOutcome, NewCall } from "./store-calls.ts";
export type { DependencyRecord, HistoryRecord, RunStats, TraceFlags, VersionRecord } from "./store-rows.ts";
export type { NewVersion, StatusChange } from "./store-versions.ts";

/** How a store is opened. */
export interface StoreOptions {
  /**
   * Open an existing store for reading only: nothing is created, migrated in place or repaired, and a missing
   * store is a NOT_FOUND error instead of a new empty one (the CLI's list, show and traces).
   */
  readOnly?: boolean;
  /** How long a write waits for another process's write lock before failing with STORE_BUSY (default 10 s). */
  busyTimeoutMs?: number;
  /** Cap of one recorded output (max_output_bytes); a larger one is clipped and the call says so. */
  maxOutputBytes?: number;
  /** Check the lifecycle invariants on open and repair the safe ones (default true; the hooks skip it). */
  checkInvariants?: boolean;
  /** Hears what the open check repaired or found (default: stderr). */
  logger?: Logger;
}

/** Default wait for another process's write lock: long enough for any of the store's short transactions. */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** Reaches a store's open database; set by the class's static block, so no public member exposes it. */
let databaseOf: (store: Store) => StoreDatabase;

/**
 * The registry of traces, calls and distilled tool versions. The agent process, the CLI and concurrent hook
 * processes can share one store without losing rows. SQLite's failures (a locked, damaged, read-only or missing
 * database) become DistillErrors that name the file and what to do.
 */
export class Store {
  readonly root: string;
  readonly dbPath: string;
  readonly readOnly: boolean;
  /** Lifecycle invariants the open check found and could not (or, read-only, did not) repair. */
  readonly lifecycleProblems: LifecycleProblem[];
  readonly #db: StoreDatabase;
  readonly #maxOutputBytes: number;

  static {
    databaseOf = (store) => store.#db;
  }

  constructor(root: string, options: StoreOptions = {}) {
    this.root = root;
    this.dbPath = join(root, "registry.db");
    this.readOnly = options.readOnly === true;
    this.#maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.#db = openDatabase(root, {
      readOnly: this.readOnly,
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
    const logger = options.logger ?? stderrLogger;
    this.lifecycleProblems = options.checkInvariants === false ? [] : checkOnOpen(this, logger);
  }

  /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn);
  }

  /**
   * Runs `fn` inside a savepoint of the current transaction: a throw undoes only what `fn` wrote (one spilled
   * hook event that cannot be applied must not undo the others).
   */
  savepoint<T>(fn: () => T): T {
    return this.#db.savepoint(fn);
  }

  /** Closes the database; the store object is unusable afterwards. */
  close(): void {
    this.#db.close();
  }

  /** `PRAGMA integrity_check` ("ok", or SQLite's list of problems), for tests and `tooldistill doctor`. */
  integrityCheck(): string {
    const rows = this.#db.stmt("PRAGMA integrity_check").all();
    return rows.map((r) => r["integrity_check"] as string).join("\n");
  }

  // Traces (store-traces.ts).

  /** Creates a trace row; a trace that already exists is left as it is (hooks may race to create it). */
  createTrace(id: string, task: string, source: TraceSource): void {
    traces.createTrace(this.#db, id, task, source);
  }

  /** The trace, or null. */
  getTrace(id: string): TraceRecord | null {
    return traces.getTrace(this.#db, id);
  }

  /** Ids of the traces whose id starts with `prefix` (at most `limit`), for `traces show <prefix>`. */
  traceIdsStartingWith(prefix: string, limit = 10): string[] {
    return traces.traceIdsStartingWith(this.#db, prefix, limit);
  }

  /** Traces, newest first. */
  listTraces(limit = 50): TraceRecord[] {
    return traces.listTraces(this.#db, limit);
  }

  /** Sets the task text (Claude Code learns it from the first prompt of a span). */
  setTask(id: string, task: string): void {
    traces.setTask(this.#db, id, task);
  }

  /** Records the caller's verdict on the run. */
  setOutcome(id: string, success: boolean): void {
    traces.setOutcome(this.#db, id, success);
  }

  /** Adds usage to the trace's totals, atomically (several processes may add at once). */
  addUsage(id: string, usage: UsageTotals): void {
    traces.addUsage(this.#db, id, usage);
  }

  /** Marks the trace ended (idempotent: the first end time is kept). */
  endTrace(id: string): void {
    traces.endTrace(this.#db, id);
  }

  /** Records why something that should have happened at the end of the run did not. */
  setTraceNote(id: string, note: string): void {
    traces.setTraceNote(this.#db, id, note);
  }

  /** Nudge and proposal bookkeeping. */
  getTraceFlags(id: string): TraceFlags {
    return traces.getTraceFlags(this.#db, id);
  }

  /** Sets the nudge at most once: returns false when another caller already took it. */
  claimNudge(id: string): boolean {
    return traces.claimNudge(this.#db, id);
  }

  /** Any submitted proposal counts as proposing (the fallback distiller then stays out). */
  markProposed(id: string): void {
    traces.markProposed(this.#db, id);
  }

  /** After a distilled tool failed in this run, the nudge asks for a replacement under its name. */
  setReplaceName(id: string, name: string): void {
    traces.setReplaceName(this.#db, id, name);
  }

  // Calls (store-calls.ts).

  /** Appends a started call; its seq is the next in the trace, allocated inside the write lock. */
  startCall(call: NewCall): number {
    return calls.insertCall(this.#db, call, null, null, this.#maxOutputBytes);
  }

  /**
   * Appends a call that already finished, in one commit: the SDK loop knows the outcome when it records, so it
   * pays for one write instead of a start and a finish.
   */
  appendCall(call: NewCall, outcome: CallOutcome, latencyMs: number | null): number {
    return calls.insertCall(this.#db, call, outcome, latencyMs, this.#maxOutputBytes);
  }

  /** Completes a call with its output (clipped at the caps; the call's note says so). */
  finishCall(id: number, output: unknown, latencyMs: number | null): void {
    calls.finishCall(this.#db, id, output, latencyMs, this.#maxOutputBytes);
  }

  /** Completes a call with its error. */
  failCall(id: number, error: string, latencyMs: number | null): void {
    calls.failCall(this.#db, id, error, latencyMs, this.#maxOutputBytes);
  }

  /** Changes what a recorded call counts as (e.g. a Claude Code call later found to be a distilled tool). */
  setCallKind(id: number, kind: CallKind, version: number | null): void {
    calls.setCallKind(this.#db, id, kind, version);
  }

  /**
   * The newest call recorded under an external id (Claude Code's tool_use_id) in the traces whose ids start with
   * `traceIdPrefix` (one session's spans). External ids are only unique within a session: a fake or replayed
   * API may reuse them, so a lookup across the whole store could attach to another session's call.
   */
  getCallByExternalId(externalId: string, traceIdPrefix: string): CallRecord | null {
    return calls.getCallByExternalId(this.#db, externalId, traceIdPrefix);
  }

  /** Calls still `started` under an external id, newest first, in any trace (the plugin's server picks one). */
  startedCallsByExternalId(externalId: string): CallRecord[] {
    return calls.startedCallsByExternalId(this.#db, externalId);
  }

  /** Every call of a trace in seq order, inner calls included. */
  getCalls(traceId: string): CallRecord[] {
    return calls.getCalls(this.#db, traceId);
  }

  /** Top-level base calls that finished (ok or error): the unit of baselines and of `min_calls_to_distill`. */
  countTopLevelBaseCalls(traceId: string): number {
    return calls.countTopLevelBaseCalls(this.#db, traceId);
  }

  /** Replaces a call's recorded arguments (the plugin re-canonicalises hook-recorded ones with schema defaults). */
  setCallArgs(id: number, args: Record<string, unknown>): void {
    calls.setCallArgs(this.#db, id, args);
  }

  // Small cached values and spilled hook events (store-bookkeeping.ts).

  /** A small cached value (JSON text), or null. */
  getMeta(key: string): string | null {
    return bookkeeping.getMeta(this.#db, key);
  }

  /** Stores a small cached value. */
  setMeta(key: string, value: string): void {
    bookkeeping.setMeta(this.#db, key, value);
  }

  /** True when a spilled hook event was already applied (its file may outlive the commit by a crash). */
  spillApplied(eventId: string): boolean {
    return bookkeeping.spillApplied(this.#db, eventId);
  }

  /** Records a spilled event as applied, in the transaction that applies it. */
  markSpillApplied(eventId: string): void {
    bookkeeping.markSpillApplied(this.#db, eventId);
  }

  /** Forgets applied event ids older than `before` (an ISO time): their files are long gone. */
  pruneSpillApplied(before: string): void {
    bookkeeping.pruneSpillApplied(this.#db, before);
  }

  // Versions, their history, dependencies and run counters (store-versions.ts, tool-files.ts).

  /**
   * Path of a version's tool file. The name is checked first and the path must stay inside `tools/`: a name
   * read from model-written code must never place a file anywhere else.
   */
  toolFile(name: string, version: number): string {
    return toolFilePath(this.root, name, version);
  }

  /** Reads a version's code from its file. */
  readCode(name: string, version: number): string {
    return readToolCode(this.root, name, version);
  }

  /**
   * Stores a new draft version: allocates the next version number, writes `tools/<name>/v<N>.ts` and the row
   * in one transaction, so two proposers of the same name get different numbers.
   */
  createVersion(v: NewVersion): VersionRecord {
    return this.getVersion(v.name, versions.createVersion(this.#db, this.root, v))!;
  }

  /** A version, or null. */
  getVersion(name: string, version: number): VersionRecord | null {
    return versions.getVersion(this.#db, name, version);
  }

  /** Versions, by name then version; optionally one name and/or one status. */
  listVersions(filter: { name?: string; status?: Status } = {}): VersionRecord[] {
    return versions.listVersions(this.#db, filter);
  }

  /**
   * Applies a status change and records it in the history, in one transaction. `expect` guards against a
   * concurrent change: when the stored status differs, nothing is written and false is returned.
   */
  setStatus(change: StatusChange): boolean {
    return versions.setStatus(this.#db, change);
  }

  /** Stores the latest verdict and the measured baseline of a version. */
  setVerification(name: string, version: number, verdict: Verdict, baselineTokens: number | null): void {
    versions.setVerification(this.#db, name, version, verdict, baselineTokens);
  }

  /** Queues (or unqueues) a version for a rebuild, with the note the distiller will get. */
  setQueuedRebuild(name: string, version: number, queued: boolean, note: string | null): void {
    versions.setQueuedRebuild(this.#db, name, version, queued, note);
  }

  /** The status history of a version, oldest first. */
  getHistory(name: string, version: number): HistoryRecord[] {
    return versions.getHistory(this.#db, name, version);
  }

  /** The newest history row of every version (its status should be that row's `to`). */
  latestHistory(): HistoryRecord[] {
    return versions.latestHistory(this.#db);
  }

  /** The order in which versions last became active (history row id), for telling two actives apart. */
  lastActivation(name: string, version: number): number {
    return versions.lastActivation(this.#db, name, version);
  }

  /** Appends a history row without changing the version (the open check records a status the history lacked). */
  addHistory(h: Omit<HistoryRecord, "at">): void {
    versions.addHistory(this.#db, h);
  }

  /** Replaces the dependency rows of a version. */
  setDependencies(name: string, version: number, deps: Omit<DependencyRecord, "name" | "version">[]): void {
    versions.setDependencies(this.#db, name, version, deps);
  }

  /** Dependencies of one version, or of every version when no name is given. */
  getDependencies(name?: string, version?: number): DependencyRecord[] {
    return versions.getDependencies(this.#db, name, version);
  }

  /** Counts one live run of a version. */
  recordRun(name: string, version: number, success: boolean, innerCalls: number): void {
    versions.recordRun(this.#db, name, version, success, innerCalls);
  }

  /** Run counters of a version (zeros when it never ran). */
  getRunStats(name: string, version: number): RunStats {
    return versions.getRunStats(this.#db, name, version);
  }
}

/**
 * The store's open database, for core's own store modules that need more than the methods above: the async
 * registry over SQLite (sqlite-registry-store.ts) holds a transaction open across awaits, keeps its tool-lock
 * leases and copies whole tables. In no barrel.
 */
export function storeDatabase(store: Store): StoreDatabase {
  return databaseOf(store);
}
