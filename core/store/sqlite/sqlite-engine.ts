/**
 * The SQLite driver of the engine port (engine.ts), over the store's one node:sqlite connection
 * (sqlite-database.ts: statements prepared once by their text, failures explained). SQLite's transactions belong to
 * the connection and the calls are synchronous, so this process's async flows share it through a gate: while one
 * flow holds a transaction open across awaits, the others' statements wait for it, and a call on the store from
 * inside its own transaction is a USAGE error (it would wait for the transaction that waits for it).
 *
 * Several handles on one file in one process are several connections on one thread: a second handle's write would
 * wait synchronously for the first one's write lock, which the first can never release while the thread waits.
 * So the write transactions of every handle on one file also take that file's write gate, and a handle's single
 * writes wait (asynchronously) while another handle holds it. Other processes wait on SQLite's lock as before.
 */

import { resolve } from "node:path";
import type { SQLInputValue } from "node:sqlite";
import { DistillError } from "../../errors.ts";
import type { Dialect, Engine, Read, SqlParam } from "../engine.ts";
import { assertOutsideTransaction, runInTransaction } from "../registry-scope.ts";
import type { Row } from "../row-mappers.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

/** SQLite's spelling of what differs (see Dialect). */
export const SQLITE_DIALECT: Dialect = {
  name: "sqlite",
  t: {
    traces: "traces",
    calls: "calls",
    versions: "versions",
    status_history: "status_history",
    dependencies: "dependencies",
    run_stats: "run_stats",
    runs: "runs",
    base_health: "base_health",
    verified_definitions: "verified_definitions",
    meta: "meta",
    cc_sessions: "cc_sessions",
    spill_applied: "spill_applied",
  },
  // The text JavaScript's toISOString() gives, so times written in SQL and in JavaScript sort together.
  now: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
  traceOrder: "rowid",
  writableCte: false,
  codeInRow: false,
  cascades: false,
  startsWith: (column, param) => `substr(${column}, 1, length(${param})) = ${param}`,
  anyOf: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  jsonPairs: (param) => `(SELECT key AS k, value AS v FROM json_each(${param}))`,
};

/** This process's exclusive use of the one connection: a transaction, an export's snapshot or an import. */
export class Gate {
  #busy: Promise<void> | null = null;

  get busy(): boolean {
    return this.#busy !== null;
  }

  /** Resolves once no one holds the connection (at once, without a wait, in the common case). */
  async idle(): Promise<void> {
    while (this.#busy) await this.#busy;
  }

  /** Waits for the connection and takes it; the returned function gives it back. */
  async acquire(): Promise<() => void> {
    while (this.#busy) await this.#busy;
    let resolve!: () => void;
    this.#busy = new Promise<void>((r) => {
      resolve = r;
    });
    return () => {
      this.#busy = null;
      resolve();
    };
  }
}

const writeGates = new Map<string, Gate>();

/** The gate of this process's write transactions on the database file `path`. */
export function writeGate(path: string): Gate {
  const key = resolve(path);
  let gate = writeGates.get(key);
  if (gate === undefined) {
    gate = new Gate();
    writeGates.set(key, gate);
  }
  return gate;
}

/** node:sqlite binds no booleans or arrays: a boolean is 0/1, an array its JSON text (for json_each). */
function bind(params: readonly SqlParam[]): SQLInputValue[] {
  let bound: SQLInputValue[] | null = null;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (typeof p === "boolean" || (typeof p === "object" && p !== null)) {
      bound ??= params.slice() as SQLInputValue[];
      bound[i] = typeof p === "boolean" ? (p ? 1 : 0) : JSON.stringify(p);
    }
  }
  return bound ?? (params as SQLInputValue[]);
}

/** The store's connection, or (`tx` set) the view of one transaction open on it. */
export class SqliteEngine implements Engine {
  readonly dialect = SQLITE_DIALECT;
  readonly where: string;
  readonly inTransaction: boolean;
  /** Held by whichever flow of this process uses the connection alone. */
  readonly gate: Gate;
  /** Held by whichever handle of this process has a write transaction open on the file (see writeGate). */
  readonly fileGate: Gate;
  readonly #db: StoreDatabase;
  readonly #tx: { open: boolean } | null;

  /** The engine of the handle whose connection `db` is, on the database file `file`. */
  static open(db: StoreDatabase, file: string, where: string): SqliteEngine {
    return new SqliteEngine(db, where, new Gate(), writeGate(file), null);
  }

  private constructor(
    db: StoreDatabase,
    where: string,
    gate: Gate,
    fileGate: Gate,
    tx: { open: boolean } | null,
  ) {
    this.#db = db;
    this.where = where;
    this.gate = gate;
    this.fileGate = fileGate;
    this.#tx = tx;
    this.inTransaction = tx !== null;
  }

  /** Waits until this caller may use the connection (to write: the file too); throws when it may not at all. */
  async #enter(write: boolean): Promise<void> {
    if (this.#tx) {
      if (!this.#tx.open) {
        throw new DistillError(
          "USAGE",
          "this transaction has ended: use the store, or open a new transaction",
        );
      }
      return;
    }
    assertOutsideTransaction(this.gate);
    // Checked again after every wake-up: another waiter may have taken the connection first.
    while (this.gate.busy || (write && this.fileGate.busy)) {
      await (this.gate.busy ? this.gate.idle() : this.fileGate.idle());
    }
  }

  async rows(sql: string, params: readonly SqlParam[] = []): Promise<Row[]> {
    await this.#enter(false);
    return this.#db.stmt(sql).all(...bind(params));
  }

  async first(sql: string, params: readonly SqlParam[] = []): Promise<Row | undefined> {
    await this.#enter(false);
    return this.#db.stmt(sql).get(...bind(params));
  }

  /**
   * Runs a read at once, without waiting for the connection: only while no flow of this process holds it (a
   * ToolDistill's constructor, before anything else could), since it would otherwise read inside their transaction.
   */
  readNow<T>(q: Read<T>): T {
    if (this.gate.busy || this.#tx) {
      throw new DistillError(
        "USAGE",
        "a synchronous read was asked for while a transaction of this store is open: await the store's method instead",
      );
    }
    return q.map(this.#db.stmt(q.sql).all(...bind(q.params)));
  }

  async run(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    await this.#enter(true);
    return Number(this.#db.stmt(sql).run(...bind(params)).changes);
  }

  /** One `BEGIN IMMEDIATE` transaction (the write lock, taken up front so it never deadlocks on upgrade). */
  async transaction<T>(fn: (tx: Engine) => Promise<T>, what?: string): Promise<T> {
    if (this.#tx) {
      await this.#enter(true);
      return fn(this);
    }
    assertOutsideTransaction(this.gate, what);
    // The handle's gate first, then the file's: one order everywhere, so two flows never wait for each other.
    const release = await this.gate.acquire();
    const state = { open: true };
    const db = this.#db;
    try {
      const releaseFile = await this.fileGate.acquire();
      try {
        db.exec("BEGIN IMMEDIATE");
        try {
          const tx = new SqliteEngine(db, this.where, this.gate, this.fileGate, state);
          // Only a caller's body needs the scope that refuses the store itself; a table method's uses `tx` alone.
          const result = what === undefined ? await fn(tx) : await runInTransaction(this.gate, () => fn(tx));
          db.exec("COMMIT");
          return result;
        } catch (err) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw err;
        }
      } finally {
        releaseFile();
      }
    } finally {
      state.open = false;
      release();
    }
  }

  /** Nothing to lock: the transaction holds the database's write lock, which every proposer needs. */
  async lockVersionNumbers(_name: string): Promise<void> {}
}
