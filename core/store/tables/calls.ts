/**
 * The `calls` table: every tool call of a trace, in the order the calls began, with what recording had to clip,
 * and the live runs of distilled tools read back from it for replay.
 */
import { DistillError } from "../../errors.ts";
import { recordableError, recordableOutput } from "../../trace/recordable.ts";
import type { CallKind, CallRecord } from "../../types.ts";
import { type Dialect, sql } from "../engine.ts";
import { recordedOutcome } from "../recorded-outcome.ts";
import type { CallOutcome, HealthSignal, LiveRun, NewCall, RunRef } from "../records.ts";
import { callFromRow, type Row, receivedInput } from "../row-mappers.ts";
import { failedOnce, healthyAgain, runMethods } from "./runs.ts";
import type { Tables } from "./types.ts";

const COLUMNS = `id, trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version,
  note, clipped, failure`;
const INSERTED = `parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, note,
  clipped, raw_args, failure`;

/**
 * The next seq of a trace and the call in one statement where the engine can: the counter's UPDATE locks the
 * trace's row, so recorders in many processes number one trace's calls without gaps or duplicates, in one round
 * trip. Without it (SQLite) the seq is the highest one plus one, read inside the transaction's write lock.
 */
function insertStatement(d: Dialect, health: string): string {
  return d.writableCte
    ? `WITH next AS (
         UPDATE ${d.t.traces} SET last_call_seq = last_call_seq + 1 WHERE id = CAST(?1 AS TEXT) RETURNING last_call_seq
       )${health}
       INSERT INTO ${d.t.calls} (trace_id, seq, ${INSERTED}, started_at)
       SELECT ?1, next.last_call_seq, CAST(?2 AS BIGINT), ?3, ?4, ?5, ?6, ?7, ?8, CAST(?9 AS DOUBLE PRECISION),
         CAST(?10 AS INTEGER), ?11, ?12, CAST(?13 AS BOOLEAN), ?14, ?15, ${d.now} FROM next
       RETURNING id`
    : `INSERT INTO ${d.t.calls} (trace_id, seq, ${INSERTED}, started_at)
       VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM ${d.t.calls} WHERE trace_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8,
         ?9, ?10, ?11, ?12, ?13, ?14, ?15, ${d.now})
       RETURNING id`;
}

const INSERT = sql((d) => insertStatement(d, ""));
/** A base call and what it says of its tool's health (PostgreSQL: in the same statement, one round trip). */
const INSERT_HEALTHY = sql((d) => insertStatement(d, `, health AS (${healthyAgain(d, "CAST(?3 AS TEXT)")})`));
const INSERT_DOWN = sql((d) =>
  insertStatement(d, `, health AS (${failedOnce(d, "CAST(?3 AS TEXT)", "CAST(?16 AS TEXT)")})`),
);
// A note is added to, never replaced: what recording clipped of the arguments stays said.
const FINISH = sql(
  (d) => `UPDATE ${d.t.calls} SET status = 'ok', output = ?1, latency_ms = ?2, clipped = ?3,
     note = CASE WHEN CAST(?4 AS TEXT) IS NULL THEN note WHEN note IS NULL THEN CAST(?4 AS TEXT)
       ELSE note || '; ' || CAST(?4 AS TEXT) END WHERE id = ?5`,
);
const FAIL = sql(
  (d) => `UPDATE ${d.t.calls} SET status = 'error', error = ?1, latency_ms = ?2,
     note = CASE WHEN CAST(?3 AS TEXT) IS NULL THEN note WHEN note IS NULL THEN CAST(?3 AS TEXT)
       ELSE note || '; ' || CAST(?3 AS TEXT) END WHERE id = ?4`,
);
const SEQ_OF = sql((d) => `SELECT seq FROM ${d.t.calls} WHERE id = ?`);
// seq is UNIQUE per trace (and >= 1 on PostgreSQL), checked row by row: the calls from `seq` on move above the
// last one, then back down one place past it, so no step collides.
const SHIFT_UP = sql(
  (d) => `UPDATE ${d.t.calls} SET seq = seq + CAST(?3 AS INTEGER) + 1 WHERE trace_id = ?1 AND seq >= ?2`,
);
const SHIFT_BACK = sql(
  (d) =>
    `UPDATE ${d.t.calls} SET seq = seq - CAST(?2 AS INTEGER) WHERE trace_id = ?1 AND seq > ?2 AND id <> ?3`,
);
const SET_SEQ = sql((d) => `UPDATE ${d.t.calls} SET seq = ? WHERE id = ?`);
const SET_KIND = sql((d) => `UPDATE ${d.t.calls} SET kind = ?, version = ? WHERE id = ?`);
const SET_ARGS = sql(
  (d) => `UPDATE ${d.t.calls} SET args = ?, raw_args = COALESCE(CAST(? AS TEXT), raw_args) WHERE id = ?`,
);
const BY_EXTERNAL_ID = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE external_id = ?1 AND ${d.startsWith("trace_id", "?2")}
     ORDER BY id DESC LIMIT 1`,
);
const STARTED_BY_EXTERNAL_ID = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE external_id = ? AND status = 'started' ORDER BY id DESC`,
);
const OF_TRACE = sql((d) => `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE trace_id = ? ORDER BY seq`);
const COUNT_TOP_LEVEL_BASE = sql(
  (d) => `SELECT COUNT(*) AS n FROM ${d.t.calls}
     WHERE trace_id = ? AND kind = 'base' AND parent_id IS NULL AND status <> 'started'`,
);
const LIVE_RUNS = sql(
  (d) => `SELECT ${COLUMNS}, started_at, raw_args FROM ${d.t.calls}
     WHERE kind = 'distilled' AND tool = ? AND version = ? AND status = 'ok' ORDER BY id DESC LIMIT ?`,
);
const RUNS_BY_ID = sql(
  (d) => `SELECT ${COLUMNS}, started_at, raw_args FROM ${d.t.calls}
     WHERE ${d.anyOf("id", "?", "bigint")} AND kind = 'distilled' AND status = 'ok'`,
);
const INNER = sql(
  (d) =>
    `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE ${d.anyOf("parent_id", "?", "bigint")} ORDER BY parent_id, seq`,
);

async function insertCall(
  t: Tables,
  call: NewCall,
  outcome: CallOutcome | null,
  latencyMs: number | null,
  health: HealthSignal | null = null,
): Promise<number> {
  const kept = recordedOutcome(call, outcome, t.maxOutputBytes);
  const params = [
    call.traceId,
    call.parentId ?? null,
    call.tool,
    call.kind,
    JSON.stringify(call.args),
    kept.status,
    kept.output,
    kept.error,
    latencyMs,
    call.version ?? null,
    call.externalId ?? null,
    kept.note,
    kept.clipped,
    call.rawArgs ?? null,
    kept.failure,
  ];
  const e = t.engine;
  let row: Row | undefined;
  if (e.dialect.writableCte) {
    const statement = health === null ? INSERT : health.ok ? INSERT_HEALTHY : INSERT_DOWN;
    row = await e.first(statement(e.dialect), health?.ok === false ? [...params, health.error] : params);
  } else {
    row = await e.transaction(async (tx) => {
      const inserted = await tx.first(INSERT(tx.dialect), params);
      // Counted even when the call cannot be (no such trace), as PostgreSQL's statement does: the tool answered.
      if (health !== null) {
        await runMethods.recordBaseHealth.call(
          { ...t, engine: tx },
          call.tool,
          health.ok,
          health.ok ? null : health.error,
        );
      }
      return inserted;
    });
  }
  if (!row) {
    throw new DistillError(
      "STORE",
      `cannot record a call of trace ${call.traceId} in the store ${e.where}: there is no such trace (create it first).`,
    );
  }
  return Number(row["id"]);
}

/** The runs of `rows` (distilled calls) with the base calls made inside each, read in one query. */
async function withInnerCalls(t: Tables, rows: Row[]): Promise<LiveRun[]> {
  if (rows.length === 0) return [];
  const inner = await t.engine.rows(INNER(t.engine.dialect), [rows.map((r) => Number(r["id"]))]);
  const byParent = new Map<number, CallRecord[]>();
  for (const r of inner) {
    const call = callFromRow(r);
    const siblings = byParent.get(call.parentId!);
    if (siblings) siblings.push(call);
    else byParent.set(call.parentId!, [call]);
  }
  return rows.map((row) => {
    const call = callFromRow(row);
    return {
      trace: call.traceId,
      call: call.id,
      version: call.version ?? 0,
      input: receivedInput(row, call.args),
      output: call.output,
      at: String(row["started_at"]),
      calls: byParent.get(call.id) ?? [],
    };
  });
}

/** The call methods of RegistryData. */
export const callMethods = {
  startCall(this: Tables, call: NewCall): Promise<number> {
    return insertCall(this, call, null, null);
  },
  appendCall(this: Tables, call: NewCall, outcome: CallOutcome, latencyMs: number | null): Promise<number> {
    return insertCall(this, call, outcome, latencyMs);
  },
  appendBaseCall(
    this: Tables,
    call: NewCall,
    outcome: CallOutcome,
    latencyMs: number | null,
    health: HealthSignal | null,
  ): Promise<number> {
    return insertCall(this, call, outcome, latencyMs, health);
  },
  /**
   * Inserts a finished call at `seq`, moving the trace's later calls one place on (a call learnt afterwards, from
   * Claude Code's transcript): it goes in last, as any call, then the calls from `seq` on make room for it.
   */
  insertCallAt(
    this: Tables,
    call: NewCall,
    outcome: CallOutcome,
    latencyMs: number | null,
    seq: number,
  ): Promise<number> {
    return this.engine.transaction(async (tx) => {
      const t: Tables = { ...this, engine: tx };
      const id = await insertCall(t, call, outcome, latencyMs);
      const top = Number((await tx.first(SEQ_OF(tx.dialect), [id]))?.["seq"]);
      if (seq >= top) return id;
      await tx.run(SHIFT_UP(tx.dialect), [call.traceId, seq, top]);
      await tx.run(SHIFT_BACK(tx.dialect), [call.traceId, top, id]);
      await tx.run(SET_SEQ(tx.dialect), [seq, id]);
      return id;
    });
  },
  async finishCall(this: Tables, id: number, output: unknown, latencyMs: number | null): Promise<void> {
    const out = recordableOutput(output, this.maxOutputBytes);
    await this.engine.run(FINISH(this.engine.dialect), [out.text, latencyMs, out.clipped, out.note, id]);
  },
  async failCall(this: Tables, id: number, error: string, latencyMs: number | null): Promise<void> {
    const err = recordableError(error, this.maxOutputBytes);
    await this.engine.run(FAIL(this.engine.dialect), [err.text, latencyMs, err.note, id]);
  },
  async setCallKind(this: Tables, id: number, kind: CallKind, version: number | null): Promise<void> {
    await this.engine.run(SET_KIND(this.engine.dialect), [kind, version, id]);
  },
  async setCallArgs(
    this: Tables,
    id: number,
    args: Record<string, unknown>,
    rawArgs: string | null = null,
  ): Promise<void> {
    await this.engine.run(SET_ARGS(this.engine.dialect), [JSON.stringify(args), rawArgs, id]);
  },
  async getCallByExternalId(
    this: Tables,
    externalId: string,
    traceIdPrefix: string,
  ): Promise<CallRecord | null> {
    const row = await this.engine.first(BY_EXTERNAL_ID(this.engine.dialect), [externalId, traceIdPrefix]);
    return row ? callFromRow(row) : null;
  },
  async startedCallsByExternalId(this: Tables, externalId: string): Promise<CallRecord[]> {
    return (await this.engine.rows(STARTED_BY_EXTERNAL_ID(this.engine.dialect), [externalId])).map(
      callFromRow,
    );
  },
  async getCalls(this: Tables, traceId: string): Promise<CallRecord[]> {
    return (await this.engine.rows(OF_TRACE(this.engine.dialect), [traceId])).map(callFromRow);
  },
  async countTopLevelBaseCalls(this: Tables, traceId: string): Promise<number> {
    return Number((await this.engine.first(COUNT_TOP_LEVEL_BASE(this.engine.dialect), [traceId]))?.["n"]);
  },
  /** The newest `limit` successful live runs of a distilled tool version, newest first, each with its base calls. */
  async liveRuns(this: Tables, name: string, version: number, limit: number): Promise<LiveRun[]> {
    return withInnerCalls(
      this,
      await this.engine.rows(LIVE_RUNS(this.engine.dialect), [name, version, limit]),
    );
  },
  /** The live runs `refs` names that are still stored and succeeded (in their trace), in the order given. */
  async liveRunsOf(this: Tables, refs: readonly RunRef[]): Promise<LiveRun[]> {
    if (refs.length === 0) return [];
    const rows = await this.engine.rows(RUNS_BY_ID(this.engine.dialect), [refs.map((r) => r.call)]);
    const byId = new Map(rows.map((r) => [Number(r["id"]), r]));
    const found = refs.flatMap((ref) => {
      const row = byId.get(ref.call);
      return row !== undefined && row["trace_id"] === ref.trace ? [row] : [];
    });
    return withInnerCalls(this, found);
  },
};
