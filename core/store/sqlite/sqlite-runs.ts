/**
 * The tables of what happens when distilled tools run: `runs` (every live run with its outcome and evidence, which
 * the demotion rule and `show` read), `run_stats` (the counters exposure ranks by) and `base_health` (infrastructure
 * failures of each base tool, and what its probe last said). Functions over the open database; the Store offers
 * them as its methods (see store.ts).
 */

import type { BaseHealthRecord, NewRun, RunOutcome, RunRecord, RunStats } from "../records.ts";
import { baseHealthFromRow, json, now, runFromRow, runStatsFromRow } from "../row-mappers.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

export type { NewRun } from "../records.ts";

/** Records one live run and counts it, in one transaction. */
export function recordRun(db: StoreDatabase, run: NewRun): void {
  const at = now();
  // A run that took an outcome its call site declared did the task as written: a success.
  const ok = run.outcome === "ok" || run.outcome === "declared" ? 1 : 0;
  const na = run.outcome === "not_applicable" ? 1 : 0;
  const failed = ok || na ? 0 : 1;
  db.transaction(() => {
    db.stmt(
      "INSERT INTO runs (name, version, outcome, trace_id, call_id, inner_calls, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      run.name,
      run.version,
      run.outcome,
      run.traceId ?? null,
      run.callId ?? null,
      run.innerCalls,
      json(run.evidence),
      at,
    );
    db.stmt(
      `INSERT INTO run_stats (name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?)
       ON CONFLICT (name, version) DO UPDATE SET runs = runs + 1, successes = successes + excluded.successes,
       failures = failures + excluded.failures, not_applicable = not_applicable + excluded.not_applicable,
       inner_calls = inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`,
    ).run(run.name, run.version, ok, failed, na, run.innerCalls, at);
  });
}

/** Run counters of a version (zeros when it never ran). */
export function getRunStats(db: StoreDatabase, name: string, version: number): RunStats {
  return runStatsFromRow(
    name,
    version,
    db.stmt("SELECT * FROM run_stats WHERE name = ? AND version = ?").get(name, version),
  );
}

/** The newest `limit` runs of a version, newest first, optionally only some outcomes. */
export function recentRuns(
  db: StoreDatabase,
  name: string,
  version: number,
  limit: number,
  outcomes: readonly RunOutcome[] | null,
): RunRecord[] {
  const rows = db
    .stmt(
      `SELECT * FROM runs WHERE name = ?1 AND version = ?2 AND (?3 IS NULL OR outcome IN (SELECT value FROM json_each(?3)))
       ORDER BY id DESC LIMIT ?4`,
    )
    .all(name, version, outcomes === null ? null : JSON.stringify(outcomes), limit);
  return rows.map(runFromRow);
}

/**
 * Counts a base tool's answer: an infrastructure failure adds to its failures; an answer after failures makes it
 * healthy again. A healthy tool's answer writes nothing (base calls are frequent; only a change is a write).
 */
export function recordBaseHealth(db: StoreDatabase, tool: string, ok: boolean, error: string | null): void {
  if (ok) {
    const row = db.stmt("SELECT consecutive FROM base_health WHERE tool = ?").get(tool);
    if (!row || Number(row["consecutive"]) === 0) return;
    db.stmt("UPDATE base_health SET consecutive = 0, last_ok_at = ? WHERE tool = ?").run(now(), tool);
    return;
  }
  const at = now();
  db.stmt(
    `INSERT INTO base_health (tool, failures, consecutive, last_error, last_failure_at) VALUES (?1, 1, 1, ?2, ?3)
     ON CONFLICT (tool) DO UPDATE SET failures = failures + 1, consecutive = consecutive + 1,
     last_error = ?2, last_failure_at = ?3`,
  ).run(tool, error, at);
}

/** Records what the health probe said of a base tool; a healthy answer ends its run of failures. */
export function recordProbe(db: StoreDatabase, tool: string, ok: boolean): void {
  const at = now();
  db.stmt(
    `INSERT INTO base_health (tool, probe_ok, probed_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (tool) DO UPDATE SET probe_ok = ?2, probed_at = ?3,
     consecutive = CASE WHEN ?2 = 1 THEN 0 ELSE consecutive END`,
  ).run(tool, ok ? 1 : 0, at);
}

/** Every base tool with a health record (a failure or a probe), by name. */
export function baseHealth(db: StoreDatabase): BaseHealthRecord[] {
  return db.stmt("SELECT * FROM base_health ORDER BY tool").all().map(baseHealthFromRow);
}
