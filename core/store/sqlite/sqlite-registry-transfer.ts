/**
 * Moving a whole SQLite registry in and out: every table a page at a time in TRANSFER_ORDER (keyset pages, so a
 * large registry is never held in memory at once), versions with the code of their tool files. Functions over
 * the open database; the caller (sqlite-registry-store.ts) holds the snapshot or the write transaction.
 */
import type { SQLInputValue } from "node:sqlite";
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
import { INTERNAL_META_PREFIX, type RegistryBatch } from "../registry-store.ts";
import { baseHealthFromRow, dependencyFromRow, type Row } from "../row-mappers.ts";
import { readToolCode, toolFilePath, writeToolCode } from "../tool-files.ts";
import { type Column, type ColumnType, columnsOf, TRANSFER_COLUMNS } from "../transfer/transfer-columns.ts";
import type { StoreDatabase } from "./sqlite-database.ts";
import { SQLITE_DIALECT } from "./sqlite-engine.ts";

/** Rows per page: small enough that a page of large recorded outputs stays a few hundred MB at worst. */
const PAGE = 200;

/** A column of the last row read, as the next page's bound (`start` before the first page). */
function key(last: Row | undefined, column: string, start: SQLInputValue): SQLInputValue {
  return last === undefined ? start : (last[column] as SQLInputValue);
}

/** Pages of one table: `next` reads the page after the row given (or the first page). */
function* pages(next: (last: Row | undefined) => Row[]): Generator<Row[]> {
  let last: Row | undefined;
  for (;;) {
    const rows = next(last);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    last = rows.at(-1);
  }
}

/** The whole registry of the store at `root`, table by table; run inside one read transaction. */
export function* exportSqlite(db: StoreDatabase, root: string): Generator<RegistryBatch> {
  for (const rows of pages((last) =>
    db
      .stmt("SELECT rowid AS row_order, * FROM traces WHERE rowid > ? ORDER BY rowid LIMIT ?")
      .all(key(last, "row_order", 0), PAGE),
  )) {
    yield { table: "traces", rows: rows.map(traceRow) };
  }
  for (const rows of pages((last) =>
    db.stmt("SELECT * FROM calls WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE),
  )) {
    yield { table: "calls", rows: rows.map(callRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM versions WHERE (name, version) > (?, ?) ORDER BY name, version LIMIT ?")
      .all(key(last, "name", ""), key(last, "version", 0), PAGE),
  )) {
    yield {
      table: "versions",
      rows: rows.map((r) => versionRow(r, readToolCode(root, String(r["name"]), Number(r["version"])))),
    };
  }
  for (const rows of pages((last) =>
    db.stmt("SELECT * FROM status_history WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE),
  )) {
    yield { table: "history", rows: rows.map(historyRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt(
        "SELECT * FROM dependencies WHERE (name, version, base_tool) > (?, ?, ?) ORDER BY name, version, base_tool LIMIT ?",
      )
      .all(key(last, "name", ""), key(last, "version", 0), key(last, "base_tool", ""), PAGE),
  )) {
    yield { table: "dependencies", rows: rows.map(dependencyFromRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM run_stats WHERE (name, version) > (?, ?) ORDER BY name, version LIMIT ?")
      .all(key(last, "name", ""), key(last, "version", 0), PAGE),
  )) {
    yield { table: "runStats", rows: rows.map(runStatsRow) };
  }
  for (const rows of pages((last) =>
    db.stmt("SELECT * FROM runs WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE),
  )) {
    yield { table: "runs", rows: rows.map(runRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt(
        `SELECT * FROM verified_definitions WHERE (name, version, base_tool, fingerprint) > (?, ?, ?, ?)
         ORDER BY name, version, base_tool, fingerprint LIMIT ?`,
      )
      .all(
        key(last, "name", ""),
        key(last, "version", 0),
        key(last, "base_tool", ""),
        key(last, "fingerprint", ""),
        PAGE,
      ),
  )) {
    yield { table: "verifiedDefinitions", rows: rows.map(verifiedDefinitionRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM base_health WHERE tool > ? ORDER BY tool LIMIT ?")
      .all(key(last, "tool", ""), PAGE),
  )) {
    yield { table: "baseHealth", rows: rows.map(baseHealthFromRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM meta WHERE key > ? AND substr(key, 1, ?) != ? ORDER BY key LIMIT ?")
      .all(key(last, "key", ""), INTERNAL_META_PREFIX.length, INTERNAL_META_PREFIX, PAGE),
  )) {
    yield { table: "meta", rows: rows.map(metaRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM cc_sessions WHERE session_id > ? ORDER BY session_id LIMIT ?")
      .all(key(last, "session_id", ""), PAGE),
  )) {
    yield { table: "sessions", rows: rows.map(sessionRow) };
  }
}

/** True when the registry holds no row of registry data (the tool-lock leases do not count). */
export function sqliteIsEmpty(db: StoreDatabase): boolean {
  const row = db
    .stmt(
      `SELECT EXISTS (SELECT 1 FROM traces) OR EXISTS (SELECT 1 FROM calls) OR EXISTS (SELECT 1 FROM versions)
       OR EXISTS (SELECT 1 FROM status_history) OR EXISTS (SELECT 1 FROM dependencies)
       OR EXISTS (SELECT 1 FROM run_stats) OR EXISTS (SELECT 1 FROM runs)
       OR EXISTS (SELECT 1 FROM verified_definitions) OR EXISTS (SELECT 1 FROM base_health)
       OR EXISTS (SELECT 1 FROM meta WHERE substr(key, 1, ?) != ?)
       OR EXISTS (SELECT 1 FROM cc_sessions) AS used`,
    )
    .get(INTERNAL_META_PREFIX.length, INTERNAL_META_PREFIX);
  return !row?.["used"];
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
  const all: readonly Column<unknown>[] = columnsOf(batch) as readonly Column<unknown>[];
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
      writeToolCode(root, file, String(code[2](row)));
    }
    insert.run(...columns.map(([, type, value]) => stored(type, value(row))));
  }
}
