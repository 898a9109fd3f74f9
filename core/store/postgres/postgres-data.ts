/**
 * The data methods of the PostgreSQL registry, each one the function of its table module over where the
 * statements run: the pool, or the connection of an open transaction. Shared by the store and its transactions.
 */

import type {
  CallKind,
  CallRecord,
  Status,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
} from "../../types.ts";
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
import { noTransaction } from "../registry-scope.ts";
import type { NewCall, RegistryData } from "../registry-store.ts";
import type { CallOutcome } from "../sqlite/sqlite-calls.ts";
import type { NewRun } from "../sqlite/sqlite-runs.ts";
import type { SessionSpan } from "../sqlite/sqlite-sessions.ts";
import type { NewDefinition, NewVersion, PrunedVersion, StatusChange } from "../sqlite/sqlite-versions.ts";
import * as bookkeeping from "./postgres-bookkeeping.ts";
import * as calls from "./postgres-calls.ts";
import type { PostgresDatabase } from "./postgres-database.ts";
import * as runs from "./postgres-runs.ts";
import * as sessions from "./postgres-sessions.ts";
import * as traces from "./postgres-traces.ts";
import * as versions from "./postgres-versions.ts";

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
  insertCallAt(call: NewCall, outcome: CallOutcome, latencyMs: number | null, seq: number): Promise<number> {
    return calls.insertCallAt(this.db, call, outcome, latencyMs, seq, this.#maxOutputBytes);
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
  setCallArgs(id: number, args: Record<string, unknown>, rawArgs: string | null = null): Promise<void> {
    return calls.setCallArgs(this.db, id, args, rawArgs);
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
    return runs.recordRun(this.db, run);
  }
  getRunStats(name: string, version: number): Promise<RunStats> {
    return runs.getRunStats(this.db, name, version);
  }
  versionWithCode(name: string, sourceHash: string): Promise<VersionRecord | null> {
    return versions.versionWithCode(this.db, name, sourceHash);
  }
  pruneVersions(statuses: readonly Status[], before: string | null): Promise<PrunedVersion[]> {
    return versions.pruneVersions(this.db, statuses, before);
  }
  addVerifiedDefinitions(name: string, version: number, defs: readonly NewDefinition[]): Promise<void> {
    return versions.addVerifiedDefinitions(this.db, name, version, defs);
  }
  verifiedDefinitions(name?: string, version?: number): Promise<VerifiedDefinition[]> {
    return versions.verifiedDefinitions(this.db, name, version);
  }
  setReplayRuns(name: string, version: number, refs: readonly RunRef[]): Promise<void> {
    return versions.setReplayRuns(this.db, name, version, refs);
  }
  liveRuns(name: string, version: number, limit: number): Promise<LiveRun[]> {
    return calls.liveRuns(this.db, name, version, limit);
  }
  liveRunsOf(refs: readonly RunRef[]): Promise<LiveRun[]> {
    return calls.liveRunsOf(this.db, refs);
  }
  recentRuns(
    name: string,
    version: number,
    limit: number,
    outcomes?: readonly RunOutcome[],
  ): Promise<RunRecord[]> {
    return runs.recentRuns(this.db, name, version, limit, outcomes ?? null);
  }
  recordBaseHealth(tool: string, ok: boolean, error: string | null = null): Promise<void> {
    return runs.recordBaseHealth(this.db, tool, ok, error);
  }
  recordProbe(tool: string, ok: boolean): Promise<void> {
    return runs.recordProbe(this.db, tool, ok);
  }
  baseHealth(): Promise<BaseHealthRecord[]> {
    return runs.baseHealth(this.db);
  }
}
