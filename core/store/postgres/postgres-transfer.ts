/**
 * Moving a whole PostgreSQL registry in and out. Export reads every table a page at a time (keyset pages) from
 * one REPEATABLE READ snapshot, so a registry that workers keep writing still comes out consistent. Import writes
 * in one transaction, with the foreign keys checked at COMMIT, each page as one INSERT (postgres-batch-insert.ts);
 * ids and times are kept, and the sequences and per-trace call counters are set past what was copied.
 */
import type { Pool, PoolClient } from "pg";
import { DistillError } from "../../errors.ts";
import { emptyCounts, type RegistryBatch, type TransferCounts } from "../registry-store.ts";
import { exportTables, usedQuery } from "../transfer/transfer-pages.ts";
import { insertBatch } from "./postgres-batch-insert.ts";
import { explainPgError } from "./postgres-connect.ts";
import { BEGIN, PostgresDatabase, withTransaction } from "./postgres-database.ts";
import { numbered, POSTGRES_DIALECT } from "./postgres-engine.ts";
import { LOCK, LOCK_CLASS } from "./postgres-schema.ts";

/** The whole registry, table by table, from one snapshot. */
export async function* exportPostgres(pool: Pool, where: string): AsyncGenerator<RegistryBatch> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw explainPgError(err, where);
  }
  const db = PostgresDatabase.inTransaction(client, where, () => {});
  let committed = false;
  try {
    await db.run("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    yield* exportTables(
      POSTGRES_DIALECT,
      (sql, params) => db.rows(numbered(sql), [...params]),
      (r) => String(r["code"]),
    );
    await db.run("COMMIT");
    committed = true;
  } finally {
    // A consumer that stopped early (or a failure) leaves the snapshot open: end it before the pool reuses the
    // connection, and drop the connection if even that fails.
    if (committed) client.release();
    else {
      await client.query("ROLLBACK").then(
        () => client.release(),
        (err: Error) => client.release(err),
      );
    }
  }
}

/** True when the registry holds no row of registry data. */
export async function postgresIsEmpty(db: PostgresDatabase): Promise<boolean> {
  const q = usedQuery(POSTGRES_DIALECT);
  return !(await db.first(numbered(q.sql), q.params))?.["used"];
}

/** Writes a whole registry into an empty one, in one transaction; refuses a registry that is not empty. */
export async function importPostgres(
  pool: Pool,
  where: string,
  batches: AsyncIterable<RegistryBatch>,
): Promise<TransferCounts> {
  return withTransaction(pool, where, BEGIN, async (client) => {
    const db = PostgresDatabase.inTransaction(client, where, () => {});
    // Two imports into one empty database: the second waits, then finds it not empty.
    await db.run("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_CLASS, LOCK.import]);
    await db.run("SET CONSTRAINTS ALL DEFERRED");
    if (!(await postgresIsEmpty(db))) {
      throw new DistillError(
        "USAGE",
        `the store ${where} is not empty: importing into it would mix two registries, so nothing was written. Import into an empty database (or a new folder), or empty this one first.`,
      );
    }
    const counts = emptyCounts();
    for await (const batch of batches) {
      await insertBatch(db, batch);
      counts[batch.table] += batch.rows.length;
    }
    await db.run(
      `UPDATE tooldistill.traces t SET last_call_seq = m.last FROM
         (SELECT trace_id, MAX(seq) AS last FROM tooldistill.calls GROUP BY trace_id) m
       WHERE t.id = m.trace_id`,
    );
    for (const table of ["calls", "status_history", "runs"]) {
      await db.run(
        `SELECT setval(pg_get_serial_sequence('tooldistill.${table}', 'id'),
           COALESCE((SELECT MAX(id) FROM tooldistill.${table}), 0) + 1, false)`,
      );
    }
    return counts;
  });
}
