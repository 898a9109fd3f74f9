/**
 * The data methods of the SQLite registry: each one the `Store`'s method of the same name, run once the
 * connection is free for its caller (see sqlite-registry-store.ts). Shared by the store and its transactions.
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
import type { CallOutcome } from "./sqlite-calls.ts";
import type { NewRun } from "./sqlite-runs.ts";
import type { SessionSpan } from "./sqlite-sessions.ts";
import * as sessions from "./sqlite-sessions.ts";
import type { Store } from "./sqlite-store.ts";
import type { NewDefinition, NewVersion, PrunedVersion, StatusChange } from "./sqlite-versions.ts";

/** Waits until the caller may use the connection (undefined: at once); throws when it may not at all. */
export type Enter = () => Promise<void> | undefined;

export abstract class SqliteRegistryData implements RegistryData {
  readonly #store: Store;
  readonly #enter: Enter;

  constructor(store: Store, enter: Enter) {
    this.#store = store;
    this.#enter = enter;
  }

  abstract transaction<T>(fn: (tx: RegistryData) => Promise<T>): Promise<T>;

  /** Outside a transaction there is nothing to save: a transaction's view overrides this. */
  savepoint<T>(_fn: (tx: RegistryData) => Promise<T>): Promise<T> {
    return Promise.reject(noTransaction());
  }

  async createTrace(id: string, task: string, source: TraceSource): Promise<void> {
    await this.#enter();
    this.#store.createTrace(id, task, source);
  }
  async getTrace(id: string): Promise<TraceRecord | null> {
    await this.#enter();
    return this.#store.getTrace(id);
  }
  async traceIdsStartingWith(prefix: string, limit?: number): Promise<string[]> {
    await this.#enter();
    return this.#store.traceIdsStartingWith(prefix, limit);
  }
  async listTraces(limit?: number): Promise<TraceRecord[]> {
    await this.#enter();
    return this.#store.listTraces(limit);
  }
  async setTask(id: string, task: string): Promise<void> {
    await this.#enter();
    this.#store.setTask(id, task);
  }
  async setOutcome(id: string, success: boolean): Promise<void> {
    await this.#enter();
    this.#store.setOutcome(id, success);
  }
  async addUsage(id: string, usage: UsageTotals): Promise<void> {
    await this.#enter();
    this.#store.addUsage(id, usage);
  }
  async endTrace(id: string): Promise<void> {
    await this.#enter();
    this.#store.endTrace(id);
  }
  async setTraceNote(id: string, note: string): Promise<void> {
    await this.#enter();
    this.#store.setTraceNote(id, note);
  }
  async getTraceFlags(id: string): Promise<TraceFlags> {
    await this.#enter();
    return this.#store.getTraceFlags(id);
  }
  async claimNudge(id: string): Promise<boolean> {
    await this.#enter();
    return this.#store.claimNudge(id);
  }
  async markProposed(id: string): Promise<void> {
    await this.#enter();
    this.#store.markProposed(id);
  }
  async setReplaceName(id: string, name: string): Promise<void> {
    await this.#enter();
    this.#store.setReplaceName(id, name);
  }

  async startCall(call: NewCall): Promise<number> {
    await this.#enter();
    return this.#store.startCall(call);
  }
  async appendCall(call: NewCall, outcome: CallOutcome, latencyMs: number | null): Promise<number> {
    await this.#enter();
    return this.#store.appendCall(call, outcome, latencyMs);
  }
  async insertCallAt(
    call: NewCall,
    outcome: CallOutcome,
    latencyMs: number | null,
    seq: number,
  ): Promise<number> {
    await this.#enter();
    return this.#store.insertCallAt(call, outcome, latencyMs, seq);
  }
  async finishCall(id: number, output: unknown, latencyMs: number | null): Promise<void> {
    await this.#enter();
    this.#store.finishCall(id, output, latencyMs);
  }
  async failCall(id: number, error: string, latencyMs: number | null): Promise<void> {
    await this.#enter();
    this.#store.failCall(id, error, latencyMs);
  }
  async setCallKind(id: number, kind: CallKind, version: number | null): Promise<void> {
    await this.#enter();
    this.#store.setCallKind(id, kind, version);
  }
  async getCallByExternalId(externalId: string, traceIdPrefix: string): Promise<CallRecord | null> {
    await this.#enter();
    return this.#store.getCallByExternalId(externalId, traceIdPrefix);
  }
  async startedCallsByExternalId(externalId: string): Promise<CallRecord[]> {
    await this.#enter();
    return this.#store.startedCallsByExternalId(externalId);
  }
  async getCalls(traceId: string): Promise<CallRecord[]> {
    await this.#enter();
    return this.#store.getCalls(traceId);
  }
  async countTopLevelBaseCalls(traceId: string): Promise<number> {
    await this.#enter();
    return this.#store.countTopLevelBaseCalls(traceId);
  }
  async setCallArgs(id: number, args: Record<string, unknown>, rawArgs: string | null = null): Promise<void> {
    await this.#enter();
    this.#store.setCallArgs(id, args, rawArgs);
  }

  async getMeta(key: string): Promise<string | null> {
    await this.#enter();
    return this.#store.getMeta(key);
  }
  async setMeta(key: string, value: string): Promise<void> {
    await this.#enter();
    this.#store.setMeta(key, value);
  }

  async sessionSpan(sessionId: string): Promise<SessionSpan> {
    await this.#enter();
    return sessions.sessionSpan(this.#store, sessionId);
  }
  async findSessionSpan(sessionId: string): Promise<SessionSpan | null> {
    await this.#enter();
    return sessions.findSessionSpan(this.#store, sessionId);
  }
  async advanceSpan(sessionId: string, from: number): Promise<void> {
    await this.#enter();
    sessions.advanceSpan(this.#store, sessionId, from);
  }
  async markSpanConfirmed(sessionId: string, span: number): Promise<void> {
    await this.#enter();
    sessions.markSpanConfirmed(this.#store, sessionId, span);
  }
  async claimSpillEvent(eventId: string): Promise<boolean> {
    await this.#enter();
    return sessions.claimSpillEvent(this.#store, eventId);
  }
  async pruneSpillApplied(before: string): Promise<void> {
    await this.#enter();
    this.#store.pruneSpillApplied(before);
  }

  async readCode(name: string, version: number): Promise<string> {
    await this.#enter();
    return this.#store.readCode(name, version);
  }
  async createVersion(v: NewVersion): Promise<VersionRecord> {
    await this.#enter();
    return this.#store.createVersion(v);
  }
  async getVersion(name: string, version: number): Promise<VersionRecord | null> {
    await this.#enter();
    return this.#store.getVersion(name, version);
  }
  async listVersions(filter?: { name?: string; status?: Status }): Promise<VersionRecord[]> {
    await this.#enter();
    return this.#store.listVersions(filter);
  }
  async setStatus(change: StatusChange): Promise<boolean> {
    await this.#enter();
    return this.#store.setStatus(change);
  }
  async setVerification(
    name: string,
    version: number,
    verdict: Verdict,
    baselineTokens: number | null,
  ): Promise<void> {
    await this.#enter();
    this.#store.setVerification(name, version, verdict, baselineTokens);
  }
  async setQueuedRebuild(name: string, version: number, queued: boolean, note: string | null): Promise<void> {
    await this.#enter();
    this.#store.setQueuedRebuild(name, version, queued, note);
  }
  async getHistory(name: string, version: number): Promise<HistoryRecord[]> {
    await this.#enter();
    return this.#store.getHistory(name, version);
  }
  async latestHistory(): Promise<HistoryRecord[]> {
    await this.#enter();
    return this.#store.latestHistory();
  }
  async lastActivation(name: string, version: number): Promise<number> {
    await this.#enter();
    return this.#store.lastActivation(name, version);
  }
  async addHistory(h: Omit<HistoryRecord, "at">): Promise<void> {
    await this.#enter();
    this.#store.addHistory(h);
  }
  async setDependencies(
    name: string,
    version: number,
    deps: Omit<DependencyRecord, "name" | "version">[],
  ): Promise<void> {
    await this.#enter();
    this.#store.setDependencies(name, version, deps);
  }
  async getDependencies(name?: string, version?: number): Promise<DependencyRecord[]> {
    await this.#enter();
    return this.#store.getDependencies(name, version);
  }
  async recordRun(run: NewRun): Promise<void> {
    await this.#enter();
    this.#store.recordRun(run);
  }
  async getRunStats(name: string, version: number): Promise<RunStats> {
    await this.#enter();
    return this.#store.getRunStats(name, version);
  }

  async versionWithCode(name: string, sourceHash: string): Promise<VersionRecord | null> {
    await this.#enter();
    return this.#store.versionWithCode(name, sourceHash);
  }
  async pruneVersions(statuses: readonly Status[], before: string | null): Promise<PrunedVersion[]> {
    await this.#enter();
    return this.#store.pruneVersions(statuses, before);
  }
  async addVerifiedDefinitions(name: string, version: number, defs: readonly NewDefinition[]): Promise<void> {
    await this.#enter();
    this.#store.addVerifiedDefinitions(name, version, defs);
  }
  async verifiedDefinitions(name?: string, version?: number): Promise<VerifiedDefinition[]> {
    await this.#enter();
    return this.#store.verifiedDefinitions(name, version);
  }
  async setReplayRuns(name: string, version: number, runs: readonly RunRef[]): Promise<void> {
    await this.#enter();
    this.#store.setReplayRuns(name, version, runs);
  }
  async liveRuns(name: string, version: number, limit: number): Promise<LiveRun[]> {
    await this.#enter();
    return this.#store.liveRuns(name, version, limit);
  }
  async liveRunsOf(refs: readonly RunRef[]): Promise<LiveRun[]> {
    await this.#enter();
    return this.#store.liveRunsOf(refs);
  }
  async recentRuns(
    name: string,
    version: number,
    limit: number,
    outcomes?: readonly RunOutcome[],
  ): Promise<RunRecord[]> {
    await this.#enter();
    return this.#store.recentRuns(name, version, limit, outcomes);
  }
  async recordBaseHealth(tool: string, ok: boolean, error: string | null = null): Promise<void> {
    await this.#enter();
    this.#store.recordBaseHealth(tool, ok, error);
  }
  async recordProbe(tool: string, ok: boolean): Promise<void> {
    await this.#enter();
    this.#store.recordProbe(tool, ok);
  }
  async baseHealth(): Promise<BaseHealthRecord[]> {
    await this.#enter();
    return this.#store.baseHealth();
  }
}
