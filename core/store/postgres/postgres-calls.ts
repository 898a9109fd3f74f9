/**
 * The `calls` table of the PostgreSQL registry: every tool call of a trace, in the order the calls began. A
 * call's seq comes from its trace's `last_call_seq`, incremented in the same statement that inserts the call:
 * the increment locks the trace's row, so recorders in many processes number one trace's calls without gaps or
 * duplicates, in one round trip.
 */
import { DistillError } from "../../errors.ts";
import { recordableError, recordableOutput } from "../../trace/recordable.ts";
import type { CallKind, CallRecord } from "../../types.ts";
import { callFromRow, type LiveRun, type Row, type RunRef, receivedInput } from "../records.ts";
import { type CallOutcome, type NewCall, recordedOutcome } from "../sqlite/sqlite-calls.ts";
import type { PostgresDatabase } from "./postgres-database.ts";

const CALL_COLUMNS = `id, trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version,
  note, clipped, failure`;

/** Appends a call (started, or finished with `outcome`) as the next of its trace; returns its id. */
export async function insertCall(
  db: PostgresDatabase,
  call: NewCall,
  outcome: CallOutcome | null,
  latencyMs: number | null,
  maxOutputBytes: number,
): Promise<number> {
  const kept = recordedOutcome(call, outcome, maxOutputBytes);
  const row = await db.first(
    `WITH next AS (
       UPDATE tooldistill.traces SET last_call_seq = last_call_seq + 1 WHERE id = $1::text RETURNING last_call_seq
     )
     INSERT INTO tooldistill.calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms,
       version, external_id, note, clipped, raw_args, failure)
     SELECT $1::text, next.last_call_seq, $2::bigint, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text,
       $9::double precision, $10::integer, $11::text, $12::text, $13::boolean, $14::text, $15::text FROM next
     RETURNING id`,
    [
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
    ],
  );
  if (!row) {
    throw new DistillError(
      "STORE",
      `cannot record a call of trace ${call.traceId} in the store ${db.where}: there is no such trace (create it first).`,
    );
  }
  return Number(row["id"]);
}

/**
 * Inserts a finished call at `seq`, moving the trace's later calls one place on (a call learnt afterwards, from
 * Claude Code's transcript). It goes in last, as any call (its increment of `last_call_seq` locks the trace), then
 * the calls from `seq` on rotate into place through seqs above the last one: seq is UNIQUE per trace and >= 1, row
 * by row, so neither a plain + 1 nor a negative step can pass.
 */
export async function insertCallAt(
  db: PostgresDatabase,
  call: NewCall,
  outcome: CallOutcome,
  latencyMs: number | null,
  seq: number,
  maxOutputBytes: number,
): Promise<number> {
  return db.atomic(async (tx) => {
    const id = await insertCall(tx, call, outcome, latencyMs, maxOutputBytes);
    const top = Number((await tx.first("SELECT seq FROM tooldistill.calls WHERE id = $1", [id]))?.["seq"]);
    if (seq >= top) return id;
    await tx.run(
      "UPDATE tooldistill.calls SET seq = seq + $3::integer + 1 WHERE trace_id = $1 AND seq >= $2",
      [call.traceId, seq, top],
    );
    await tx.run(
      "UPDATE tooldistill.calls SET seq = seq - $2::integer WHERE trace_id = $1 AND seq > $2 AND id <> $3",
      [call.traceId, top, id],
    );
    await tx.run("UPDATE tooldistill.calls SET seq = $1 WHERE id = $2", [seq, id]);
    return id;
  });
}

export async function finishCall(
  db: PostgresDatabase,
  id: number,
  output: unknown,
  latencyMs: number | null,
  maxOutputBytes: number,
): Promise<void> {
  const out = recordableOutput(output, maxOutputBytes);
  await db.run(
    `UPDATE tooldistill.calls SET status = 'ok', output = $1, latency_ms = $2, clipped = $3,
     note = CASE WHEN $4::text IS NULL THEN note WHEN note IS NULL THEN $4::text ELSE note || '; ' || $4::text END
     WHERE id = $5`,
    [out.text, latencyMs, out.clipped, out.note, id],
  );
}

export async function failCall(
  db: PostgresDatabase,
  id: number,
  error: string,
  latencyMs: number | null,
  maxOutputBytes: number,
): Promise<void> {
  const err = recordableError(error, maxOutputBytes);
  await db.run(
    `UPDATE tooldistill.calls SET status = 'error', error = $1, latency_ms = $2,
     note = CASE WHEN $3::text IS NULL THEN note WHEN note IS NULL THEN $3::text ELSE note || '; ' || $3::text END
     WHERE id = $4`,
    [err.text, latencyMs, err.note, id],
  );
}

export async function setCallKind(
  db: PostgresDatabase,
  id: number,
  kind: CallKind,
  version: number | null,
): Promise<void> {
  await db.run("UPDATE tooldistill.calls SET kind = $1, version = $2 WHERE id = $3", [kind, version, id]);
}

export async function setCallArgs(
  db: PostgresDatabase,
  id: number,
  args: Record<string, unknown>,
  rawArgs: string | null = null,
): Promise<void> {
  await db.run("UPDATE tooldistill.calls SET args = $1, raw_args = COALESCE($2, raw_args) WHERE id = $3", [
    JSON.stringify(args),
    rawArgs,
    id,
  ]);
}

export async function getCallByExternalId(
  db: PostgresDatabase,
  externalId: string,
  traceIdPrefix: string,
): Promise<CallRecord | null> {
  const row = await db.first(
    `SELECT ${CALL_COLUMNS} FROM tooldistill.calls WHERE external_id = $1 AND starts_with(trace_id, $2)
     ORDER BY id DESC LIMIT 1`,
    [externalId, traceIdPrefix],
  );
  return row ? callFromRow(row) : null;
}

export async function startedCallsByExternalId(
  db: PostgresDatabase,
  externalId: string,
): Promise<CallRecord[]> {
  const rows = await db.rows(
    `SELECT ${CALL_COLUMNS} FROM tooldistill.calls WHERE external_id = $1 AND status = 'started' ORDER BY id DESC`,
    [externalId],
  );
  return rows.map(callFromRow);
}

export async function getCalls(db: PostgresDatabase, traceId: string): Promise<CallRecord[]> {
  const rows = await db.rows(
    `SELECT ${CALL_COLUMNS} FROM tooldistill.calls WHERE trace_id = $1 ORDER BY seq`,
    [traceId],
  );
  return rows.map(callFromRow);
}

export async function countTopLevelBaseCalls(db: PostgresDatabase, traceId: string): Promise<number> {
  const row = await db.first(
    `SELECT COUNT(*) AS n FROM tooldistill.calls
     WHERE trace_id = $1 AND kind = 'base' AND parent_id IS NULL AND status <> 'started'`,
    [traceId],
  );
  return Number(row?.["n"]);
}

/** The newest `limit` successful live runs of a distilled tool version, newest first, each with its base calls. */
export async function liveRuns(
  db: PostgresDatabase,
  name: string,
  version: number,
  limit: number,
): Promise<LiveRun[]> {
  const rows = await db.rows(
    `SELECT ${CALL_COLUMNS}, started_at, raw_args FROM tooldistill.calls
     WHERE kind = 'distilled' AND tool = $1 AND version = $2 AND status = 'ok' ORDER BY id DESC LIMIT $3`,
    [name, version, limit],
  );
  return withInnerCalls(db, rows);
}

/** The live runs `refs` names that are still stored and succeeded, in the order given. */
export async function liveRunsOf(db: PostgresDatabase, refs: readonly RunRef[]): Promise<LiveRun[]> {
  if (refs.length === 0) return [];
  const rows = await db.rows(
    `SELECT ${CALL_COLUMNS.replace(/(\w+)/g, "c.$1")}, c.started_at, c.raw_args
     FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS r(call, trace, ord)
     JOIN tooldistill.calls c ON c.id = r.call AND c.trace_id = r.trace
     WHERE c.kind = 'distilled' AND c.status = 'ok' ORDER BY r.ord`,
    [refs.map((r) => r.call), refs.map((r) => r.trace)],
  );
  return withInnerCalls(db, rows);
}

/** The runs of `rows` (distilled calls) with the base calls made inside each, read in one query. */
async function withInnerCalls(db: PostgresDatabase, rows: Row[]): Promise<LiveRun[]> {
  if (rows.length === 0) return [];
  const inner = await db.rows(
    `SELECT ${CALL_COLUMNS} FROM tooldistill.calls WHERE parent_id = ANY($1::bigint[]) ORDER BY parent_id, seq`,
    [rows.map((r) => Number(r["id"]))],
  );
  const byParent = new Map<number, CallRecord[]>();
  for (const r of inner) {
    const call = callFromRow(r);
    byParent.set(call.parentId!, [...(byParent.get(call.parentId!) ?? []), call]);
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
