/**
 * Writing one page of a registry copy into PostgreSQL (see postgres-transfer.ts): the page as one INSERT over
 * unnest()ed column arrays (the columns and types of transfer/transfer-columns.ts), in the order the rows came.
 */

import type { TableName } from "../engine.ts";
import type { RegistryBatch } from "../registry-store.ts";
import { type AnyColumn, columnsOf, fieldValue, TRANSFER_COLUMNS } from "../transfer/transfer-columns.ts";
import type { PostgresDatabase } from "./postgres-database.ts";
import { POSTGRES_DIALECT } from "./postgres-engine.ts";

/** Inserts `rows` in their order as one statement: one array parameter per column. */
async function insertRows<R>(
  db: PostgresDatabase,
  table: TableName,
  columns: readonly AnyColumn[],
  rows: R[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(", ");
  // A version's code is a text column here (a tool file on SQLite).
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type === "code" ? "text" : type}[]`).join(", ");
  await db.run(
    `INSERT INTO ${POSTGRES_DIALECT.t[table]} (${names})
     SELECT ${names} FROM unnest(${arrays}) WITH ORDINALITY AS r(${names}, ord) ORDER BY ord`,
    columns.map((c) => rows.map((row) => fieldValue(row, c))),
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

/** Writes one page of a copy (inside the import's transaction), with the columns TRANSFER_COLUMNS lists. */
export async function insertBatch(db: PostgresDatabase, batch: RegistryBatch): Promise<void> {
  if (batch.table === "versions") {
    // Every version's tool has its row first: the versions' number lock (createVersion) is on it.
    await db.run(
      "INSERT INTO tooldistill.tools (name) SELECT DISTINCT unnest($1::text[]) ON CONFLICT (name) DO NOTHING",
      [batch.rows.map((v) => v.name)],
    );
  }
  const { table } = TRANSFER_COLUMNS[batch.table];
  const columns = columnsOf(batch);
  for (const rows of pieces(batch.rows as unknown[])) await insertRows(db, table, columns, rows);
}
