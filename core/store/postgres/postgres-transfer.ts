/**
 * Moving a whole PostgreSQL registry in and out. Export reads every table a page at a time (keyset pages) from
 * one REPEATABLE READ snapshot, so a registry that workers keep writing still comes out consistent. Import writes
 * in one transaction, with the foreign keys checked at COMMIT, each page as one INSERT (postgres-batch-insert.ts);
 * ids and times are kept, and the sequences and per-trace call counters are set past what was copied.
 */
import type { Pool, PoolClient } from "pg";
import { DistillError } from "../../errors.ts";
import {
  callRow,
  historyRow,
  metaRow,
  runRow,
  runStatsRow,
  sessionRow,
  traceRow,
  verifiedDefinitionRow,
  versionRow,
} from "../registry-rows.ts";
import {
  emptyCounts,
  INTERNAL_META_PREFIX,
  type RegistryBatch,
  type TransferCounts,
} from "../registry-store.ts";
import { baseHealthFromRow, dependencyFromRow, type Row } from "../row-mappers.ts";
import { insertBatch } from "./postgres-batch-insert.ts";
import { explainPgError } from "./postgres-connect.ts";
import { BEGIN, PostgresDatabase, withTransaction } from "./postgres-database.ts";
import { LOCK, LOCK_CLASS } from "./postgres-schema.ts";

const PAGE = 200;

/** Pages of one table: `sql` takes the bound of the last row read (`start` first) and the page size last. */
async function* pages(
  db: PostgresDatabase,
  sql: string,
  start: unknown[],
  bound: (last: Row) => unknown[],
): AsyncGenerator<Row[]> {
  let after = start;
  for (;;) {
    const rows = await db.rows(sql, [...after, PAGE]);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    after = bound(rows.at(-1)!);
  }
}

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
    const T = "tooldistill";
    for await (const rows of pages(
      db,
      `SELECT seq AS row_order, * FROM ${T}.traces WHERE seq > $1 ORDER BY seq LIMIT $2`,
      [0],
      (r) => [r["row_order"]],
    )) {
      yield { table: "traces", rows: rows.map(traceRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.calls WHERE id > $1 ORDER BY id LIMIT $2`,
      [0],
      (r) => [r["id"]],
    )) {
      yield { table: "calls", rows: rows.map(callRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.versions WHERE (name, version) > ($1, $2) ORDER BY name, version LIMIT $3`,
      ["", 0],
      (r) => [r["name"], r["version"]],
    )) {
      yield { table: "versions", rows: rows.map((r) => versionRow(r, String(r["code"]))) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.status_history WHERE id > $1 ORDER BY id LIMIT $2`,
      [0],
      (r) => [r["id"]],
    )) {
      yield { table: "history", rows: rows.map(historyRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.dependencies WHERE (name, version, base_tool) > ($1, $2, $3)
       ORDER BY name, version, base_tool LIMIT $4`,
      ["", 0, ""],
      (r) => [r["name"], r["version"], r["base_tool"]],
    )) {
      yield { table: "dependencies", rows: rows.map(dependencyFromRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.run_stats WHERE (name, version) > ($1, $2) ORDER BY name, version LIMIT $3`,
      ["", 0],
      (r) => [r["name"], r["version"]],
    )) {
      yield { table: "runStats", rows: rows.map(runStatsRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.runs WHERE id > $1 ORDER BY id LIMIT $2`,
      [0],
      (r) => [r["id"]],
    )) {
      yield { table: "runs", rows: rows.map(runRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.verified_definitions WHERE (name, version, base_tool, fingerprint) > ($1, $2, $3, $4)
       ORDER BY name, version, base_tool, fingerprint LIMIT $5`,
      ["", 0, "", ""],
      (r) => [r["name"], r["version"], r["base_tool"], r["fingerprint"]],
    )) {
      yield { table: "verifiedDefinitions", rows: rows.map(verifiedDefinitionRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.base_health WHERE tool > $1 ORDER BY tool LIMIT $2`,
      [""],
      (r) => [r["tool"]],
    )) {
      yield { table: "baseHealth", rows: rows.map(baseHealthFromRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.meta WHERE key > $1 AND NOT starts_with(key, '${INTERNAL_META_PREFIX}')
       ORDER BY key LIMIT $2`,
      [""],
      (r) => [r["key"]],
    )) {
      yield { table: "meta", rows: rows.map(metaRow) };
    }
    for await (const rows of pages(
      db,
      `SELECT * FROM ${T}.cc_sessions WHERE session_id > $1 ORDER BY session_id LIMIT $2`,
      [""],
      (r) => [r["session_id"]],
    )) {
      yield { table: "sessions", rows: rows.map(sessionRow) };
    }
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
  const T = "tooldistill";
  const row = await db.first(
    `SELECT EXISTS (SELECT 1 FROM ${T}.traces) OR EXISTS (SELECT 1 FROM ${T}.calls)
       OR EXISTS (SELECT 1 FROM ${T}.versions) OR EXISTS (SELECT 1 FROM ${T}.status_history)
       OR EXISTS (SELECT 1 FROM ${T}.dependencies) OR EXISTS (SELECT 1 FROM ${T}.run_stats)
       OR EXISTS (SELECT 1 FROM ${T}.runs) OR EXISTS (SELECT 1 FROM ${T}.verified_definitions)
       OR EXISTS (SELECT 1 FROM ${T}.base_health)
       OR EXISTS (SELECT 1 FROM ${T}.meta WHERE NOT starts_with(key, $1))
       OR EXISTS (SELECT 1 FROM ${T}.cc_sessions) AS used`,
    [INTERNAL_META_PREFIX],
  );
  return !row?.["used"];
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
