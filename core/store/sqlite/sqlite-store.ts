/**
 * The store: `<root>/registry.db` (SQLite, WAL) plus tool files under `<root>/tools/<name>/v<N>.ts`. One class,
 * because it has one transaction boundary: every write is one short `BEGIN IMMEDIATE` transaction, and
 * `transaction()` nests the writes of several tables into one commit. The SQL of each table lives in its concept
 * module (store-traces, -calls, -versions, -runs, -bookkeeping); opening in store-open.ts, the schema in
 * store-schema.ts, the records in store-rows.ts. The API is synchronous and SQL-free, so another backend can
 * stand behind the same methods.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../../trace/recordable.ts";
import type {
  CallKind,
  CallRecord,
  Status,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
} from "../../types.ts";
import { stderrLogger } from "../../util/logger.ts";
import type {
  BaseHealthRecord,
  DependencyRecord,
  HistoryRecord,
  LiveRun,
  RunOutcome,
  RunRecord,
  RunRef,
  RunStats,
  TraceFlags,
  VerifiedDefinition,
  VersionRecord,
} from "../records.ts";
import { DEFAULT_BUSY_TIMEOUT_MS, openDatabase, type StoreOptions } from "../store-open.ts";
import { readToolCode, toolFilePath } from "../tool-files.ts";
import * as bookkeeping from "./sqlite-bookkeeping.ts";
import type { CallOutcome, NewCall } from "./sqlite-calls.ts";
import * as calls from "./sqlite-calls.ts";
import type { StoreDatabase } from "./sqlite-database.ts";
import { checkOnOpen, type LifecycleProblem } from "./sqlite-invariants.ts";
import type { NewRun } from "./sqlite-runs.ts";
import * as runs from "./sqlite-runs.ts";
import * as traces from "./sqlite-traces.ts";
import type { NewDefinition, NewVersion, PrunedVersion, StatusChange } from "./sqlite-versions.ts";
import * as versions from "./sqlite-versions.ts";

export type * from "../records.ts";
export type { StoreOptions } from "../store-open.ts";
export type { CallOutcome, NewCall } from "./sqlite-calls.ts";
export type { NewRun } from "./sqlite-runs.ts";
export type { NewDefinition, NewVersion, PrunedVersion, StatusChange } from "./sqlite-versions.ts";

/**
 * The registry of traces, calls and versions, shared by the agent, the CLI and hook processes without losing rows.
 * SQLite's failures become DistillErrors that name the file and what to do.
 */
export class Store {
  readonly root: string;
  readonly dbPath: string;
  readonly readOnly: boolean;
  /** Lifecycle invariants the open check found and could not (or, read-only, did not) repair. */
  readonly lifecycleProblems: LifecycleProblem[];
  readonly #db: StoreDatabase;
  readonly #maxOutputBytes: number;

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

  /** The open database, for core's store modules that need more than these methods (Store is in no barrel). */
  get database(): StoreDatabase {
    return this.#db;
  }

  /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn);
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

  /** Appends a call that already finished, in one write (the SDK loop knows the outcome when it records). */
  appendCall(call: NewCall, outcome: CallOutcome, latencyMs: number | null): number {
    return calls.insertCall(this.#db, call, outcome, latencyMs, this.#maxOutputBytes);
  }

  /** Inserts a finished call at `seq`, moving later calls of the trace one place on (a call learnt afterwards). */
  insertCallAt(call: NewCall, outcome: CallOutcome, latencyMs: number | null, seq: number): number {
    return calls.insertCallAt(this.#db, call, outcome, latencyMs, seq, this.#maxOutputBytes);
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
   * The newest call recorded under an external id (Claude Code's tool_use_id) in the traces starting with
   * `traceIdPrefix` (one session's spans): external ids are only unique within a session.
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

  /** The newest `limit` successful live runs of a distilled tool version, newest first, with their base calls. */
  liveRuns(name: string, version: number, limit: number): LiveRun[] {
    return calls.liveRuns(this.#db, name, version, limit);
  }

  /** The live runs `refs` names that are still stored and succeeded, in the order given. */
  liveRunsOf(refs: readonly RunRef[]): LiveRun[] {
    return calls.liveRunsOf(this.#db, refs);
  }

  /**
   * Replaces a call's recorded arguments (the plugin re-canonicalises hook-recorded ones with schema defaults), and
   * its input as received (`rawArgs`, see NewCall) when given.
   */
  setCallArgs(id: number, args: Record<string, unknown>, rawArgs: string | null = null): void {
    calls.setCallArgs(this.#db, id, args, rawArgs);
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

  /** Forgets applied event ids older than `before` (an ISO time): their files are long gone. */
  pruneSpillApplied(before: string): void {
    bookkeeping.pruneSpillApplied(this.#db, before);
  }

  // Versions, their history, dependencies and run counters (store-versions.ts, tool-files.ts).
  /** Path of a version's tool file; the name is checked and the path must stay inside `tools/`. */
  toolFile(name: string, version: number): string {
    return toolFilePath(this.root, name, version);
  }

  /** Reads a version's code from its file. */
  readCode(name: string, version: number): string {
    return readToolCode(this.root, name, version);
  }

  /** Stores a new draft version (next number, file and rows in one transaction); see store-versions.ts. */
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

  /** Applies a status change and its history row in one transaction; false when the status is no longer `expect`. */
  setStatus(change: StatusChange): boolean {
    return versions.setStatus(this.#db, change);
  }

  /** Stores the latest verdict and the measured baseline of a version. */
  setVerification(name: string, version: number, verdict: Verdict, baselineTokens: number | null): void {
    versions.setVerification(this.#db, name, version, verdict, baselineTokens);
  }

  /** Records the live runs a version was replayed against, so re-verification replays the same ones. */
  setReplayRuns(name: string, version: number, runs: readonly RunRef[]): void {
    versions.setReplayRuns(this.#db, name, version, runs);
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

  /** The oldest version of `name` that is not rejected with this code hash, or null (one code, one version). */
  versionWithCode(name: string, sourceHash: string): VersionRecord | null {
    return versions.versionWithCode(this.#db, name, sourceHash);
  }

  /** Removes versions in `statuses` older than `before` (rows in one transaction, then files; see prune). */
  pruneVersions(statuses: readonly Status[], before: string | null): PrunedVersion[] {
    const pruned = versions.pruneVersions(this.#db, statuses, before);
    for (const p of pruned) rmSync(this.toolFile(p.name, p.version), { force: true });
    return pruned;
  }

  /** Adds base tool definitions a version was verified against to its set. */
  addVerifiedDefinitions(name: string, version: number, defs: readonly NewDefinition[]): void {
    versions.addVerifiedDefinitions(this.#db, name, version, defs);
  }

  /** The definitions versions were verified against: one version's, or every one's. */
  verifiedDefinitions(name?: string, version?: number): VerifiedDefinition[] {
    return versions.verifiedDefinitions(this.#db, name, version);
  }

  // Live runs and base tool health (store-runs.ts).
  /** Records one live run of a version with its outcome and evidence, and counts it. */
  recordRun(run: NewRun): void {
    runs.recordRun(this.#db, run);
  }

  /** Run counters of a version (zeros when it never ran). */
  getRunStats(name: string, version: number): RunStats {
    return runs.getRunStats(this.#db, name, version);
  }

  /** The newest `limit` runs of a version, newest first; only the given outcomes when `outcomes` is set. */
  recentRuns(name: string, version: number, limit: number, outcomes?: readonly RunOutcome[]): RunRecord[] {
    return runs.recentRuns(this.#db, name, version, limit, outcomes ?? null);
  }

  /** Counts a base tool's answer (`ok`) or infrastructure failure (with its error) in its health. */
  recordBaseHealth(tool: string, ok: boolean, error: string | null = null): void {
    runs.recordBaseHealth(this.#db, tool, ok, error);
  }

  /** Records what the health probe said of a base tool. */
  recordProbe(tool: string, ok: boolean): void {
    runs.recordProbe(this.#db, tool, ok);
  }

  /** Every base tool with a health record, by name. */
  baseHealth(): BaseHealthRecord[] {
    return runs.baseHealth(this.#db);
  }
}
