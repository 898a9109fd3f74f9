/**
 * The registry on SQLite, behind the async RegistryStore interface: the tables' data methods (tables/) over the
 * SQLite engine (sqlite-engine.ts), on the connection the embedded `Store` opened (same database, same tool files
 * under tools/, same open check). Everything outside core/store/ uses it, the plugin's hooks included.
 *
 * One process has one connection, and SQLite's transactions belong to the connection: while this store holds a
 * transaction open across awaits (`transaction`, `importRegistry`, or the read snapshot of `exportRegistry`), its
 * other callers wait for it in turn. Code that uses the underlying `Store` directly in the same process meanwhile
 * would be folded into that transaction, so a process uses one or the other for writes, not both at once.
 */
import { rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { DistillError } from "../../errors.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../../trace/recordable.ts";
import type { Logger } from "../../types.ts";
import { stderrLogger } from "../../util/logger.ts";
import { EngineRegistryData } from "../registry-data.ts";
import { assertOutsideTransaction, ToolLocks } from "../registry-scope.ts";
import {
  emptyCounts,
  type RegistryBatch,
  type RegistryChangeListener,
  type RegistryStore,
  type TransferCounts,
} from "../registry-store.ts";
import { SqliteChangeFeed } from "./sqlite-change-feed.ts";
import { type Gate, SqliteEngine } from "./sqlite-engine.ts";
import { exportSqlite, importSqlite, sqliteIsEmpty } from "./sqlite-registry-transfer.ts";
import { Store, type StoreOptions } from "./sqlite-store.ts";
import { takeLease } from "./sqlite-tool-lease.ts";

/** The SQLite registry: the embedded default, one folder on one machine. */
export class SqliteRegistryStore extends EngineRegistryData implements RegistryStore {
  readonly kind = "sqlite";
  /** The synchronous store underneath: the hooks' path, `doctor`, spill files, the session tables. */
  readonly store: Store;
  readonly location: string;
  readonly readOnly: boolean;
  readonly #gate: Gate;
  readonly #fileGate: Gate;
  readonly #locks = new ToolLocks();
  readonly #logger: Logger;
  readonly #changes: SqliteChangeFeed;

  /** Opens (creating and migrating unless read-only) the store in folder `root`. */
  static open(root: string, options: StoreOptions = {}): SqliteRegistryStore {
    return new SqliteRegistryStore(new Store(root, options), {
      logger: options.logger ?? stderrLogger,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    });
  }

  /** Runs the registry over an open store's connection; it owns the store from now on (`close` closes it). */
  constructor(store: Store, options: { logger?: Logger; maxOutputBytes?: number } = {}) {
    const engine = SqliteEngine.open(store.database, store.dbPath, store.root);
    super(engine, {
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      toolRoot: store.root,
    });
    const gate = engine.gate;
    this.#fileGate = engine.fileGate;
    this.store = store;
    this.location = store.root;
    this.readOnly = store.readOnly;
    this.#gate = gate;
    this.#logger = options.logger ?? stderrLogger;
    this.#changes = new SqliteChangeFeed(store, () => gate.busy, this.#logger);
  }

  codeLocation(name: string, version: number): string {
    return this.store.toolFile(name, version);
  }

  async withToolLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    assertOutsideTransaction(this.#gate, "withToolLock()");
    return this.#locks.run(name, () => takeLease(this.store, name, () => this.#idle(), this.#logger), fn);
  }

  async onChange(listener: RegistryChangeListener): Promise<() => Promise<void>> {
    // The feed starts from the last committed history row: not from inside another flow's open transaction.
    await this.#idle();
    return this.#changes.subscribe(listener);
  }

  /** Resolves when no transaction, export or import of this handle, nor a write of another on its file, is open. */
  async #idle(): Promise<void> {
    while (this.#gate.busy || this.#fileGate.busy)
      await (this.#gate.busy ? this.#gate.idle() : this.#fileGate.idle());
  }

  async isEmpty(): Promise<boolean> {
    assertOutsideTransaction(this.#gate, "isEmpty()");
    await this.#idle();
    return sqliteIsEmpty(this.store.database);
  }

  async *exportRegistry(): AsyncGenerator<RegistryBatch> {
    assertOutsideTransaction(this.#gate, "exportRegistry()");
    const release = await this.#gate.acquire();
    const db = this.store.database;
    try {
      // A read transaction: one snapshot across every page while other processes go on writing (WAL).
      db.exec("BEGIN");
      yield* exportSqlite(db, this.store.root);
    } finally {
      if (db.inTransaction) db.exec("COMMIT");
      release();
    }
  }

  async importRegistry(batches: AsyncIterable<RegistryBatch>): Promise<TransferCounts> {
    assertOutsideTransaction(this.#gate, "importRegistry()");
    const release = await this.#gate.acquire();
    const releaseFile = await this.#fileGate.acquire();
    const db = this.store.database;
    const counts = emptyCounts();
    const written: string[] = [];
    try {
      db.exec("BEGIN IMMEDIATE");
      try {
        // Checked at COMMIT, so a page may refer to rows of a later one.
        db.exec("PRAGMA defer_foreign_keys = ON");
        if (!sqliteIsEmpty(db)) {
          throw new DistillError(
            "USAGE",
            `the store at ${this.location} is not empty: importing into it would mix two registries, so nothing was written. Import into a new store (a new folder, or an empty PostgreSQL database), or move this one aside first.`,
          );
        }
        for await (const batch of batches) {
          importSqlite(db, this.store.root, batch, written);
          counts[batch.table] += batch.rows.length;
        }
        db.exec("COMMIT");
        return counts;
      } catch (err) {
        if (db.inTransaction) db.exec("ROLLBACK");
        // Tool files beside an empty registry would read as a lost registry at the next open: none may stay.
        removeToolFiles(written);
        throw constraintError(err, this.location);
      }
    } finally {
      releaseFile();
      release();
    }
  }

  async close(): Promise<void> {
    this.#changes.stop();
    this.store.close();
  }
}

/** Removes the tool files an import wrote, and the folders it made for them (only if they are left empty). */
function removeToolFiles(files: string[]): void {
  for (const file of files) rmSync(file, { force: true });
  for (const folder of new Set(files.map((f) => dirname(f)))) {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty (or already gone): left as it is.
    }
  }
}

/** SQLite's constraint failure (code 19) on an import: the rows copied in do not fit together. */
function constraintError(err: unknown, location: string): unknown {
  const e = err as { errcode?: unknown; message?: string };
  if (typeof e.errcode !== "number" || (e.errcode & 0xff) !== 19) return err;
  return new DistillError(
    "STORE",
    `the registry copied into ${location} breaks one of its constraints (${e.message}), so nothing was written: the source holds rows that refer to missing ones. Run \`tooldistill doctor\` on the source.`,
    { cause: err },
  );
}
