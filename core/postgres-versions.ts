/**
 * The versions of distilled tools in the PostgreSQL registry, with their code: `versions`, `status_history`,
 * `dependencies` and `run_stats`. A new version takes the lock of its tool's row in `tools` before it reads the
 * highest number, so concurrent proposers get consecutive numbers; a status change and its history row are one
 * statement, which the history's trigger announces when it commits.
 */
import { DistillError } from "./errors.ts";
import type { PostgresDatabase } from "./postgres-database.ts";
import {
  type DependencyRecord,
  dependencyFromRow,
  type HistoryRecord,
  historyFromRow,
  json,
  type RunStats,
  runStatsFromRow,
  type VersionRecord,
  versionFromRow,
} from "./store-rows.ts";
import type { NewVersion, StatusChange } from "./store-versions.ts";
import { hashSource } from "./tool-files.ts";
import { toolNameProblem } from "./tool-names.ts";
import type { Status, Verdict } from "./types.ts";

/** Every column of a version but its code (read only when it runs or is verified). */
const VERSION_COLUMNS = `name, version, status, problems, baseline, baseline_tokens, source_trace, description,
  input_schema, test_inputs, source_hash, verdict, queued_rebuild, rebuild_note, created_at`;

const HISTORY_COLUMNS = "name, version, from_status, to_status, reason, evidence, at";

export async function readCode(db: PostgresDatabase, name: string, version: number): Promise<string> {
  const row = await db.first("SELECT code FROM tooldistill.versions WHERE name = $1 AND version = $2", [
    name,
    version,
  ]);
  if (!row) throw new DistillError("NOT_FOUND", `${name} v${version} is not in the store ${db.where}`);
  return String(row["code"]);
}

/** Stores a new draft: the tool's row locked, the next number taken, the version and its history in one go. */
export async function createVersion(db: PostgresDatabase, v: NewVersion): Promise<VersionRecord> {
  const problem = toolNameProblem(v.name);
  if (problem !== null) throw new DistillError("PROPOSAL_INVALID", problem);
  return db.atomic(async (tx) => {
    // DO UPDATE (not DO NOTHING) so the row is locked whether it was new or not; a concurrent proposer waits
    // here until this transaction ends, then reads the number this one took.
    await tx.run(
      "INSERT INTO tooldistill.tools (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = excluded.name",
      [v.name],
    );
    const row = await tx.first(
      `INSERT INTO tooldistill.versions (name, version, status, description, input_schema, test_inputs,
         source_trace, code, source_hash)
       VALUES ($1::text, (SELECT COALESCE(MAX(version), 0) + 1 FROM tooldistill.versions WHERE name = $1::text),
         'draft', $2, $3, $4, $5, $6, $7)
       RETURNING ${VERSION_COLUMNS}`,
      [
        v.name,
        v.description,
        JSON.stringify(v.inputSchema),
        JSON.stringify(v.testInputs),
        v.sourceTrace,
        v.code,
        hashSource(v.code),
      ],
    );
    const created = versionFromRow(row!);
    await tx.run(
      `INSERT INTO tooldistill.status_history (name, version, from_status, to_status, reason)
       VALUES ($1, $2, NULL, 'draft', $3)`,
      [created.name, created.version, v.reason],
    );
    return created;
  });
}

export async function getVersion(
  db: PostgresDatabase,
  name: string,
  version: number,
): Promise<VersionRecord | null> {
  const row = await db.first(
    `SELECT ${VERSION_COLUMNS} FROM tooldistill.versions WHERE name = $1 AND version = $2`,
    [name, version],
  );
  return row ? versionFromRow(row) : null;
}

export async function listVersions(
  db: PostgresDatabase,
  filter: { name?: string; status?: Status },
): Promise<VersionRecord[]> {
  const rows = await db.rows(
    `SELECT ${VERSION_COLUMNS} FROM tooldistill.versions
     WHERE ($1::text IS NULL OR name = $1) AND ($2::text IS NULL OR status = $2) ORDER BY name, version`,
    [filter.name ?? null, filter.status ?? null],
  );
  return rows.map(versionFromRow);
}

/** The guarded update and its history row as one statement: both, or (guard failed) neither. */
export async function setStatus(db: PostgresDatabase, change: StatusChange): Promise<boolean> {
  const inserted = await db.run(
    `WITH changed AS (
       UPDATE tooldistill.versions SET status = $1::text, problems = $2::json,
         queued_rebuild = CASE WHEN $1::text = 'deprecated' THEN false ELSE queued_rebuild END,
         rebuild_note = CASE WHEN $1::text = 'deprecated' THEN NULL ELSE rebuild_note END
       WHERE name = $3 AND version = $4 AND status = $5::text
       RETURNING name, version
     )
     INSERT INTO tooldistill.status_history (name, version, from_status, to_status, reason, evidence)
     SELECT name, version, $5::text, $1::text, $6, $7::json FROM changed`,
    [
      change.to,
      JSON.stringify([...new Set(change.problems)].sort()),
      change.name,
      change.version,
      change.expect,
      change.reason,
      json(change.evidence),
    ],
  );
  return inserted === 1;
}

export async function setVerification(
  db: PostgresDatabase,
  name: string,
  version: number,
  verdict: Verdict,
  baselineTokens: number | null,
): Promise<void> {
  await db.run(
    `UPDATE tooldistill.versions SET verdict = $1, baseline = $2, baseline_tokens = $3
     WHERE name = $4 AND version = $5`,
    [JSON.stringify(verdict), verdict.baseline, baselineTokens, name, version],
  );
}

export async function setQueuedRebuild(
  db: PostgresDatabase,
  name: string,
  version: number,
  queued: boolean,
  note: string | null,
): Promise<void> {
  await db.run(
    "UPDATE tooldistill.versions SET queued_rebuild = $1, rebuild_note = $2 WHERE name = $3 AND version = $4",
    [queued, note, name, version],
  );
}

export async function getHistory(
  db: PostgresDatabase,
  name: string,
  version: number,
): Promise<HistoryRecord[]> {
  const rows = await db.rows(
    `SELECT ${HISTORY_COLUMNS} FROM tooldistill.status_history WHERE name = $1 AND version = $2 ORDER BY id`,
    [name, version],
  );
  return rows.map(historyFromRow);
}

export async function latestHistory(db: PostgresDatabase): Promise<HistoryRecord[]> {
  const rows = await db.rows(
    `SELECT DISTINCT ON (name, version) ${HISTORY_COLUMNS} FROM tooldistill.status_history
     ORDER BY name, version, id DESC`,
  );
  return rows.map(historyFromRow);
}

export async function lastActivation(db: PostgresDatabase, name: string, version: number): Promise<number> {
  const row = await db.first(
    `SELECT COALESCE(MAX(id), 0) AS id FROM tooldistill.status_history
     WHERE name = $1 AND version = $2 AND to_status = 'active'`,
    [name, version],
  );
  return Number(row?.["id"]);
}

export async function addHistory(db: PostgresDatabase, h: Omit<HistoryRecord, "at">): Promise<void> {
  await db.run(
    `INSERT INTO tooldistill.status_history (name, version, from_status, to_status, reason, evidence)
     VALUES ($1, $2, $3, $4, $5, $6::json)`,
    [h.name, h.version, h.from, h.to, h.reason, json(h.evidence)],
  );
}

export async function setDependencies(
  db: PostgresDatabase,
  name: string,
  version: number,
  deps: Omit<DependencyRecord, "name" | "version">[],
): Promise<void> {
  await db.atomic(async (tx) => {
    await tx.run("DELETE FROM tooldistill.dependencies WHERE name = $1 AND version = $2", [name, version]);
    if (deps.length === 0) return;
    await tx.run(
      `INSERT INTO tooldistill.dependencies (name, version, base_tool, fingerprint, avoided)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::boolean[])`,
      [
        name,
        version,
        deps.map((d) => d.baseTool),
        deps.map((d) => d.fingerprint),
        deps.map((d) => d.avoided),
      ],
    );
  });
}

export async function getDependencies(
  db: PostgresDatabase,
  name: string | undefined,
  version: number | undefined,
): Promise<DependencyRecord[]> {
  const rows = await db.rows(
    `SELECT name, version, base_tool, fingerprint, avoided FROM tooldistill.dependencies
     WHERE ($1::text IS NULL OR name = $1) AND ($2::integer IS NULL OR version = $2)
     ORDER BY name, version, base_tool`,
    [name ?? null, version ?? null],
  );
  return rows.map(dependencyFromRow);
}

export async function recordRun(
  db: PostgresDatabase,
  name: string,
  version: number,
  success: boolean,
  innerCalls: number,
): Promise<void> {
  await db.run(
    `INSERT INTO tooldistill.run_stats AS s (name, version, runs, successes, failures, inner_calls, last_run_at)
     VALUES ($1, $2, 1, $3, $4, $5, now())
     ON CONFLICT (name, version) DO UPDATE SET runs = s.runs + 1, successes = s.successes + excluded.successes,
       failures = s.failures + excluded.failures, inner_calls = s.inner_calls + excluded.inner_calls,
       last_run_at = excluded.last_run_at`,
    [name, version, success ? 1 : 0, success ? 0 : 1, innerCalls],
  );
}

export async function getRunStats(db: PostgresDatabase, name: string, version: number): Promise<RunStats> {
  const row = await db.first(
    "SELECT runs, successes, failures, inner_calls, last_run_at FROM tooldistill.run_stats WHERE name = $1 AND version = $2",
    [name, version],
  );
  return runStatsFromRow(name, version, row);
}
