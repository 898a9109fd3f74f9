/**
 * The engine port: what a database driver gives the registry's tables (tables/), so their SQL is written once. A
 * driver runs statements written with `?` placeholders (or `?1`, `?2` … where one value is used twice) and says
 * how many rows a write changed; it runs a transaction on one connection (joining it when already inside one) and
 * takes the lock a new version's number needs. Its `dialect` carries the few pieces of SQL the engines spell
 * differently. Drivers: sqlite/sqlite-engine.ts (node:sqlite) and postgres/postgres-engine.ts (pg).
 */
import type { Row } from "./row-mappers.ts";

/** A value bound to a placeholder: a boolean is 0/1 on SQLite, an array is JSON text there (see `Dialect.anyOf`). */
export type SqlParam = string | number | bigint | boolean | null | readonly (string | number)[];

/** The tables of a registry, as SQL names them. */
export type TableName =
  | "traces"
  | "calls"
  | "versions"
  | "status_history"
  | "dependencies"
  | "run_stats"
  | "runs"
  | "base_health"
  | "verified_definitions"
  | "meta"
  | "cc_sessions"
  | "spill_applied";

/** The SQL the two engines spell differently; everything else is written once. */
export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /** Each table's name in SQL (PostgreSQL keeps them in the `tooldistill` schema). */
  readonly t: Readonly<Record<TableName, string>>;
  /** The current time as the store keeps it: ISO 8601 text on SQLite, the transaction's `now()` on PostgreSQL. */
  readonly now: string;
  /** The column that orders traces started at the same time by when they were written. */
  readonly traceOrder: string;
  /**
   * True when data-modifying WITH is available (PostgreSQL): a call and its trace's counter, or a status change
   * and its history row, are then one statement (one round trip).
   */
  readonly writableCte: boolean;
  /** True when a version's code is its row's `code` column (PostgreSQL), not a tool file under `tools/`. */
  readonly codeInRow: boolean;
  /** True when a version's rows (history, dependencies, runs …) go with it by their foreign keys' cascade. */
  readonly cascades: boolean;
  /** True when `column` starts with the text bound to `param` (`?1`: it may be used twice). */
  startsWith(column: string, param: string): string;
  /** The rows `(k, v)` of the JSON object (text keys and text values) bound to `param`, as a FROM item. */
  jsonPairs(param: string): string;
  /** True when `column` equals one of the array bound to `param` (a JSON array on SQLite, an array on PostgreSQL). */
  anyOf(column: string, param: string, type: "text" | "bigint"): string;
}

/** Builds a statement once per dialect: the text of a statement is then the same string on every call. */
export function sql(build: (d: Dialect) => string): (d: Dialect) => string {
  const built = new Map<Dialect, string>();
  return (d) => {
    let text = built.get(d);
    if (text === undefined) {
      text = build(d);
      built.set(d, text);
    }
    return text;
  };
}

/**
 * A read written once: its statement, its parameters and how its rows become the answer. Any engine runs it
 * (`read`); the SQLite engine can also run it at once (`SqliteEngine.readNow`), which a ToolDistill's constructor
 * needs to answer `activeTools()` before anything is awaited.
 */
export interface Read<T> {
  readonly sql: string;
  readonly params: readonly SqlParam[];
  map(rows: Row[]): T;
}

/** Runs a read on `engine`. */
export async function read<T>(engine: Engine, q: Read<T>): Promise<T> {
  return q.map(await engine.rows(q.sql, q.params));
}

/**
 * A connection to a registry's database: the store's (each statement on its own, or a transaction it opens) or
 * an open transaction's. Failures come out as DistillErrors that say what to do.
 */
export interface Engine {
  readonly dialect: Dialect;
  /** Where the store is, for messages. */
  readonly where: string;
  /** True on an open transaction's connection. */
  readonly inTransaction: boolean;
  /** Every row of a query. */
  rows(sql: string, params?: readonly SqlParam[]): Promise<Row[]>;
  /** The first row of a query, or undefined. */
  first(sql: string, params?: readonly SqlParam[]): Promise<Row | undefined>;
  /** Runs a write; says how many rows it changed. */
  run(sql: string, params?: readonly SqlParam[]): Promise<number>;
  /**
   * Runs `fn` in one transaction and commits once it resolves (a throw rolls back and is rethrown): a new one, or
   * the open one when this is a transaction's connection. `what` marks a caller's transaction (RegistryData's
   * `transaction()`) and names it in the USAGE error a call from inside the store's own transaction gets; inside
   * one, calls on the store itself are refused. Without it the body is a table method's, which uses only `tx`.
   */
  transaction<T>(fn: (tx: Engine) => Promise<T>, what?: string): Promise<T>;
  /**
   * Called on a transaction's connection: locks what the next version number of tool `name` is read from until the transaction
   * ends, so concurrent proposers get consecutive numbers (PostgreSQL: row locks; SQLite: nothing, the
   * transaction already holds the database's write lock).
   */
  lockVersionNumbers(name: string): Promise<void>;
}
