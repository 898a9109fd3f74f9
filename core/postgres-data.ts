/**
 * The data methods of the PostgreSQL registry, each one the function of its table module over where the
 * statements run: the pool, or the connection of an open transaction. Shared by the store and its transactions.
 */
import * as bookkeeping from "./postgres-bookkeeping.ts";
import * as calls from "./postgres-calls.ts";
import type { PostgresDatabase } from "./postgres-database.ts";
import * as sessions from "./postgres-sessions.ts";
import * as traces from "./postgres-traces.ts";
import * as versions from "./postgres-versions.ts";
import { noTransaction } from "./registry-scope.ts";
import type { NewCall, RegistryData } from "./registry-store.ts";

import type { CallOutcome } from "./store-calls.ts";
import type { DependencyRecord, HistoryRecord, RunStats, TraceFlags, VersionRecord } from "./store-rows.ts";
import type { NewRun } from "./store-runs.ts";
import type { SessionSpan } from "./store-sessions.ts";
import type { NewVersion, StatusChange } from "./store-versions.ts";
import type {
  CallKind,
  CallRecord,
  Status,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
} from "./types.ts";

export abstract class PostgresRegistryData implements RegistryData {
  protected readonly db: PostgresDatabase;
  readonly #maxOutputBytes: number;

  constructor(db: PostgresDatabase, maxOutputBytes: number) {
    this.db = db;
    this.#maxOutputBytes = maxOutputBytes;
  }

  abstract transaction<T>(fn: (tx: RegistryData) => Promise<T>): Promise<T>;

  /** Outside a transaction there is nothing to save: a transaction's view overrides this. */
  savepoint<T>(_fn: (tx: RegistryData) => Promise<T>): Promise<T> {
    return Promise.reject(noTransaction());
  }

  createTrace(id: string, task: string, source: TraceSource): Promise<void> {
    return traces.createTrace(this.db, id, task, source);
  }
  getTrace(id: string): Promise<TraceRecord | null> {
    return traces.getTrace(this.db, id);
  }
  traceIdsStartingWith(prefix: string, limit?: number): Promise<string[]> {
    return traces.traceIdsStartingWith(this.db, prefix, limit ?? 10);
  }
  listTraces(limit?: number): Promise<TraceRecord[]> {
    return traces.listTraces(this.db, limit ?? 50);
  }
  setTask(id: string, task: string): Promise<void> {
    return traces.setTask(this.db, id, task);
  }
  setOutcome(id: string, success: boolean): Promise<void> {
    return traces.setOutcome(this.db, id, success);
  }
  addUsage(id: string, usage: UsageTotals): Promise<void> {
    return traces.addUsage(this.db, id, usage);
  }
  endTrace(id: string): Promise<void> {
    return traces.endTrace(this.db, id);
  }
  setTraceNote(id: string, note: string): Promise<void> {
    return traces.setTraceNote(this.db, id, note);
  }
  getTraceFlags(id: string): Promise<TraceFlags> {
    return traces.getTraceFlags(this.db, id);
  }
  claimNudge(id: string): Promise<boolean> {
    return traces.claimNudge(this.db, id);
  }
  markProposed(id: string): Promise<void> {
    return traces.markProposed(this.db, id);
  }
  setReplaceName(id: string, name: string): Promise<void> {
    return traces.setReplaceName(this.db, id, name);
  }
  startCall(call: NewCall): Promise<number> {
    return calls.insertCall(this.db, call, null, null, this.#maxOutputBytes);
  }
  appendCall(call: NewCall, outcome: CallOutcome, latencyMs: number | null): Promise<number> {
    return calls.insertCall(this.db, call, outcome, latencyMs, this.#maxOutputBytes);
  }
  finishCall(id: number, output: unknown, latencyMs: number | null): Promise<void> {
    return calls.finishCall(this.db, id, output, latencyMs, this.#maxOutputBytes);
  }
  failCall(id: number, error: string, latencyMs: number | null): Promise<void> {
    return calls.failCall(this.db, id, error, latencyMs, this.#maxOutputBytes);
  }
  setCallKind(id: number, kind: CallKind, version: number | null): Promise<void> {
    return calls.setCallKind(this.db, id, kind, version);
  }
  getCallByExternalId(externalId: string, traceIdPrefix: string): Promise<CallRecord | null> {
    return calls.getCallByExternalId(this.db, externalId, traceIdPrefix);
  }
  startedCallsByExternalId(externalId: string): Promise<CallRecord[]> {
    return calls.startedCallsByExternalId(this.db, externalId);
  }
  getCalls(traceId: string): Promise<CallRecord[]> {
    return calls.getCalls(this.db, traceId);
  }
  countTopLevelBaseCalls(traceId: string): Promise<number> {
    return calls.countTopLevelBaseCalls(this.db, traceId);
  }
  setCallArgs(id: number, args: Record<string, unknown>): Promise<void> {
    return calls.setCallArgs(this.db, id, args);
  }
  getMeta(key: string): Promise<string | null> {
    return bookkeeping.getMeta(this.db, key);
  }
  setMeta(key: string, value: string): Promise<void> {
    return bookkeeping.setMeta(this.db, key, value);
  }
  sessionSpan(sessionId: string): Promise<SessionSpan> {
    return sessions.sessionSpan(this.db, sessionId);
  }
  findSessionSpan(sessionId: string): Promise<SessionSpan | null> {
    return sessions.findSessionSpan(this.db, sessionId);
  }
  advanceSpan(sessionId: string, from: number): Promise<void> {
    return sessions.advanceSpan(this.db, sessionId, from);
  }
  markSpanConfirmed(sessionId: string, span: number): Promise<void> {
    return sessions.markSpanConfirmed(this.db, sessionId, span);
  }
  claimSpillEvent(eventId: string): Promise<boolean> {
    return sessions.claimSpillEvent(this.db, eventId);
  }
  pruneSpillApplied(before: string): Promise<void> {
    return sessions.pruneSpillApplied(this.db, before);
  }
  readCode(name: string, version: number): Promise<string> {
    return versions.readCode(this.db, name, version);
  }
  createVersion(v: NewVersion): Promise<VersionRecord> {
    return versions.createVersion(this.db, v);
  }
  getVersion(name: string, version: number): Promise<VersionRecord | null> {
    return versions.getVersion(this.db, name, version);
  }
  listVersions(filter?: { name?: string; status?: Status }): Promise<VersionRecord[]> {
    return versions.listVersions(this.db, filter ?? {});
  }
  setStatus(change: StatusChange): Promise<boolean> {
    return versions.setStatus(this.db, change);
  }
  setVerification(
    name: string,
    version: number,
    verdict: Verdict,
    baselineTokens: number | null,
  ): Promise<void> {
    return versions.setVerification(this.db, name, version, verdict, baselineTokens);
  }
  setQueuedRebuild(name: string, version: number, queued: boolean, note: string | null): Promise<void> {
    return versions.setQueuedRebuild(this.db, name, version, queued, note);
  }
  getHistory(name: string, version: number): Promise<HistoryRecord[]> {
    return versions.getHistory(this.db, name, version);
  }
  latestHistory(): Promise<HistoryRecord[]> {
    return versions.latestHistory(this.db);
  }
  lastActivation(name: string, version: number): Promise<number> {
    return versions.lastActivation(this.db, name, version);
  }
  addHistory(h: Omit<HistoryRecord, "at">): Promise<void> {
    return versions.addHistory(this.db, h);
  }
  setDependencies(
    name: string,
    version: number,
    deps: Omit<DependencyRecord, "name" | "version">[],
  ): Promise<void> {
    return versions.setDependencies(this.db, name, version, deps);
  }
  getDependencies(name?: string, version?: number): Promise<DependencyRecord[]> {
    return versions.getDependencies(this.db, name, version);
  }
  recordRun(run: NewRun): Promise<void> {
    return versions.recordRun(this.db, run.name, run.version, run.outcome === "ok", run.innerCalls);
  }
  getRunStats(name: string, version: number): Promise<RunStats> {
    return versions.getRunStats(this.db, name, version);
  }

  // PENDING-PG: issue 12/13 store methods, implemented by the PostgreSQL parity work before this branch merges.
  versionWithCode(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: versionWithCode is not implemented on PostgreSQL yet"));
  }
  pruneVersions(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: pruneVersions is not implemented on PostgreSQL yet"));
  }
  addVerifiedDefinitions(..._args: unknown[]): Promise<never> {
    return Promise.reject(
      new Error("PENDING-PG: addVerifiedDefinitions is not implemented on PostgreSQL yet"),
    );
  }
  verifiedDefinitions(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: verifiedDefinitions is not implemented on PostgreSQL yet"));
  }
  setReplayRuns(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: setReplayRuns is not implemented on PostgreSQL yet"));
  }
  liveRuns(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: liveRuns is not implemented on PostgreSQL yet"));
  }
  liveRunsOf(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: liveRunsOf is not implemented on PostgreSQL yet"));
  }
  recentRuns(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: recentRuns is not implemented on PostgreSQL yet"));
  }
  recordBaseHealth(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: recordBaseHealth is not implemented on PostgreSQL yet"));
  }
  recordProbe(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: recordProbe is not implemented on PostgreSQL yet"));
  }
  baseHealth(..._args: unknown[]): Promise<never> {
    return Promise.reject(new Error("PENDING-PG: baseHealth is not implemented on PostgreSQL yet"));
  }
}
