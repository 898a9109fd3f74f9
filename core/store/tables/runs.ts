/**
 * What happens when distilled tools run: `runs` (every live run with its outcome and evidence, which the demotion
 * rule and `show` read), `run_stats` (the counters exposure ranks by) and `base_health` (infrastructure failures of
 * each base tool, and what its probe last said). Counters change in one statement each, so runs recorded by many
 * processes at once all count.
 */
import { type Dialect, type Read, read, sql } from "../engine.ts";
import type { BaseHealthRecord, NewRun, RunOutcome, RunRecord, RunStats } from "../records.ts";
import { baseHealthFromRow, json, runFromRow, runStatsFromRow } from "../row-mappers.ts";
import type { Tables } from "./types.ts";

const INSERT_RUN = sql(
  (d) => `INSERT INTO ${d.t.runs} (name, version, outcome, trace_id, call_id, inner_calls, evidence, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ${d.now}) RETURNING at`,
);
const COUNT_RUN = sql(
  (d) => `INSERT INTO ${d.t.run_stats} AS s
       (name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at)
     VALUES (?, ?, 1, ?, ?, ?, ?, ?)
     ON CONFLICT (name, version) DO UPDATE SET runs = s.runs + 1, successes = s.successes + excluded.successes,
       failures = s.failures + excluded.failures, not_applicable = s.not_applicable + excluded.not_applicable,
       inner_calls = s.inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`,
);
const STATS = sql(
  (d) => `SELECT runs, successes, failures, not_applicable, inner_calls, last_run_at FROM ${d.t.run_stats}
     WHERE name = ? AND version = ?`,
);
/** Run counters of a version (zeros when it never ran). */
export function runStatsRead(d: Dialect, name: string, version: number): Read<RunStats> {
  return { sql: STATS(d), params: [name, version], map: (rows) => runStatsFromRow(name, version, rows[0]) };
}

const ALL_STATS = sql(
  (d) => `SELECT name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at
     FROM ${d.t.run_stats}`,
);

/** Every version's run counters that has any (a version without a row never ran). */
export function allRunStatsRead(d: Dialect): Read<RunStats[]> {
  return {
    sql: ALL_STATS(d),
    params: [],
    map: (rows) => rows.map((r) => runStatsFromRow(String(r["name"]), Number(r["version"]), r)),
  };
}

const RUN_COLUMNS = "name, version, outcome, trace_id, call_id, inner_calls, evidence, at";
const RECENT = sql(
  (d) => `SELECT ${RUN_COLUMNS} FROM ${d.t.runs} WHERE name = ? AND version = ? ORDER BY id DESC LIMIT ?`,
);
const RECENT_OF = sql(
  (
    d,
  ) => `SELECT ${RUN_COLUMNS} FROM ${d.t.runs} WHERE name = ? AND version = ? AND ${d.anyOf("outcome", "?", "text")}
     ORDER BY id DESC LIMIT ?`,
);
const CONSECUTIVE = sql((d) => `SELECT consecutive FROM ${d.t.base_health} WHERE tool = ?`);
/** Ends a base tool's run of failures (the tool bound to `tool`); matches no row while it is healthy. */
export function healthyAgain(d: Dialect, tool: string): string {
  return `UPDATE ${d.t.base_health} SET consecutive = 0, last_ok_at = ${d.now} WHERE tool = ${tool} AND consecutive > 0`;
}

/** Counts an infrastructure failure of the base tool bound to `tool`, with the error bound to `error`. */
export function failedOnce(d: Dialect, tool: string, error: string): string {
  return `INSERT INTO ${d.t.base_health} AS h (tool, failures, consecutive, last_error, last_failure_at)
     VALUES (${tool}, 1, 1, ${error}, ${d.now})
     ON CONFLICT (tool) DO UPDATE SET failures = h.failures + 1, consecutive = h.consecutive + 1,
       last_error = excluded.last_error, last_failure_at = excluded.last_failure_at`;
}

const HEALTHY_AGAIN = sql((d) => healthyAgain(d, "?"));
const FAILED = sql((d) => failedOnce(d, "?", "?"));
const PROBED = sql(
  (d) => `INSERT INTO ${d.t.base_health} AS h (tool, probe_ok, probed_at) VALUES (?, ?, ${d.now})
     ON CONFLICT (tool) DO UPDATE SET probe_ok = excluded.probe_ok, probed_at = excluded.probed_at,
       consecutive = CASE WHEN excluded.probe_ok THEN 0 ELSE h.consecutive END`,
);
const HEALTH = sql(
  (d) => `SELECT tool, failures, consecutive, last_error, last_failure_at, last_ok_at, probe_ok, probed_at
     FROM ${d.t.base_health} ORDER BY tool`,
);

/** The run and health methods of RegistryData. */
export const runMethods = {
  /** Records one live run and counts it, in one transaction (both rows, or neither), at one time. */
  async recordRun(this: Tables, run: NewRun): Promise<void> {
    // A run that took an outcome its call site declared did the task as written: a success.
    const ok = run.outcome === "ok" || run.outcome === "declared" ? 1 : 0;
    const na = run.outcome === "not_applicable" ? 1 : 0;
    const failed = ok || na ? 0 : 1;
    await this.engine.transaction(async (tx) => {
      const inserted = await tx.first(INSERT_RUN(tx.dialect), [
        run.name,
        run.version,
        run.outcome,
        run.traceId ?? null,
        run.callId ?? null,
        run.innerCalls,
        json(run.evidence),
      ]);
      // The counters carry the run's own time, whatever the clock says by now.
      await tx.run(COUNT_RUN(tx.dialect), [
        run.name,
        run.version,
        ok,
        failed,
        na,
        run.innerCalls,
        String(inserted?.["at"]),
      ]);
    });
  },
  async allRunStats(this: Tables): Promise<RunStats[]> {
    return read(this.engine, allRunStatsRead(this.engine.dialect));
  },
  async getRunStats(this: Tables, name: string, version: number): Promise<RunStats> {
    return read(this.engine, runStatsRead(this.engine.dialect, name, version));
  },
  async recentRuns(
    this: Tables,
    name: string,
    version: number,
    limit: number,
    outcomes?: readonly RunOutcome[],
  ): Promise<RunRecord[]> {
    const rows =
      outcomes === undefined
        ? await this.engine.rows(RECENT(this.engine.dialect), [name, version, limit])
        : await this.engine.rows(RECENT_OF(this.engine.dialect), [name, version, outcomes, limit]);
    return rows.map(runFromRow);
  },
  /**
   * Counts a base tool's answer: an infrastructure failure adds to its failures; an answer after failures makes it
   * healthy again. A healthy tool's answer writes nothing (base calls are frequent; only a change is a write).
   */
  async recordBaseHealth(
    this: Tables,
    tool: string,
    ok: boolean,
    error: string | null = null,
  ): Promise<void> {
    const e = this.engine;
    if (!ok) {
      await e.run(FAILED(e.dialect), [tool, error]);
      return;
    }
    // Read first: on SQLite even an UPDATE that matches nothing takes the write lock every recorder contends for.
    const row = await e.first(CONSECUTIVE(e.dialect), [tool]);
    if (row !== undefined && Number(row["consecutive"]) > 0) await e.run(HEALTHY_AGAIN(e.dialect), [tool]);
  },
  /** Records what the health probe said of a base tool; a healthy answer ends its run of failures. */
  async recordProbe(this: Tables, tool: string, ok: boolean): Promise<void> {
    await this.engine.run(PROBED(this.engine.dialect), [tool, ok]);
  },
  async baseHealth(this: Tables): Promise<BaseHealthRecord[]> {
    return (await this.engine.rows(HEALTH(this.engine.dialect))).map(baseHealthFromRow);
  },
};
