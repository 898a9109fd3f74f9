/**
 * The `traces` table: one recorded run, its totals and the flags of the nudge and the fallback distiller.
 * Functions over the open database; the Store offers them as its methods (see store.ts).
 */

import type { TraceRecord, TraceSource, UsageTotals } from "../../types.ts";
import type { TraceFlags } from "../records.ts";
import { now, traceFlagsFromRow, traceFromRow } from "../row-mappers.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

/** Creates a trace row; a trace that already exists is left as it is (hooks may race to create it). */
export function createTrace(db: StoreDatabase, id: string, task: string, source: TraceSource): void {
  db.stmt("INSERT OR IGNORE INTO traces (id, task, source, started_at) VALUES (?, ?, ?, ?)").run(
    id,
    task,
    source,
    now(),
  );
}

/** The trace, or null. */
export function getTrace(db: StoreDatabase, id: string): TraceRecord | null {
  const row = db.stmt("SELECT * FROM traces WHERE id = ?").get(id);
  return row ? traceFromRow(row) : null;
}

/** Ids of the traces whose id starts with `prefix` (at most `limit`), newest first. */
export function traceIdsStartingWith(db: StoreDatabase, prefix: string, limit: number): string[] {
  const rows = db
    .stmt("SELECT id FROM traces WHERE substr(id, 1, ?) = ? ORDER BY started_at DESC, rowid DESC LIMIT ?")
    .all(prefix.length, prefix, limit);
  return rows.map((r) => r["id"] as string);
}

/** Traces, newest first. */
export function listTraces(db: StoreDatabase, limit: number): TraceRecord[] {
  const rows = db.stmt("SELECT * FROM traces ORDER BY started_at DESC, rowid DESC LIMIT ?").all(limit);
  return rows.map(traceFromRow);
}

/** Sets the task text. */
export function setTask(db: StoreDatabase, id: string, task: string): void {
  db.stmt("UPDATE traces SET task = ? WHERE id = ?").run(task, id);
}

/** Records the caller's verdict on the run. */
export function setOutcome(db: StoreDatabase, id: string, success: boolean): void {
  db.stmt("UPDATE traces SET outcome = ? WHERE id = ?").run(success ? 1 : 0, id);
}

/** Adds usage to the trace's totals in one statement (several processes may add at once). */
export function addUsage(db: StoreDatabase, id: string, usage: UsageTotals): void {
  db.stmt(
    `UPDATE traces SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
     cache_creation_input_tokens = cache_creation_input_tokens + ?, cache_read_input_tokens = cache_read_input_tokens + ?
     WHERE id = ?`,
  ).run(
    usage.input_tokens,
    usage.output_tokens,
    usage.cache_creation_input_tokens,
    usage.cache_read_input_tokens,
    id,
  );
}

/** Marks the trace ended; the first end time is kept. */
export function endTrace(db: StoreDatabase, id: string): void {
  db.stmt("UPDATE traces SET ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(now(), id);
}

/** Records why something that should have happened at the end of the run did not. */
export function setTraceNote(db: StoreDatabase, id: string, note: string): void {
  db.stmt("UPDATE traces SET note = ? WHERE id = ?").run(note, id);
}

/** Nudge and proposal bookkeeping of a trace. */
export function getTraceFlags(db: StoreDatabase, id: string): TraceFlags {
  return traceFlagsFromRow(db.stmt("SELECT nudged, proposed, replace_name FROM traces WHERE id = ?").get(id));
}

/** Sets the nudge at most once: false when another caller already took it. */
export function claimNudge(db: StoreDatabase, id: string): boolean {
  const r = db.stmt("UPDATE traces SET nudged = 1 WHERE id = ? AND nudged = 0").run(id);
  return Number(r.changes) === 1;
}

/** Marks the trace as having had a proposal. */
export function markProposed(db: StoreDatabase, id: string): void {
  db.stmt("UPDATE traces SET proposed = 1 WHERE id = ?").run(id);
}

/** Sets the name a replacement should be proposed under. */
export function setReplaceName(db: StoreDatabase, id: string, name: string): void {
  db.stmt("UPDATE traces SET replace_name = ? WHERE id = ?").run(name, id);
}
