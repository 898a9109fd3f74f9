/**
 * The `versions` table and each version's code (a tool file under the SQLite store's `tools/`, or the row's `code`
 * column on PostgreSQL): new drafts, guarded status changes with their history row, verdicts, the rebuild queue,
 * and pruning. A status change and its history row are one transaction, so the history never disagrees with the
 * status.
 */
import { rmSync } from "node:fs";
import { DistillError } from "../../errors.ts";
import type { Status, Verdict } from "../../types.ts";
import { toolNameProblem } from "../../util/tool-names.ts";
import { type Dialect, type Engine, type Read, read, sql } from "../engine.ts";
import type { NewVersion, PrunedVersion, RunRef, StatusChange, VersionRecord } from "../records.ts";
import { json, versionFromRow } from "../row-mappers.ts";
import { hashSource, readToolCode, toolFilePath, writeToolCode } from "../tool-files.ts";
import { INSERT_HISTORY } from "./history.ts";
import type { Tables } from "./types.ts";

/** Every column of a version but its code (read only when it runs or is verified). */
const COLUMNS = `name, version, status, problems, baseline, baseline_tokens, source_trace, description,
  input_schema, test_inputs, source_hash, verdict, queued_rebuild, rebuild_note, created_at, replay_runs`;

/** Statuses that are never rebuilt: a change to one drops the rebuild queue flag in the same write. */
const NEVER_REBUILT: readonly Status[] = ["deprecated", "rejected", "superseded"];

const CODE = sql((d) => `SELECT code FROM ${d.t.versions} WHERE name = ? AND version = ?`);
// Rejected versions do not count: the next number is the one after the newest version that is not rejected.
const NEXT = sql(
  (d) =>
    `SELECT COALESCE(MAX(version), 0) + 1 AS n FROM ${d.t.versions} WHERE name = ? AND status <> 'rejected'`,
);
const INSERT = sql(
  (
    d,
  ) => `INSERT INTO ${d.t.versions} (name, version, status, description, input_schema, test_inputs, source_trace,
       source_hash, created_at${d.codeInRow ? ", code" : ""})
     VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ${d.now}${d.codeInRow ? ", ?" : ""})
     RETURNING ${COLUMNS}`,
);
/** The tables holding a version's rows, its `versions` row first: the others cascade from it where keys do. */
const VERSION_TABLES = [
  "versions",
  "status_history",
  "dependencies",
  "run_stats",
  "runs",
  "verified_definitions",
] as const;
const DELETE_ROWS = VERSION_TABLES.map((table) =>
  sql((d) => `DELETE FROM ${d.t[table]} WHERE name = ? AND version = ?`),
);
const DELETE_IF_STATUS = sql(
  (d) => `DELETE FROM ${d.t.versions} WHERE name = ? AND version = ? AND status = ?`,
);
const WITH_CODE = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.versions}
     WHERE name = ? AND source_hash = ? AND status <> 'rejected' ORDER BY version LIMIT 1`,
);
const PRUNE = (before: boolean) =>
  sql(
    (
      d,
    ) => `SELECT v.name, v.version, v.status, h.at AS since FROM ${d.t.versions} v JOIN ${d.t.status_history} h
       ON h.id = (SELECT MAX(id) FROM ${d.t.status_history} x WHERE x.name = v.name AND x.version = v.version)
     WHERE ${d.anyOf("v.status", "?", "text")}${before ? " AND h.at < ?" : ""}
       AND (v.status = 'rejected' OR v.version < (SELECT MAX(version) FROM ${d.t.versions} w
         WHERE w.name = v.name AND w.status <> 'rejected'))
     ORDER BY v.name, v.version`,
  );
const PRUNE_ANY_AGE = PRUNE(false);
const PRUNE_BEFORE = PRUNE(true);
const GET = sql((d) => `SELECT ${COLUMNS} FROM ${d.t.versions} WHERE name = ? AND version = ?`);
const LIST = (where: string) =>
  sql((d) => `SELECT ${COLUMNS} FROM ${d.t.versions}${where} ORDER BY name, version`);
const LIST_ALL = LIST("");
const LIST_NAME = LIST(" WHERE name = ?");
const LIST_STATUS = LIST(" WHERE status = ?");
const LIST_NAME_STATUS = LIST(" WHERE name = ? AND status = ?");
const SET_STATUS = sql(
  (d) => `UPDATE ${d.t.versions} SET status = ?1, problems = ?2,
     queued_rebuild = CASE WHEN ?3 THEN false ELSE queued_rebuild END,
     rebuild_note = CASE WHEN ?3 THEN NULL ELSE rebuild_note END
     WHERE name = ?4 AND version = ?5 AND status = ?6`,
);
/** Where data-modifying WITH exists (PostgreSQL), the guarded update and its history row as one statement. */
const SET_STATUS_WITH_HISTORY = sql(
  (d) => `WITH changed AS (
       UPDATE ${d.t.versions} SET status = ?1, problems = ?2,
         queued_rebuild = CASE WHEN ?3 THEN false ELSE queued_rebuild END,
         rebuild_note = CASE WHEN ?3 THEN NULL ELSE rebuild_note END
       WHERE name = ?4 AND version = ?5 AND status = ?6
       RETURNING name, version
     )
     INSERT INTO ${d.t.status_history} (name, version, from_status, to_status, reason, evidence, at)
     SELECT name, version, ?6, ?1, ?7, CAST(?8 AS json), ${d.now} FROM changed`,
);
const SET_VERIFICATION = sql(
  (d) =>
    `UPDATE ${d.t.versions} SET verdict = ?, baseline = ?, baseline_tokens = ? WHERE name = ? AND version = ?`,
);
const SET_REPLAY_RUNS = sql(
  (d) => `UPDATE ${d.t.versions} SET replay_runs = ? WHERE name = ? AND version = ?`,
);
const SET_QUEUED = sql(
  (d) => `UPDATE ${d.t.versions} SET queued_rebuild = ?, rebuild_note = ? WHERE name = ? AND version = ?`,
);

/** Versions, by name then version; optionally one name and/or one status. */
export function versionsRead(
  d: Dialect,
  filter: { name?: string; status?: Status } = {},
): Read<VersionRecord[]> {
  const { name, status } = filter;
  const [text, params] =
    name === undefined
      ? status === undefined
        ? [LIST_ALL(d), []]
        : [LIST_STATUS(d), [status]]
      : status === undefined
        ? [LIST_NAME(d), [name]]
        : [LIST_NAME_STATUS(d), [name, status]];
  return { sql: text, params, map: (rows) => rows.map(versionFromRow) };
}

/** The rows of a version in the tables its `versions` row does not cascade to (none on PostgreSQL). */
async function removeDependents(tx: Engine, name: string, version: number): Promise<void> {
  if (tx.dialect.cascades) return;
  for (const del of DELETE_ROWS.slice(1)) await tx.run(del(tx.dialect), [name, version]);
}

/** The version methods of RegistryData. */
export const versionMethods = {
  async readCode(this: Tables, name: string, version: number): Promise<string> {
    if (this.toolRoot !== null) return readToolCode(this.toolRoot, name, version);
    const row = await this.engine.first(CODE(this.engine.dialect), [name, version]);
    if (!row)
      throw new DistillError("NOT_FOUND", `${name} v${version} is not in the store ${this.engine.where}`);
    return String(row["code"]);
  },
  /**
   * Stores a new draft: the next number taken under the lock of its tool's numbers, its code, the version and its
   * first history row in one transaction. A rejected attempt holding the number is replaced (a failed proposal
   * never uses up a number).
   */
  async createVersion(this: Tables, v: NewVersion): Promise<VersionRecord> {
    // Both engines refuse a name no new version may have (the pattern, `__`, the library's own names).
    const problem = toolNameProblem(v.name);
    if (problem !== null) throw new DistillError("PROPOSAL_INVALID", problem);
    const root = this.toolRoot;
    return this.engine.transaction(async (tx) => {
      const d = tx.dialect;
      await tx.lockVersionNumbers(v.name);
      const n = Number((await tx.first(NEXT(d), [v.name]))?.["n"]);
      // Above every version that is not rejected, so a row holding the number is a rejected attempt.
      await tx.run(DELETE_ROWS[0]!(d), [v.name, n]);
      await removeDependents(tx, v.name, n);
      // Written inside the transaction that adds its row, so a failure leaves no row without its file.
      if (root !== null) writeToolCode(root, toolFilePath(root, v.name, n), v.code);
      const params = [
        v.name,
        n,
        v.description,
        JSON.stringify(v.inputSchema),
        JSON.stringify(v.testInputs),
        v.sourceTrace,
        hashSource(v.code),
      ];
      const row = await tx.first(INSERT(d), d.codeInRow ? [...params, v.code] : params);
      const created = versionFromRow(row!);
      await tx.run(INSERT_HISTORY(d), [v.name, n, null, "draft", v.reason, null]);
      return created;
    });
  },
  async versionWithCode(this: Tables, name: string, sourceHash: string): Promise<VersionRecord | null> {
    const row = await this.engine.first(WITH_CODE(this.engine.dialect), [name, sourceHash]);
    return row ? versionFromRow(row) : null;
  },
  /**
   * Removes every version in `statuses` whose last status change is older than `before` (null: any age), with
   * everything of it, in one transaction, and returns them by name then version; on SQLite their files go after
   * the rows. A tool's highest-numbered version that is not rejected is kept, so its number is never handed out
   * again.
   */
  async pruneVersions(
    this: Tables,
    statuses: readonly Status[],
    before: string | null,
  ): Promise<PrunedVersion[]> {
    const pruned = await this.engine.transaction(async (tx) => {
      const rows =
        before === null
          ? await tx.rows(PRUNE_ANY_AGE(tx.dialect), [statuses])
          : await tx.rows(PRUNE_BEFORE(tx.dialect), [statuses, before]);
      const removed: PrunedVersion[] = [];
      for (const r of rows) {
        const p = {
          name: String(r["name"]),
          version: Number(r["version"]),
          status: r["status"] as Status,
          since: String(r["since"]),
        };
        // Re-checked as it goes: a version whose status changed since the read (another process) is kept.
        if ((await tx.run(DELETE_IF_STATUS(tx.dialect), [p.name, p.version, p.status])) !== 1) continue;
        await removeDependents(tx, p.name, p.version);
        removed.push(p);
      }
      return removed;
    });
    const root = this.toolRoot;
    if (root !== null) for (const p of pruned) rmSync(toolFilePath(root, p.name, p.version), { force: true });
    return pruned;
  },
  async getVersion(this: Tables, name: string, version: number): Promise<VersionRecord | null> {
    const row = await this.engine.first(GET(this.engine.dialect), [name, version]);
    return row ? versionFromRow(row) : null;
  },
  async listVersions(
    this: Tables,
    filter: { name?: string; status?: Status } = {},
  ): Promise<VersionRecord[]> {
    return read(this.engine, versionsRead(this.engine.dialect, filter));
  },
  /** The guarded update and its history row: both, or (the guard failed) neither. */
  async setStatus(this: Tables, change: StatusChange): Promise<boolean> {
    const guarded = [
      change.to,
      JSON.stringify([...new Set(change.problems)].sort()),
      NEVER_REBUILT.includes(change.to),
      change.name,
      change.version,
      change.expect,
    ];
    const history = [change.reason, json(change.evidence)];
    const e = this.engine;
    if (e.dialect.writableCte) {
      return (await e.run(SET_STATUS_WITH_HISTORY(e.dialect), [...guarded, ...history])) === 1;
    }
    return e.transaction(async (tx) => {
      if ((await tx.run(SET_STATUS(tx.dialect), guarded)) !== 1) return false;
      await tx.run(INSERT_HISTORY(tx.dialect), [
        change.name,
        change.version,
        change.expect,
        change.to,
        ...history,
      ]);
      return true;
    });
  },
  async setVerification(
    this: Tables,
    name: string,
    version: number,
    verdict: Verdict,
    baselineTokens: number | null,
  ): Promise<void> {
    await this.engine.run(SET_VERIFICATION(this.engine.dialect), [
      JSON.stringify(verdict),
      verdict.baseline,
      baselineTokens,
      name,
      version,
    ]);
  },
  async setReplayRuns(this: Tables, name: string, version: number, runs: readonly RunRef[]): Promise<void> {
    await this.engine.run(SET_REPLAY_RUNS(this.engine.dialect), [
      JSON.stringify(runs.map(({ trace, call }) => ({ trace, call }))),
      name,
      version,
    ]);
  },
  async setQueuedRebuild(
    this: Tables,
    name: string,
    version: number,
    queued: boolean,
    note: string | null,
  ): Promise<void> {
    await this.engine.run(SET_QUEUED(this.engine.dialect), [queued, note, name, version]);
  },
};
