/**
 * Applies the PostgreSQL registry's migrations (postgres-schema.ts): once, under an advisory lock, however many
 * processes start together, each in one transaction with its row in `tooldistill.schema_version`; a database that
 * has a migration this build does not know is refused rather than misread.
 */
import type { Pool } from "pg";
import { DistillError } from "../../errors.ts";
import { explainPgError } from "./postgres-connect.ts";
import {
  LOCK,
  LOCK_CLASS,
  MIGRATION_VERSIONS,
  MIGRATIONS,
  MIN_SERVER_VERSION_NUM,
  SCHEMA_VERSION,
} from "./postgres-schema.ts";

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
 * processes starting together wait for the first and then find nothing to do, and a crash leaves whole
 * migrations only.
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
