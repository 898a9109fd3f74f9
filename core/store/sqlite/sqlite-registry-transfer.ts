/**
 * Moving a whole SQLite registry in and out, over the open database (the caller, sqlite-registry-store.ts, holds
 * the snapshot or the write transaction): the pages and columns of transfer/, with versions' code in their tool
 * files.
 */
import type { SQLInputValue } from "node:sqlite";
import type { RegistryBatch } from "../registry-store.ts";
import { readToolCode, toolFilePath, writeToolCode } from "../tool-files.ts";
import { type ColumnType, columnsOf, fieldValue, TRANSFER_COLUMNS } from "../transfer/transfer-columns.ts";
import { exportTables, usedQuery } from "../transfer/transfer-pages.ts";
import type { StoreDatabase } from "./sqlite-database.ts";
import { SQLITE_DIALECT } from "./sqlite-engine.ts";

/** The whole registry of the store at `root`, table by table; run inside one read transaction. */
export function exportSqlite(db: StoreDatabase, root: string): AsyncGenerator<RegistryBatch> {
  return exportTables(
    SQLITE_DIALECT,
    async (sql, params) => db.stmt(sql).all(...(params as SQLInputValue[])),
    (r) => readToolCode(root, String(r["name"]), Number(r["version"])),
  );
}

/** True when the registry holds no row of registry data (the tool-lock leases do not count). */
export function sqliteIsEmpty(db: StoreDatabase): boolean {
  const q = usedQuery(SQLITE_DIALECT);
  return !db.stmt(q.sql).get(...(q.params as SQLInputValue[]))?.["used"];
}

/** A column's value as SQLite stores it (booleans as 0/1, see TRANSFER_COLUMNS). */
function stored(type: ColumnType, value: unknown): SQLInputValue {
  if (type === "boolean") return value === null ? null : value ? 1 : 0;
  return value as SQLInputValue;
}

/**
 * Writes one page into the store at `root` (inside the caller's write transaction), a row at a time in its
 * order, with the columns TRANSFER_COLUMNS lists; a version's code goes to its tool file, each added to `written`
 * so that a failed import removes them with its rollback.
 */
export function importSqlite(db: StoreDatabase, root: string, batch: RegistryBatch, written: string[]): void {
  const { table } = TRANSFER_COLUMNS[batch.table];
  const all = columnsOf(batch);
  const code = all.find(([, type]) => type === "code");
  const columns = all.filter((c) => c !== code);
  const insert = db.stmt(
    `INSERT INTO ${SQLITE_DIALECT.t[table]} (${columns.map(([name]) => name).join(", ")})
     VALUES (${columns.map(() => "?").join(", ")})`,
  );
  for (const row of batch.rows as unknown[]) {
    if (code) {
      const v = row as { name: string; version: number };
      const file = toolFilePath(root, v.name, v.version);
      written.push(file);
      writeToolCode(root, file, String(fieldValue(row, code)));
    }
    insert.run(...columns.map((c) => stored(c[1], fieldValue(row, c))));
  }
}
