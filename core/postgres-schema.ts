/**
 * The PostgreSQL registry's schema: everything lives in the schema `tooldistill` of the database the URL names,
 * so it sits beside a team's own tables without touching them. `tooldistill.schema_version` has one row per
 * migration applied; migrations run once, under an advisory lock, however many processes start together; a
 * database migrated by a newer tooldistill is refused rather than misread.
 *
 * The lifecycle's invariants are the database's, not only the code's: one row per (name, version); at most one
 * active version per tool (an exclusion constraint, checked at COMMIT, because promoting writes the new active
 * version before it deprecates the old one in the same transaction); statuses, kinds and sources by CHECK; an
 * active version has no open problem and a deprecated one is not queued for a rebuild; a version's code matches
 * its recorded sha256; history, dependencies and run counters belong to an existing version. Every history row
 * is announced on the channel `tooldistill_changes` when its transaction commits.
 */
import type { Pool } from "pg";
import { DistillError } from "./errors.ts";
import { explainPgError } from "./postgres-connect.ts";
import { CHANGES_CHANNEL, MIGRATIONS } from "./postgres-migrations.ts";

export { CHANGES_CHANNEL };

/** The advisory lock keys of tooldistill (the first key of the two-key form), so they never meet a team's own. */
export const LOCK_CLASS = 0x7464_0001;
/** Second keys under LOCK_CLASS. Tool locks use LOCK_CLASS + 1 with a hash of the name. */
export const LOCK = { migrate: 1, import: 2 } as const;

/** The oldest server the schema runs on (server_version_num): sha256(), starts_with(), EXECUTE FUNCTION. */
export const MIN_SERVER_VERSION_NUM = 110000;

/** The migrations this build has, by number; every one of them is applied to a database it opens. */
export const MIGRATION_VERSIONS: readonly number[] = MIGRATIONS.map((m) => m.version);

/** The schema version this build writes (its highest migration); a newer database is refused rather than misread. */
export const SCHEMA_VERSION = Math.max(...MIGRATION_VERSIONS);

/** The migrations applied to the database, ascending (none when it has no schema yet). */
export async function appliedMigrations(pool: Pool | import("pg").PoolClient): Promise<number[]> {
  const { rows } = await pool.query(
    "SELECT to_regclass('tooldistill.schema_version') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return [];
  const applied = await pool.query("SELECT version FROM tooldistill.schema_version ORDER BY version");
  return applied.rows.map((r) => Number(r.version));
}

function newer(where: string, found: number): DistillError {
  return new DistillError(
    "STORE",
    `the store ${where} has schema version ${found}, newer than this tooldistill understands (${SCHEMA_VERSION}): a newer tooldistill migrated it. Upgrade tooldistill on this machine (every process sharing the store needs the same or a newer version).`,
  );
}

/** Refuses a database that has a migration this build does not know (a newer or a different build made it). */
function refuseUnknown(where: string, applied: readonly number[]): void {
  const unknown = applied.filter((v) => !MIGRATION_VERSIONS.includes(v));
  if (unknown.length === 0) return;
  const highest = Math.max(...unknown);
  if (highest > SCHEMA_VERSION) throw newer(where, highest);
  throw new DistillError(
    "STORE",
    `the store ${where} has migration ${unknown.join(", ")}, which this tooldistill does not have: a different build of tooldistill migrated it. Use the same or a newer tooldistill on every process sharing the store.`,
  );
}

/**
 * Brings the database to this build's schema, or says why it cannot. One query when it is current; otherwise the
 * missing migrations run under a session advisory lock, each in its own transaction with its version row, so
 * processes starting together wait for the first and find nothing to do; a crash leaves whole migrations only.
 */
export async function migrate(pool: Pool, where: string, readOnly: boolean): Promise<void> {
  let applied: number[];
  try {
    applied = await appliedMigrations(pool);
  } catch (err) {
    throw explainPgError(err, where);
  }
  refuseUnknown(where, applied);
  const missing = (done: readonly number[]) => MIGRATIONS.filter((m) => !done.includes(m.version));
  if (missing(applied).length === 0) return;
  if (readOnly) {
    throw new DistillError(
      "STORE",
      applied.length === 0
        ? `the store ${where} has no tooldistill registry yet and this command only reads it: record a run into it first, or create it empty with \`tooldistill doctor --fix\` (or \`tooldistill import\` a registry into it).`
        : `the store ${where} was written by an older tooldistill (schema ${Math.max(...applied)}, now ${SCHEMA_VERSION}) and this command only reads it: run any command that writes (e.g. \`tooldistill doctor --fix\`) once to upgrade it.`,
    );
  }
  let client: import("pg").PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw explainPgError(err, where);
  }
  let locked = false;
  try {
    const server = await client.query(
      "SELECT current_setting('server_version_num')::int AS n, version() AS v",
    );
    if (Number(server.rows[0]?.n) < MIN_SERVER_VERSION_NUM) {
      throw new DistillError(
        "STORE",
        `the store ${where} is on ${String(server.rows[0]?.v).split(",")[0]}, older than the PostgreSQL 11 tooldistill needs (for sha256(), starts_with() and its triggers): use a newer server.`,
      );
    }
    await client.query("SELECT pg_advisory_lock($1, $2)", [LOCK_CLASS, LOCK.migrate]);
    locked = true;
    // CREATE SCHEMA checks the CREATE privilege even when the schema exists: skip it when a DBA made it.
    const schema = await client.query("SELECT to_regnamespace('tooldistill') IS NOT NULL AS present");
    if (!schema.rows[0]?.present) await client.query("CREATE SCHEMA tooldistill");
    await client.query(
      `CREATE TABLE IF NOT EXISTS tooldistill.schema_version (
         version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    // Re-read under the lock: another process may have migrated meanwhile.
    const now = await appliedMigrations(client);
    refuseUnknown(where, now);
    for (const m of missing(now)) {
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query("INSERT INTO tooldistill.schema_version (version) VALUES ($1)", [m.version]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      }
    }
  } catch (err) {
    throw explainPgError(err, where);
  } finally {
    if (locked)
      await client.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_CLASS, LOCK.migrate]).catch(() => {});
    client.release();
  }
}
