/**
 * The registry on PostgreSQL, for fleets: workers on many machines share one database, which holds everything
 * (tool code included: machines share no file system). A `pg` Pool runs the statements; a transaction is one
 * pooled connection between BEGIN and COMMIT; a tool lock is a session advisory lock on a connection of its own
 * (so a long re-verification holds no pooled connection, and a process that dies releases it with its
 * connection); the change feed LISTENs on another. The schema and its constraints are in postgres-schema.ts; the
 * data methods are the tables' (tables/, through postgres-engine.ts). Loaded only when `store:` is a postgres://
 * URL (see registry-open.ts).
 */
import type { Client, ClientConfig, Pool } from "pg";
import { errorMessage } from "../../errors.ts";
import { DEFAULT_MAX_OUTPUT_BYTES } from "../../trace/recordable.ts";
import type { Logger } from "../../types.ts";
import { stderrLogger } from "../../util/logger.ts";
import { EngineRegistryData } from "../registry-data.ts";
import { type Release, ToolLocks } from "../registry-scope.ts";
import type {
  RegistryBatch,
  RegistryChangeListener,
  RegistryStore,
  TransferCounts,
} from "../registry-store.ts";
import { parseStoreUrl, type StoreUrl } from "../store-url.ts";
import { PostgresChangeFeed } from "./postgres-change-feed.ts";
import { clientConfig, explainPgError, loadPg, type Pg, poolConfig } from "./postgres-connect.ts";
import { PostgresEngine } from "./postgres-engine.ts";
import { migrate } from "./postgres-migrate.ts";
import { LOCK_CLASS } from "./postgres-schema.ts";
import { exportPostgres, importPostgres, postgresIsEmpty } from "./postgres-transfer.ts";

/** How a PostgreSQL store is opened. */
export interface PostgresStoreOptions {
  /** Read only: no schema is created or migrated, and every transaction is READ ONLY. */
  readOnly?: boolean;
  /** Cap of one recorded output (max_output_bytes). */
  maxOutputBytes?: number;
  /** Connections of this process's pool (default 10); tool locks and the change feed take one more each. */
  poolSize?: number;
  /** How long connecting may take before the server counts as unreachable (default 10 s). */
  connectTimeoutMs?: number;
  /** Hears lost connections and failing listeners (default: stderr). */
  logger?: Logger;
}

/** Connections of one process's pool unless told otherwise. */
export const DEFAULT_POOL_SIZE = 10;
/** How long connecting may take before the server counts as unreachable. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** The second key of a tool's advisory lock: 32 bits of the name's sha256 (a collision only over-serialises). */
function toolLockKey(name: string): number {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(name).digest().readInt32BE(0);
}

export class PostgresStore extends EngineRegistryData implements RegistryStore {
  readonly kind = "postgres";
  readonly location: string;
  readonly readOnly: boolean;
  readonly #pg: Pg;
  readonly #pool: Pool;
  readonly #config: ClientConfig;
  readonly #engine: PostgresEngine;
  readonly #logger: Logger;
  readonly #locks = new ToolLocks();
  readonly #changes: PostgresChangeFeed;
  #closed = false;

  /**
   * Connects to the database `url` names and brings its schema up to date (once, however many processes start
   * together). A malformed URL is CONFIG_INVALID; a server that cannot be reached, a refused login, a missing
   * database or a schema from a newer tooldistill are STORE errors that say what to do.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const parsed = parseStoreUrl(url);
    const pg = await loadPg();
    const logger = options.logger ?? stderrLogger;
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const config = poolConfig(pg, parsed, {
      poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectTimeoutMs,
    });
    // Read only, every transaction of every pooled connection is READ ONLY, set as the connection starts.
    const pool = new pg.Pool(
      options.readOnly ? { ...config, options: "-c default_transaction_read_only=on" } : config,
    );
    // An idle connection the server drops (a restart, a failover) must not crash the process: the pool
    // discards it and opens a new one on the next query.
    pool.on("error", (err) =>
      logger.warn(`tooldistill: a connection to the store ${parsed.display} was lost: ${err.message}`),
    );
    try {
      await migrate(pool, parsed.display, options.readOnly === true);
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
    return new PostgresStore(pg, pool, parsed, clientConfig(pg, parsed, connectTimeoutMs), options, logger);
  }

  private constructor(
    pg: Pg,
    pool: Pool,
    url: StoreUrl,
    config: ClientConfig,
    options: PostgresStoreOptions,
    logger: Logger,
  ) {
    const engine = PostgresEngine.onPool(pool, url.display);
    super(engine, { maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, toolRoot: null });
    this.#engine = engine;
    this.location = url.display;
    this.readOnly = options.readOnly === true;
    this.#pg = pg;
    this.#pool = pool;
    this.#config = config;
    this.#logger = logger;
    this.#changes = new PostgresChangeFeed(pg, config, url.display, logger);
  }

  codeLocation(name: string, version: number): string {
    return `${this.location} (tooldistill.versions: ${name} v${version})`;
  }

  async withToolLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.#engine.assertOutside("withToolLock()");
    return this.#locks.run(name, () => this.#advisoryLock(name), fn);
  }

  /** Takes the tool's session advisory lock on a new connection; releasing it closes the connection. */
  async #advisoryLock(name: string): Promise<Release> {
    const client: Client = new this.#pg.Client(this.#config);
    client.on("error", (err) =>
      // The lock went with the connection: another process may now take it while this one still works.
      this.#logger.warn(`tooldistill: lost the connection holding the lock of ${name}: ${err.message}`),
    );
    try {
      await client.connect();
      await client.query("SELECT pg_advisory_lock($1, $2)", [LOCK_CLASS + 1, toolLockKey(name)]);
    } catch (err) {
      await client.end().catch(() => {});
      throw explainPgError(err, this.location);
    }
    return async () => {
      await client.end().catch((err: unknown) => {
        this.#logger.warn(`tooldistill: closing the lock connection of ${name} failed: ${errorMessage(err)}`);
      });
    };
  }

  onChange(listener: RegistryChangeListener): Promise<() => Promise<void>> {
    return this.#changes.subscribe(listener);
  }

  async isEmpty(): Promise<boolean> {
    return postgresIsEmpty(this.#engine.database);
  }

  async *exportRegistry(): AsyncGenerator<RegistryBatch> {
    this.#engine.assertOutside("exportRegistry()");
    yield* exportPostgres(this.#pool, this.location);
  }

  async importRegistry(batches: AsyncIterable<RegistryBatch>): Promise<TransferCounts> {
    this.#engine.assertOutside("importRegistry()");
    return importPostgres(this.#pool, this.location, batches);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#changes.stop();
    await this.#pool.end();
  }
}
