/**
 * The tables of distilled tool versions: `versions` (with their tool files), `status_history`, `dependencies` and
 * `verified_definitions`. A status change and its history row are one transaction, so the history never disagrees with the
 * status. Functions over the open database; the Store offers them as its methods (see store.ts).
 */

import type { Status, Verdict } from "../../types.ts";
import type {
  DependencyRecord,
  HistoryRecord,
  NewDefinition,
  NewVersion,
  PrunedVersion,
  RunRef,
  StatusChange,
  VerifiedDefinition,
  VersionRecord,
} from "../records.ts";
import {
  dependencyFromRow,
  historyFromRow,
  json,
  now,
  verifiedDefinitionFromRow,
  versionFromRow,
} from "../row-mappers.ts";
import { hashSource, toolFilePath, writeToolCode } from "../tool-files.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

export type { NewDefinition, NewVersion, PrunedVersion, StatusChange } from "../records.ts";

const INSERT_HISTORY =
  "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?)";

/**
 * Stores a new draft version of the store at `root`: allocates the next version number, writes its tool file and
 * the rows in one transaction, so two proposers of the same name get different numbers. Returns the number.
 * Rejected versions do not count: the next number is the one after the newest version that is not rejected, and a
 * rejected version holding it is replaced (a failed attempt never uses up a number).
 */
export function createVersion(db: StoreDatabase, root: string, v: NewVersion): number {
  return db.transaction(() => {
    const row = db
      .stmt("SELECT COALESCE(MAX(version), 0) + 1 AS n FROM versions WHERE name = ? AND status != 'rejected'")
      .get(v.name);
    const n = Number(row?.["n"]);
    // Above every version that is not rejected, so a row holding the number is a rejected attempt.
    removeRows(db, v.name, n);
    writeToolCode(root, toolFilePath(root, v.name, n), v.code);
    const at = now();
    db.stmt(
      `INSERT INTO versions (name, version, status, description, input_schema, test_inputs, source_trace, source_hash, created_at)
       VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?)`,
    ).run(
      v.name,
      n,
      v.description,
      JSON.stringify(v.inputSchema),
      JSON.stringify(v.testInputs),
      v.sourceTrace,
      hashSource(v.code),
      at,
    );
    db.stmt(INSERT_HISTORY).run(v.name, n, null, "draft", v.reason, null, at);
    return n;
  });
}

/** Every row of a version (its status, history, dependencies, runs and definitions), not its file. */
function removeRows(db: StoreDatabase, name: string, version: number): void {
  for (const table of [
    "versions",
    "status_history",
    "dependencies",
    "run_stats",
    "runs",
    "verified_definitions",
  ]) {
    db.stmt(`DELETE FROM ${table} WHERE name = ? AND version = ?`).run(name, version);
  }
}

/** The oldest version of `name` that is not rejected whose code has `sourceHash`, or null. */
export function versionWithCode(db: StoreDatabase, name: string, sourceHash: string): VersionRecord | null {
  const row = db
    .stmt(
      "SELECT * FROM versions WHERE name = ? AND source_hash = ? AND status != 'rejected' ORDER BY version LIMIT 1",
    )
    .get(name, sourceHash);
  return row ? versionFromRow(row) : null;
}

/**
 * Removes the rows of every version in `statuses` whose last status change is older than `before` (an ISO time;
 * null: any age), in one transaction, and returns them; their files are the caller's to delete after the commit.
 * A tool's highest-numbered version that is not rejected is kept, so its number is never handed out again.
 */
export function pruneVersions(
  db: StoreDatabase,
  statuses: readonly Status[],
  before: string | null,
): PrunedVersion[] {
  return db.transaction(() => {
    const rows = db
      .stmt(
        `SELECT v.name, v.version, v.status, h.at AS since FROM versions v
         JOIN status_history h ON h.id = (SELECT MAX(id) FROM status_history WHERE name = v.name AND version = v.version)
         WHERE v.status IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR h.at < ?2)
         AND (v.status = 'rejected' OR v.version < (SELECT MAX(version) FROM versions WHERE name = v.name AND status != 'rejected'))
         ORDER BY v.name, v.version`,
      )
      .all(JSON.stringify(statuses), before);
    const pruned = rows.map((r) => ({
      name: r["name"] as string,
      version: Number(r["version"]),
      status: r["status"] as Status,
      since: r["since"] as string,
    }));
    for (const p of pruned) removeRows(db, p.name, p.version);
    return pruned;
  });
}

/** Adds definitions a version was verified against to its set; a known fingerprint gains its text if it had none. */
export function addVerifiedDefinitions(
  db: StoreDatabase,
  name: string,
  version: number,
  defs: readonly NewDefinition[],
): void {
  const at = now();
  const insert = db.stmt(
    `INSERT INTO verified_definitions (name, version, base_tool, fingerprint, definition, verified_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name, version, base_tool, fingerprint)
     DO UPDATE SET definition = COALESCE(definition, excluded.definition), verified_at = excluded.verified_at`,
  );
  db.transaction(() => {
    // An unknown definition is SQL NULL (not the JSON text null), so a later one with its text fills it in.
    for (const d of defs)
      insert.run(
        name,
        version,
        d.baseTool,
        d.fingerprint,
        d.definition === null ? null : JSON.stringify(d.definition),
        at,
      );
  });
}

/** The definitions versions were verified against (one version's, or every one's), oldest verification first. */
export function verifiedDefinitions(
  db: StoreDatabase,
  name: string | undefined,
  version: number | undefined,
): VerifiedDefinition[] {
  return db
    .stmt(
      `SELECT * FROM verified_definitions WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR version = ?2)
       ORDER BY name, version, base_tool, verified_at, fingerprint`,
    )
    .all(name ?? null, version ?? null)
    .map(verifiedDefinitionFromRow);
}

/** A version, or null. */
export function getVersion(db: StoreDatabase, name: string, version: number): VersionRecord | null {
  const row = db.stmt("SELECT * FROM versions WHERE name = ? AND version = ?").get(name, version);
  return row ? versionFromRow(row) : null;
}

/** Versions, by name then version; optionally one name and/or one status. */
export function listVersions(db: StoreDatabase, filter: { name?: string; status?: Status }): VersionRecord[] {
  const rows = db
    .stmt(
      `SELECT * FROM versions WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR status = ?2) ORDER BY name, version`,
    )
    .all(filter.name ?? null, filter.status ?? null);
  return rows.map(versionFromRow);
}

/** Applies a guarded status change and its history row in one transaction; false when the guard failed. */
export function setStatus(db: StoreDatabase, change: StatusChange): boolean {
  return db.transaction(() => {
    // A deprecated, rejected or superseded version is never rebuilt: its queue flag goes in the same write.
    const r = db
      .stmt(
        `UPDATE versions SET status = ?1, problems = ?2,
         queued_rebuild = CASE WHEN ?1 IN ('deprecated', 'rejected', 'superseded') THEN 0 ELSE queued_rebuild END,
         rebuild_note = CASE WHEN ?1 IN ('deprecated', 'rejected', 'superseded') THEN NULL ELSE rebuild_note END
         WHERE name = ?3 AND version = ?4 AND status = ?5`,
      )
      .run(
        change.to,
        JSON.stringify([...new Set(change.problems)].sort()),
        change.name,
        change.version,
        change.expect,
      );
    if (Number(r.changes) !== 1) return false;
    db.stmt(INSERT_HISTORY).run(
      change.name,
      change.version,
      change.expect,
      change.to,
      change.reason,
      json(change.evidence),
      now(),
    );
    return true;
  });
}

/** Stores the latest verdict and the measured baseline of a version. */
export function setVerification(
  db: StoreDatabase,
  name: string,
  version: number,
  verdict: Verdict,
  baselineTokens: number | null,
): void {
  db.stmt(
    "UPDATE versions SET verdict = ?, baseline = ?, baseline_tokens = ? WHERE name = ? AND version = ?",
  ).run(JSON.stringify(verdict), verdict.baseline, baselineTokens, name, version);
}

/** Records the live runs a version was replayed against, so re-verification replays the same ones. */
export function setReplayRuns(
  db: StoreDatabase,
  name: string,
  version: number,
  runs: readonly RunRef[],
): void {
  db.stmt("UPDATE versions SET replay_runs = ? WHERE name = ? AND version = ?").run(
    JSON.stringify(runs.map(({ trace, call }) => ({ trace, call }))),
    name,
    version,
  );
}

/** Queues (or unqueues) a version for a rebuild, with the note the distiller will get. */
export function setQueuedRebuild(
  db: StoreDatabase,
  name: string,
  version: number,
  queued: boolean,
  note: string | null,
): void {
  db.stmt("UPDATE versions SET queued_rebuild = ?, rebuild_note = ? WHERE name = ? AND version = ?").run(
    queued ? 1 : 0,
    note,
    name,
    version,
  );
}

/** The status history of a version, oldest first. */
export function getHistory(db: StoreDatabase, name: string, version: number): HistoryRecord[] {
  const rows = db
    .stmt("SELECT * FROM status_history WHERE name = ? AND version = ? ORDER BY id")
    .all(name, version);
  return rows.map(historyFromRow);
}

/** The newest history row of every version. */
export function latestHistory(db: StoreDatabase): HistoryRecord[] {
  const rows = db
    .stmt(
      "SELECT * FROM status_history WHERE id IN (SELECT MAX(id) FROM status_history GROUP BY name, version) ORDER BY name, version",
    )
    .all();
  return rows.map(historyFromRow);
}

/** The history row id of a version's last activation (0 when never active). */
export function lastActivation(db: StoreDatabase, name: string, version: number): number {
  const row = db
    .stmt(
      "SELECT COALESCE(MAX(id), 0) AS id FROM status_history WHERE name = ? AND version = ? AND to_status = 'active'",
    )
    .get(name, version);
  return Number(row?.["id"]);
}

/** Appends a history row without changing the version. */
export function addHistory(db: StoreDatabase, h: Omit<HistoryRecord, "at">): void {
  db.stmt(INSERT_HISTORY).run(h.name, h.version, h.from, h.to, h.reason, json(h.evidence), now());
}

/** Replaces the dependency rows of a version, in one transaction. */
export function setDependencies(
  db: StoreDatabase,
  name: string,
  version: number,
  deps: Omit<DependencyRecord, "name" | "version">[],
): void {
  db.transaction(() => {
    db.stmt("DELETE FROM dependencies WHERE name = ? AND version = ?").run(name, version);
    const insert = db.stmt(
      "INSERT INTO dependencies (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)",
    );
    for (const d of deps) insert.run(name, version, d.baseTool, d.fingerprint, d.avoided ? 1 : 0);
  });
}

/** Dependencies of one version, or of every version when no name is given. */
export function getDependencies(
  db: StoreDatabase,
  name: string | undefined,
  version: number | undefined,
): DependencyRecord[] {
  const rows = db
    .stmt(
      "SELECT * FROM dependencies WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR version = ?2) ORDER BY name, version, base_tool",
    )
    .all(name ?? null, version ?? null);
  return rows.map(dependencyFromRow);
}
