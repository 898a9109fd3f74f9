/**
 * The versions of distilled tools in the PostgreSQL registry, with their code: `versions`, `status_history`,
 * `dependencies` and `verified_definitions`. A new version takes the lock of its tool's row in `tools` before it
 * reads the highest number, so concurrent proposers get consecutive numbers; a status change and its history row
 * are one statement, which the history's trigger announces when it commits. Removing a version removes its
 * history, dependencies, definitions, runs and counters with it (their foreign keys cascade).
 */
import { DistillError } from "../../errors.ts";
import type { Status, Verdict } from "../../types.ts";
import { toolNameProblem } from "../../util/tool-names.ts";
import {
  type DependencyRecord,
  dependencyFromRow,
  type HistoryRecord,
  historyFromRow,
  json,
  type RunRef,
  type VerifiedDefinition,
  type VersionRecord,
  verifiedDefinitionFromRow,
  versionFromRow,
} from "../records.ts";
import type { NewDefinition, NewVersion, PrunedVersion, StatusChange } from "../sqlite/sqlite-versions.ts";
import { hashSource } from "../tool-files.ts";
import type { PostgresDatabase } from "./postgres-database.ts";

/** Every column of a version but its code (read only when it runs or is verified). */
const VERSION_COLUMNS = `name, version, status, problems, baseline, baseline_tokens, source_trace, description,
  input_schema, test_inputs, source_hash, verdict, queued_rebuild, rebuild_note, created_at, replay_runs`;

const HISTORY_COLUMNS = "name, version, from_status, to_status, reason, evidence, at";

export async function readCode(db: PostgresDatabase, name: string, version: number): Promise<string> {
  const row = await db.first("SELECT code FROM tooldistill.versions WHERE name = $1 AND version = $2", [
    name,
    version,
  ]);
  if (!row) throw new DistillError("NOT_FOUND", `${name} v${version} is not in the store ${db.where}`);
  return String(row["code"]);
}

/**
 * Stores a new draft: the tool's row locked, the next number taken, the version and its history in one
 * transaction. As on SQLite, rejected versions do not count: the number is the one after the newest version that
 * is not rejected, and a rejected attempt holding it is replaced (a failed proposal never uses up a number).
 */
export async function createVersion(db: PostgresDatabase, v: NewVersion): Promise<VersionRecord> {
  const problem = toolNameProblem(v.name);
  if (problem !== null) throw new DistillError("PROPOSAL_INVALID", problem);
  return db.atomic(async (tx) => {
    // The tool's row locked whether it was new or not: a concurrent proposer waits here until this transaction
    // ends, then reads the number this one took. FOR NO KEY UPDATE, not an upsert of the key (which takes FOR
    // UPDATE): a verification committing meanwhile updates its version row twice, and the second update checks
    // the foreign key to this row (FOR KEY SHARE); under FOR UPDATE it would wait here while this transaction
    // waits for its version row below: a deadlock.
    await tx.run("INSERT INTO tooldistill.tools (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [v.name]);
    await tx.run("SELECT 1 FROM tooldistill.tools WHERE name = $1 FOR NO KEY UPDATE", [v.name]);
    // The drafts and rejected attempts locked too: a status change racing this one (a draft's verdict, a
    // rejected attempt verified by a person after all) finishes first, so the number is read from statuses that
    // hold until the commit. Only those: a promotion holds the active and verified rows it moves while it
    // commits, and locking those here, in another order, could deadlock with it.
    await tx.run(
      "SELECT 1 FROM tooldistill.versions WHERE name = $1 AND status IN ('draft', 'rejected') ORDER BY version FOR UPDATE",
      [v.name],
    );
    const next = await tx.first(
      `SELECT COALESCE(MAX(version) FILTER (WHERE status <> 'rejected'), 0) + 1 AS n
       FROM tooldistill.versions WHERE name = $1`,
      [v.name],
    );
    const n = Number(next?.["n"]);
    // Above every version that is not rejected, so a row holding the number is a rejected attempt.
    await tx.run("DELETE FROM tooldistill.versions WHERE name = $1 AND version = $2", [v.name, n]);
    const row = await tx.first(
      `INSERT INTO tooldistill.versions (name, version, status, description, input_schema, test_inputs,
         source_trace, code, source_hash)
       VALUES ($1, $2, 'draft', $3, $4, $5, $6, $7, $8)
       RETURNING ${VERSION_COLUMNS}`,
      [
        v.name,
        n,
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

export async function versionWithCode(
  db: PostgresDatabase,
  name: string,
  sourceHash: string,
): Promise<VersionRecord | null> {
  const row = await db.first(
    `SELECT ${VERSION_COLUMNS} FROM tooldistill.versions
     WHERE name = $1 AND source_hash = $2 AND status <> 'rejected' ORDER BY version LIMIT 1`,
    [name, sourceHash],
  );
  return row ? versionFromRow(row) : null;
}

/**
 * Removes every version in `statuses` whose last status change is older than `before` (null: any age), with
 * everything of it (the foreign keys cascade), in one statement; its code goes with its row. A tool's
 * highest-numbered version that is not rejected is kept, so its number is never handed out again. A version
 * whose status changes meanwhile is re-checked by the DELETE and kept.
 */
export async function pruneVersions(
  db: PostgresDatabase,
  statuses: readonly Status[],
  before: string | null,
): Promise<PrunedVersion[]> {
  const rows = await db.rows(
    `DELETE FROM tooldistill.versions v USING tooldistill.status_history h
     WHERE h.id = (SELECT MAX(id) FROM tooldistill.status_history x WHERE x.name = v.name AND x.version = v.version)
       AND v.status = ANY($1::text[]) AND ($2::timestamptz IS NULL OR h.at < $2::timestamptz)
       AND (v.status = 'rejected' OR v.version < (SELECT MAX(version) FROM tooldistill.versions w
         WHERE w.name = v.name AND w.status <> 'rejected'))
     RETURNING v.name, v.version, v.status, h.at AS since`,
    [[...statuses], before],
  );
  return rows
    .map((r) => ({
      name: String(r["name"]),
      version: Number(r["version"]),
      status: r["status"] as Status,
      since: String(r["since"]),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version - b.version));
}

/** Adds definitions to a version's set, in one transaction; a known fingerprint gains its text if it had none. */
export async function addVerifiedDefinitions(
  db: PostgresDatabase,
  name: string,
  version: number,
  defs: readonly NewDefinition[],
): Promise<void> {
  if (defs.length === 0) return;
  await db.atomic(async (tx) => {
    // One statement per definition, in order, as SQLite does: a fingerprint given twice is one row. An unknown
    // definition is SQL NULL (not the JSON text null), so a later one with its text fills it in.
    for (const d of defs) {
      await tx.run(
        `INSERT INTO tooldistill.verified_definitions AS d (name, version, base_tool, fingerprint, definition)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (name, version, base_tool, fingerprint)
         DO UPDATE SET definition = COALESCE(d.definition, excluded.definition), verified_at = excluded.verified_at`,
        [
          name,
          version,
          d.baseTool,
          d.fingerprint,
          d.definition === null ? null : JSON.stringify(d.definition),
        ],
      );
    }
  });
}

export async function verifiedDefinitions(
  db: PostgresDatabase,
  name: string | undefined,
  version: number | undefined,
): Promise<VerifiedDefinition[]> {
  const rows = await db.rows(
    `SELECT name, version, base_tool, fingerprint, definition, verified_at FROM tooldistill.verified_definitions
     WHERE ($1::text IS NULL OR name = $1) AND ($2::integer IS NULL OR version = $2)
     ORDER BY name, version, base_tool, verified_at, fingerprint`,
    [name ?? null, version ?? null],
  );
  return rows.map(verifiedDefinitionFromRow);
}

export async function setReplayRuns(
  db: PostgresDatabase,
  name: string,
  version: number,
  runs: readonly RunRef[],
): Promise<void> {
  await db.run("UPDATE tooldistill.versions SET replay_runs = $1 WHERE name = $2 AND version = $3", [
    JSON.stringify(runs.map(({ trace, call }) => ({ trace, call }))),
    name,
    version,
  ]);
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

/** Statuses that are never rebuilt: a change to one drops the rebuild queue flag (a constraint requires it). */
const NEVER_REBUILT = "'deprecated', 'rejected', 'superseded'";

/** The guarded update and its history row as one statement: both, or (guard failed) neither. */
export async function setStatus(db: PostgresDatabase, change: StatusChange): Promise<boolean> {
  const inserted = await db.run(
    `WITH changed AS (
       UPDATE tooldistill.versions SET status = $1::text, problems = $2::json,
         queued_rebuild = CASE WHEN $1::text IN (${NEVER_REBUILT}) THEN false ELSE queued_rebuild END,
         rebuild_note = CASE WHEN $1::text IN (${NEVER_REBUILT}) THEN NULL ELSE rebuild_note END
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
