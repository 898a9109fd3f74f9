/**
 * The registry on SQLite: `<root>/registry.db` (WAL) plus tool files under `<root>/tools/<name>/v<N>.ts`, behind
 * the async RegistryStore interface: the tables' data methods (tables/) over the SQLite engine (sqlite-engine.ts).
 * Everything uses it, the plugin's hooks included.
 *
 * A handle has one connection, and SQLite's transactions belong to the connection: while this store holds a
 * transaction open across awaits (`transaction`, `importRegistry`, or the read snapshot of `exportRegistry`), its
 * other callers wait for it in turn.
 */
import { rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { DistillError } from "../../errors.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../../trace/recordable.ts";
import type { Logger } from "../../types.ts";
import { stderrLogger } from "../../util/logger.ts";
import type { Dialect, Read } from "../engine.ts";
import { checkOnOpen, type LifecycleProblem } from "../lifecycle-invariants.ts";
import { EngineRegistryData } from "../registry-data.ts";
import { assertOutsideTransaction, ToolLocks } from "../registry-scope.ts";
import {
  emptyCounts,
  type RegistryBatch,
  type RegistryChangeListener,
  type RegistryStore,
  type TransferCounts,
} from "../registry-store.ts";
import { DEFAULT_BUSY_TIMEOUT_MS, openDatabase, type StoreOptions } from "../store-open.ts";
import { toolFilePath } from "../tool-files.ts";
import { SqliteChangeFeed } from "./sqlite-change-feed.ts";
import type { StoreDatabase } from "./sqlite-database.ts";
import { type Gate, SqliteEngine } from "./sqlite-engine.ts";
import { exportSqlite, importSqlite, sqliteIsEmpty } from "./sqlite-registry-transfer.ts";
import { takeLease } from "./sqlite-tool-lease.ts";

/** The SQLite registry: the embedded default, one folder on one machine. */
export class SqliteRegistryStore extends EngineRegistryData implements RegistryStore {
  readonly kind = "sqlite";
  readonly location: string;
  readonly dbPath: string;
  readonly readOnly: boolean;
  /** The open connection, for core's SQLite modules that need more than the registry's methods. */
  readonly database: StoreDatabase;
  readonly #gate: Gate;
  readonly #fileGate: Gate;
  readonly #engine: SqliteEngine;
  readonly #locks = new ToolLocks();
  readonly #logger: Logger;
  readonly #changes: SqliteChangeFeed;
  readonly #checkInvariants: boolean;
  #checked: Promise<readonly LifecycleProblem[]> | null = null;
  #problems: readonly LifecycleProblem[] = [];

  /**
   * Opens (creating and migrating unless read-only) the store in folder `root`. The lifecycle check runs when
   * `checkOnOpen()` is awaited (openRegistryStore and a ToolDistill do it; the hooks skip it).
   */
  static open(root: string, options: StoreOptions = {}): SqliteRegistryStore {
    const readOnly = options.readOnly === true;
    const database = openDatabase(root, {
      readOnly,
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
    return new SqliteRegistryStore(root, database, readOnly, options);
  }

  private constructor(root: string, database: StoreDatabase, readOnly: boolean, options: StoreOptions) {
    const dbPath = join(root, "registry.db");
    const engine = SqliteEngine.open(database, dbPath, root);
    super(engine, {
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      toolRoot: root,
    });
    const gate = engine.gate;
    this.#engine = engine;
    this.#fileGate = engine.fileGate;
    this.location = root;
    this.dbPath = dbPath;
    this.readOnly = readOnly;
    this.database = database;
    this.#gate = gate;
    this.#logger = options.logger ?? stderrLogger;
    this.#changes = new SqliteChangeFeed(database, () => gate.busy, this.#logger);
    this.#checkInvariants = options.checkInvariants !== false;
  }

  /**
   * Checks the lifecycle invariants (once per handle; later calls share the first, and a handle opened with
   * `checkInvariants: false` skips it): repairs the safe problems unless read-only, warns about the rest, and
   * resolves to what is left (also `lifecycleProblems` from then on).
   */
  checkOnOpen(): Promise<readonly LifecycleProblem[]> {
    if (!this.#checkInvariants) return Promise.resolve([]);
    this.#checked ??= checkOnOpen(this, this.readOnly, this.#logger).then((left) => {
      this.#problems = left;
      return left;
    });
    return this.#checked;
  }

  /** What the open check found and could not (or, read-only, did not) repair; empty until it ran. */
  get lifecycleProblems(): readonly LifecycleProblem[] {
    return this.#problems;
  }

  /**
   * Runs a read at once (a ToolDistill's constructor answers `activeTools()` before it awaits anything); only
   * while no transaction of this handle is open.
   */
  readNow<T>(q: (d: Dialect) => Read<T>): T {
    return this.#engine.readNow(q(this.#engine.dialect));
  }

  /** `PRAGMA integrity_check` ("ok", or SQLite's list of problems), for tests and `tooldistill doctor`. */
  async integrityCheck(): Promise<string> {
    const rows = await this.engine.rows("PRAGMA integrity_check");
    return rows.map((r) => String(r["integrity_check"])).join("\n");
  }

  /** Path of a version's tool file; the name is checked and the path must stay inside `tools/`. */
  toolFile(name: string, version: number): string {
    return toolFilePath(this.location, name, version);
  }

  codeLocation(name: string, version: number): string {
    return this.toolFile(name, version);
  }

  async withToolLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    assertOutsideTransaction(this.#gate, "withToolLock()");
    return this.#locks.run(name, () => takeLease(this, name, this.#logger), fn);
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
    return sqliteIsEmpty(this.database);
  }

  async *exportRegistry(): AsyncGenerator<RegistryBatch> {
    assertOutsideTransaction(this.#gate, "exportRegistry()");
    const release = await this.#gate.acquire();
    const db = this.database;
    try {
      // A read transaction: one snapshot across every page while other processes go on writing (WAL).
      db.exec("BEGIN");
      yield* exportSqlite(db, this.location);
    } finally {
      if (db.inTransaction) db.exec("COMMIT");
      release();
    }
  }

  async importRegistry(batches: AsyncIterable<RegistryBatch>): Promise<TransferCounts> {
    assertOutsideTransaction(this.#gate, "importRegistry()");
    const release = await this.#gate.acquire();
    const releaseFile = await this.#fileGate.acquire();
    const db = this.database;
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
          importSqlite(db, this.location, batch, written);
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
    this.database.close();
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
