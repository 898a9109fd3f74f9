/**
 * What happens when distilled tools run, in the PostgreSQL registry: `runs` (every live run with its outcome and
 * evidence, which the demotion rule and `show` read), `run_stats` (the counters exposure ranks by) and
 * `base_health` (infrastructure failures of each base tool, and what its probe last said). Counters change in
 * one statement each, so runs recorded by many processes at once all count.
 */

import {
  type BaseHealthRecord,
  baseHealthFromRow,
  json,
  type RunOutcome,
  type RunRecord,
  type RunStats,
  runFromRow,
  runStatsFromRow,
} from "../records.ts";
import type { NewRun } from "../sqlite/sqlite-runs.ts";
import type { PostgresDatabase } from "./postgres-database.ts";

/** Records one live run and counts it, in one transaction (both rows, or neither). */
export async function recordRun(db: PostgresDatabase, run: NewRun): Promise<void> {
  // A run that took an outcome its call site declared did the task as written: a success.
  const ok = run.outcome === "ok" || run.outcome === "declared" ? 1 : 0;
  const na = run.outcome === "not_applicable" ? 1 : 0;
  const failed = ok || na ? 0 : 1;
  await db.atomic(async (tx) => {
    // now() is the transaction's start: the run and its counters carry the same time.
    await tx.run(
      `INSERT INTO tooldistill.runs (name, version, outcome, trace_id, call_id, inner_calls, evidence)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        run.name,
        run.version,
        run.outcome,
        run.traceId ?? null,
        run.callId ?? null,
        run.innerCalls,
        json(run.evidence),
      ],
    );
    await tx.run(
      `INSERT INTO tooldistill.run_stats AS s
         (name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at)
       VALUES ($1, $2, 1, $3, $4, $5, $6, now())
       ON CONFLICT (name, version) DO UPDATE SET runs = s.runs + 1, successes = s.successes + excluded.successes,
         failures = s.failures + excluded.failures, not_applicable = s.not_applicable + excluded.not_applicable,
         inner_calls = s.inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`,
      [run.name, run.version, ok, failed, na, run.innerCalls],
    );
  });
}

export async function getRunStats(db: PostgresDatabase, name: string, version: number): Promise<RunStats> {
  const row = await db.first(
    `SELECT runs, successes, failures, not_applicable, inner_calls, last_run_at FROM tooldistill.run_stats
     WHERE name = $1 AND version = $2`,
    [name, version],
  );
  return runStatsFromRow(name, version, row);
}

export async function recentRuns(
  db: PostgresDatabase,
  name: string,
  version: number,
  limit: number,
  outcomes: readonly RunOutcome[] | null,
): Promise<RunRecord[]> {
  const rows = await db.rows(
    `SELECT name, version, outcome, trace_id, call_id, inner_calls, evidence, at FROM tooldistill.runs
     WHERE name = $1 AND version = $2 AND ($3::text[] IS NULL OR outcome = ANY($3::text[]))
     ORDER BY id DESC LIMIT $4`,
    [name, version, outcomes === null ? null : [...outcomes], limit],
  );
  return rows.map(runFromRow);
}

/**
 * Counts a base tool's answer: an infrastructure failure adds to its failures; an answer after failures makes it
 * healthy again. A healthy tool's answer writes nothing (base calls are frequent; only a change is a write).
 */
export async function recordBaseHealth(
  db: PostgresDatabase,
  tool: string,
  ok: boolean,
  error: string | null,
): Promise<void> {
  if (ok) {
    await db.run(
      "UPDATE tooldistill.base_health SET consecutive = 0, last_ok_at = now() WHERE tool = $1 AND consecutive > 0",
      [tool],
    );
    return;
  }
  await db.run(
    `INSERT INTO tooldistill.base_health AS h (tool, failures, consecutive, last_error, last_failure_at)
     VALUES ($1, 1, 1, $2, now())
     ON CONFLICT (tool) DO UPDATE SET failures = h.failures + 1, consecutive = h.consecutive + 1,
       last_error = excluded.last_error, last_failure_at = excluded.last_failure_at`,
    [tool, error],
  );
}

/** Records what the health probe said of a base tool; a healthy answer ends its run of failures. */
export async function recordProbe(db: PostgresDatabase, tool: string, ok: boolean): Promise<void> {
  await db.run(
    `INSERT INTO tooldistill.base_health AS h (tool, probe_ok, probed_at) VALUES ($1, $2, now())
     ON CONFLICT (tool) DO UPDATE SET probe_ok = excluded.probe_ok, probed_at = excluded.probed_at,
       consecutive = CASE WHEN excluded.probe_ok THEN 0 ELSE h.consecutive END`,
    [tool, ok],
  );
}

export async function baseHealth(db: PostgresDatabase): Promise<BaseHealthRecord[]> {
  const rows = await db.rows(
    `SELECT tool, failures, consecutive, last_error, last_failure_at, last_ok_at, probe_ok, probed_at
     FROM tooldistill.base_health ORDER BY tool`,
  );
  return rows.map(baseHealthFromRow);
}
