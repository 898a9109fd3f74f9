/**
 * The store's open SQLite database: prepared statements cached by their text, the one transaction boundary, and
 * every failure turned into the explanation the opener gave (see store-open.ts). The Store and its concept
 * modules (store-traces.ts, store-calls.ts, store-versions.ts) write through it; nothing else holds the handle.
 */
import type { DatabaseSync, SQLInputValue, StatementResultingChanges, StatementSync } from "node:sqlite";
import { assertNodeVersion } from "../../node/node-version.ts";
import type { Row } from "../row-mappers.ts";

/**
 * node:sqlite, loaded on first use after the Node version check: a static import would make an old Node fail
 * with "No such built-in module: node:sqlite" before the library could say which Node it needs.
 */
export function loadSqlite(): typeof import("node:sqlite") {
  assertNodeVersion();
  return process.getBuiltinModule("node:sqlite");
}

/** Turns a failure of SQLite (or of the file system under it) into the error people see. */
export type ExplainFailure = (err: unknown, when: "open" | "query") => unknown;

/** A prepared statement whose failures are explained like every other store failure. */
export class StoreStatement {
  readonly #s: StatementSync;
  readonly #fail: (err: unknown) => never;
  constructor(s: StatementSync, fail: (err: unknown) => never) {
    this.#s = s;
    this.#fail = fail;
  }
  /** Runs a write; says how many rows changed. */
  run(...params: SQLInputValue[]): StatementResultingChanges {
    try {
      return this.#s.run(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
  /** The first row, or undefined. */
  get(...params: SQLInputValue[]): Row | undefined {
    try {
      return this.#s.get(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
  /** Every row. */
  all(...params: SQLInputValue[]): Row[] {
    try {
      return this.#s.all(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
}

/** An open database; every write goes through `transaction`, which takes the write lock up front. */
export class StoreDatabase {
  readonly #db: DatabaseSync;
  readonly #explain: ExplainFailure;
  readonly #statements = new Map<string, StoreStatement>();

  constructor(db: DatabaseSync, explain: ExplainFailure) {
    this.#db = db;
    this.#explain = explain;
  }

  /** The prepared statement of `sql`, prepared once per database. */
  stmt(sql: string): StoreStatement {
    let s = this.#statements.get(sql);
    if (!s) {
      try {
        s = new StoreStatement(this.#db.prepare(sql), (err) => {
          throw this.#explain(err, "query");
        });
      } catch (err) {
        throw this.#explain(err, "query");
      }
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** Runs SQL text without results (pragmas, migrations, savepoints). */
  exec(sql: string): void {
    try {
      this.#db.exec(sql);
    } catch (err) {
      throw this.#explain(err, "query");
    }
  }

  /** `PRAGMA user_version`: the schema version the database was migrated to. */
  userVersion(): number {
    return Number(this.stmt("PRAGMA user_version").get()?.["user_version"]);
  }

  /** True while a transaction is open on this connection. */
  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
  transaction<T>(fn: () => T): T {
    // Reentrant: an outer transaction (e.g. a hook writing a trace and its first call) owns the commit.
    if (this.#db.isTransaction) return fn();
    this.stmt("BEGIN IMMEDIATE").run();
    try {
      const result = fn();
      this.stmt("COMMIT").run();
      return result;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      throw err;
    }
  }

  /** Closes the database (idempotent). */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
