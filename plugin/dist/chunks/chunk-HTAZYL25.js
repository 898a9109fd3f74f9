import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  EngineRegistryData,
  INTERNAL_META_PREFIX,
  ToolLocks,
  assertOutsideTransaction,
  baseHealthFromRow,
  callFromRow,
  callRow,
  dependencyFromRow,
  emptyCounts,
  historyFromRow,
  historyRow,
  json,
  metaRow,
  now,
  receivedInput,
  recordedOutcome,
  runFromRow,
  runInTransaction,
  runRow,
  runStatsFromRow,
  runStatsRow,
  sessionRow,
  stderrLogger,
  traceFlagsFromRow,
  traceFromRow,
  traceRow,
  verifiedDefinitionFromRow,
  verifiedDefinitionRow,
  versionFromRow,
  versionRow
} from "./chunk-3E2GSH4V.js";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  countToolFiles,
  hashSource,
  isPostgresUrl,
  readToolCode,
  recordableError,
  recordableOutput,
  refusePostgresUrl,
  toolFilePath,
  writeToolCode
} from "./chunk-VPKFMVD7.js";
import {
  isRunning
} from "./chunk-QNKRPA2X.js";
import {
  assertNodeVersion
} from "./chunk-AFD4KMO3.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/store/sqlite/sqlite-registry-store.ts
import { rmdirSync, rmSync as rmSync2 } from "node:fs";
import { dirname } from "node:path";

// core/store/sqlite/sqlite-change-feed.ts
var POLL_MS = 250;
var SqliteChangeFeed = class {
  #store;
  #busy;
  #logger;
  #listeners = /* @__PURE__ */ new Set();
  #timer = null;
  #last = 0;
  #failing = false;
  /** `busy`: this process holds a transaction open, whose rows must not be heard before they commit. */
  constructor(store, busy, logger) {
    this.#store = store;
    this.#busy = busy;
    this.#logger = logger;
  }
  subscribe(listener) {
    if (this.#timer === null) {
      this.#last = Number(
        this.#store.database.stmt("SELECT COALESCE(MAX(id), 0) AS id FROM status_history").get()?.["id"]
      );
      this.#timer = setInterval(() => this.#poll(), POLL_MS);
      this.#timer.unref();
    }
    this.#listeners.add(listener);
    return async () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.stop();
    };
  }
  stop() {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
  }
  #poll() {
    if (this.#busy()) return;
    let rows;
    try {
      rows = this.#store.database.stmt("SELECT id, name, version, from_status, to_status FROM status_history WHERE id > ? ORDER BY id").all(this.#last);
      this.#failing = false;
    } catch (err) {
      if (!this.#failing)
        this.#logger.warn(`tooldistill: cannot read the store's changes: ${errorMessage(err)}`);
      this.#failing = true;
      return;
    }
    for (const r of rows) {
      this.#last = Number(r["id"]);
      const change = {
        type: "status",
        name: String(r["name"]),
        version: Number(r["version"]),
        from: r["from_status"] ?? null,
        to: r["to_status"]
      };
      for (const listener of this.#listeners) {
        try {
          listener(change);
        } catch (err) {
          this.#logger.warn(`tooldistill: a store change listener failed: ${errorMessage(err)}`);
        }
      }
    }
  }
};

// core/store/sqlite/sqlite-engine.ts
import { resolve } from "node:path";
var SQLITE_DIALECT = {
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
    spill_applied: "spill_applied"
  },
  // The text JavaScript's toISOString() gives, so times written here and by the synchronous Store sort together.
  now: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
  traceOrder: "rowid",
  writableCte: false,
  codeInRow: false,
  cascades: false,
  startsWith: (column, param) => `substr(${column}, 1, length(${param})) = ${param}`,
  anyOf: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`
};
var Gate = class {
  #busy = null;
  get busy() {
    return this.#busy !== null;
  }
  /** Resolves once no one holds the connection (at once, without a wait, in the common case). */
  async idle() {
    while (this.#busy) await this.#busy;
  }
  /** Waits for the connection and takes it; the returned function gives it back. */
  async acquire() {
    while (this.#busy) await this.#busy;
    let resolve2;
    this.#busy = new Promise((r) => {
      resolve2 = r;
    });
    return () => {
      this.#busy = null;
      resolve2();
    };
  }
};
var writeGates = /* @__PURE__ */ new Map();
function writeGate(path) {
  const key2 = resolve(path);
  let gate = writeGates.get(key2);
  if (gate === void 0) {
    gate = new Gate();
    writeGates.set(key2, gate);
  }
  return gate;
}
function bind(params) {
  let bound = null;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (typeof p === "boolean" || typeof p === "object" && p !== null) {
      bound ??= params.slice();
      bound[i] = typeof p === "boolean" ? p ? 1 : 0 : JSON.stringify(p);
    }
  }
  return bound ?? params;
}
var SqliteEngine = class _SqliteEngine {
  dialect = SQLITE_DIALECT;
  where;
  inTransaction;
  /** Held by whichever flow of this process uses the connection alone. */
  gate;
  /** Held by whichever handle of this process has a write transaction open on the file (see writeGate). */
  fileGate;
  #db;
  #tx;
  /** The engine of the handle whose connection `db` is, on the database file `file`. */
  static open(db, file, where) {
    return new _SqliteEngine(db, where, new Gate(), writeGate(file), null);
  }
  constructor(db, where, gate, fileGate, tx) {
    this.#db = db;
    this.where = where;
    this.gate = gate;
    this.fileGate = fileGate;
    this.#tx = tx;
    this.inTransaction = tx !== null;
  }
  /** Waits until this caller may use the connection (to write: the file too); throws when it may not at all. */
  async #enter(write) {
    if (this.#tx) {
      if (!this.#tx.open) {
        throw new DistillError(
          "USAGE",
          "this transaction has ended: use the store, or open a new transaction"
        );
      }
      return;
    }
    assertOutsideTransaction(this.gate);
    while (this.gate.busy || write && this.fileGate.busy) {
      await (this.gate.busy ? this.gate.idle() : this.fileGate.idle());
    }
  }
  async rows(sql, params = []) {
    await this.#enter(false);
    return this.#db.stmt(sql).all(...bind(params));
  }
  async first(sql, params = []) {
    await this.#enter(false);
    return this.#db.stmt(sql).get(...bind(params));
  }
  async run(sql, params = []) {
    await this.#enter(true);
    return Number(this.#db.stmt(sql).run(...bind(params)).changes);
  }
  /** One `BEGIN IMMEDIATE` transaction (the write lock, taken up front so it never deadlocks on upgrade). */
  async transaction(fn, what) {
    if (this.#tx) {
      await this.#enter(true);
      return fn(this);
    }
    assertOutsideTransaction(this.gate, what);
    const release = await this.gate.acquire();
    const state = { open: true };
    const db = this.#db;
    try {
      const releaseFile = await this.fileGate.acquire();
      try {
        db.exec("BEGIN IMMEDIATE");
        try {
          const tx = new _SqliteEngine(db, this.where, this.gate, this.fileGate, state);
          const result = what === void 0 ? await fn(tx) : await runInTransaction(this.gate, () => fn(tx));
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
  async lockVersionNumbers(_name) {
  }
};

// core/store/sqlite/sqlite-registry-transfer.ts
var PAGE = 200;
function key(last, column, start) {
  return last === void 0 ? start : last[column];
}
function* pages(next) {
  let last;
  for (; ; ) {
    const rows = next(last);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    last = rows.at(-1);
  }
}
function* exportSqlite(db, root) {
  for (const rows of pages(
    (last) => db.stmt("SELECT rowid AS row_order, * FROM traces WHERE rowid > ? ORDER BY rowid LIMIT ?").all(key(last, "row_order", 0), PAGE)
  )) {
    yield { table: "traces", rows: rows.map(traceRow) };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM calls WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE)
  )) {
    yield { table: "calls", rows: rows.map(callRow) };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM versions WHERE (name, version) > (?, ?) ORDER BY name, version LIMIT ?").all(key(last, "name", ""), key(last, "version", 0), PAGE)
  )) {
    yield {
      table: "versions",
      rows: rows.map((r) => versionRow(r, readToolCode(root, String(r["name"]), Number(r["version"]))))
    };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM status_history WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE)
  )) {
    yield { table: "history", rows: rows.map(historyRow) };
  }
  for (const rows of pages(
    (last) => db.stmt(
      "SELECT * FROM dependencies WHERE (name, version, base_tool) > (?, ?, ?) ORDER BY name, version, base_tool LIMIT ?"
    ).all(key(last, "name", ""), key(last, "version", 0), key(last, "base_tool", ""), PAGE)
  )) {
    yield { table: "dependencies", rows: rows.map(dependencyFromRow) };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM run_stats WHERE (name, version) > (?, ?) ORDER BY name, version LIMIT ?").all(key(last, "name", ""), key(last, "version", 0), PAGE)
  )) {
    yield { table: "runStats", rows: rows.map(runStatsRow) };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM runs WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE)
  )) {
    yield { table: "runs", rows: rows.map(runRow) };
  }
  for (const rows of pages(
    (last) => db.stmt(
      `SELECT * FROM verified_definitions WHERE (name, version, base_tool, fingerprint) > (?, ?, ?, ?)
         ORDER BY name, version, base_tool, fingerprint LIMIT ?`
    ).all(
      key(last, "name", ""),
      key(last, "version", 0),
      key(last, "base_tool", ""),
      key(last, "fingerprint", ""),
      PAGE
    )
  )) {
    yield { table: "verifiedDefinitions", rows: rows.map(verifiedDefinitionRow) };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM base_health WHERE tool > ? ORDER BY tool LIMIT ?").all(key(last, "tool", ""), PAGE)
  )) {
    yield { table: "baseHealth", rows: rows.map(baseHealthFromRow) };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM meta WHERE key > ? AND substr(key, 1, ?) != ? ORDER BY key LIMIT ?").all(key(last, "key", ""), INTERNAL_META_PREFIX.length, INTERNAL_META_PREFIX, PAGE)
  )) {
    yield { table: "meta", rows: rows.map(metaRow) };
  }
  for (const rows of pages(
    (last) => db.stmt("SELECT * FROM cc_sessions WHERE session_id > ? ORDER BY session_id LIMIT ?").all(key(last, "session_id", ""), PAGE)
  )) {
    yield { table: "sessions", rows: rows.map(sessionRow) };
  }
}
function sqliteIsEmpty(db) {
  const row = db.stmt(
    `SELECT EXISTS (SELECT 1 FROM traces) OR EXISTS (SELECT 1 FROM calls) OR EXISTS (SELECT 1 FROM versions)
       OR EXISTS (SELECT 1 FROM status_history) OR EXISTS (SELECT 1 FROM dependencies)
       OR EXISTS (SELECT 1 FROM run_stats) OR EXISTS (SELECT 1 FROM runs)
       OR EXISTS (SELECT 1 FROM verified_definitions) OR EXISTS (SELECT 1 FROM base_health)
       OR EXISTS (SELECT 1 FROM meta WHERE substr(key, 1, ?) != ?)
       OR EXISTS (SELECT 1 FROM cc_sessions) AS used`
  ).get(INTERNAL_META_PREFIX.length, INTERNAL_META_PREFIX);
  return !row?.["used"];
}
var bit = (b) => b ? 1 : 0;
function importSqlite(db, root, batch, written) {
  switch (batch.table) {
    case "traces": {
      const insert = db.stmt(
        `INSERT INTO traces (id, task, source, outcome, input_tokens, output_tokens, cache_creation_input_tokens,
         cache_read_input_tokens, started_at, ended_at, nudged, proposed, replace_name, note)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      );
      for (const t of batch.rows) {
        insert.run(
          t.id,
          t.task,
          t.source,
          t.outcome === null ? null : bit(t.outcome),
          t.usage.input_tokens,
          t.usage.output_tokens,
          t.usage.cache_creation_input_tokens,
          t.usage.cache_read_input_tokens,
          t.startedAt,
          t.endedAt,
          bit(t.nudged),
          bit(t.proposed),
          t.replaceName,
          t.note
        );
      }
      return;
    }
    case "calls": {
      const insert = db.stmt(
        `INSERT INTO calls (id, trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms,
         version, external_id, started_at, note, clipped, raw_args, failure)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      );
      for (const c of batch.rows) {
        insert.run(
          c.id,
          c.traceId,
          c.seq,
          c.parentId,
          c.tool,
          c.kind,
          c.args,
          c.status,
          c.output,
          c.error,
          c.latencyMs,
          c.version,
          c.externalId,
          c.startedAt,
          c.note,
          bit(c.clipped),
          c.rawArgs,
          c.failure
        );
      }
      return;
    }
    case "versions": {
      const insert = db.stmt(
        `INSERT INTO versions (name, version, status, problems, baseline, baseline_tokens, source_trace, description,
         input_schema, test_inputs, source_hash, verdict, queued_rebuild, rebuild_note, created_at, replay_runs)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      );
      for (const v of batch.rows) {
        const file = toolFilePath(root, v.name, v.version);
        written.push(file);
        writeToolCode(root, file, v.code);
        insert.run(
          v.name,
          v.version,
          v.status,
          v.problems,
          v.baseline,
          v.baselineTokens,
          v.sourceTrace,
          v.description,
          v.inputSchema,
          v.testInputs,
          v.sourceHash,
          v.verdict,
          bit(v.queuedRebuild),
          v.rebuildNote,
          v.createdAt,
          v.replayRuns
        );
      }
      return;
    }
    case "history": {
      const insert = db.stmt(
        "INSERT INTO status_history (id, name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
      );
      for (const h of batch.rows)
        insert.run(h.id, h.name, h.version, h.from, h.to, h.reason, h.evidence, h.at);
      return;
    }
    case "dependencies": {
      const insert = db.stmt(
        "INSERT INTO dependencies (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)"
      );
      for (const d of batch.rows) insert.run(d.name, d.version, d.baseTool, d.fingerprint, bit(d.avoided));
      return;
    }
    case "runStats": {
      const insert = db.stmt(
        `INSERT INTO run_stats (name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
      );
      for (const s of batch.rows) {
        insert.run(
          s.name,
          s.version,
          s.runs,
          s.successes,
          s.failures,
          s.notApplicable,
          s.innerCalls,
          s.lastRunAt
        );
      }
      return;
    }
    case "runs": {
      const insert = db.stmt(
        `INSERT INTO runs (id, name, version, outcome, trace_id, call_id, inner_calls, evidence, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
      );
      for (const r of batch.rows) {
        insert.run(r.id, r.name, r.version, r.outcome, r.traceId, r.callId, r.innerCalls, r.evidence, r.at);
      }
      return;
    }
    case "verifiedDefinitions": {
      const insert = db.stmt(
        `INSERT INTO verified_definitions (name, version, base_tool, fingerprint, definition, verified_at)
         VALUES (?, ?, ?, ?, ?, ?)`
      );
      for (const d of batch.rows) {
        insert.run(d.name, d.version, d.baseTool, d.fingerprint, d.definition, d.verifiedAt);
      }
      return;
    }
    case "baseHealth": {
      const insert = db.stmt(
        `INSERT INTO base_health (tool, failures, consecutive, last_error, last_failure_at, last_ok_at, probe_ok,
         probed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
      );
      for (const h of batch.rows) {
        insert.run(
          h.tool,
          h.failures,
          h.consecutive,
          h.lastError,
          h.lastFailureAt,
          h.lastOkAt,
          h.probeOk === null ? null : bit(h.probeOk),
          h.probedAt
        );
      }
      return;
    }
    case "meta": {
      const insert = db.stmt("INSERT INTO meta (key, value) VALUES (?, ?)");
      for (const m of batch.rows) insert.run(m.key, m.value);
      return;
    }
    case "sessions": {
      const insert = db.stmt(
        "INSERT INTO cc_sessions (session_id, span, confirmed, updated_at) VALUES (?, ?, ?, ?)"
      );
      for (const x of batch.rows) insert.run(x.sessionId, x.span, bit(x.confirmed), x.updatedAt);
      return;
    }
  }
}

// core/store/sqlite/sqlite-store.ts
import { rmSync } from "node:fs";
import { join as join2 } from "node:path";

// core/store/store-open.ts
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// core/store/sqlite/sqlite-database.ts
function loadSqlite() {
  assertNodeVersion();
  return process.getBuiltinModule("node:sqlite");
}
var StoreStatement = class {
  #s;
  #fail;
  constructor(s, fail) {
    this.#s = s;
    this.#fail = fail;
  }
  /** Runs a write; says how many rows changed. */
  run(...params) {
    try {
      return this.#s.run(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
  /** The first row, or undefined. */
  get(...params) {
    try {
      return this.#s.get(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
  /** Every row. */
  all(...params) {
    try {
      return this.#s.all(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
};
var StoreDatabase = class {
  #db;
  #explain;
  #statements = /* @__PURE__ */ new Map();
  constructor(db, explain) {
    this.#db = db;
    this.#explain = explain;
  }
  /** The prepared statement of `sql`, prepared once per database. */
  stmt(sql) {
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
  exec(sql) {
    try {
      this.#db.exec(sql);
    } catch (err) {
      throw this.#explain(err, "query");
    }
  }
  /** `PRAGMA user_version`: the schema version the database was migrated to. */
  userVersion() {
    return Number(this.stmt("PRAGMA user_version").get()?.["user_version"]);
  }
  /** True while a transaction is open on this connection. */
  get inTransaction() {
    return this.#db.isTransaction;
  }
  /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
  transaction(fn) {
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
  close() {
    if (this.#db.isOpen) this.#db.close();
  }
};

// core/store/sqlite/sqlite-schema.ts
var MIGRATIONS = [
  `
  CREATE TABLE traces (
    id TEXT PRIMARY KEY,
    task TEXT NOT NULL,
    source TEXT NOT NULL,
    outcome INTEGER,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cache_creation_input_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_input_tokens INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    nudged INTEGER NOT NULL DEFAULT 0,
    proposed INTEGER NOT NULL DEFAULT 0,
    replace_name TEXT,
    note TEXT
  );
  CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    trace_id TEXT NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    parent_id INTEGER REFERENCES calls(id),
    tool TEXT NOT NULL,
    kind TEXT NOT NULL,
    args TEXT NOT NULL,
    status TEXT NOT NULL,
    output TEXT,
    error TEXT,
    latency_ms REAL,
    version INTEGER,
    external_id TEXT,
    started_at TEXT NOT NULL,
    UNIQUE (trace_id, seq)
  );
  CREATE INDEX calls_external ON calls(external_id) WHERE external_id IS NOT NULL;
  CREATE TABLE versions (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    problems TEXT NOT NULL DEFAULT '[]',
    baseline INTEGER,
    baseline_tokens INTEGER,
    source_trace TEXT,
    description TEXT NOT NULL DEFAULT '',
    input_schema TEXT NOT NULL DEFAULT '{}',
    test_inputs TEXT NOT NULL DEFAULT '[]',
    source_hash TEXT NOT NULL,
    verdict TEXT,
    queued_rebuild INTEGER NOT NULL DEFAULT 0,
    rebuild_note TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (name, version)
  );
  CREATE TABLE status_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    from_status TEXT,
    to_status TEXT NOT NULL,
    reason TEXT NOT NULL,
    evidence TEXT,
    at TEXT NOT NULL
  );
  CREATE TABLE dependencies (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    base_tool TEXT NOT NULL,
    fingerprint TEXT,
    avoided INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (name, version, base_tool)
  );
  CREATE TABLE run_stats (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    runs INTEGER NOT NULL DEFAULT 0,
    successes INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    inner_calls INTEGER NOT NULL DEFAULT 0,
    last_run_at TEXT,
    PRIMARY KEY (name, version)
  );
  `,
  // 2: Claude Code sessions (which span of a session is current) and small cached values (the plugin's base tools).
  // cc_sessions is the plugin's (core/store/sqlite/sqlite-sessions.ts holds its SQL, which the hooks use through
  // the registry's session methods); it stays in this one sequence so that every existing store upgrades in order.
  `
  CREATE TABLE cc_sessions (
    session_id TEXT PRIMARY KEY,
    span INTEGER NOT NULL,
    confirmed INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 3: what recording clipped (nesting, size cap) said on the call; hook events applied from spill files, so a
  // spilled event is applied exactly once even when a process dies between applying it and removing its file.
  `
  ALTER TABLE calls ADD COLUMN note TEXT;
  ALTER TABLE calls ADD COLUMN clipped INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE spill_applied (
    event_id TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
  );
  `,
  // 4: the lifecycle for agents that write. Every live run of a distilled tool with its outcome (the demotion rule
  // reads the last runs, show their evidence); the health of each base tool (infrastructure failures count there,
  // not against the distilled tool); every base tool definition a version was verified against (so instances with
  // different definitions of a tool never re-verify one another); the statuses rejected and superseded, with the
  // status CHECKs as triggers (SQLite cannot add a CHECK to an existing table). Drafts that failed verification
  // under an older build become rejected; the fingerprints verified so far seed the definitions (text unknown).
  `
  CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'not_applicable', 'tool', 'infrastructure', 'host')),
    trace_id TEXT,
    call_id INTEGER,
    inner_calls INTEGER NOT NULL DEFAULT 0,
    evidence TEXT,
    at TEXT NOT NULL
  );
  CREATE INDEX runs_by_version ON runs(name, version, id);
  CREATE TABLE base_health (
    tool TEXT PRIMARY KEY,
    failures INTEGER NOT NULL DEFAULT 0,
    consecutive INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    last_failure_at TEXT,
    last_ok_at TEXT,
    probe_ok INTEGER,
    probed_at TEXT
  );
  CREATE TABLE verified_definitions (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    base_tool TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    definition TEXT,
    verified_at TEXT NOT NULL,
    PRIMARY KEY (name, version, base_tool, fingerprint)
  );
  INSERT INTO verified_definitions (name, version, base_tool, fingerprint, definition, verified_at)
    SELECT name, version, base_tool, fingerprint, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM dependencies WHERE fingerprint IS NOT NULL AND avoided = 0;
  ALTER TABLE run_stats ADD COLUMN not_applicable INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX versions_by_code ON versions(name, source_hash);
  INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at)
    SELECT name, version, 'draft', 'rejected', 'failed verification (recorded as rejected when the store was upgraded)',
      NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM versions WHERE status = 'draft' AND verdict IS NOT NULL;
  UPDATE versions SET status = 'rejected' WHERE status = 'draft' AND verdict IS NOT NULL;
  CREATE TRIGGER versions_status_insert BEFORE INSERT ON versions
    WHEN NEW.status NOT IN ('draft', 'verified', 'active', 'suspect', 'deprecated', 'rejected', 'superseded')
    BEGIN SELECT RAISE(ABORT, 'versions.status must be a lifecycle status'); END;
  CREATE TRIGGER versions_status_update BEFORE UPDATE OF status ON versions
    WHEN NEW.status NOT IN ('draft', 'verified', 'active', 'suspect', 'deprecated', 'rejected', 'superseded')
    BEGIN SELECT RAISE(ABORT, 'versions.status must be a lifecycle status'); END;
  CREATE TRIGGER history_status_insert BEFORE INSERT ON status_history
    WHEN NEW.to_status NOT IN ('draft', 'verified', 'active', 'suspect', 'deprecated', 'rejected', 'superseded')
    BEGIN SELECT RAISE(ABORT, 'status_history.to_status must be a lifecycle status'); END;
  `,
  // 5: the recorded live runs a version was replayed against at verification (so re-verification replays the same
  // ones), and the indexes that find a version's live runs and the base calls made inside each.
  `
  ALTER TABLE versions ADD COLUMN replay_runs TEXT NOT NULL DEFAULT '[]';
  CREATE INDEX calls_parent ON calls(parent_id) WHERE parent_id IS NOT NULL;
  CREATE INDEX calls_distilled ON calls(tool, version) WHERE kind = 'distilled';
  `,
  // 6: a distilled call's input exactly as the tool received it, as JSON text (key order kept, no defaults
  // filled): replay gives a recorded run this, not the canonical args. Rows from before have none (NULL) and
  // are replayed with their args.
  `
  ALTER TABLE calls ADD COLUMN raw_args TEXT;
  `,
  // 7: the run outcome `caller` (a base tool refused what the caller's input passed straight through). SQLite
  // cannot widen a CHECK in place: the table is copied into one with the wider CHECK, ids kept.
  `
  CREATE TABLE runs_next (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'not_applicable', 'tool', 'infrastructure', 'host', 'caller')),
    trace_id TEXT,
    call_id INTEGER,
    inner_calls INTEGER NOT NULL DEFAULT 0,
    evidence TEXT,
    at TEXT NOT NULL
  );
  INSERT INTO runs_next (id, name, version, outcome, trace_id, call_id, inner_calls, evidence, at)
    SELECT id, name, version, outcome, trace_id, call_id, inner_calls, evidence, at FROM runs;
  DROP TABLE runs;
  ALTER TABLE runs_next RENAME TO runs;
  CREATE INDEX runs_by_version ON runs(name, version, id);
  `,
  // 8: the class the host gave a failed base call from out-of-band signals (base-failure.ts), so replay knows a
  // recorded 503 or 409 as what it was without reading its text (NULL for calls recorded before); the run outcome
  // `declared` (a run that took an outcome its call site declared), for which the runs table is made again, since
  // SQLite cannot widen a CHECK in place.
  `
  ALTER TABLE calls ADD COLUMN failure TEXT CHECK (failure IS NULL OR failure IN ('infrastructure', 'conflict', 'not_found', 'gone', 'unprocessable', 'rejected'));
  CREATE TABLE runs_v8 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'declared', 'not_applicable', 'tool', 'infrastructure', 'host', 'caller')),
    trace_id TEXT,
    call_id INTEGER,
    inner_calls INTEGER NOT NULL DEFAULT 0,
    evidence TEXT,
    at TEXT NOT NULL
  );
  INSERT INTO runs_v8 (id, name, version, outcome, trace_id, call_id, inner_calls, evidence, at)
    SELECT id, name, version, outcome, trace_id, call_id, inner_calls, evidence, at FROM runs;
  DROP TABLE runs;
  ALTER TABLE runs_v8 RENAME TO runs;
  CREATE INDEX runs_by_version ON runs(name, version, id);
  `
];
var SCHEMA_VERSION = MIGRATIONS.length;
function hasTables(db) {
  const row = db.stmt("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get();
  return Number(row?.["n"]) > 0;
}
function migrate(db, root, readOnly) {
  const current = db.userVersion();
  if (current === SCHEMA_VERSION) return;
  if (current > SCHEMA_VERSION) {
    throw new DistillError(
      "STORE",
      `the store at ${root} has schema version ${current}, newer than this tooldistill understands (${SCHEMA_VERSION}): upgrade tooldistill.`
    );
  }
  if (readOnly) {
    throw new DistillError(
      "STORE",
      `the store at ${root} was written by an older tooldistill (schema ${current}, now ${SCHEMA_VERSION}) and this command only reads it: run \`tooldistill doctor --fix\` once to upgrade it.`
    );
  }
  db.transaction(() => {
    for (let v = db.userVersion(); v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    }
  });
}

// core/store/store-open.ts
var DEFAULT_BUSY_TIMEOUT_MS = 1e4;
var SQLITE = {
  busy: 5,
  locked: 6,
  readonly: 8,
  ioerr: 10,
  corrupt: 11,
  full: 13,
  cantopen: 14,
  notadb: 26
};
function openDatabase(root, options) {
  refusePostgresUrl(root, "this part of tooldistill");
  const dbPath = join(root, "registry.db");
  const { DatabaseSync } = loadSqlite();
  if (existsSync(root) && !statSync(root).isDirectory()) {
    throw new DistillError(
      "STORE",
      `cannot open the store at ${root}: it is a file, not a folder. Check the path (store: in tooldistill.yaml).`
    );
  }
  if (options.readOnly && !existsSync(dbPath)) {
    throw new DistillError(
      "NOT_FOUND",
      `no store at ${root}: nothing has been recorded there yet. Check the store path (store: in tooldistill.yaml, or --config), or record a run first.`
    );
  }
  refuseEmptyRegistry(root, fileIsEmpty(dbPath));
  const walMissingAtOpen = !existsSync(`${dbPath}-wal`) && existsSync(`${dbPath}-shm`);
  const explain = explainer(root, options.busyTimeoutMs, walMissingAtOpen);
  let db;
  try {
    if (!options.readOnly) prepareFolder(root);
    db = new StoreDatabase(
      new DatabaseSync(dbPath, { timeout: options.busyTimeoutMs, readOnly: options.readOnly }),
      explain
    );
  } catch (err) {
    throw explain(err, "open");
  }
  try {
    if (!options.readOnly) {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
    }
    db.exec("PRAGMA foreign_keys = ON");
    if (db.userVersion() === 0 && !hasTables(db)) refuseEmptyRegistry(root, true);
    migrate(db, root, options.readOnly);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
function fileIsEmpty(dbPath) {
  try {
    return statSync(dbPath).size === 0;
  } catch {
    return true;
  }
}
function refuseEmptyRegistry(root, empty) {
  if (!empty) return;
  const files = countToolFiles(root);
  if (files === 0) return;
  const dbPath = join(root, "registry.db");
  const what = existsSync(dbPath) ? `${dbPath} is empty (${statSync(dbPath).size === 0 ? "0 bytes" : "no tables"})` : `${dbPath} is missing`;
  throw new DistillError(
    "STORE",
    `${what} while ${join(root, "tools")} holds ${files} tool file${files === 1 ? "" : "s"}: the registry (every version's status, verdict and the recorded runs) was lost, truncated or replaced, and opening it would start an empty one that hides them. Restore registry.db from a backup (with its registry.db-wal if there is one) and run the command again; or, to start over, run \`tooldistill doctor --fix\`, which moves the tool files to ${join(root, "orphaned")} and creates a new registry.`
  );
}
function prepareFolder(root) {
  mkdirSync(join(root, "tools"), { recursive: true });
  const ignore = join(root, ".gitignore");
  if (!existsSync(ignore)) {
    writeFileSync(
      ignore,
      "# traces and fixtures hold real tool outputs, which may include personal data\nregistry.db*\n*.log\n*.log.1\nspill/\norphaned/\n"
    );
  }
}
function explainer(root, busyTimeoutMs, walMissingAtOpen) {
  const db = join(root, "registry.db");
  return (err, when) => {
    if (err instanceof DistillError) return err;
    const e = err;
    const fsCode = typeof e.code === "string" && !e.code.startsWith("ERR_") ? e.code : null;
    if (fsCode !== null) {
      return new DistillError(
        "STORE",
        `cannot ${when === "open" ? "open" : "use"} the store at ${root}: ${errorMessage(err)}. Check the path (store: in tooldistill.yaml) and that the folder is writable by this user.`,
        { cause: err }
      );
    }
    if (typeof e.errcode !== "number") return err;
    const code = e.errcode & 255;
    const detail = e.message ?? "";
    const make = (code2, message) => new DistillError(code2, message, { cause: err });
    const recover = `Stop every process using the store (Claude Code sessions, the td server, agents), copy the store folder aside, then restore registry.db from a backup, or recover what is readable with \`sqlite3 ${db} ".recover" | sqlite3 recovered.db\` and put recovered.db in its place. \`tooldistill doctor\` shows what is damaged.`;
    switch (code) {
      case SQLITE.busy:
      case SQLITE.locked:
        return make(
          "STORE_BUSY",
          `the store ${db} is locked by another process (waited ${busyTimeoutMs} ms for its write lock). Something holds a write transaction open (an sqlite3 shell, a backup, a stuck process): close it and try again.`
        );
      case SQLITE.corrupt:
        return make("STORE", `the store's database ${db} is damaged (${detail}). ${recover}`);
      case SQLITE.notadb:
        return make(
          "STORE",
          `${db} is not an SQLite database (${detail}): its header was overwritten or another file was put in its place. ${recover}`
        );
      case SQLITE.ioerr: {
        const wal = `${db}-wal`;
        if (walMissingAtOpen) {
          return make(
            "STORE",
            `disk I/O error on ${db}: its write-ahead log ${wal} is missing while ${db}-shm says it holds changes: it was deleted while a process had the store open. Stop every process using the store (the last one to close writes the log back), then run the command again; if no process has it open any more, the changes that were only in the log are lost: restore ${wal} from a backup if you have one.`
          );
        }
        return make("STORE", `disk I/O error on ${db} (${detail}): check the disk and the file. ${recover}`);
      }
      case SQLITE.readonly:
        return make(
          "STORE",
          `cannot write to ${db} (${detail}): check that the file, its folder and the ${db}-wal and -shm files beside it are writable by this user, or that the disk is not mounted read-only.`
        );
      case SQLITE.full:
        return make("STORE", `the disk holding ${db} is full (${detail}): free some space and try again.`);
      case SQLITE.cantopen:
        return make(
          "STORE",
          `cannot open ${db} (${detail}): check that the folder exists and is readable and writable by this user.`
        );
      default:
        return err;
    }
  };
}

// core/store/sqlite/sqlite-bookkeeping.ts
function getMeta(db, key2) {
  const row = db.stmt("SELECT value FROM meta WHERE key = ?").get(key2);
  return row?.["value"] ?? null;
}
function setMeta(db, key2, value) {
  db.stmt(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
  ).run(key2, value);
}
function pruneSpillApplied(db, before) {
  db.stmt("DELETE FROM spill_applied WHERE applied_at < ?").run(before);
}

// core/store/sqlite/sqlite-calls.ts
function insertCall(db, call, outcome, latencyMs, maxOutputBytes) {
  const kept = recordedOutcome(call, outcome, maxOutputBytes);
  return db.transaction(() => {
    const row = db.stmt(
      `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at, note, clipped, raw_args, failure)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id`
    ).get(
      call.traceId,
      call.traceId,
      call.parentId ?? null,
      call.tool,
      call.kind,
      JSON.stringify(call.args),
      kept.status,
      kept.output,
      kept.error,
      latencyMs,
      call.version ?? null,
      call.externalId ?? null,
      now(),
      kept.note,
      kept.clipped ? 1 : 0,
      call.rawArgs ?? null,
      kept.failure
    );
    return Number(row?.["id"]);
  });
}
function insertCallAt(db, call, outcome, latencyMs, seq, maxOutputBytes) {
  return db.transaction(() => {
    db.stmt("UPDATE calls SET seq = -(seq + 1) WHERE trace_id = ? AND seq >= ?").run(call.traceId, seq);
    db.stmt("UPDATE calls SET seq = -seq WHERE trace_id = ? AND seq < 0").run(call.traceId);
    const id = insertCall(db, call, outcome, latencyMs, maxOutputBytes);
    db.stmt("UPDATE calls SET seq = ? WHERE id = ?").run(seq, id);
    return id;
  });
}
function finishCall(db, id, output, latencyMs, maxOutputBytes) {
  const out = recordableOutput(output, maxOutputBytes);
  db.stmt(
    `UPDATE calls SET status = 'ok', output = ?1, latency_ms = ?2, clipped = ?3,
     note = CASE WHEN ?4 IS NULL THEN note WHEN note IS NULL THEN ?4 ELSE note || '; ' || ?4 END WHERE id = ?5`
  ).run(out.text, latencyMs, out.clipped ? 1 : 0, out.note, id);
}
function failCall(db, id, error, latencyMs, maxOutputBytes) {
  const err = recordableError(error, maxOutputBytes);
  db.stmt(
    `UPDATE calls SET status = 'error', error = ?1, latency_ms = ?2,
     note = CASE WHEN ?3 IS NULL THEN note WHEN note IS NULL THEN ?3 ELSE note || '; ' || ?3 END WHERE id = ?4`
  ).run(err.text, latencyMs, err.note, id);
}
function setCallKind(db, id, kind, version) {
  db.stmt("UPDATE calls SET kind = ?, version = ? WHERE id = ?").run(kind, version, id);
}
function setCallArgs(db, id, args, rawArgs = null) {
  db.stmt("UPDATE calls SET args = ?, raw_args = COALESCE(?, raw_args) WHERE id = ?").run(
    JSON.stringify(args),
    rawArgs,
    id
  );
}
function getCallByExternalId(db, externalId, traceIdPrefix) {
  const row = db.stmt("SELECT * FROM calls WHERE external_id = ? AND substr(trace_id, 1, ?) = ? ORDER BY id DESC LIMIT 1").get(externalId, traceIdPrefix.length, traceIdPrefix);
  return row ? callFromRow(row) : null;
}
function startedCallsByExternalId(db, externalId) {
  const rows = db.stmt("SELECT * FROM calls WHERE external_id = ? AND status = 'started' ORDER BY id DESC").all(externalId);
  return rows.map(callFromRow);
}
function getCalls(db, traceId) {
  return db.stmt("SELECT * FROM calls WHERE trace_id = ? ORDER BY seq").all(traceId).map(callFromRow);
}
function countTopLevelBaseCalls(db, traceId) {
  const row = db.stmt(
    "SELECT COUNT(*) AS n FROM calls WHERE trace_id = ? AND kind = 'base' AND parent_id IS NULL AND status != 'started'"
  ).get(traceId);
  return Number(row?.["n"]);
}
function liveRuns(db, name, version, limit) {
  const rows = db.stmt(
    "SELECT * FROM calls WHERE kind = 'distilled' AND tool = ? AND version = ? AND status = 'ok' ORDER BY id DESC LIMIT ?"
  ).all(name, version, limit);
  return rows.map((row) => liveRun(db, row));
}
function liveRunsOf(db, refs) {
  const get = db.stmt(
    "SELECT * FROM calls WHERE id = ? AND trace_id = ? AND kind = 'distilled' AND status = 'ok'"
  );
  return refs.flatMap((ref) => {
    const row = get.get(ref.call, ref.trace);
    return row ? [liveRun(db, row)] : [];
  });
}
function liveRun(db, row) {
  const call = callFromRow(row);
  const inner = db.stmt("SELECT * FROM calls WHERE parent_id = ? ORDER BY seq").all(call.id).map(callFromRow);
  return {
    trace: call.traceId,
    call: call.id,
    version: call.version ?? 0,
    input: receivedInput(row, call.args),
    output: call.output,
    at: String(row["started_at"]),
    calls: inner
  };
}

// core/store/sqlite/sqlite-invariants.ts
var REPAIRED = "repaired when the store was opened";
var NEEDS_VERDICT = ["verified", "active", "suspect", "rejected", "superseded"];
var NEVER_REBUILT = ["deprecated", "rejected", "superseded"];
function checkLifecycle(store) {
  const versions = store.listVersions();
  if (versions.length === 0) return [];
  const problems = [];
  const byName = /* @__PURE__ */ new Map();
  for (const v of versions) byName.set(v.name, [...byName.get(v.name) ?? [], v]);
  for (const [name, all] of byName) {
    const active = all.filter((v) => v.status === "active");
    if (active.length < 2) continue;
    const keep = active.reduce(
      (a, b) => store.lastActivation(b.name, b.version) > store.lastActivation(a.name, a.version) ? b : a
    );
    const others = active.filter((v) => v !== keep);
    problems.push({
      name,
      versions: active.map((v) => v.version),
      message: `${name} has ${active.length} active versions (${active.map((v) => `v${v.version}`).join(", ")})`,
      repair: `v${keep.version}, which became active last, stays active; ${others.map((v) => `v${v.version}`).join(", ")} deprecated`,
      command: null,
      apply: (s) => {
        for (const v of others) {
          s.setStatus({
            name,
            version: v.version,
            expect: "active",
            to: "deprecated",
            problems: v.problems,
            reason: `${REPAIRED}: v${keep.version} was active too and became active last`
          });
        }
      }
    });
  }
  const history = new Map(store.latestHistory().map((h) => [`${h.name}\0${h.version}`, h]));
  for (const v of versions) {
    const id = `${v.name} v${v.version}`;
    if (NEVER_REBUILT.includes(v.status) && v.queuedRebuild) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but still queued for a rebuild`,
        repair: "the rebuild queue flag is cleared",
        command: null,
        apply: (s) => s.setQueuedRebuild(v.name, v.version, false, null)
      });
    }
    if (NEEDS_VERDICT.includes(v.status) && v.verdict === null) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but has no stored verdict (an interrupted verification)`,
        repair: null,
        command: `run \`tooldistill verify ${v.name} --version ${v.version}\``
      });
    }
    if (v.status === "active" && v.problems.length > 0) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is active with open problems (${v.problems.join(", ")})`,
        repair: "it becomes suspect, as every open problem makes it",
        command: null,
        apply: (s) => s.setStatus({
          name: v.name,
          version: v.version,
          expect: "active",
          to: "suspect",
          problems: v.problems,
          reason: `${REPAIRED}: active with open problems`
        })
      });
    }
    if (v.status === "suspect" && v.problems.length === 0) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is suspect without an open problem`,
        repair: null,
        command: `run \`tooldistill verify ${v.name} --version ${v.version}\` (a pass makes it active again)`
      });
    }
    const last = history.get(`${v.name}\0${v.version}`);
    if (last && last.to !== v.status) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but its history ends at ${last.to}`,
        repair: `the history records the change to ${v.status}`,
        command: null,
        apply: (s) => s.addHistory({
          name: v.name,
          version: v.version,
          from: last.to,
          to: v.status,
          reason: `${REPAIRED}: the history lacked this change`,
          evidence: null
        })
      });
    }
  }
  return problems;
}
function checkOnOpen(store, logger) {
  const found = checkLifecycle(store);
  if (found.length === 0) return [];
  const repairable = found.filter((p) => p.repair !== null);
  let left = found;
  if (!store.readOnly && repairable.length > 0) {
    try {
      store.transaction(() => {
        for (const p of repairable) p.apply?.(store);
      });
      for (const p of repairable) logger.warn(`tooldistill: repaired the store: ${p.message}; ${p.repair}`);
      left = found.filter((p) => p.repair === null);
    } catch (err) {
      logger.warn(`tooldistill: could not repair the store now: ${errorMessage(err)}`);
    }
  }
  for (const p of left) {
    const fix = p.command ?? "run `tooldistill doctor --fix`";
    logger.warn(`tooldistill: ${p.message}: ${fix}`);
  }
  return left;
}

// core/store/sqlite/sqlite-runs.ts
function recordRun(db, run) {
  const at = now();
  const ok = run.outcome === "ok" || run.outcome === "declared" ? 1 : 0;
  const na = run.outcome === "not_applicable" ? 1 : 0;
  const failed = ok || na ? 0 : 1;
  db.transaction(() => {
    db.stmt(
      "INSERT INTO runs (name, version, outcome, trace_id, call_id, inner_calls, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    ).run(
      run.name,
      run.version,
      run.outcome,
      run.traceId ?? null,
      run.callId ?? null,
      run.innerCalls,
      json(run.evidence),
      at
    );
    db.stmt(
      `INSERT INTO run_stats (name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?)
       ON CONFLICT (name, version) DO UPDATE SET runs = runs + 1, successes = successes + excluded.successes,
       failures = failures + excluded.failures, not_applicable = not_applicable + excluded.not_applicable,
       inner_calls = inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`
    ).run(run.name, run.version, ok, failed, na, run.innerCalls, at);
  });
}
function getRunStats(db, name, version) {
  return runStatsFromRow(
    name,
    version,
    db.stmt("SELECT * FROM run_stats WHERE name = ? AND version = ?").get(name, version)
  );
}
function recentRuns(db, name, version, limit, outcomes) {
  const rows = db.stmt(
    `SELECT * FROM runs WHERE name = ?1 AND version = ?2 AND (?3 IS NULL OR outcome IN (SELECT value FROM json_each(?3)))
       ORDER BY id DESC LIMIT ?4`
  ).all(name, version, outcomes === null ? null : JSON.stringify(outcomes), limit);
  return rows.map(runFromRow);
}
function recordBaseHealth(db, tool, ok, error) {
  if (ok) {
    const row = db.stmt("SELECT consecutive FROM base_health WHERE tool = ?").get(tool);
    if (!row || Number(row["consecutive"]) === 0) return;
    db.stmt("UPDATE base_health SET consecutive = 0, last_ok_at = ? WHERE tool = ?").run(now(), tool);
    return;
  }
  const at = now();
  db.stmt(
    `INSERT INTO base_health (tool, failures, consecutive, last_error, last_failure_at) VALUES (?1, 1, 1, ?2, ?3)
     ON CONFLICT (tool) DO UPDATE SET failures = failures + 1, consecutive = consecutive + 1,
     last_error = ?2, last_failure_at = ?3`
  ).run(tool, error, at);
}
function recordProbe(db, tool, ok) {
  const at = now();
  db.stmt(
    `INSERT INTO base_health (tool, probe_ok, probed_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (tool) DO UPDATE SET probe_ok = ?2, probed_at = ?3,
     consecutive = CASE WHEN ?2 = 1 THEN 0 ELSE consecutive END`
  ).run(tool, ok ? 1 : 0, at);
}
function baseHealth(db) {
  return db.stmt("SELECT * FROM base_health ORDER BY tool").all().map(baseHealthFromRow);
}

// core/store/sqlite/sqlite-traces.ts
function createTrace(db, id, task, source) {
  db.stmt("INSERT OR IGNORE INTO traces (id, task, source, started_at) VALUES (?, ?, ?, ?)").run(
    id,
    task,
    source,
    now()
  );
}
function getTrace(db, id) {
  const row = db.stmt("SELECT * FROM traces WHERE id = ?").get(id);
  return row ? traceFromRow(row) : null;
}
function traceIdsStartingWith(db, prefix, limit) {
  const rows = db.stmt("SELECT id FROM traces WHERE substr(id, 1, ?) = ? ORDER BY started_at DESC, rowid DESC LIMIT ?").all(prefix.length, prefix, limit);
  return rows.map((r) => r["id"]);
}
function listTraces(db, limit) {
  const rows = db.stmt("SELECT * FROM traces ORDER BY started_at DESC, rowid DESC LIMIT ?").all(limit);
  return rows.map(traceFromRow);
}
function setTask(db, id, task) {
  db.stmt("UPDATE traces SET task = ? WHERE id = ?").run(task, id);
}
function setOutcome(db, id, success) {
  db.stmt("UPDATE traces SET outcome = ? WHERE id = ?").run(success ? 1 : 0, id);
}
function addUsage(db, id, usage) {
  db.stmt(
    `UPDATE traces SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
     cache_creation_input_tokens = cache_creation_input_tokens + ?, cache_read_input_tokens = cache_read_input_tokens + ?
     WHERE id = ?`
  ).run(
    usage.input_tokens,
    usage.output_tokens,
    usage.cache_creation_input_tokens,
    usage.cache_read_input_tokens,
    id
  );
}
function endTrace(db, id) {
  db.stmt("UPDATE traces SET ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(now(), id);
}
function setTraceNote(db, id, note) {
  db.stmt("UPDATE traces SET note = ? WHERE id = ?").run(note, id);
}
function getTraceFlags(db, id) {
  return traceFlagsFromRow(db.stmt("SELECT nudged, proposed, replace_name FROM traces WHERE id = ?").get(id));
}
function claimNudge(db, id) {
  const r = db.stmt("UPDATE traces SET nudged = 1 WHERE id = ? AND nudged = 0").run(id);
  return Number(r.changes) === 1;
}
function markProposed(db, id) {
  db.stmt("UPDATE traces SET proposed = 1 WHERE id = ?").run(id);
}
function setReplaceName(db, id, name) {
  db.stmt("UPDATE traces SET replace_name = ? WHERE id = ?").run(name, id);
}

// core/store/sqlite/sqlite-versions.ts
var INSERT_HISTORY = "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?)";
function createVersion(db, root, v) {
  return db.transaction(() => {
    const row = db.stmt("SELECT COALESCE(MAX(version), 0) + 1 AS n FROM versions WHERE name = ? AND status != 'rejected'").get(v.name);
    const n = Number(row?.["n"]);
    removeRows(db, v.name, n);
    writeToolCode(root, toolFilePath(root, v.name, n), v.code);
    const at = now();
    db.stmt(
      `INSERT INTO versions (name, version, status, description, input_schema, test_inputs, source_trace, source_hash, created_at)
       VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?)`
    ).run(
      v.name,
      n,
      v.description,
      JSON.stringify(v.inputSchema),
      JSON.stringify(v.testInputs),
      v.sourceTrace,
      hashSource(v.code),
      at
    );
    db.stmt(INSERT_HISTORY).run(v.name, n, null, "draft", v.reason, null, at);
    return n;
  });
}
function removeRows(db, name, version) {
  for (const table of [
    "versions",
    "status_history",
    "dependencies",
    "run_stats",
    "runs",
    "verified_definitions"
  ]) {
    db.stmt(`DELETE FROM ${table} WHERE name = ? AND version = ?`).run(name, version);
  }
}
function versionWithCode(db, name, sourceHash) {
  const row = db.stmt(
    "SELECT * FROM versions WHERE name = ? AND source_hash = ? AND status != 'rejected' ORDER BY version LIMIT 1"
  ).get(name, sourceHash);
  return row ? versionFromRow(row) : null;
}
function pruneVersions(db, statuses, before) {
  return db.transaction(() => {
    const rows = db.stmt(
      `SELECT v.name, v.version, v.status, h.at AS since FROM versions v
         JOIN status_history h ON h.id = (SELECT MAX(id) FROM status_history WHERE name = v.name AND version = v.version)
         WHERE v.status IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR h.at < ?2)
         AND (v.status = 'rejected' OR v.version < (SELECT MAX(version) FROM versions WHERE name = v.name AND status != 'rejected'))
         ORDER BY v.name, v.version`
    ).all(JSON.stringify(statuses), before);
    const pruned = rows.map((r) => ({
      name: r["name"],
      version: Number(r["version"]),
      status: r["status"],
      since: r["since"]
    }));
    for (const p of pruned) removeRows(db, p.name, p.version);
    return pruned;
  });
}
function addVerifiedDefinitions(db, name, version, defs) {
  const at = now();
  const insert = db.stmt(
    `INSERT INTO verified_definitions (name, version, base_tool, fingerprint, definition, verified_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name, version, base_tool, fingerprint)
     DO UPDATE SET definition = COALESCE(definition, excluded.definition), verified_at = excluded.verified_at`
  );
  db.transaction(() => {
    for (const d of defs)
      insert.run(
        name,
        version,
        d.baseTool,
        d.fingerprint,
        d.definition === null ? null : JSON.stringify(d.definition),
        at
      );
  });
}
function verifiedDefinitions(db, name, version) {
  return db.stmt(
    `SELECT * FROM verified_definitions WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR version = ?2)
       ORDER BY name, version, base_tool, verified_at, fingerprint`
  ).all(name ?? null, version ?? null).map(verifiedDefinitionFromRow);
}
function getVersion(db, name, version) {
  const row = db.stmt("SELECT * FROM versions WHERE name = ? AND version = ?").get(name, version);
  return row ? versionFromRow(row) : null;
}
function listVersions(db, filter) {
  const rows = db.stmt(
    `SELECT * FROM versions WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR status = ?2) ORDER BY name, version`
  ).all(filter.name ?? null, filter.status ?? null);
  return rows.map(versionFromRow);
}
function setStatus(db, change) {
  return db.transaction(() => {
    const r = db.stmt(
      `UPDATE versions SET status = ?1, problems = ?2,
         queued_rebuild = CASE WHEN ?1 IN ('deprecated', 'rejected', 'superseded') THEN 0 ELSE queued_rebuild END,
         rebuild_note = CASE WHEN ?1 IN ('deprecated', 'rejected', 'superseded') THEN NULL ELSE rebuild_note END
         WHERE name = ?3 AND version = ?4 AND status = ?5`
    ).run(
      change.to,
      JSON.stringify([...new Set(change.problems)].sort()),
      change.name,
      change.version,
      change.expect
    );
    if (Number(r.changes) !== 1) return false;
    db.stmt(INSERT_HISTORY).run(
      change.name,
      change.version,
      change.expect,
      change.to,
      change.reason,
      json(change.evidence),
      now()
    );
    return true;
  });
}
function setVerification(db, name, version, verdict, baselineTokens) {
  db.stmt(
    "UPDATE versions SET verdict = ?, baseline = ?, baseline_tokens = ? WHERE name = ? AND version = ?"
  ).run(JSON.stringify(verdict), verdict.baseline, baselineTokens, name, version);
}
function setReplayRuns(db, name, version, runs) {
  db.stmt("UPDATE versions SET replay_runs = ? WHERE name = ? AND version = ?").run(
    JSON.stringify(runs.map(({ trace, call }) => ({ trace, call }))),
    name,
    version
  );
}
function setQueuedRebuild(db, name, version, queued, note) {
  db.stmt("UPDATE versions SET queued_rebuild = ?, rebuild_note = ? WHERE name = ? AND version = ?").run(
    queued ? 1 : 0,
    note,
    name,
    version
  );
}
function getHistory(db, name, version) {
  const rows = db.stmt("SELECT * FROM status_history WHERE name = ? AND version = ? ORDER BY id").all(name, version);
  return rows.map(historyFromRow);
}
function latestHistory(db) {
  const rows = db.stmt(
    "SELECT * FROM status_history WHERE id IN (SELECT MAX(id) FROM status_history GROUP BY name, version) ORDER BY name, version"
  ).all();
  return rows.map(historyFromRow);
}
function lastActivation(db, name, version) {
  const row = db.stmt(
    "SELECT COALESCE(MAX(id), 0) AS id FROM status_history WHERE name = ? AND version = ? AND to_status = 'active'"
  ).get(name, version);
  return Number(row?.["id"]);
}
function addHistory(db, h) {
  db.stmt(INSERT_HISTORY).run(h.name, h.version, h.from, h.to, h.reason, json(h.evidence), now());
}
function setDependencies(db, name, version, deps) {
  db.transaction(() => {
    db.stmt("DELETE FROM dependencies WHERE name = ? AND version = ?").run(name, version);
    const insert = db.stmt(
      "INSERT INTO dependencies (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)"
    );
    for (const d of deps) insert.run(name, version, d.baseTool, d.fingerprint, d.avoided ? 1 : 0);
  });
}
function getDependencies(db, name, version) {
  const rows = db.stmt(
    "SELECT * FROM dependencies WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR version = ?2) ORDER BY name, version, base_tool"
  ).all(name ?? null, version ?? null);
  return rows.map(dependencyFromRow);
}

// core/store/sqlite/sqlite-store.ts
var Store = class {
  root;
  dbPath;
  readOnly;
  /** Lifecycle invariants the open check found and could not (or, read-only, did not) repair. */
  lifecycleProblems;
  #db;
  #maxOutputBytes;
  constructor(root, options = {}) {
    this.root = root;
    this.dbPath = join2(root, "registry.db");
    this.readOnly = options.readOnly === true;
    this.#maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.#db = openDatabase(root, {
      readOnly: this.readOnly,
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
    });
    const logger = options.logger ?? stderrLogger;
    this.lifecycleProblems = options.checkInvariants === false ? [] : checkOnOpen(this, logger);
  }
  /** The open database, for core's store modules that need more than these methods (Store is in no barrel). */
  get database() {
    return this.#db;
  }
  /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
  transaction(fn) {
    return this.#db.transaction(fn);
  }
  /** Closes the database; the store object is unusable afterwards. */
  close() {
    this.#db.close();
  }
  /** `PRAGMA integrity_check` ("ok", or SQLite's list of problems), for tests and `tooldistill doctor`. */
  integrityCheck() {
    const rows = this.#db.stmt("PRAGMA integrity_check").all();
    return rows.map((r) => r["integrity_check"]).join("\n");
  }
  // Traces (store-traces.ts).
  /** Creates a trace row; a trace that already exists is left as it is (hooks may race to create it). */
  createTrace(id, task, source) {
    createTrace(this.#db, id, task, source);
  }
  /** The trace, or null. */
  getTrace(id) {
    return getTrace(this.#db, id);
  }
  /** Ids of the traces whose id starts with `prefix` (at most `limit`), for `traces show <prefix>`. */
  traceIdsStartingWith(prefix, limit = 10) {
    return traceIdsStartingWith(this.#db, prefix, limit);
  }
  /** Traces, newest first. */
  listTraces(limit = 50) {
    return listTraces(this.#db, limit);
  }
  /** Sets the task text (Claude Code learns it from the first prompt of a span). */
  setTask(id, task) {
    setTask(this.#db, id, task);
  }
  /** Records the caller's verdict on the run. */
  setOutcome(id, success) {
    setOutcome(this.#db, id, success);
  }
  /** Adds usage to the trace's totals, atomically (several processes may add at once). */
  addUsage(id, usage) {
    addUsage(this.#db, id, usage);
  }
  /** Marks the trace ended (idempotent: the first end time is kept). */
  endTrace(id) {
    endTrace(this.#db, id);
  }
  /** Records why something that should have happened at the end of the run did not. */
  setTraceNote(id, note) {
    setTraceNote(this.#db, id, note);
  }
  /** Nudge and proposal bookkeeping. */
  getTraceFlags(id) {
    return getTraceFlags(this.#db, id);
  }
  /** Sets the nudge at most once: returns false when another caller already took it. */
  claimNudge(id) {
    return claimNudge(this.#db, id);
  }
  /** Any submitted proposal counts as proposing (the fallback distiller then stays out). */
  markProposed(id) {
    markProposed(this.#db, id);
  }
  /** After a distilled tool failed in this run, the nudge asks for a replacement under its name. */
  setReplaceName(id, name) {
    setReplaceName(this.#db, id, name);
  }
  // Calls (store-calls.ts).
  /** Appends a started call; its seq is the next in the trace, allocated inside the write lock. */
  startCall(call) {
    return insertCall(this.#db, call, null, null, this.#maxOutputBytes);
  }
  /** Appends a call that already finished, in one write (the SDK loop knows the outcome when it records). */
  appendCall(call, outcome, latencyMs) {
    return insertCall(this.#db, call, outcome, latencyMs, this.#maxOutputBytes);
  }
  /** Inserts a finished call at `seq`, moving later calls of the trace one place on (a call learnt afterwards). */
  insertCallAt(call, outcome, latencyMs, seq) {
    return insertCallAt(this.#db, call, outcome, latencyMs, seq, this.#maxOutputBytes);
  }
  /** Completes a call with its output (clipped at the caps; the call's note says so). */
  finishCall(id, output, latencyMs) {
    finishCall(this.#db, id, output, latencyMs, this.#maxOutputBytes);
  }
  /** Completes a call with its error. */
  failCall(id, error, latencyMs) {
    failCall(this.#db, id, error, latencyMs, this.#maxOutputBytes);
  }
  /** Changes what a recorded call counts as (e.g. a Claude Code call later found to be a distilled tool). */
  setCallKind(id, kind, version) {
    setCallKind(this.#db, id, kind, version);
  }
  /**
   * The newest call recorded under an external id (Claude Code's tool_use_id) in the traces starting with
   * `traceIdPrefix` (one session's spans): external ids are only unique within a session.
   */
  getCallByExternalId(externalId, traceIdPrefix) {
    return getCallByExternalId(this.#db, externalId, traceIdPrefix);
  }
  /** Calls still `started` under an external id, newest first, in any trace (the plugin's server picks one). */
  startedCallsByExternalId(externalId) {
    return startedCallsByExternalId(this.#db, externalId);
  }
  /** Every call of a trace in seq order, inner calls included. */
  getCalls(traceId) {
    return getCalls(this.#db, traceId);
  }
  /** Top-level base calls that finished (ok or error): the unit of baselines and of `min_calls_to_distill`. */
  countTopLevelBaseCalls(traceId) {
    return countTopLevelBaseCalls(this.#db, traceId);
  }
  /** The newest `limit` successful live runs of a distilled tool version, newest first, with their base calls. */
  liveRuns(name, version, limit) {
    return liveRuns(this.#db, name, version, limit);
  }
  /** The live runs `refs` names that are still stored and succeeded, in the order given. */
  liveRunsOf(refs) {
    return liveRunsOf(this.#db, refs);
  }
  /**
   * Replaces a call's recorded arguments (the plugin re-canonicalises hook-recorded ones with schema defaults), and
   * its input as received (`rawArgs`, see NewCall) when given.
   */
  setCallArgs(id, args, rawArgs = null) {
    setCallArgs(this.#db, id, args, rawArgs);
  }
  // Small cached values and spilled hook events (store-bookkeeping.ts).
  /** A small cached value (JSON text), or null. */
  getMeta(key2) {
    return getMeta(this.#db, key2);
  }
  /** Stores a small cached value. */
  setMeta(key2, value) {
    setMeta(this.#db, key2, value);
  }
  /** Forgets applied event ids older than `before` (an ISO time): their files are long gone. */
  pruneSpillApplied(before) {
    pruneSpillApplied(this.#db, before);
  }
  // Versions, their history, dependencies and run counters (store-versions.ts, tool-files.ts).
  /** Path of a version's tool file; the name is checked and the path must stay inside `tools/`. */
  toolFile(name, version) {
    return toolFilePath(this.root, name, version);
  }
  /** Reads a version's code from its file. */
  readCode(name, version) {
    return readToolCode(this.root, name, version);
  }
  /** Stores a new draft version (next number, file and rows in one transaction); see store-versions.ts. */
  createVersion(v) {
    return this.getVersion(v.name, createVersion(this.#db, this.root, v));
  }
  /** A version, or null. */
  getVersion(name, version) {
    return getVersion(this.#db, name, version);
  }
  /** Versions, by name then version; optionally one name and/or one status. */
  listVersions(filter = {}) {
    return listVersions(this.#db, filter);
  }
  /** Applies a status change and its history row in one transaction; false when the status is no longer `expect`. */
  setStatus(change) {
    return setStatus(this.#db, change);
  }
  /** Stores the latest verdict and the measured baseline of a version. */
  setVerification(name, version, verdict, baselineTokens) {
    setVerification(this.#db, name, version, verdict, baselineTokens);
  }
  /** Records the live runs a version was replayed against, so re-verification replays the same ones. */
  setReplayRuns(name, version, runs) {
    setReplayRuns(this.#db, name, version, runs);
  }
  /** Queues (or unqueues) a version for a rebuild, with the note the distiller will get. */
  setQueuedRebuild(name, version, queued, note) {
    setQueuedRebuild(this.#db, name, version, queued, note);
  }
  /** The status history of a version, oldest first. */
  getHistory(name, version) {
    return getHistory(this.#db, name, version);
  }
  /** The newest history row of every version (its status should be that row's `to`). */
  latestHistory() {
    return latestHistory(this.#db);
  }
  /** The order in which versions last became active (history row id), for telling two actives apart. */
  lastActivation(name, version) {
    return lastActivation(this.#db, name, version);
  }
  /** Appends a history row without changing the version (the open check records a status the history lacked). */
  addHistory(h) {
    addHistory(this.#db, h);
  }
  /** Replaces the dependency rows of a version. */
  setDependencies(name, version, deps) {
    setDependencies(this.#db, name, version, deps);
  }
  /** Dependencies of one version, or of every version when no name is given. */
  getDependencies(name, version) {
    return getDependencies(this.#db, name, version);
  }
  /** The oldest version of `name` that is not rejected with this code hash, or null (one code, one version). */
  versionWithCode(name, sourceHash) {
    return versionWithCode(this.#db, name, sourceHash);
  }
  /** Removes versions in `statuses` older than `before` (rows in one transaction, then files; see prune). */
  pruneVersions(statuses, before) {
    const pruned = pruneVersions(this.#db, statuses, before);
    for (const p of pruned) rmSync(this.toolFile(p.name, p.version), { force: true });
    return pruned;
  }
  /** Adds base tool definitions a version was verified against to its set. */
  addVerifiedDefinitions(name, version, defs) {
    addVerifiedDefinitions(this.#db, name, version, defs);
  }
  /** The definitions versions were verified against: one version's, or every one's. */
  verifiedDefinitions(name, version) {
    return verifiedDefinitions(this.#db, name, version);
  }
  // Live runs and base tool health (store-runs.ts).
  /** Records one live run of a version with its outcome and evidence, and counts it. */
  recordRun(run) {
    recordRun(this.#db, run);
  }
  /** Run counters of a version (zeros when it never ran). */
  getRunStats(name, version) {
    return getRunStats(this.#db, name, version);
  }
  /** The newest `limit` runs of a version, newest first; only the given outcomes when `outcomes` is set. */
  recentRuns(name, version, limit, outcomes) {
    return recentRuns(this.#db, name, version, limit, outcomes ?? null);
  }
  /** Counts a base tool's answer (`ok`) or infrastructure failure (with its error) in its health. */
  recordBaseHealth(tool, ok, error = null) {
    recordBaseHealth(this.#db, tool, ok, error);
  }
  /** Records what the health probe said of a base tool. */
  recordProbe(tool, ok) {
    recordProbe(this.#db, tool, ok);
  }
  /** Every base tool with a health record, by name. */
  baseHealth() {
    return baseHealth(this.#db);
  }
};

// core/store/sqlite/sqlite-tool-lease.ts
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
var LEASE_FOREIGN_MS = 15 * 6e4;
function stale(text) {
  let lease;
  try {
    lease = JSON.parse(text);
  } catch {
    return true;
  }
  if (typeof lease.pid !== "number") return true;
  if (lease.host !== hostname()) return Date.now() - Date.parse(String(lease.at)) > LEASE_FOREIGN_MS;
  return !isRunning(lease.pid);
}
async function takeLease(store, name, idle, logger) {
  const key2 = INTERNAL_META_PREFIX + name;
  const { randomUUID } = process.getBuiltinModule("node:crypto");
  const mine = JSON.stringify({ token: randomUUID(), pid: process.pid, host: hostname(), at: now() });
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    await idle();
    const taken = store.transaction(() => {
      const held = store.getMeta(key2);
      if (held !== null && !stale(held)) return false;
      store.setMeta(key2, mine);
      return true;
    });
    if (taken) break;
    await sleep(delay);
  }
  return async () => {
    await idle();
    try {
      store.database.stmt("DELETE FROM meta WHERE key = ? AND value = ?").run(key2, mine);
    } catch (err) {
      logger.warn(`tooldistill: could not release the lock of ${name}: ${errorMessage(err)}`);
    }
  };
}

// core/store/sqlite/sqlite-registry-store.ts
var SqliteRegistryStore = class _SqliteRegistryStore extends EngineRegistryData {
  kind = "sqlite";
  /** The synchronous store underneath: the hooks' path, `doctor`, spill files, the session tables. */
  store;
  location;
  readOnly;
  #gate;
  #fileGate;
  #locks = new ToolLocks();
  #logger;
  #changes;
  /** Opens (creating and migrating unless read-only) the store in folder `root`. */
  static open(root, options = {}) {
    return new _SqliteRegistryStore(new Store(root, options), {
      logger: options.logger ?? stderrLogger,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES
    });
  }
  /** Runs the registry over an open store's connection; it owns the store from now on (`close` closes it). */
  constructor(store, options = {}) {
    const engine = SqliteEngine.open(store.database, store.dbPath, store.root);
    super(engine, {
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      toolRoot: store.root
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
  codeLocation(name, version) {
    return this.store.toolFile(name, version);
  }
  async withToolLock(name, fn) {
    assertOutsideTransaction(this.#gate, "withToolLock()");
    return this.#locks.run(name, () => takeLease(this.store, name, () => this.#idle(), this.#logger), fn);
  }
  async onChange(listener) {
    await this.#idle();
    return this.#changes.subscribe(listener);
  }
  /** Resolves when no transaction, export or import of this handle, nor a write of another on its file, is open. */
  async #idle() {
    while (this.#gate.busy || this.#fileGate.busy)
      await (this.#gate.busy ? this.#gate.idle() : this.#fileGate.idle());
  }
  async isEmpty() {
    assertOutsideTransaction(this.#gate, "isEmpty()");
    await this.#idle();
    return sqliteIsEmpty(this.store.database);
  }
  async *exportRegistry() {
    assertOutsideTransaction(this.#gate, "exportRegistry()");
    const release = await this.#gate.acquire();
    const db = this.store.database;
    try {
      db.exec("BEGIN");
      yield* exportSqlite(db, this.store.root);
    } finally {
      if (db.inTransaction) db.exec("COMMIT");
      release();
    }
  }
  async importRegistry(batches) {
    assertOutsideTransaction(this.#gate, "importRegistry()");
    const release = await this.#gate.acquire();
    const releaseFile = await this.#fileGate.acquire();
    const db = this.store.database;
    const counts = emptyCounts();
    const written = [];
    try {
      db.exec("BEGIN IMMEDIATE");
      try {
        db.exec("PRAGMA defer_foreign_keys = ON");
        if (!sqliteIsEmpty(db)) {
          throw new DistillError(
            "USAGE",
            `the store at ${this.location} is not empty: importing into it would mix two registries, so nothing was written. Import into a new store (a new folder, or an empty PostgreSQL database), or move this one aside first.`
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
        removeToolFiles(written);
        throw constraintError(err, this.location);
      }
    } finally {
      releaseFile();
      release();
    }
  }
  async close() {
    this.#changes.stop();
    this.store.close();
  }
};
function removeToolFiles(files) {
  for (const file of files) rmSync2(file, { force: true });
  for (const folder of new Set(files.map((f) => dirname(f)))) {
    try {
      rmdirSync(folder);
    } catch {
    }
  }
}
function constraintError(err, location) {
  const e = err;
  if (typeof e.errcode !== "number" || (e.errcode & 255) !== 19) return err;
  return new DistillError(
    "STORE",
    `the registry copied into ${location} breaks one of its constraints (${e.message}), so nothing was written: the source holds rows that refer to missing ones. Run \`tooldistill doctor\` on the source.`,
    { cause: err }
  );
}

// core/store/registry-open.ts
async function openRegistryStore(location, options = {}) {
  if (isPostgresUrl(location)) {
    const { PostgresStore } = await import("./postgres-store-AD7WMX7H.js");
    const { readOnly, maxOutputBytes, poolSize, connectTimeoutMs, logger } = options;
    return PostgresStore.open(location, {
      ...readOnly !== void 0 && { readOnly },
      ...maxOutputBytes !== void 0 && { maxOutputBytes },
      ...poolSize !== void 0 && { poolSize },
      ...connectTimeoutMs !== void 0 && { connectTimeoutMs },
      ...logger !== void 0 && { logger }
    });
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location.trim());
  if (scheme) {
    throw new DistillError(
      "CONFIG_INVALID",
      `store: in tooldistill.yaml is a ${scheme[1]}:// URL, which tooldistill cannot use: give a folder (e.g. .tooldistill) for the embedded SQLite store, or a postgres://user:password@host:5432/database URL.`
    );
  }
  return SqliteRegistryStore.open(location, options);
}
function configuredStoreOptions(config) {
  return {
    maxOutputBytes: config.settings.maxOutputBytes,
    poolSize: config.settings.storePoolSize,
    connectTimeoutMs: config.settings.storeConnectTimeoutMs
  };
}
function openConfiguredStore(config, options = {}, location = config.store) {
  return openRegistryStore(location, { ...configuredStoreOptions(config), ...options });
}

export {
  checkLifecycle,
  Store,
  SqliteRegistryStore,
  openRegistryStore,
  configuredStoreOptions,
  openConfiguredStore
};
