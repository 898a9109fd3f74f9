/**
 * The PostgreSQL driver of the engine port (engine.ts): statements on the pool (each its own transaction) or on
 * the one connection of an open transaction (postgres-database.ts, which explains failures and retries a statement
 * the server refused before running it). The tables' `?` placeholders become `$1, $2 …` here, once per text, and
 * each statement is prepared once per connection under its own name.
 */
import type { Pool } from "pg";
import { DistillError } from "../../errors.ts";
import type { Dialect, Engine, SqlParam, TableName } from "../engine.ts";
import { assertOutsideTransaction, runInTransaction } from "../registry-scope.ts";
import type { Row } from "../row-mappers.ts";
import { BEGIN, PostgresDatabase, withTransaction } from "./postgres-database.ts";

const TABLES: readonly TableName[] = [
  "traces",
  "calls",
  "versions",
  "status_history",
  "dependencies",
  "run_stats",
  "runs",
  "base_health",
  "verified_definitions",
  "meta",
  "cc_sessions",
  "spill_applied",
];

/** PostgreSQL's spelling of what differs (see Dialect). */
export const POSTGRES_DIALECT: Dialect = {
  name: "postgres",
  t: Object.fromEntries(TABLES.map((t) => [t, `tooldistill.${t}`])) as Record<TableName, string>,
  // The transaction's start: every row a transaction writes carries one time.
  now: "now()",
  traceOrder: "seq",
  writableCte: true,
  codeInRow: true,
  cascades: true,
  startsWith: (column, param) => `starts_with(${column}, ${param})`,
  anyOf: (column, param, type) => `${column} = ANY(CAST(${param} AS ${type}[]))`,
  jsonPairs: (param) => `(SELECT key AS k, value AS v FROM json_each_text(CAST(${param} AS json)))`,
};

function ended(): DistillError {
  return new DistillError("USAGE", "this transaction has ended: use the store, or open a new transaction");
}

const numberedTexts = new Map<string, string>();
/** The tables' statements by their numbered text: each is prepared once per connection under its name. */
const statementNames = new Map<string, string>();

/** The name `text` is prepared under (a few dozen texts: the tables' statements and their variants). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `td_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * `sql` with its placeholders numbered as PostgreSQL wants them: `?` is the next number, `?N` is `$N`. Quoted text
 * ('…', "…") and comments are left as they are, so a literal question mark stays one.
 */
export function numbered(sql: string): string {
  const known = numberedTexts.get(sql);
  if (known !== undefined) return known;
  let out = "";
  let next = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "?") {
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
      if (digits === undefined) {
        out += `$${++next}`;
      } else {
        out += `$${digits}`;
        i += digits.length;
      }
    } else {
      out += c;
    }
  }
  numberedTexts.set(sql, out);
  return out;
}

/** The store's pool, or (built by `transaction`) the connection of one open transaction. */
export class PostgresEngine implements Engine {
  readonly dialect = POSTGRES_DIALECT;
  readonly where: string;
  readonly inTransaction: boolean;
  readonly #db: PostgresDatabase;
  readonly #pool: Pool;
  /** Whose transactions calls are checked against: a call on the store from inside its own is refused. */
  readonly #owner: object;
  /** A transaction's: open until it commits or rolls back. */
  readonly #state: { open: boolean } | null;

  /** The engine of the store at `where`, over its pool. */
  static onPool(pool: Pool, where: string): PostgresEngine {
    const owner = {};
    return new PostgresEngine(
      PostgresDatabase.onPool(pool, where, () => assertOutsideTransaction(owner)),
      pool,
      owner,
      null,
    );
  }

  private constructor(db: PostgresDatabase, pool: Pool, owner: object, state: { open: boolean } | null) {
    this.#db = db;
    this.#pool = pool;
    this.#owner = owner;
    this.#state = state;
    this.where = db.where;
    this.inTransaction = state !== null;
  }

  /** Where the statements run, for what speaks PostgreSQL directly (the copy, `isEmpty`). */
  get database(): PostgresDatabase {
    return this.#db;
  }

  /** Throws USAGE when called from inside this store's own transaction. */
  assertOutside(what: string): void {
    assertOutsideTransaction(this.#owner, what);
  }

  rows(sql: string, params: readonly SqlParam[] = []): Promise<Row[]> {
    const text = numbered(sql);
    return this.#db.rows(text, params as unknown[], statementName(text));
  }

  first(sql: string, params: readonly SqlParam[] = []): Promise<Row | undefined> {
    const text = numbered(sql);
    return this.#db.first(text, params as unknown[], statementName(text));
  }

  run(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    const text = numbered(sql);
    // SAVEPOINT and its kin are not preparable; they are the only statements without parameters run here.
    return this.#db.run(text, params as unknown[], params.length === 0 ? undefined : statementName(text));
  }

  /** One pooled connection between BEGIN (READ COMMITTED) and one COMMIT; a throw rolls back. */
  async transaction<T>(fn: (tx: Engine) => Promise<T>, what?: string): Promise<T> {
    if (this.#state) {
      if (!this.#state.open) throw ended();
      return fn(this);
    }
    assertOutsideTransaction(this.#owner, what);
    return withTransaction(this.#pool, this.where, BEGIN, async (client) => {
      const state = { open: true };
      const db = PostgresDatabase.inTransaction(client, this.where, () => {
        if (!state.open) throw ended();
      });
      try {
        const tx = new PostgresEngine(db, this.#pool, this.#owner, state);
        // Only a caller's body needs the scope that refuses the store itself; a table method's uses `tx` alone.
        return what === undefined ? await fn(tx) : await runInTransaction(this.#owner, () => fn(tx));
      } finally {
        state.open = false;
      }
    });
  }

  /**
   * The tool's row locked, whether it was new or not: a concurrent proposer waits here until this transaction
   * ends, then reads the number this one took. FOR NO KEY UPDATE, not an upsert of the key (which takes FOR
   * UPDATE): a verification committing meanwhile updates its version row twice, and the second update checks the
   * foreign key to this row (FOR KEY SHARE); under FOR UPDATE it would wait here while this transaction waits for
   * its version row: a deadlock. The drafts and rejected attempts are locked too: a status change racing this one
   * (a draft's verdict, a rejected attempt verified by a person after all) finishes first, so the number is read
   * from statuses that hold until the commit. Only those: a promotion holds the active and verified rows it moves
   * while it commits, and locking those here, in another order, could deadlock with it.
   */
  async lockVersionNumbers(name: string): Promise<void> {
    await this.run("INSERT INTO tooldistill.tools (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [name]);
    await this.run("SELECT 1 FROM tooldistill.tools WHERE name = ? FOR NO KEY UPDATE", [name]);
    await this.run(
      "SELECT 1 FROM tooldistill.versions WHERE name = ? AND status IN ('draft', 'rejected') ORDER BY version FOR UPDATE",
      [name],
    );
  }
}
