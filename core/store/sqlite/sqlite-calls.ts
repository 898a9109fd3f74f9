/**
 * The `calls` table: every tool call of a trace, in the order the calls began, with what recording had to clip.
 * Functions over the open database; the Store offers them as its methods (see store.ts).
 */
import { recordableError, recordableOutput } from "../../trace/recordable.ts";
import type { CallKind, CallRecord } from "../../types.ts";
import { recordedOutcome } from "../recorded-outcome.ts";
import type { CallOutcome, LiveRun, NewCall, RunRef } from "../records.ts";
import { callFromRow, now, type Row, receivedInput } from "../row-mappers.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

export type { CallOutcome, NewCall } from "../records.ts";

/**
 * Appends a call (started, or already finished with `outcome`); its seq is the next in the trace, allocated inside
 * the write lock. Outputs and errors are clipped at `maxOutputBytes` and the call's note says so.
 */
export function insertCall(
  db: StoreDatabase,
  call: NewCall,
  outcome: CallOutcome | null,
  latencyMs: number | null,
  maxOutputBytes: number,
): number {
  const kept = recordedOutcome(call, outcome, maxOutputBytes);
  return db.transaction(() => {
    const row = db
      .stmt(
        `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at, note, clipped, raw_args, failure)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id`,
      )
      .get(
        call.traceId,
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
        now(),
        kept.note,
        kept.clipped ? 1 : 0,
        call.rawArgs ?? null,
        kept.failure,
      );
    return Number(row?.["id"]);
  });
}

/**
 * Inserts a finished call at `seq` in its trace, moving the calls from `seq` on one place later: a call learnt
 * after the fact (Claude Code's transcript holding a call its hooks never reported) keeps the order it ran in.
 */
export function insertCallAt(
  db: StoreDatabase,
  call: NewCall,
  outcome: CallOutcome,
  latencyMs: number | null,
  seq: number,
  maxOutputBytes: number,
): number {
  return db.transaction(() => {
    // Two steps because UNIQUE (trace_id, seq) is checked row by row: a plain seq + 1 collides mid-update.
    db.stmt("UPDATE calls SET seq = -(seq + 1) WHERE trace_id = ? AND seq >= ?").run(call.traceId, seq);
    db.stmt("UPDATE calls SET seq = -seq WHERE trace_id = ? AND seq < 0").run(call.traceId);
    const id = insertCall(db, call, outcome, latencyMs, maxOutputBytes);
    db.stmt("UPDATE calls SET seq = ? WHERE id = ?").run(seq, id);
    return id;
  });
}

/** Completes a started call with its output (clipped at the caps; the call's note says so). */
export function finishCall(
  db: StoreDatabase,
  id: number,
  output: unknown,
  latencyMs: number | null,
  maxOutputBytes: number,
): void {
  const out = recordableOutput(output, maxOutputBytes);
  db.stmt(
    `UPDATE calls SET status = 'ok', output = ?1, latency_ms = ?2, clipped = ?3,
     note = CASE WHEN ?4 IS NULL THEN note WHEN note IS NULL THEN ?4 ELSE note || '; ' || ?4 END WHERE id = ?5`,
  ).run(out.text, latencyMs, out.clipped ? 1 : 0, out.note, id);
}

/** Completes a started call with its error. */
export function failCall(
  db: StoreDatabase,
  id: number,
  error: string,
  latencyMs: number | null,
  maxOutputBytes: number,
): void {
  const err = recordableError(error, maxOutputBytes);
  db.stmt(
    `UPDATE calls SET status = 'error', error = ?1, latency_ms = ?2,
     note = CASE WHEN ?3 IS NULL THEN note WHEN note IS NULL THEN ?3 ELSE note || '; ' || ?3 END WHERE id = ?4`,
  ).run(err.text, latencyMs, err.note, id);
}

/** Changes what a recorded call counts as. */
export function setCallKind(db: StoreDatabase, id: number, kind: CallKind, version: number | null): void {
  db.stmt("UPDATE calls SET kind = ?, version = ? WHERE id = ?").run(kind, version, id);
}

/** Replaces a call's recorded arguments, and its input as received (`rawArgs`, see NewCall) when given. */
export function setCallArgs(
  db: StoreDatabase,
  id: number,
  args: Record<string, unknown>,
  rawArgs: string | null = null,
): void {
  db.stmt("UPDATE calls SET args = ?, raw_args = COALESCE(?, raw_args) WHERE id = ?").run(
    JSON.stringify(args),
    rawArgs,
    id,
  );
}

/** The newest call recorded under an external id in the traces whose ids start with `traceIdPrefix`. */
export function getCallByExternalId(
  db: StoreDatabase,
  externalId: string,
  traceIdPrefix: string,
): CallRecord | null {
  const row = db
    .stmt("SELECT * FROM calls WHERE external_id = ? AND substr(trace_id, 1, ?) = ? ORDER BY id DESC LIMIT 1")
    .get(externalId, traceIdPrefix.length, traceIdPrefix);
  return row ? callFromRow(row) : null;
}

/** Calls still `started` under an external id, newest first, in any trace. */
export function startedCallsByExternalId(db: StoreDatabase, externalId: string): CallRecord[] {
  const rows = db
    .stmt("SELECT * FROM calls WHERE external_id = ? AND status = 'started' ORDER BY id DESC")
    .all(externalId);
  return rows.map(callFromRow);
}

/** Every call of a trace in seq order, inner calls included. */
export function getCalls(db: StoreDatabase, traceId: string): CallRecord[] {
  return db.stmt("SELECT * FROM calls WHERE trace_id = ? ORDER BY seq").all(traceId).map(callFromRow);
}

/** Top-level base calls that finished (ok or error). */
export function countTopLevelBaseCalls(db: StoreDatabase, traceId: string): number {
  const row = db
    .stmt(
      "SELECT COUNT(*) AS n FROM calls WHERE trace_id = ? AND kind = 'base' AND parent_id IS NULL AND status != 'started'",
    )
    .get(traceId);
  return Number(row?.["n"]);
}

/** The newest `limit` successful live runs of a distilled tool version, newest first, each with its base calls. */
export function liveRuns(db: StoreDatabase, name: string, version: number, limit: number): LiveRun[] {
  const rows = db
    .stmt(
      "SELECT * FROM calls WHERE kind = 'distilled' AND tool = ? AND version = ? AND status = 'ok' ORDER BY id DESC LIMIT ?",
    )
    .all(name, version, limit);
  return rows.map((row) => liveRun(db, row));
}

/** The live runs `refs` names that are still stored and succeeded, in the order given. */
export function liveRunsOf(db: StoreDatabase, refs: readonly RunRef[]): LiveRun[] {
  const get = db.stmt(
    "SELECT * FROM calls WHERE id = ? AND trace_id = ? AND kind = 'distilled' AND status = 'ok'",
  );
  return refs.flatMap((ref) => {
    const row = get.get(ref.call, ref.trace);
    return row ? [liveRun(db, row)] : [];
  });
}

function liveRun(db: StoreDatabase, row: Row): LiveRun {
  const call = callFromRow(row);
  const inner = db.stmt("SELECT * FROM calls WHERE parent_id = ? ORDER BY seq").all(call.id).map(callFromRow);
  return {
    trace: call.traceId,
    call: call.id,
    version: call.version ?? 0,
    input: receivedInput(row, call.args),
    output: call.output,
    at: String(row["started_at"]),
    calls: inner,
  };
}
