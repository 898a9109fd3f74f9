/**
 * Where the PostgreSQL store's statements run: on the pool (each statement its own transaction) or on the one
 * connection of an open transaction. Failures come out explained (postgres-connect.ts). The engine driver
 * (postgres-engine.ts) and the copy (postgres-transfer.ts) run their statements through one.
 */
import type { Pool, PoolClient, QueryConfig, QueryResult } from "pg";
import { DistillError } from "../../errors.ts";
import type { Row } from "../row-mappers.ts";
import { explainPgError } from "./postgres-connect.ts";

/** How our transactions begin: READ COMMITTED whatever the server's default, so each statement sees the latest. */
export const BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED";

export class PostgresDatabase {
  readonly #pool: Pool | null;
  readonly #client: PoolClient | null;
  readonly #where: string;
  readonly #check: () => void;

  /** `check` runs before every statement: it refuses a caller that may not use this database now. */
  private constructor(pool: Pool | null, client: PoolClient | null, where: string, check: () => void) {
    this.#pool = pool;
    this.#client = client;
    this.#where = where;
    this.#check = check;
  }

  /** Statements on the pool of the store at `where`. */
  static onPool(pool: Pool, where: string, check: () => void): PostgresDatabase {
    return new PostgresDatabase(pool, null, where, check);
  }

  /** Statements on the connection of an open transaction. */
  static inTransaction(client: PoolClient, where: string, check: () => void): PostgresDatabase {
    return new PostgresDatabase(null, client, where, check);
  }

  /** Where the store is, for messages. */
  get where(): string {
    return this.#where;
  }

  /**
   * Every row of `sql`. With a `name`, the statement is prepared once per connection under it and run by name
   * after that (one name, one text: see postgres-engine.ts).
   */
  async rows(sql: string, params: unknown[] = [], name?: string): Promise<Row[]> {
    return (await this.#query(sql, params, name)).rows as Row[];
  }

  /** The first row of `sql`, or undefined. */
  async first(sql: string, params: unknown[] = [], name?: string): Promise<Row | undefined> {
    return (await this.rows(sql, params, name))[0];
  }

  /** Runs a write; says how many rows it touched. */
  async run(sql: string, params: unknown[] = [], name?: string): Promise<number> {
    return (await this.#query(sql, params, name)).rowCount ?? 0;
  }

  async #query(text: string, values: unknown[], name: string | undefined): Promise<QueryResult> {
    this.#check();
    const sql: QueryConfig = name === undefined ? { text, values } : { name, text, values };
    if (this.#client) {
      try {
        return await this.#client.query(sql);
      } catch (err) {
        throw explainPgError(err, this.#where);
      }
    }
    const pool = this.#pool as Pool;
    try {
      return await pool.query(sql);
    } catch (err) {
      if (!terminatedBeforeRunning(err)) throw explainPgError(err, this.#where);
    }
    // The pool handed out a connection the server had just ended (a restart, a failover): once more, on another.
    try {
      return await pool.query(sql);
    } catch (err) {
      throw explainPgError(err, this.#where);
    }
  }

  /** Runs `fn`'s statements in one transaction: the open one, or a new one on a connection of the pool. */
  atomic<T>(fn: (db: PostgresDatabase) => Promise<T>): Promise<T> {
    this.#check();
    if (this.#client) return fn(this);
    return withTransaction(this.#pool as Pool, this.#where, BEGIN, (client) =>
      fn(PostgresDatabase.inTransaction(client, this.#where, () => {})),
    );
  }
}

/**
 * True when the server ended the connection instead of running the statement (an administrator or a shutdown
 * terminated it, or it sat idle too long): the statement never ran, so running it again on another connection is
 * safe, writes included. A connection that merely dropped is not: a COMMIT may have happened before it did.
 */
function terminatedBeforeRunning(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === "57P01" || code === "57P02" || code === "57P05";
}

/**
 * Runs `fn` on one connection between `begin` and COMMIT; a throw rolls back and is rethrown as it is. A
 * transaction that PostgreSQL already aborted (a failed statement whose error `fn` caught) is not reported as
 * committed: COMMIT answers ROLLBACK then, and this throws.
 */
export async function withTransaction<T>(
  pool: Pool,
  where: string,
  begin: string,
  fn: (client: PoolClient) => Promise<T>,
): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw explainPgError(err, where);
  }
  try {
    await client.query(begin);
  } catch (err) {
    client.release(err as Error);
    if (!terminatedBeforeRunning(err)) throw explainPgError(err, where);
    // A connection the server had just ended: nothing ran yet, so begin again on another.
    try {
      client = await pool.connect();
    } catch (again) {
      throw explainPgError(again, where);
    }
    try {
      await client.query(begin);
    } catch (again) {
      client.release(again as Error);
      throw explainPgError(again, where);
    }
  }
  let broken: Error | undefined;
  try {
    const result = await fn(client);
    let committed: { command: string };
    try {
      committed = await client.query("COMMIT");
    } catch (err) {
      throw explainPgError(err, where);
    }
    if (committed.command !== "COMMIT") {
      throw new DistillError(
        "STORE",
        `a transaction on the store ${where} was rolled back: one of its statements failed and the failure was caught inside the transaction. Nothing of it was written.`,
      );
    }
    return result;
  } catch (err) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackErr) {
      // The connection is unusable (lost, or the server went away): the pool must not hand it out again.
      broken = rollbackErr as Error;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}
