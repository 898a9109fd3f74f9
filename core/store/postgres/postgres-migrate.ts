/**
 * Applies the PostgreSQL registry's migrations (postgres-schema.ts) through the shared runner (migrations.ts):
 * once, under an advisory lock, however many processes start together, each in one transaction with its row in
 * `tooldistill.schema_version`.
 */
import type { Pool } from "pg";
import { DistillError } from "../../errors.ts";
import { migrate as runMigrations } from "../migrations.ts";
import { explainPgError } from "./postgres-connect.ts";
import { LOCK, LOCK_CLASS, MIN_SERVER_VERSION_NUM, POSTGRES_MIGRATIONS } from "./postgres-schema.ts";

/** The migrations applied to the database, ascending (none when it has no schema yet). */
export async function appliedMigrations(pool: Pool | import("pg").PoolClient): Promise<number[]> {
  const { rows } = await pool.query(
    "SELECT to_regclass('tooldistill.schema_version') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return [];
  const applied = await pool.query("SELECT version FROM tooldistill.schema_version ORDER BY version");
  return applied.rows.map((r) => Number(r.version));
}

/**
 * Brings the database to this build's schema, or says why it cannot (core/store/migrations.ts decides). One query
 * when it is current; otherwise the missing migrations run under a session advisory lock, each in its own
 * transaction with its version row, so processes starting together wait for the first and then find nothing to
 * do, and a crash leaves whole migrations only.
 */
export async function migrate(pool: Pool, where: string, readOnly: boolean): Promise<void> {
  const store = {
    where,
    readOnly,
    upgradeHint: "run any command that writes (e.g. `tooldistill doctor --fix`) once to upgrade it",
    createHint:
      "record a run into it first, or create it empty with `tooldistill doctor --fix` (or `tooldistill import` a registry into it)",
  };
  let client: import("pg").PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw explainPgError(err, where);
  }
  try {
    await runMigrations(POSTGRES_MIGRATIONS, store, {
      applied: () => appliedMigrations(client),
      locked: (fn) => withMigrationLock(client, where, fn),
      apply: async (m) => {
        await client.query("BEGIN");
        try {
          await client.query(m.sql);
          await client.query("INSERT INTO tooldistill.schema_version (version) VALUES ($1)", [m.version]);
          await client.query("COMMIT");
        } catch (err) {
          await client.query("ROLLBACK").catch(() => {});
          throw err;
        }
      },
    });
  } catch (err) {
    throw explainPgError(err, where);
  } finally {
    client.release();
  }
}

/** Runs `fn` under the migration's advisory lock, with the schema and its version table there. */
async function withMigrationLock(
  client: import("pg").PoolClient,
  where: string,
  fn: () => Promise<void>,
): Promise<void> {
  const server = await client.query("SELECT current_setting('server_version_num')::int AS n, version() AS v");
  if (Number(server.rows[0]?.n) < MIN_SERVER_VERSION_NUM) {
    throw new DistillError(
      "STORE",
      `the store ${where} is on ${String(server.rows[0]?.v).split(",")[0]}, older than the PostgreSQL 11 tooldistill needs (for sha256(), starts_with() and its triggers): use a newer server.`,
    );
  }
  await client.query("SELECT pg_advisory_lock($1, $2)", [LOCK_CLASS, LOCK.migrate]);
  try {
    // CREATE SCHEMA checks the CREATE privilege even when the schema exists: skip it when a DBA made it.
    const schema = await client.query("SELECT to_regnamespace('tooldistill') IS NOT NULL AS present");
    if (!schema.rows[0]?.present) await client.query("CREATE SCHEMA tooldistill");
    await client.query(
      `CREATE TABLE IF NOT EXISTS tooldistill.schema_version (
         version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    await fn();
  } finally {
    await client.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_CLASS, LOCK.migrate]).catch(() => {});
  }
}
