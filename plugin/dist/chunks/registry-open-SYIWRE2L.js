import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  INTERNAL_META_PREFIX,
  ToolLocks,
  assertOutsideTransaction,
  callRow,
  emptyCounts,
  historyRow,
  metaRow,
  noTransaction,
  runInTransaction,
  runStatsRow,
  sessionRow,
  traceRow,
  versionRow
} from "./chunk-JXYWBI33.js";
import {
  Store,
  advanceSpan,
  claimSpillEvent,
  findSessionSpan,
  markSpanConfirmed,
  sessionSpan,
  storeDatabase
} from "./chunk-KVNJ5B3Z.js";
import {
  isRunning
} from "./chunk-OGWWFJGY.js";
import {
  dependencyFromRow,
  isPostgresUrl,
  now,
  readToolCode,
  stderrLogger,
  toolFilePath,
  writeToolCode
} from "./chunk-MSS64Y6Z.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-XSOUOFOT.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// core/sqlite-registry-store.ts
import { rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";

// core/sqlite-change-feed.ts
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
        storeDatabase(this.#store).stmt("SELECT COALESCE(MAX(id), 0) AS id FROM status_history").get()?.["id"]
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
      rows = storeDatabase(this.#store).stmt("SELECT id, name, version, from_status, to_status FROM status_history WHERE id > ? ORDER BY id").all(this.#last);
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

// core/sqlite-registry-data.ts
var SqliteRegistryData = class {
  #store;
  #enter;
  constructor(store, enter) {
    this.#store = store;
    this.#enter = enter;
  }
  /** Outside a transaction there is nothing to save: a transaction's view overrides this. */
  savepoint(_fn) {
    return Promise.reject(noTransaction());
  }
  async createTrace(id, task, source) {
    await this.#enter();
    this.#store.createTrace(id, task, source);
  }
  async getTrace(id) {
    await this.#enter();
    return this.#store.getTrace(id);
  }
  async traceIdsStartingWith(prefix, limit) {
    await this.#enter();
    return this.#store.traceIdsStartingWith(prefix, limit);
  }
  async listTraces(limit) {
    await this.#enter();
    return this.#store.listTraces(limit);
  }
  async setTask(id, task) {
    await this.#enter();
    this.#store.setTask(id, task);
  }
  async setOutcome(id, success) {
    await this.#enter();
    this.#store.setOutcome(id, success);
  }
  async addUsage(id, usage) {
    await this.#enter();
    this.#store.addUsage(id, usage);
  }
  async endTrace(id) {
    await this.#enter();
    this.#store.endTrace(id);
  }
  async setTraceNote(id, note) {
    await this.#enter();
    this.#store.setTraceNote(id, note);
  }
  async getTraceFlags(id) {
    await this.#enter();
    return this.#store.getTraceFlags(id);
  }
  async claimNudge(id) {
    await this.#enter();
    return this.#store.claimNudge(id);
  }
  async markProposed(id) {
    await this.#enter();
    this.#store.markProposed(id);
  }
  async setReplaceName(id, name) {
    await this.#enter();
    this.#store.setReplaceName(id, name);
  }
  async startCall(call) {
    await this.#enter();
    return this.#store.startCall(call);
  }
  async appendCall(call, outcome, latencyMs) {
    await this.#enter();
    return this.#store.appendCall(call, outcome, latencyMs);
  }
  async finishCall(id, output, latencyMs) {
    await this.#enter();
    this.#store.finishCall(id, output, latencyMs);
  }
  async failCall(id, error, latencyMs) {
    await this.#enter();
    this.#store.failCall(id, error, latencyMs);
  }
  async setCallKind(id, kind, version) {
    await this.#enter();
    this.#store.setCallKind(id, kind, version);
  }
  async getCallByExternalId(externalId, traceIdPrefix) {
    await this.#enter();
    return this.#store.getCallByExternalId(externalId, traceIdPrefix);
  }
  async startedCallsByExternalId(externalId) {
    await this.#enter();
    return this.#store.startedCallsByExternalId(externalId);
  }
  async getCalls(traceId) {
    await this.#enter();
    return this.#store.getCalls(traceId);
  }
  async countTopLevelBaseCalls(traceId) {
    await this.#enter();
    return this.#store.countTopLevelBaseCalls(traceId);
  }
  async setCallArgs(id, args) {
    await this.#enter();
    this.#store.setCallArgs(id, args);
  }
  async getMeta(key2) {
    await this.#enter();
    return this.#store.getMeta(key2);
  }
  async setMeta(key2, value) {
    await this.#enter();
    this.#store.setMeta(key2, value);
  }
  async sessionSpan(sessionId) {
    await this.#enter();
    return sessionSpan(this.#store, sessionId);
  }
  async findSessionSpan(sessionId) {
    await this.#enter();
    return findSessionSpan(this.#store, sessionId);
  }
  async advanceSpan(sessionId, from) {
    await this.#enter();
    advanceSpan(this.#store, sessionId, from);
  }
  async markSpanConfirmed(sessionId, span) {
    await this.#enter();
    markSpanConfirmed(this.#store, sessionId, span);
  }
  async claimSpillEvent(eventId) {
    await this.#enter();
    return claimSpillEvent(this.#store, eventId);
  }
  async pruneSpillApplied(before) {
    await this.#enter();
    this.#store.pruneSpillApplied(before);
  }
  async readCode(name, version) {
    await this.#enter();
    return this.#store.readCode(name, version);
  }
  async createVersion(v) {
    await this.#enter();
    return this.#store.createVersion(v);
  }
  async getVersion(name, version) {
    await this.#enter();
    return this.#store.getVersion(name, version);
  }
  async listVersions(filter) {
    await this.#enter();
    return this.#store.listVersions(filter);
  }
  async setStatus(change) {
    await this.#enter();
    return this.#store.setStatus(change);
  }
  async setVerification(name, version, verdict, baselineTokens) {
    await this.#enter();
    this.#store.setVerification(name, version, verdict, baselineTokens);
  }
  async setQueuedRebuild(name, version, queued, note) {
    await this.#enter();
    this.#store.setQueuedRebuild(name, version, queued, note);
  }
  async getHistory(name, version) {
    await this.#enter();
    return this.#store.getHistory(name, version);
  }
  async latestHistory() {
    await this.#enter();
    return this.#store.latestHistory();
  }
  async lastActivation(name, version) {
    await this.#enter();
    return this.#store.lastActivation(name, version);
  }
  async addHistory(h) {
    await this.#enter();
    this.#store.addHistory(h);
  }
  async setDependencies(name, version, deps) {
    await this.#enter();
    this.#store.setDependencies(name, version, deps);
  }
  async getDependencies(name, version) {
    await this.#enter();
    return this.#store.getDependencies(name, version);
  }
  async recordRun(run) {
    await this.#enter();
    this.#store.recordRun(run);
  }
  async getRunStats(name, version) {
    await this.#enter();
    return this.#store.getRunStats(name, version);
  }
};

// core/sqlite-registry-transfer.ts
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
       OR EXISTS (SELECT 1 FROM run_stats) OR EXISTS (SELECT 1 FROM meta WHERE substr(key, 1, ?) != ?)
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
         version, external_id, started_at, note, clipped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
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
          bit(c.clipped)
        );
      }
      return;
    }
    case "versions": {
      const insert = db.stmt(
        `INSERT INTO versions (name, version, status, problems, baseline, baseline_tokens, source_trace, description,
         input_schema, test_inputs, source_hash, verdict, queued_rebuild, rebuild_note, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
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
          v.createdAt
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
        "INSERT INTO run_stats (name, version, runs, successes, failures, inner_calls, last_run_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
      );
      for (const s of batch.rows) {
        insert.run(s.name, s.version, s.runs, s.successes, s.failures, s.innerCalls, s.lastRunAt);
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

// core/sqlite-tool-lease.ts
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
      storeDatabase(store).stmt("DELETE FROM meta WHERE key = ? AND value = ?").run(key2, mine);
    } catch (err) {
      logger.warn(`tooldistill: could not release the lock of ${name}: ${errorMessage(err)}`);
    }
  };
}

// core/sqlite-registry-store.ts
var Gate = class {
  #busy = null;
  /** Undefined when free (the common case, so a call costs no wait), else resolves once it is. */
  idle() {
    return this.#busy ? this.#wait() : void 0;
  }
  get busy() {
    return this.#busy !== null;
  }
  async #wait() {
    while (this.#busy) await this.#busy;
  }
  async acquire() {
    while (this.#busy) await this.#busy;
    let resolve;
    this.#busy = new Promise((r) => {
      resolve = r;
    });
    return () => {
      this.#busy = null;
      resolve();
    };
  }
};
var SqliteTransaction = class extends SqliteRegistryData {
  #state;
  #store;
  constructor(store) {
    const state = { open: true };
    super(store, () => {
      if (!state.open) {
        throw new DistillError(
          "USAGE",
          "this transaction has ended: use the store, or open a new transaction"
        );
      }
      return void 0;
    });
    this.#state = state;
    this.#store = store;
  }
  async savepoint(fn) {
    if (!this.#state.open) throw new DistillError("USAGE", "this transaction has ended: open a new one");
    const db = storeDatabase(this.#store);
    db.exec("SAVEPOINT td_async_step");
    try {
      const result = await fn(this);
      db.exec("RELEASE td_async_step");
      return result;
    } catch (err) {
      db.exec("ROLLBACK TO td_async_step");
      db.exec("RELEASE td_async_step");
      throw err;
    }
  }
  end() {
    this.#state.open = false;
  }
  transaction(fn) {
    return fn(this);
  }
};
var SqliteRegistryStore = class _SqliteRegistryStore extends SqliteRegistryData {
  kind = "sqlite";
  /** The synchronous store underneath: the hooks' path, `doctor`, spill files, the session tables. */
  store;
  location;
  readOnly;
  #gate;
  #locks = new ToolLocks();
  #logger;
  #changes;
  /** Opens (creating and migrating unless read-only) the store in folder `root`. */
  static open(root, options = {}) {
    return new _SqliteRegistryStore(new Store(root, options), { logger: options.logger ?? stderrLogger });
  }
  /** Wraps an open store; the adapter owns it from now on (`close` closes it). */
  constructor(store, options = {}) {
    const gate = new Gate();
    super(store, () => {
      assertOutsideTransaction(gate);
      return gate.idle();
    });
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
  /** One `BEGIN IMMEDIATE` transaction (the write lock, taken up front) around `fn`, committed once. */
  async transaction(fn) {
    assertOutsideTransaction(this.#gate, "transaction()");
    const release = await this.#gate.acquire();
    const db = storeDatabase(this.store);
    const tx = new SqliteTransaction(this.store);
    try {
      db.exec("BEGIN IMMEDIATE");
      try {
        const result = await runInTransaction(this.#gate, () => fn(tx));
        db.exec("COMMIT");
        return result;
      } catch (err) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw err;
      }
    } finally {
      tx.end();
      release();
    }
  }
  async withToolLock(name, fn) {
    assertOutsideTransaction(this.#gate, "withToolLock()");
    return this.#locks.run(name, () => takeLease(this.store, name, () => this.#idle(), this.#logger), fn);
  }
  async onChange(listener) {
    await this.#idle();
    return this.#changes.subscribe(listener);
  }
  /** Resolves when no transaction, export or import of this process holds the connection. */
  async #idle() {
    while (this.#gate.busy) await this.#gate.idle();
  }
  async isEmpty() {
    assertOutsideTransaction(this.#gate, "isEmpty()");
    await this.#idle();
    return sqliteIsEmpty(storeDatabase(this.store));
  }
  async *exportRegistry() {
    assertOutsideTransaction(this.#gate, "exportRegistry()");
    const release = await this.#gate.acquire();
    const db = storeDatabase(this.store);
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
    const db = storeDatabase(this.store);
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
      release();
    }
  }
  async close() {
    this.#changes.stop();
    this.store.close();
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

// core/registry-open.ts
async function openRegistryStore(location, options = {}) {
  if (isPostgresUrl(location)) {
    const { PostgresStore } = await import("./postgres-store-I6H73MLI.js");
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
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
};
