/**
 * The `traces` table of the PostgreSQL registry: one recorded run, its totals and the flags of the nudge and the
 * fallback distiller. Each function is one statement, so each is atomic on its own.
 */

import type { TraceRecord, TraceSource, UsageTotals } from "../../types.ts";
import { type TraceFlags, traceFlagsFromRow, traceFromRow } from "../records.ts";
import type { PostgresDatabase } from "./postgres-database.ts";

const TRACE_COLUMNS = `id, task, source, outcome, input_tokens, output_tokens, cache_creation_input_tokens,
  cache_read_input_tokens, started_at, ended_at, note`;

export async function createTrace(
  db: PostgresDatabase,
  id: string,
  task: string,
  source: TraceSource,
): Promise<void> {
  await db.run(
    "INSERT INTO tooldistill.traces (id, task, source) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
    [id, task, source],
  );
}

export async function getTrace(db: PostgresDatabase, id: string): Promise<TraceRecord | null> {
  const row = await db.first(`SELECT ${TRACE_COLUMNS} FROM tooldistill.traces WHERE id = $1`, [id]);
  return row ? traceFromRow(row) : null;
}

export async function traceIdsStartingWith(
  db: PostgresDatabase,
  prefix: string,
  limit: number,
): Promise<string[]> {
  const rows = await db.rows(
    "SELECT id FROM tooldistill.traces WHERE starts_with(id, $1) ORDER BY started_at DESC, seq DESC LIMIT $2",
    [prefix, limit],
  );
  return rows.map((r) => String(r["id"]));
}

export async function listTraces(db: PostgresDatabase, limit: number): Promise<TraceRecord[]> {
  const rows = await db.rows(
    `SELECT ${TRACE_COLUMNS} FROM tooldistill.traces ORDER BY started_at DESC, seq DESC LIMIT $1`,
    [limit],
  );
  return rows.map(traceFromRow);
}

export async function setTask(db: PostgresDatabase, id: string, task: string): Promise<void> {
  await db.run("UPDATE tooldistill.traces SET task = $1 WHERE id = $2", [task, id]);
}

export async function setOutcome(db: PostgresDatabase, id: string, success: boolean): Promise<void> {
  await db.run("UPDATE tooldistill.traces SET outcome = $1 WHERE id = $2", [success, id]);
}

/** One statement: concurrent additions from several processes all count. */
export async function addUsage(db: PostgresDatabase, id: string, usage: UsageTotals): Promise<void> {
  await db.run(
    `UPDATE tooldistill.traces SET input_tokens = input_tokens + $1, output_tokens = output_tokens + $2,
     cache_creation_input_tokens = cache_creation_input_tokens + $3,
     cache_read_input_tokens = cache_read_input_tokens + $4 WHERE id = $5`,
    [
      usage.input_tokens,
      usage.output_tokens,
      usage.cache_creation_input_tokens,
      usage.cache_read_input_tokens,
      id,
    ],
  );
}

export async function endTrace(db: PostgresDatabase, id: string): Promise<void> {
  await db.run("UPDATE tooldistill.traces SET ended_at = COALESCE(ended_at, now()) WHERE id = $1", [id]);
}

export async function setTraceNote(db: PostgresDatabase, id: string, note: string): Promise<void> {
  await db.run("UPDATE tooldistill.traces SET note = $1 WHERE id = $2", [note, id]);
}

export async function getTraceFlags(db: PostgresDatabase, id: string): Promise<TraceFlags> {
  return traceFlagsFromRow(
    await db.first("SELECT nudged, proposed, replace_name FROM tooldistill.traces WHERE id = $1", [id]),
  );
}

/** The row lock of the UPDATE makes the nudge go to exactly one caller. */
export async function claimNudge(db: PostgresDatabase, id: string): Promise<boolean> {
  return (
    (await db.run("UPDATE tooldistill.traces SET nudged = true WHERE id = $1 AND NOT nudged", [id])) === 1
  );
}

export async function markProposed(db: PostgresDatabase, id: string): Promise<void> {
  await db.run("UPDATE tooldistill.traces SET proposed = true WHERE id = $1", [id]);
}

export async function setReplaceName(db: PostgresDatabase, id: string, name: string): Promise<void> {
  await db.run("UPDATE tooldistill.traces SET replace_name = $1 WHERE id = $2", [name, id]);
}
