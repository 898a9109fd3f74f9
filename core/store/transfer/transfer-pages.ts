/**
 * Reading a whole registry out a page at a time, written once for both engines from TRANSFER_COLUMNS: each table
 * in TRANSFER_ORDER by its key (keyset pages, so a large registry is never held in memory at once), traces in
 * the order they were written, `meta` without the store's own machinery. The engine gives the page reader (inside
 * the snapshot it holds) and where a version's code is.
 */
import type { Dialect, SqlParam } from "../engine.ts";
import type { Row } from "../row-mappers.ts";
import { INTERNAL_META_PREFIX, type RegistryBatch, TRANSFER_ORDER } from "../transfer-rows.ts";
import { TRANSFER_COLUMNS, type TransferTable, transferRow } from "./transfer-columns.ts";

/** Rows per page: small enough that a page of large recorded outputs stays a few hundred MB at worst. */
export const PAGE = 200;

/** Runs a statement written with `?` placeholders (the engine numbers them if it must). */
export type PageReader = (sql: string, params: readonly SqlParam[]) => Promise<Row[]>;

/**
 * The statement of one table's next page (placeholders numbered, since the dialect's `startsWith` uses its
 * parameter twice), and the parameters of the page after `last` (the first page: the key's start values).
 */
function pageOf(d: Dialect, spec: TransferTable<RegistryBatch["table"]>) {
  const table = d.t[spec.table];
  const key: readonly (readonly [string, string | number])[] =
    spec.key === "written" ? [["row_order", 0]] : spec.key;
  const keyed = spec.key === "written" ? d.traceOrder : key.map(([c]) => c).join(", ");
  const bound = key.map((_, i) => `?${i + 1}`).join(", ");
  const meta = spec.table === "meta";
  const internal = meta ? ` AND NOT (${d.startsWith("key", `?${key.length + 1}`)})` : "";
  const limit = `?${key.length + (meta ? 2 : 1)}`;
  const select = spec.key === "written" ? `${d.traceOrder} AS row_order, *` : "*";
  return {
    sql: `SELECT ${select} FROM ${table} WHERE (${keyed}) > (${bound})${internal} ORDER BY ${keyed} LIMIT ${limit}`,
    params: (last: Row | undefined): SqlParam[] => [
      ...key.map(([c, start]) => (last ? (last[c] as SqlParam) : start)),
      ...(meta ? [INTERNAL_META_PREFIX] : []),
    ],
  };
}

/** Every table of the registry, a page at a time; `codeOf` gives a version's code from its row. */
export async function* exportTables(
  d: Dialect,
  read: PageReader,
  codeOf: (r: Row) => string,
): AsyncGenerator<RegistryBatch> {
  for (const name of TRANSFER_ORDER) {
    const spec = TRANSFER_COLUMNS[name] as TransferTable<RegistryBatch["table"]>;
    const page = pageOf(d, spec);
    let last: Row | undefined;
    for (;;) {
      const rows = await read(page.sql, [...page.params(last), PAGE]);
      if (rows.length > 0) {
        yield { table: name, rows: rows.map((r) => transferRow(name, r, () => codeOf(r))) } as RegistryBatch;
      }
      if (rows.length < PAGE) break;
      last = rows.at(-1);
    }
  }
}

/** A query whose one row's `used` is true when the registry holds any row of registry data (leases do not count). */
export function usedQuery(d: Dialect): { sql: string; params: SqlParam[] } {
  const exists = TRANSFER_ORDER.map((name) => {
    const { table } = TRANSFER_COLUMNS[name];
    const where = table === "meta" ? ` WHERE NOT (${d.startsWith("key", "?1")})` : "";
    return `EXISTS (SELECT 1 FROM ${d.t[table]}${where})`;
  });
  return { sql: `SELECT ${exists.join(" OR ")} AS used`, params: [INTERNAL_META_PREFIX] };
}
