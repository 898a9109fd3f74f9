import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  EngineRegistryData,
  MigrationList,
  TRANSFER_COLUMNS,
  ToolLocks,
  assertOutsideTransaction,
  columnsOf,
  emptyCounts,
  exportTables,
  fieldValue,
  migrate,
  runInTransaction,
  stderrLogger,
  usedQuery
} from "./chunk-UT4SHXKT.js";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  parseStoreUrl
} from "./chunk-VPKFMVD7.js";
import "./chunk-7GUC6VD2.js";
import {
  Statuses
} from "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// core/store/postgres/postgres-connect.ts
var loaded;
async function loadPg() {
  if (loaded) return loaded;
  try {
    loaded = (await import("./esm-P2ZNL7ZK.js")).default;
  } catch (err) {
    throw new DistillError(
      "STORE",
      `a PostgreSQL store needs the \`pg\` package, which could not be loaded (${errorMessage(err)}): install it beside tooldistill (npm install pg), or use a folder as the store (store: in tooldistill.yaml).`,
      { cause: err }
    );
  }
  return loaded;
}
var OID = { int8: 20, json: 114, jsonb: 3802, timestamptz: 1184 };
function clientConfig(pg, url, connectTimeoutMs) {
  const builtin = pg.types.getTypeParser.bind(pg.types);
  const timestamp = builtin(OID.timestamptz);
  return {
    connectionString: url.connectionString,
    application_name: "tooldistill",
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    types: {
      getTypeParser: ((oid, format) => {
        if (oid === OID.json || oid === OID.jsonb) return (text) => text;
        if (oid === OID.int8) return Number;
        if (oid === OID.timestamptz) return (text) => timestamp(text).toISOString();
        return builtin(oid, format);
      })
    }
  };
}
function poolConfig(pg, url, options) {
  return {
    ...clientConfig(pg, url, options.connectTimeoutMs),
    max: options.poolSize,
    allowExitOnIdle: true
  };
}
var UNREACHABLE = /* @__PURE__ */ new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EPIPE",
  "ENOENT"
]);
function explainPgError(err, where) {
  if (err instanceof DistillError) return err;
  const e = err;
  const code = typeof e.code === "string" ? e.code : "";
  const message = e.message ?? String(err);
  const detail = e.detail ? `${message}; ${e.detail}` : message;
  const make = (c, text) => new DistillError(c, text, { cause: err });
  const setting = "Check the URL (store: in tooldistill.yaml, or the environment variable it names, such as DATABASE_URL)";
  if (UNREACHABLE.has(code) || /timeout expired|Connection terminated|connect ETIMEDOUT|server closed the connection/i.test(message)) {
    return make(
      "STORE",
      `cannot reach the PostgreSQL server of the store ${where} (${message}). ${setting} and that the server is running and accepts connections from this machine.`
    );
  }
  switch (code) {
    case "28P01":
    case "28000":
      return make(
        "STORE",
        `the PostgreSQL server of the store ${where} refused the login (${message}). ${setting}: the user and password, and that pg_hba.conf lets this user in from this machine.`
      );
    case "3D000":
      return make(
        "STORE",
        `the database of the store ${where} does not exist (${message}): create it (createdb <name>, or CREATE DATABASE) and run the command again, or fix the URL (store: in tooldistill.yaml).`
      );
    case "42501":
      return make(
        "STORE",
        `the database user of the store ${where} lacks a privilege (${message}): grant it CREATE on the database (for the first start, which creates the schema \`tooldistill\`) and USAGE and read/write on that schema's tables, or use a user that owns them.`
      );
    case "53300":
    case "53400":
      return make(
        "STORE_BUSY",
        `the PostgreSQL server of the store ${where} has no connection to spare (${message}): lower the number of processes or the pool size, or raise max_connections on the server.`
      );
    case "57P01":
    case "57P02":
    case "57P03":
    case "08000":
    case "08003":
    case "08006":
      return make(
        "STORE",
        `the PostgreSQL server of the store ${where} is not available (${message}): it is shutting down, starting or in recovery; run the command again when it is up.`
      );
    case "40001":
    case "40P01":
    case "55P03":
    case "57014":
      return make(
        "STORE_BUSY",
        `the store ${where} could not finish a write because of concurrent work (${message}): run the command again.`
      );
    case "23P01":
      return make(
        "TRANSITION",
        `the store ${where} refused a second active version of a tool (${detail}): another process activated one meanwhile. Run the command again.`
      );
    case "23514":
      if (e.constraint === "versions_code_matches_hash") {
        return make(
          "TOOL_FILE_CHANGED",
          `the store ${where} refused a version whose code does not match its recorded hash (${detail}): the code was changed after verification.`
        );
      }
      return make("STORE", `the store ${where} refused a write that breaks its rules (${detail}).`);
    case "23503":
    case "23505":
    case "23502":
      return make("STORE", `the store ${where} refused a write that breaks its rules (${detail}).`);
  }
  if (/^[0-9A-Z]{5}$/.test(code)) {
    return make("STORE", `the PostgreSQL store ${where} failed (${message}, SQLSTATE ${code}).`);
  }
  return err;
}

// core/store/postgres/postgres-schema.ts
var LOCK_CLASS = 1952710657;
var LOCK = { migrate: 1, import: 2 };
var MIN_SERVER_VERSION_NUM = 11e4;
var CHANGES_CHANNEL = "tooldistill_changes";
var STATUS_V1 = "'draft', 'verified', 'active', 'suspect', 'deprecated'";
var STATUS_V3 = "'draft', 'verified', 'active', 'suspect', 'deprecated', 'rejected', 'superseded'";
var MIGRATIONS = [
  {
    version: 1,
    sql: `
  CREATE TABLE tooldistill.traces (
    id text COLLATE "C" PRIMARY KEY,
    -- insertion order, which breaks ties of started_at as SQLite's rowid does
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    task text NOT NULL,
    source text NOT NULL CHECK (source IN ('sdk', 'claude-code')),
    outcome boolean,
    input_tokens bigint NOT NULL DEFAULT 0,
    output_tokens bigint NOT NULL DEFAULT 0,
    cache_creation_input_tokens bigint NOT NULL DEFAULT 0,
    cache_read_input_tokens bigint NOT NULL DEFAULT 0,
    started_at timestamptz NOT NULL DEFAULT now(),
    ended_at timestamptz,
    nudged boolean NOT NULL DEFAULT false,
    proposed boolean NOT NULL DEFAULT false,
    replace_name text,
    note text,
    -- the seq of the trace's last call: incrementing it locks the row, so concurrent recorders number calls
    -- without gaps or duplicates
    last_call_seq integer NOT NULL DEFAULT 0
  );
  CREATE INDEX traces_newest ON tooldistill.traces (started_at DESC, seq DESC);

  CREATE TABLE tooldistill.calls (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    trace_id text COLLATE "C" NOT NULL
      REFERENCES tooldistill.traces (id) ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE,
    seq integer NOT NULL CHECK (seq >= 1),
    parent_id bigint REFERENCES tooldistill.calls (id) DEFERRABLE INITIALLY IMMEDIATE,
    tool text NOT NULL,
    kind text NOT NULL CHECK (kind IN ('base', 'distilled', 'proposal', 'other')),
    -- recorded JSON, kept as its exact text (foreign data: json would refuse a lone surrogate)
    args text NOT NULL,
    status text NOT NULL CHECK (status IN ('started', 'ok', 'error')),
    output text,
    error text,
    latency_ms double precision,
    version integer,
    external_id text,
    started_at timestamptz NOT NULL DEFAULT now(),
    note text,
    clipped boolean NOT NULL DEFAULT false,
    UNIQUE (trace_id, seq)
  );
  CREATE INDEX calls_external ON tooldistill.calls (external_id) WHERE external_id IS NOT NULL;
  CREATE INDEX calls_parent ON tooldistill.calls (parent_id) WHERE parent_id IS NOT NULL;

  -- one row per tool name: locking it numbers that tool's proposals without gaps or duplicates
  CREATE TABLE tooldistill.tools (
    name text COLLATE "C" PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE tooldistill.versions (
    name text COLLATE "C" NOT NULL REFERENCES tooldistill.tools (name) DEFERRABLE INITIALLY IMMEDIATE,
    version integer NOT NULL CHECK (version >= 1),
    status text NOT NULL CHECK (status IN (${STATUS_V1})),
    problems json NOT NULL DEFAULT '[]',
    baseline integer,
    baseline_tokens bigint,
    source_trace text,
    description text NOT NULL DEFAULT '',
    input_schema json NOT NULL DEFAULT '{}',
    test_inputs json NOT NULL DEFAULT '[]',
    code text NOT NULL,
    source_hash text NOT NULL,
    verdict json,
    queued_rebuild boolean NOT NULL DEFAULT false,
    rebuild_note text,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, version),
    CONSTRAINT versions_code_matches_hash
      CHECK (source_hash = encode(sha256(convert_to(code, 'UTF8')), 'hex')),
    CONSTRAINT versions_active_has_no_problem CHECK (status <> 'active' OR problems::text = '[]'),
    CONSTRAINT versions_deprecated_not_queued CHECK (status <> 'deprecated' OR NOT queued_rebuild),
    CONSTRAINT versions_one_active EXCLUDE USING btree (name WITH =) WHERE (status = 'active')
      DEFERRABLE INITIALLY DEFERRED
  );

  CREATE TABLE tooldistill.status_history (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    from_status text CHECK (from_status IN (${STATUS_V1})),
    to_status text NOT NULL CHECK (to_status IN (${STATUS_V1})),
    reason text NOT NULL,
    evidence json,
    at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (name, version) REFERENCES tooldistill.versions (name, version)
      ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE
  );
  CREATE INDEX status_history_version ON tooldistill.status_history (name, version, id);

  CREATE TABLE tooldistill.dependencies (
    name text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    base_tool text COLLATE "C" NOT NULL,
    fingerprint text,
    avoided boolean NOT NULL DEFAULT false,
    PRIMARY KEY (name, version, base_tool),
    FOREIGN KEY (name, version) REFERENCES tooldistill.versions (name, version)
      ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE
  );

  CREATE TABLE tooldistill.run_stats (
    name text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    runs integer NOT NULL DEFAULT 0,
    successes integer NOT NULL DEFAULT 0,
    failures integer NOT NULL DEFAULT 0,
    inner_calls bigint NOT NULL DEFAULT 0,
    last_run_at timestamptz,
    PRIMARY KEY (name, version),
    FOREIGN KEY (name, version) REFERENCES tooldistill.versions (name, version)
      ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE
  );

  CREATE TABLE tooldistill.meta (
    key text COLLATE "C" PRIMARY KEY,
    value text NOT NULL
  );

  CREATE FUNCTION tooldistill.announce_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('${CHANGES_CHANNEL}', json_build_object(
      'name', NEW.name, 'version', NEW.version, 'from', NEW.from_status, 'to', NEW.to_status)::text);
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER status_history_announce AFTER INSERT ON tooldistill.status_history
    FOR EACH ROW EXECUTE FUNCTION tooldistill.announce_status_change();
  `
  },
  {
    // 2: the Claude Code plugin's tables: which span of each session is current, and the spilled hook events
    // already applied (so the td server applies each exactly once, whichever process gets there first).
    version: 2,
    sql: `
  CREATE TABLE tooldistill.cc_sessions (
    session_id text COLLATE "C" PRIMARY KEY,
    span integer NOT NULL CHECK (span >= 1),
    confirmed boolean NOT NULL DEFAULT false,
    updated_at timestamptz NOT NULL DEFAULT now()
  );

  CREATE TABLE tooldistill.spill_applied (
    event_id text COLLATE "C" PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX spill_applied_at ON tooldistill.spill_applied (applied_at);
  `
  },
  {
    // 3 (SQLite's 4 and 5): the lifecycle for agents that write, and the evidence of verification. Every live run
    // of a distilled tool with its outcome (the demotion rule reads the last runs, show their evidence); the
    // health of each base tool; every base tool definition a version was verified against; the statuses
    // rejected and superseded (the CHECKs widened, which PostgreSQL can do in place); a version's replay runs;
    // the indexes that find a version by its code and a version's live runs. Drafts that failed verification
    // under an older build become rejected; the fingerprints verified so far seed the definitions (text
    // unknown). Written to run again harmlessly (IF [NOT] EXISTS, ON CONFLICT), as a renumbered migration might.
    version: 3,
    sql: `
  CREATE TABLE IF NOT EXISTS tooldistill.runs (
    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    name text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('ok', 'not_applicable', 'tool', 'infrastructure', 'host')),
    trace_id text,
    call_id bigint,
    inner_calls integer NOT NULL DEFAULT 0,
    -- JSON text: a failure's message is foreign data (json would refuse a lone surrogate)
    evidence text,
    at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (name, version) REFERENCES tooldistill.versions (name, version)
      ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE
  );
  CREATE INDEX IF NOT EXISTS runs_by_version ON tooldistill.runs (name, version, id);

  CREATE TABLE IF NOT EXISTS tooldistill.base_health (
    tool text COLLATE "C" PRIMARY KEY,
    failures integer NOT NULL DEFAULT 0,
    consecutive integer NOT NULL DEFAULT 0,
    last_error text,
    last_failure_at timestamptz,
    last_ok_at timestamptz,
    probe_ok boolean,
    probed_at timestamptz
  );

  CREATE TABLE IF NOT EXISTS tooldistill.verified_definitions (
    name text COLLATE "C" NOT NULL,
    version integer NOT NULL,
    base_tool text COLLATE "C" NOT NULL,
    fingerprint text COLLATE "C" NOT NULL,
    -- the definition as its JSON text: a server's definition is foreign data
    definition text,
    verified_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (name, version, base_tool, fingerprint),
    FOREIGN KEY (name, version) REFERENCES tooldistill.versions (name, version)
      ON DELETE CASCADE DEFERRABLE INITIALLY IMMEDIATE
  );
  INSERT INTO tooldistill.verified_definitions (name, version, base_tool, fingerprint, definition)
    SELECT name, version, base_tool, fingerprint, NULL FROM tooldistill.dependencies
    WHERE fingerprint IS NOT NULL AND NOT avoided
    ON CONFLICT DO NOTHING;

  ALTER TABLE tooldistill.run_stats ADD COLUMN IF NOT EXISTS not_applicable integer NOT NULL DEFAULT 0;
  ALTER TABLE tooldistill.versions ADD COLUMN IF NOT EXISTS replay_runs json NOT NULL DEFAULT '[]';
  CREATE INDEX IF NOT EXISTS versions_by_code ON tooldistill.versions (name, source_hash);
  CREATE INDEX IF NOT EXISTS calls_distilled ON tooldistill.calls (tool, version) WHERE kind = 'distilled';

  ALTER TABLE tooldistill.versions DROP CONSTRAINT IF EXISTS versions_status_check;
  ALTER TABLE tooldistill.versions ADD CONSTRAINT versions_status_check CHECK (status IN (${STATUS_V3}));
  ALTER TABLE tooldistill.status_history
    DROP CONSTRAINT IF EXISTS status_history_from_status_check,
    DROP CONSTRAINT IF EXISTS status_history_to_status_check;
  ALTER TABLE tooldistill.status_history
    ADD CONSTRAINT status_history_from_status_check CHECK (from_status IN (${STATUS_V3})),
    ADD CONSTRAINT status_history_to_status_check CHECK (to_status IN (${STATUS_V3}));

  INSERT INTO tooldistill.status_history (name, version, from_status, to_status, reason)
    SELECT name, version, 'draft', 'rejected',
      'failed verification (recorded as rejected when the store was upgraded)'
    FROM tooldistill.versions WHERE status = 'draft' AND verdict IS NOT NULL
    ORDER BY name, version;
  UPDATE tooldistill.versions SET status = 'rejected', queued_rebuild = false, rebuild_note = NULL
    WHERE status = 'draft' AND verdict IS NOT NULL;

  -- no version that is never rebuilt (deprecated, rejected, superseded) is queued for a rebuild
  ALTER TABLE tooldistill.versions DROP CONSTRAINT IF EXISTS versions_deprecated_not_queued;
  ALTER TABLE tooldistill.versions DROP CONSTRAINT IF EXISTS versions_never_rebuilt_not_queued;
  ALTER TABLE tooldistill.versions ADD CONSTRAINT versions_never_rebuilt_not_queued
    CHECK (status NOT IN ('deprecated', 'rejected', 'superseded') OR NOT queued_rebuild);
  `
  },
  {
    // 4 (SQLite's 6): a distilled call's input as received, JSON text (text: nothing normalises its key order).
    version: 4,
    sql: "ALTER TABLE tooldistill.calls ADD COLUMN IF NOT EXISTS raw_args text;"
  },
  {
    version: 5,
    // SQLite's 7: the run outcome `caller`, a base tool's refusal of what the caller's input passed on
    sql: `ALTER TABLE tooldistill.runs DROP CONSTRAINT IF EXISTS runs_outcome_check, ADD CONSTRAINT runs_outcome_check CHECK (outcome IN ('ok', 'not_applicable', 'tool', 'infrastructure', 'host', 'caller'))`
  },
  {
    // 6 (SQLite's 8): the class the host gave a failed base call from out-of-band signals (base-failure.ts), so
    // replay knows a recorded 503 or 409 as what it was without reading its text (NULL for calls recorded before);
    // the run outcome `declared` (a run that took an outcome its call site declared).
    version: 6,
    sql: `
  ALTER TABLE tooldistill.calls ADD COLUMN IF NOT EXISTS failure text;
  ALTER TABLE tooldistill.calls DROP CONSTRAINT IF EXISTS calls_failure_check;
  ALTER TABLE tooldistill.calls ADD CONSTRAINT calls_failure_check
    CHECK (failure IS NULL OR failure IN ('infrastructure', 'conflict', 'not_found', 'gone', 'unprocessable', 'rejected'));
  ALTER TABLE tooldistill.runs DROP CONSTRAINT IF EXISTS runs_outcome_check;
  ALTER TABLE tooldistill.runs ADD CONSTRAINT runs_outcome_check
    CHECK (outcome IN ('ok', 'declared', 'not_applicable', 'tool', 'infrastructure', 'host', 'caller'));
  `
  }
];
var POSTGRES_MIGRATIONS = new MigrationList(MIGRATIONS);
var MIGRATION_VERSIONS = POSTGRES_MIGRATIONS.versions;
var SCHEMA_VERSION = POSTGRES_MIGRATIONS.schemaVersion;

// core/store/postgres/postgres-change-feed.ts
var RETRY_MS = { first: 100, max: 5e3 };
var PostgresChangeFeed = class {
  #pg;
  #config;
  #where;
  #logger;
  #listeners = /* @__PURE__ */ new Set();
  #client = null;
  #starting = null;
  #retry = null;
  #retryMs = RETRY_MS.first;
  #stopped = true;
  constructor(pg, config, where, logger) {
    this.#pg = pg;
    this.#config = config;
    this.#where = where;
    this.#logger = logger;
  }
  /** Adds a listener; resolves once the connection LISTENs, with the function that removes it again. */
  async subscribe(listener) {
    this.#listeners.add(listener);
    this.#stopped = false;
    try {
      if (!this.#client) {
        if (!this.#starting) {
          this.#starting = this.#connect().finally(() => {
            this.#starting = null;
          });
        }
        await this.#starting;
      }
    } catch (err) {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) await this.stop();
      throw err;
    }
    return async () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) await this.stop();
    };
  }
  /** Stops listening and closes the connection. */
  async stop() {
    this.#stopped = true;
    this.#listeners.clear();
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    await this.#starting?.catch(() => {
    });
    const client = this.#client;
    this.#client = null;
    socketOf(client)?.ref?.();
    await client?.end().catch(() => {
    });
  }
  async #connect() {
    const client = new this.#pg.Client(this.#config);
    client.on("notification", (n) => this.#heard(n));
    client.on("error", () => this.#lost(client));
    client.on("end", () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners("end");
      await client.end().catch(() => {
      });
      throw explainPgError(err, this.#where);
    }
    socketOf(client)?.unref?.();
    if (this.#stopped) {
      await client.end().catch(() => {
      });
      return;
    }
    this.#client = client;
    this.#retryMs = RETRY_MS.first;
  }
  #lost(client) {
    if (this.#client !== client || this.#stopped) return;
    this.#client = null;
    client.end().catch(() => {
    });
    this.#logger.warn(`tooldistill: lost the change feed of the store ${this.#where}; reconnecting`);
    this.#reconnect();
  }
  #reconnect() {
    if (this.#stopped || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#stopped) return;
      this.#connect().then(
        () => this.#emit({ type: "resync" }),
        (err) => {
          this.#logger.warn(`tooldistill: the change feed cannot reconnect yet: ${errorMessage(err)}`);
          this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MS.max);
          this.#reconnect();
        }
      );
    }, this.#retryMs);
    this.#retry.unref();
  }
  #heard(n) {
    if (n.channel !== CHANGES_CHANNEL || n.payload === void 0) return;
    let change;
    try {
      const p = JSON.parse(n.payload);
      if (!Statuses.includes(p.to)) return;
      change = { type: "status", name: p.name, version: Number(p.version), from: p.from ?? null, to: p.to };
    } catch {
      return;
    }
    this.#emit(change);
  }
  #emit(change) {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (err) {
        this.#logger.warn(`tooldistill: a store change listener failed: ${errorMessage(err)}`);
      }
    }
  }
};
function socketOf(client) {
  return client?.connection?.stream;
}

// core/store/postgres/postgres-database.ts
var BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED";
var PostgresDatabase = class _PostgresDatabase {
  #pool;
  #client;
  #where;
  #check;
  /** `check` runs before every statement: it refuses a caller that may not use this database now. */
  constructor(pool, client, where, check) {
    this.#pool = pool;
    this.#client = client;
    this.#where = where;
    this.#check = check;
  }
  /** Statements on the pool of the store at `where`. */
  static onPool(pool, where, check) {
    return new _PostgresDatabase(pool, null, where, check);
  }
  /** Statements on the connection of an open transaction. */
  static inTransaction(client, where, check) {
    return new _PostgresDatabase(null, client, where, check);
  }
  /** Where the store is, for messages. */
  get where() {
    return this.#where;
  }
  /**
   * Every row of `sql`. With a `name`, the statement is prepared once per connection under it and run by name
   * after that (one name, one text: see postgres-engine.ts).
   */
  async rows(sql, params = [], name) {
    return (await this.#query(sql, params, name)).rows;
  }
  /** The first row of `sql`, or undefined. */
  async first(sql, params = [], name) {
    return (await this.rows(sql, params, name))[0];
  }
  /** Runs a write; says how many rows it touched. */
  async run(sql, params = [], name) {
    return (await this.#query(sql, params, name)).rowCount ?? 0;
  }
  async #query(text, values, name) {
    this.#check();
    const sql = name === void 0 ? { text, values } : { name, text, values };
    if (this.#client) {
      try {
        return await this.#client.query(sql);
      } catch (err) {
        throw explainPgError(err, this.#where);
      }
    }
    const pool = this.#pool;
    try {
      return await pool.query(sql);
    } catch (err) {
      if (!terminatedBeforeRunning(err)) throw explainPgError(err, this.#where);
    }
    try {
      return await pool.query(sql);
    } catch (err) {
      throw explainPgError(err, this.#where);
    }
  }
  /** Runs `fn`'s statements in one transaction: the open one, or a new one on a connection of the pool. */
  atomic(fn) {
    this.#check();
    if (this.#client) return fn(this);
    return withTransaction(
      this.#pool,
      this.#where,
      BEGIN,
      (client) => fn(_PostgresDatabase.inTransaction(client, this.#where, () => {
      }))
    );
  }
};
function terminatedBeforeRunning(err) {
  const code = err.code;
  return code === "57P01" || code === "57P02" || code === "57P05";
}
async function withTransaction(pool, where, begin, fn) {
  let client;
  try {
    client = await pool.connect();
  } catch (err) {
    throw explainPgError(err, where);
  }
  try {
    await client.query(begin);
  } catch (err) {
    client.release(err);
    if (!terminatedBeforeRunning(err)) throw explainPgError(err, where);
    try {
      client = await pool.connect();
    } catch (again) {
      throw explainPgError(again, where);
    }
    try {
      await client.query(begin);
    } catch (again) {
      client.release(again);
      throw explainPgError(again, where);
    }
  }
  let broken;
  try {
    const result = await fn(client);
    let committed;
    try {
      committed = await client.query("COMMIT");
    } catch (err) {
      throw explainPgError(err, where);
    }
    if (committed.command !== "COMMIT") {
      throw new DistillError(
        "STORE",
        `a transaction on the store ${where} was rolled back: one of its statements failed and the failure was caught inside the transaction. Nothing of it was written.`
      );
    }
    return result;
  } catch (err) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackErr) {
      broken = rollbackErr;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

// core/store/postgres/postgres-engine.ts
var TABLES = [
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
  "spill_applied"
];
var POSTGRES_DIALECT = {
  name: "postgres",
  t: Object.fromEntries(TABLES.map((t) => [t, `tooldistill.${t}`])),
  // The transaction's start: every row a transaction writes carries one time.
  now: "now()",
  traceOrder: "seq",
  writableCte: true,
  codeInRow: true,
  cascades: true,
  startsWith: (column, param) => `starts_with(${column}, ${param})`,
  anyOf: (column, param, type) => `${column} = ANY(CAST(${param} AS ${type}[]))`,
  jsonPairs: (param) => `(SELECT key AS k, value AS v FROM json_each_text(CAST(${param} AS json)))`
};
function ended() {
  return new DistillError("USAGE", "this transaction has ended: use the store, or open a new transaction");
}
var numberedTexts = /* @__PURE__ */ new Map();
var statementNames = /* @__PURE__ */ new Map();
function statementName(text) {
  let name = statementNames.get(text);
  if (name === void 0) {
    name = `td_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}
function numbered(sql) {
  const known = numberedTexts.get(sql);
  if (known !== void 0) return known;
  let out = "";
  let next = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
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
      if (digits === void 0) {
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
var PostgresEngine = class _PostgresEngine {
  dialect = POSTGRES_DIALECT;
  where;
  inTransaction;
  #db;
  #pool;
  /** Whose transactions calls are checked against: a call on the store from inside its own is refused. */
  #owner;
  /** A transaction's: open until it commits or rolls back. */
  #state;
  /** The engine of the store at `where`, over its pool. */
  static onPool(pool, where) {
    const owner = {};
    return new _PostgresEngine(
      PostgresDatabase.onPool(pool, where, () => assertOutsideTransaction(owner)),
      pool,
      owner,
      null
    );
  }
  constructor(db, pool, owner, state) {
    this.#db = db;
    this.#pool = pool;
    this.#owner = owner;
    this.#state = state;
    this.where = db.where;
    this.inTransaction = state !== null;
  }
  /** Where the statements run, for what speaks PostgreSQL directly (the copy, `isEmpty`). */
  get database() {
    return this.#db;
  }
  /** Throws USAGE when called from inside this store's own transaction. */
  assertOutside(what) {
    assertOutsideTransaction(this.#owner, what);
  }
  rows(sql, params = []) {
    const text = numbered(sql);
    return this.#db.rows(text, params, statementName(text));
  }
  first(sql, params = []) {
    const text = numbered(sql);
    return this.#db.first(text, params, statementName(text));
  }
  run(sql, params = []) {
    const text = numbered(sql);
    return this.#db.run(text, params, params.length === 0 ? void 0 : statementName(text));
  }
  /** One pooled connection between BEGIN (READ COMMITTED) and one COMMIT; a throw rolls back. */
  async transaction(fn, what) {
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
        const tx = new _PostgresEngine(db, this.#pool, this.#owner, state);
        return what === void 0 ? await fn(tx) : await runInTransaction(this.#owner, () => fn(tx));
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
  async lockVersionNumbers(name) {
    await this.run("INSERT INTO tooldistill.tools (name) VALUES (?) ON CONFLICT (name) DO NOTHING", [name]);
    await this.run("SELECT 1 FROM tooldistill.tools WHERE name = ? FOR NO KEY UPDATE", [name]);
    await this.run(
      "SELECT 1 FROM tooldistill.versions WHERE name = ? AND status IN ('draft', 'rejected') ORDER BY version FOR UPDATE",
      [name]
    );
  }
};

// core/store/postgres/postgres-migrate.ts
async function appliedMigrations(pool) {
  const { rows } = await pool.query(
    "SELECT to_regclass('tooldistill.schema_version') IS NOT NULL AS present"
  );
  if (!rows[0]?.present) return [];
  const applied = await pool.query("SELECT version FROM tooldistill.schema_version ORDER BY version");
  return applied.rows.map((r) => Number(r.version));
}
async function migrate2(pool, where, readOnly) {
  const store = {
    where,
    readOnly,
    upgradeHint: "run any command that writes (e.g. `tooldistill doctor --fix`) once to upgrade it",
    createHint: "record a run into it first, or create it empty with `tooldistill doctor --fix` (or `tooldistill import` a registry into it)"
  };
  let client;
  try {
    client = await pool.connect();
  } catch (err) {
    throw explainPgError(err, where);
  }
  try {
    await migrate(POSTGRES_MIGRATIONS, store, {
      applied: () => appliedMigrations(client),
      locked: (fn) => withMigrationLock(client, where, fn),
      apply: async (m) => {
        await client.query("BEGIN");
        try {
          await client.query(m.sql);
          await client.query("INSERT INTO tooldistill.schema_version (version) VALUES ($1)", [m.version]);
          await client.query("COMMIT");
        } catch (err) {
          await client.query("ROLLBACK").catch(() => {
          });
          throw err;
        }
      }
    });
  } catch (err) {
    throw explainPgError(err, where);
  } finally {
    client.release();
  }
}
async function withMigrationLock(client, where, fn) {
  const server = await client.query("SELECT current_setting('server_version_num')::int AS n, version() AS v");
  if (Number(server.rows[0]?.n) < MIN_SERVER_VERSION_NUM) {
    throw new DistillError(
      "STORE",
      `the store ${where} is on ${String(server.rows[0]?.v).split(",")[0]}, older than the PostgreSQL 11 tooldistill needs (for sha256(), starts_with() and its triggers): use a newer server.`
    );
  }
  await client.query("SELECT pg_advisory_lock($1, $2)", [LOCK_CLASS, LOCK.migrate]);
  try {
    const schema = await client.query("SELECT to_regnamespace('tooldistill') IS NOT NULL AS present");
    if (!schema.rows[0]?.present) await client.query("CREATE SCHEMA tooldistill");
    await client.query(
      `CREATE TABLE IF NOT EXISTS tooldistill.schema_version (
         version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`
    );
    await fn();
  } finally {
    await client.query("SELECT pg_advisory_unlock($1, $2)", [LOCK_CLASS, LOCK.migrate]).catch(() => {
    });
  }
}

// core/store/postgres/postgres-batch-insert.ts
async function insertRows(db, table, columns, rows) {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type === "code" ? "text" : type}[]`).join(", ");
  await db.run(
    `INSERT INTO ${POSTGRES_DIALECT.t[table]} (${names})
     SELECT ${names} FROM unnest(${arrays}) WITH ORDINALITY AS r(${names}, ord) ORDER BY ord`,
    columns.map((c) => rows.map((row) => fieldValue(row, c)))
  );
}
function* pieces(rows) {
  let piece = [];
  let size = 0;
  for (const row of rows) {
    const bytes = JSON.stringify(row).length;
    if (piece.length > 0 && size + bytes > 16 * 1024 * 1024) {
      yield piece;
      piece = [];
      size = 0;
    }
    piece.push(row);
    size += bytes;
  }
  if (piece.length > 0) yield piece;
}
async function insertBatch(db, batch) {
  if (batch.table === "versions") {
    await db.run(
      "INSERT INTO tooldistill.tools (name) SELECT DISTINCT unnest($1::text[]) ON CONFLICT (name) DO NOTHING",
      [batch.rows.map((v) => v.name)]
    );
  }
  const { table } = TRANSFER_COLUMNS[batch.table];
  const columns = columnsOf(batch);
  for (const rows of pieces(batch.rows)) await insertRows(db, table, columns, rows);
}

// core/store/postgres/postgres-transfer.ts
async function* exportPostgres(pool, where) {
  let client;
  try {
    client = await pool.connect();
  } catch (err) {
    throw explainPgError(err, where);
  }
  const db = PostgresDatabase.inTransaction(client, where, () => {
  });
  let committed = false;
  try {
    await db.run("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    yield* exportTables(
      POSTGRES_DIALECT,
      (sql, params) => db.rows(numbered(sql), [...params]),
      (r) => String(r["code"])
    );
    await db.run("COMMIT");
    committed = true;
  } finally {
    if (committed) client.release();
    else {
      await client.query("ROLLBACK").then(
        () => client.release(),
        (err) => client.release(err)
      );
    }
  }
}
async function postgresIsEmpty(db) {
  const q = usedQuery(POSTGRES_DIALECT);
  return !(await db.first(numbered(q.sql), q.params))?.["used"];
}
async function importPostgres(pool, where, batches) {
  return withTransaction(pool, where, BEGIN, async (client) => {
    const db = PostgresDatabase.inTransaction(client, where, () => {
    });
    await db.run("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_CLASS, LOCK.import]);
    await db.run("SET CONSTRAINTS ALL DEFERRED");
    if (!await postgresIsEmpty(db)) {
      throw new DistillError(
        "USAGE",
        `the store ${where} is not empty: importing into it would mix two registries, so nothing was written. Import into an empty database (or a new folder), or empty this one first.`
      );
    }
    const counts = emptyCounts();
    for await (const batch of batches) {
      await insertBatch(db, batch);
      counts[batch.table] += batch.rows.length;
    }
    await db.run(
      `UPDATE tooldistill.traces t SET last_call_seq = m.last FROM
         (SELECT trace_id, MAX(seq) AS last FROM tooldistill.calls GROUP BY trace_id) m
       WHERE t.id = m.trace_id`
    );
    for (const table of ["calls", "status_history", "runs"]) {
      await db.run(
        `SELECT setval(pg_get_serial_sequence('tooldistill.${table}', 'id'),
           COALESCE((SELECT MAX(id) FROM tooldistill.${table}), 0) + 1, false)`
      );
    }
    return counts;
  });
}

// core/store/postgres/postgres-store.ts
var DEFAULT_POOL_SIZE = 10;
var DEFAULT_CONNECT_TIMEOUT_MS = 1e4;
function toolLockKey(name) {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(name).digest().readInt32BE(0);
}
var PostgresStore = class _PostgresStore extends EngineRegistryData {
  kind = "postgres";
  location;
  readOnly;
  #pg;
  #pool;
  #config;
  #engine;
  #logger;
  #locks = new ToolLocks();
  #changes;
  #closed = false;
  /**
   * Connects to the database `url` names and brings its schema up to date (once, however many processes start
   * together). A malformed URL is CONFIG_INVALID; a server that cannot be reached, a refused login, a missing
   * database or a schema from a newer tooldistill are STORE errors that say what to do.
   */
  static async open(url, options = {}) {
    const parsed = parseStoreUrl(url);
    const pg = await loadPg();
    const logger = options.logger ?? stderrLogger;
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const config = poolConfig(pg, parsed, {
      poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectTimeoutMs
    });
    const pool = new pg.Pool(
      options.readOnly ? { ...config, options: "-c default_transaction_read_only=on" } : config
    );
    pool.on(
      "error",
      (err) => logger.warn(`tooldistill: a connection to the store ${parsed.display} was lost: ${err.message}`)
    );
    try {
      await migrate2(pool, parsed.display, options.readOnly === true);
    } catch (err) {
      await pool.end().catch(() => {
      });
      throw err;
    }
    return new _PostgresStore(pg, pool, parsed, clientConfig(pg, parsed, connectTimeoutMs), options, logger);
  }
  constructor(pg, pool, url, config, options, logger) {
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
  codeLocation(name, version) {
    return `${this.location} (tooldistill.versions: ${name} v${version})`;
  }
  async withToolLock(name, fn) {
    this.#engine.assertOutside("withToolLock()");
    return this.#locks.run(name, () => this.#advisoryLock(name), fn);
  }
  /** Takes the tool's session advisory lock on a new connection; releasing it closes the connection. */
  async #advisoryLock(name) {
    const client = new this.#pg.Client(this.#config);
    client.on(
      "error",
      (err) => (
        // The lock went with the connection: another process may now take it while this one still works.
        this.#logger.warn(`tooldistill: lost the connection holding the lock of ${name}: ${err.message}`)
      )
    );
    try {
      await client.connect();
      await client.query("SELECT pg_advisory_lock($1, $2)", [LOCK_CLASS + 1, toolLockKey(name)]);
    } catch (err) {
      await client.end().catch(() => {
      });
      throw explainPgError(err, this.location);
    }
    return async () => {
      await client.end().catch((err) => {
        this.#logger.warn(`tooldistill: closing the lock connection of ${name} failed: ${errorMessage(err)}`);
      });
    };
  }
  onChange(listener) {
    return this.#changes.subscribe(listener);
  }
  async isEmpty() {
    return postgresIsEmpty(this.#engine.database);
  }
  async *exportRegistry() {
    this.#engine.assertOutside("exportRegistry()");
    yield* exportPostgres(this.#pool, this.location);
  }
  async importRegistry(batches) {
    this.#engine.assertOutside("importRegistry()");
    return importPostgres(this.#pool, this.location, batches);
  }
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    await this.#changes.stop();
    await this.#pool.end();
  }
};
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  PostgresStore
};
