/**
 * Moving a whole PostgreSQL registry in and out. Export reads every table a page at a time (keyset pages) from
 * one REPEATABLE READ snapshot, so a registry that workers keep writing still comes out consistent. Import writes
 * in one transaction, with the foreign keys checked at COMMIT, each page as one INSERT over unnest()ed column
 * arrays; ids and times are kept, and the sequences and per-trace call counters are set past what was copied.
 */
import type { Pool, PoolClient } from "pg";
import { DistillError } from "./errors.ts";
import { explainPgError } from "./postgres-connect.ts";
import { BEGIN, PostgresDatabase, withTransaction } from "./postgres-database.ts";
import { LOCK, LOCK_CLASS } from "./postgres-schema.ts";
import {
  callRow,
  historyRow,
  metaRow,
  runStatsRow,
  sessionRow,
  traceRow,
  versionRow,
} from "./registry-rows.ts";
import {
  emptyCounts,
  INTERNAL_META_PREFIX,
  type RegistryBatch,
  type TransferCounts,
} from "./registry-store.ts";
import { dependencyFromRow, type Row } from "./store-rows.ts";

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
       OR EXISTS (SELECT 1 FROM ${T}.meta WHERE NOT starts_with(key, $1))
       OR EXISTS (SELECT 1 FROM ${T}.cc_sessions) AS used`,
    [INTERNAL_META_PREFIX],
  );
  return !row?.["used"];
}

/** One column of a page insert: its name, its PostgreSQL type, and its value in a row. */
type Column<R> = readonly [name: string, type: string, value: (row: R) => unknown];

/** Inserts `rows` in their order as one statement: one array parameter per column. */
async function insertRows<R>(db: PostgresDatabase, table: string, columns: Column<R>[], rows: R[]) {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  await db.run(
    `INSERT INTO tooldistill.${table} (${names})
     SELECT ${names} FROM unnest(${arrays}) WITH ORDINALITY AS r(${names}, ord) ORDER BY ord`,
    columns.map(([, , value]) => rows.map(value)),
  );
}

/** Pieces of `rows` of at most ~16 MB of text each, so one statement never carries a huge page. */
function* pieces<R>(rows: R[]): Generator<R[]> {
  let piece: R[] = [];
  let size = 0;
  for (const row of rows) {
    const bytes = JSON.stringify(row).length;
    if (piece.length > 0 && size + bytes > 16 * 1024 * 1024) {
      yield piece;
      piece = [];
      size = 0;
    }
    piece.push(row);
    size += bytes;
  }
  if (piece.length > 0) yield piece;
}

async function insertBatch(db: PostgresDatabase, batch: RegistryBatch): Promise<void> {
  switch (batch.table) {
    case "traces":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "traces",
          [
            ["id", "text", (t) => t.id],
            ["task", "text", (t) => t.task],
            ["source", "text", (t) => t.source],
            ["outcome", "boolean", (t) => t.outcome],
            ["input_tokens", "bigint", (t) => t.usage.input_tokens],
            ["output_tokens", "bigint", (t) => t.usage.output_tokens],
            ["cache_creation_input_tokens", "bigint", (t) => t.usage.cache_creation_input_tokens],
            ["cache_read_input_tokens", "bigint", (t) => t.usage.cache_read_input_tokens],
            ["started_at", "timestamptz", (t) => t.startedAt],
            ["ended_at", "timestamptz", (t) => t.endedAt],
            ["nudged", "boolean", (t) => t.nudged],
            ["proposed", "boolean", (t) => t.proposed],
            ["replace_name", "text", (t) => t.replaceName],
            ["note", "text", (t) => t.note],
          ],
          rows,
        );
      }
      return;
    case "calls":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "calls",
          [
            ["id", "bigint", (c) => c.id],
            ["trace_id", "text", (c) => c.traceId],
            ["seq", "integer", (c) => c.seq],
            ["parent_id", "bigint", (c) => c.parentId],
            ["tool", "text", (c) => c.tool],
            ["kind", "text", (c) => c.kind],
            ["args", "text", (c) => c.args],
            ["status", "text", (c) => c.status],
            ["output", "text", (c) => c.output],
            ["error", "text", (c) => c.error],
            ["latency_ms", "double precision", (c) => c.latencyMs],
            ["version", "integer", (c) => c.version],
            ["external_id", "text", (c) => c.externalId],
            ["started_at", "timestamptz", (c) => c.startedAt],
            ["note", "text", (c) => c.note],
            ["clipped", "boolean", (c) => c.clipped],
          ],
          rows,
        );
      }
      return;
    case "versions":
      await db.run(
        "INSERT INTO tooldistill.tools (name) SELECT DISTINCT unnest($1::text[]) ON CONFLICT (name) DO NOTHING",
        [batch.rows.map((v) => v.name)],
      );
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "versions",
          [
            ["name", "text", (v) => v.name],
            ["version", "integer", (v) => v.version],
            ["status", "text", (v) => v.status],
            ["problems", "json", (v) => v.problems],
            ["baseline", "integer", (v) => v.baseline],
            ["baseline_tokens", "bigint", (v) => v.baselineTokens],
            ["source_trace", "text", (v) => v.sourceTrace],
            ["description", "text", (v) => v.description],
            ["input_schema", "json", (v) => v.inputSchema],
            ["test_inputs", "json", (v) => v.testInputs],
            ["code", "text", (v) => v.code],
            ["source_hash", "text", (v) => v.sourceHash],
            ["verdict", "json", (v) => v.verdict],
            ["queued_rebuild", "boolean", (v) => v.queuedRebuild],
            ["rebuild_note", "text", (v) => v.rebuildNote],
            ["created_at", "timestamptz", (v) => v.createdAt],
          ],
          rows,
        );
      }
      return;
    case "history":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "status_history",
          [
            ["id", "bigint", (h) => h.id],
            ["name", "text", (h) => h.name],
            ["version", "integer", (h) => h.version],
            ["from_status", "text", (h) => h.from],
            ["to_status", "text", (h) => h.to],
            ["reason", "text", (h) => h.reason],
            ["evidence", "json", (h) => h.evidence],
            ["at", "timestamptz", (h) => h.at],
          ],
          rows,
        );
      }
      return;
    case "dependencies":
      await insertRows(
        db,
        "dependencies",
        [
          ["name", "text", (d) => d.name],
          ["version", "integer", (d) => d.version],
          ["base_tool", "text", (d) => d.baseTool],
          ["fingerprint", "text", (d) => d.fingerprint],
          ["avoided", "boolean", (d) => d.avoided],
        ],
        batch.rows,
      );
      return;
    case "runStats":
      await insertRows(
        db,
        "run_stats",
        [
          ["name", "text", (s) => s.name],
          ["version", "integer", (s) => s.version],
          ["runs", "integer", (s) => s.runs],
          ["successes", "integer", (s) => s.successes],
          ["failures", "integer", (s) => s.failures],
          ["inner_calls", "bigint", (s) => s.innerCalls],
          ["last_run_at", "timestamptz", (s) => s.lastRunAt],
        ],
        batch.rows,
      );
      return;
    case "meta":
      await insertRows(
        db,
        "meta",
        [
          ["key", "text", (m) => m.key],
          ["value", "text", (m) => m.value],
        ],
        batch.rows,
      );
      return;
    case "sessions":
      await insertRows(
        db,
        "cc_sessions",
        [
          ["session_id", "text", (x) => x.sessionId],
          ["span", "integer", (x) => x.span],
          ["confirmed", "boolean", (x) => x.confirmed],
          ["updated_at", "timestamptz", (x) => x.updatedAt],
        ],
        batch.rows,
      );
      return;
  }
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
    for (const table of ["calls", "status_history"]) {
      await db.run(
        `SELECT setval(pg_get_serial_sequence('tooldistill.${table}', 'id'),
           COALESCE((SELECT MAX(id) FROM tooldistill.${table}), 0) + 1, false)`,
      );
    }
    return counts;
  });
}
