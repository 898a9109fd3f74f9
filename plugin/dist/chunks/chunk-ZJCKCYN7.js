import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  EngineRegistryData,
  INTERNAL_META_PREFIX,
  MigrationList,
  TRANSFER_COLUMNS,
  ToolLocks,
  assertOutsideTransaction,
  columnsOf,
  emptyCounts,
  exportTables,
  fieldValue,
  migrateNow,
  now,
  runInTransaction,
  sql,
  stderrLogger,
  usedQuery,
  versionKey
} from "./chunk-UT4SHXKT.js";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  countToolFiles,
  isPostgresUrl,
  readToolCode,
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
import { rmdirSync, rmSync } from "node:fs";
import { dirname, join as join2 } from "node:path";

// core/store/lifecycle-invariants.ts
var REPAIRED = "repaired when the store was opened";
var NEEDS_VERDICT = ["verified", "active", "suspect", "rejected", "superseded"];
var NEVER_REBUILT = ["deprecated", "rejected", "superseded"];
async function checkLifecycle(store) {
  const versions = await store.listVersions();
  if (versions.length === 0) return [];
  const problems = [];
  const byName = /* @__PURE__ */ new Map();
  for (const v of versions) byName.set(v.name, [...byName.get(v.name) ?? [], v]);
  for (const [name, all] of byName) {
    const active = all.filter((v) => v.status === "active");
    if (active.length < 2) continue;
    const order = /* @__PURE__ */ new Map();
    for (const v of active) order.set(v, await store.lastActivation(v.name, v.version));
    const keep = active.reduce((a, b) => order.get(b) > order.get(a) ? b : a);
    const others = active.filter((v) => v !== keep);
    problems.push({
      name,
      versions: active.map((v) => v.version),
      message: `${name} has ${active.length} active versions (${active.map((v) => `v${v.version}`).join(", ")})`,
      repair: `v${keep.version}, which became active last, stays active; ${others.map((v) => `v${v.version}`).join(", ")} deprecated`,
      command: null,
      apply: async (tx) => {
        for (const v of others) {
          await tx.setStatus({
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
  const history = new Map((await store.latestHistory()).map((h) => [versionKey(h), h]));
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
    const last = history.get(versionKey(v));
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
async function checkOnOpen(store, readOnly, logger) {
  const found = await checkLifecycle(store);
  if (found.length === 0) return [];
  const repairable = found.filter((p) => p.repair !== null);
  let left = found;
  if (!readOnly && repairable.length > 0) {
    try {
      await store.transaction(async (tx) => {
        for (const p of repairable) await p.apply?.(tx);
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
  stmt(sql2) {
    let s = this.#statements.get(sql2);
    if (!s) {
      try {
        s = new StoreStatement(this.#db.prepare(sql2), (err) => {
          throw this.#explain(err, "query");
        });
      } catch (err) {
        throw this.#explain(err, "query");
      }
      this.#statements.set(sql2, s);
    }
    return s;
  }
  /** Runs SQL text without results (pragmas, migrations, savepoints). */
  exec(sql2) {
    try {
      this.#db.exec(sql2);
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
var STEPS = [
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
var SQLITE_MIGRATIONS = new MigrationList(
  STEPS.map((sql2, i) => ({ version: i + 1, sql: sql2 }))
);
var SCHEMA_VERSION = SQLITE_MIGRATIONS.schemaVersion;
function hasTables(db) {
  const row = db.stmt("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get();
  return Number(row?.["n"]) > 0;
}
function migrate(db, root, readOnly) {
  migrateNow(
    SQLITE_MIGRATIONS,
    {
      where: `at ${root}`,
      readOnly,
      upgradeHint: "run `tooldistill doctor --fix` once to upgrade it",
      createHint: "record a run into it first"
    },
    {
      applied: () => Array.from({ length: db.userVersion() }, (_, i) => i + 1),
      locked: (fn) => db.transaction(fn),
      apply: (m) => {
        db.exec(m.sql);
        db.exec(`PRAGMA user_version = ${m.version}`);
      }
    }
  );
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

// core/store/sqlite/sqlite-change-feed.ts
var POLL_MS = 250;
var SqliteChangeFeed = class {
  #db;
  #busy;
  #logger;
  #listeners = /* @__PURE__ */ new Set();
  #timer = null;
  #last = 0;
  #failing = false;
  /** `busy`: this process holds a transaction open, whose rows must not be heard before they commit. */
  constructor(db, busy, logger) {
    this.#db = db;
    this.#busy = busy;
    this.#logger = logger;
  }
  subscribe(listener) {
    if (this.#timer === null) {
      this.#last = Number(
        this.#db.stmt("SELECT COALESCE(MAX(id), 0) AS id FROM status_history").get()?.["id"]
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
      rows = this.#db.stmt("SELECT id, name, version, from_status, to_status FROM status_history WHERE id > ? ORDER BY id").all(this.#last);
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
  // The text JavaScript's toISOString() gives, so times written in SQL and in JavaScript sort together.
  now: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
  traceOrder: "rowid",
  writableCte: false,
  codeInRow: false,
  cascades: false,
  startsWith: (column, param) => `substr(${column}, 1, length(${param})) = ${param}`,
  anyOf: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  jsonPairs: (param) => `(SELECT key AS k, value AS v FROM json_each(${param}))`
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
  const key = resolve(path);
  let gate = writeGates.get(key);
  if (gate === void 0) {
    gate = new Gate();
    writeGates.set(key, gate);
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
  async rows(sql2, params = []) {
    await this.#enter(false);
    return this.#db.stmt(sql2).all(...bind(params));
  }
  async first(sql2, params = []) {
    await this.#enter(false);
    return this.#db.stmt(sql2).get(...bind(params));
  }
  /**
   * Runs a read at once, without waiting for the connection: only while no flow of this process holds it (a
   * ToolDistill's constructor, before anything else could), since it would otherwise read inside their transaction.
   */
  readNow(q) {
    if (this.gate.busy || this.#tx) {
      throw new DistillError(
        "USAGE",
        "a synchronous read was asked for while a transaction of this store is open: await the store's method instead"
      );
    }
    return q.map(this.#db.stmt(q.sql).all(...bind(q.params)));
  }
  async run(sql2, params = []) {
    await this.#enter(true);
    return Number(this.#db.stmt(sql2).run(...bind(params)).changes);
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
function exportSqlite(db, root) {
  return exportTables(
    SQLITE_DIALECT,
    async (sql2, params) => db.stmt(sql2).all(...params),
    (r) => readToolCode(root, String(r["name"]), Number(r["version"]))
  );
}
function sqliteIsEmpty(db) {
  const q = usedQuery(SQLITE_DIALECT);
  return !db.stmt(q.sql).get(...q.params)?.["used"];
}
function stored(type, value) {
  if (type === "boolean") return value === null ? null : value ? 1 : 0;
  return value;
}
function importSqlite(db, root, batch, written) {
  const { table } = TRANSFER_COLUMNS[batch.table];
  const all = columnsOf(batch);
  const code = all.find(([, type]) => type === "code");
  const columns = all.filter((c) => c !== code);
  const insert = db.stmt(
    `INSERT INTO ${SQLITE_DIALECT.t[table]} (${columns.map(([name]) => name).join(", ")})
     VALUES (${columns.map(() => "?").join(", ")})`
  );
  for (const row of batch.rows) {
    if (code) {
      const v = row;
      const file = toolFilePath(root, v.name, v.version);
      written.push(file);
      writeToolCode(root, file, String(fieldValue(row, code)));
    }
    insert.run(...columns.map((c) => stored(c[1], fieldValue(row, c))));
  }
}

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
var RELEASE = sql((d) => `DELETE FROM ${d.t.meta} WHERE key = ? AND value = ?`);
async function takeLease(registry, name, logger) {
  const key = INTERNAL_META_PREFIX + name;
  const { randomUUID } = process.getBuiltinModule("node:crypto");
  const mine = JSON.stringify({ token: randomUUID(), pid: process.pid, host: hostname(), at: now() });
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    const taken = await registry.transaction(async (tx) => {
      const held = await tx.getMeta(key);
      if (held !== null && !stale(held)) return false;
      await tx.setMeta(key, mine);
      return true;
    });
    if (taken) break;
    await sleep(delay);
  }
  return async () => {
    try {
      await registry.engine.run(RELEASE(registry.engine.dialect), [key, mine]);
    } catch (err) {
      logger.warn(`tooldistill: could not release the lock of ${name}: ${errorMessage(err)}`);
    }
  };
}

// core/store/sqlite/sqlite-registry-store.ts
var SqliteRegistryStore = class _SqliteRegistryStore extends EngineRegistryData {
  kind = "sqlite";
  location;
  dbPath;
  readOnly;
  /** The open connection, for core's SQLite modules that need more than the registry's methods. */
  database;
  #gate;
  #fileGate;
  #engine;
  #locks = new ToolLocks();
  #logger;
  #changes;
  #checkInvariants;
  #checked = null;
  #problems = [];
  /**
   * Opens (creating and migrating unless read-only) the store in folder `root`. The lifecycle check runs when
   * `checkOnOpen()` is awaited (openRegistryStore and a ToolDistill do it; the hooks skip it).
   */
  static open(root, options = {}) {
    const readOnly = options.readOnly === true;
    const database = openDatabase(root, {
      readOnly,
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
    });
    return new _SqliteRegistryStore(root, database, readOnly, options);
  }
  constructor(root, database, readOnly, options) {
    const dbPath = join2(root, "registry.db");
    const engine = SqliteEngine.open(database, dbPath, root);
    super(engine, {
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      toolRoot: root
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
  checkOnOpen() {
    if (!this.#checkInvariants) return Promise.resolve([]);
    this.#checked ??= checkOnOpen(this, this.readOnly, this.#logger).then((left) => {
      this.#problems = left;
      return left;
    });
    return this.#checked;
  }
  /** What the open check found and could not (or, read-only, did not) repair; empty until it ran. */
  get lifecycleProblems() {
    return this.#problems;
  }
  /**
   * Runs a read at once (a ToolDistill's constructor answers `activeTools()` before it awaits anything); only
   * while no transaction of this handle is open.
   */
  readNow(q) {
    return this.#engine.readNow(q(this.#engine.dialect));
  }
  /** `PRAGMA integrity_check` ("ok", or SQLite's list of problems), for tests and `tooldistill doctor`. */
  async integrityCheck() {
    const rows = await this.engine.rows("PRAGMA integrity_check");
    return rows.map((r) => String(r["integrity_check"])).join("\n");
  }
  /** Path of a version's tool file; the name is checked and the path must stay inside `tools/`. */
  toolFile(name, version) {
    return toolFilePath(this.location, name, version);
  }
  codeLocation(name, version) {
    return this.toolFile(name, version);
  }
  async withToolLock(name, fn) {
    assertOutsideTransaction(this.#gate, "withToolLock()");
    return this.#locks.run(name, () => takeLease(this, name, this.#logger), fn);
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
    return sqliteIsEmpty(this.database);
  }
  async *exportRegistry() {
    assertOutsideTransaction(this.#gate, "exportRegistry()");
    const release = await this.#gate.acquire();
    const db = this.database;
    try {
      db.exec("BEGIN");
      yield* exportSqlite(db, this.location);
    } finally {
      if (db.inTransaction) db.exec("COMMIT");
      release();
    }
  }
  async importRegistry(batches) {
    assertOutsideTransaction(this.#gate, "importRegistry()");
    const release = await this.#gate.acquire();
    const releaseFile = await this.#fileGate.acquire();
    const db = this.database;
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
          importSqlite(db, this.location, batch, written);
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
    this.database.close();
  }
};
function removeToolFiles(files) {
  for (const file of files) rmSync(file, { force: true });
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
    const { PostgresStore } = await import("./postgres-store-AJOWNEHV.js");
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
  const store = SqliteRegistryStore.open(location, options);
  try {
    await store.checkOnOpen();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
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
  SqliteRegistryStore,
  openRegistryStore,
  configuredStoreOptions,
  openConfiguredStore
};
