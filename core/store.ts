import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { DistillError, errorMessage } from "./errors.ts";
import { stderrLogger } from "./logger.ts";
import { assertNodeVersion } from "./node-version.ts";
import { DEFAULT_MAX_OUTPUT_BYTES, recordableError, recordableOutput } from "./recordable.ts";
import { checkLifecycle, type LifecycleProblem } from "./store-invariants.ts";
import { toolNameProblem } from "./tool-names.ts";
import type {
  CallKind,
  CallRecord,
  Logger,
  OpenProblem,
  Status,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
} from "./types.ts";

/**
 * node:sqlite, loaded on first use after the Node version check: a static import would make an old Node fail
 * with "No such built-in module: node:sqlite" before the library could say which Node it needs.
 */
function sqlite(): typeof import("node:sqlite") {
  assertNodeVersion();
  return process.getBuiltinModule("node:sqlite");
}

/**
 * Forward migrations; entry i takes `PRAGMA user_version` from i to i + 1.
 * Never edit a shipped entry: append a new one.
 */
const MIGRATIONS: readonly string[] = [
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
];

/** The schema version this build writes; a newer database is refused rather than misread. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** A stored distilled tool version (without its code, which lives in the tool file). */
export interface VersionRecord {
  name: string;
  version: number;
  status: Status;
  problems: OpenProblem[];
  baseline: number | null;
  baselineTokens: number | null;
  sourceTrace: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  testInputs: Record<string, unknown>[];
  sourceHash: string;
  verdict: Verdict | null;
  queuedRebuild: boolean;
  rebuildNote: string | null;
  createdAt: string;
}

/** One row of a version's status history. */
export interface HistoryRecord {
  name: string;
  version: number;
  from: Status | null;
  to: Status;
  reason: string;
  evidence: unknown;
  at: string;
}

/** A base tool a version depends on; `avoided` when every call of it failed in the source run. */
export interface DependencyRecord {
  name: string;
  version: number;
  baseTool: string;
  fingerprint: string | null;
  avoided: boolean;
}

/** Live-run counters of a version; exposure ranks by `successes`. */
export interface RunStats {
  name: string;
  version: number;
  runs: number;
  successes: number;
  failures: number;
  innerCalls: number;
  lastRunAt: string | null;
}

/** Trace-level flags that drive the nudge and the fallback distiller. */
export interface TraceFlags {
  nudged: boolean;
  proposed: boolean;
  replaceName: string | null;
}

/** Where a Claude Code session is: its current span and whether the user confirmed it with /tooldistill:distill. */
export interface SessionSpan {
  sessionId: string;
  span: number;
  confirmed: boolean;
}

/** Fields of a new call row. `note` says what recording had to clip of its arguments. */
export interface NewCall {
  traceId: string;
  tool: string;
  kind: CallKind;
  args: Record<string, unknown>;
  parentId?: number | null;
  version?: number | null;
  externalId?: string | null;
  note?: string | null;
}

/** How a store is opened. */
export interface StoreOptions {
  /**
   * Open an existing store for reading only: nothing is created, migrated in place or repaired, and a missing
   * store is a NOT_FOUND error instead of a new empty one (the CLI's list, show and traces).
   */
  readOnly?: boolean;
  /** How long a write waits for another process's write lock before failing with STORE_BUSY (default 10 s). */
  busyTimeoutMs?: number;
  /** Cap of one recorded output (max_output_bytes); a larger one is clipped and the call says so. */
  maxOutputBytes?: number;
  /** Check the lifecycle invariants on open and repair the safe ones (default true; the hooks skip it). */
  checkInvariants?: boolean;
  /** Hears what the open check repaired or found (default: stderr). */
  logger?: Logger;
}

/** Default wait for another process's write lock: long enough for any of the store's short transactions. */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** sha256 of a tool file's text: a file edited after verification is refused at run time. */
export function hashSource(source: string): string {
  // Loaded on first use: node:crypto costs a recording hook several ms of start-up, and hooks never hash.
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(source).digest("hex");
}

function now(): string {
  return new Date().toISOString();
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function parse(text: unknown): unknown {
  return typeof text === "string" ? JSON.parse(text) : null;
}

type Row = Record<string, SQLInputValue>;

/** SQLite's primary result codes the store explains to people (the low byte of an extended code). */
const SQLITE = {
  busy: 5,
  locked: 6,
  readonly: 8,
  ioerr: 10,
  corrupt: 11,
  full: 13,
  cantopen: 14,
  notadb: 26,
};

/** The files of `tools/<name>/v<N>.ts` under a store (0 when there is no tools folder). */
export function countToolFiles(root: string): number {
  const dir = join(root, "tools");
  let n = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      n += readdirSync(join(dir, name)).filter((f) => /^v\d+\.ts$/.test(f)).length;
    } catch {
      // a stray file in tools/ is not a tool folder
    }
  }
  return n;
}

/** A statement whose failures are explained like every other store failure. */
class Statement {
  readonly #s: StatementSync;
  readonly #fail: (err: unknown) => never;
  constructor(s: StatementSync, fail: (err: unknown) => never) {
    this.#s = s;
    this.#fail = fail;
  }
  run(...params: SQLInputValue[]) {
    try {
      return this.#s.run(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
  get(...params: SQLInputValue[]) {
    try {
      return this.#s.get(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
  all(...params: SQLInputValue[]) {
    try {
      return this.#s.all(...params);
    } catch (err) {
      return this.#fail(err);
    }
  }
}

/**
 * The registry: `<root>/registry.db` (SQLite, WAL) plus tool files under `<root>/tools/<name>/v<N>.ts`.
 * The only importer of `node:sqlite`. Every write is one short `BEGIN IMMEDIATE` transaction, so the agent
 * process, the CLI and concurrent hook processes can share one store without losing rows. SQLite's failures
 * (a locked, damaged, read-only or missing database) become DistillErrors that name the file and what to do.
 */
export class Store {
  readonly root: string;
  readonly dbPath: string;
  readonly readOnly: boolean;
  /** Lifecycle invariants the open check found and could not (or, read-only, did not) repair. */
  readonly lifecycleProblems: LifecycleProblem[];
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, Statement>();
  readonly #busyTimeoutMs: number;
  readonly #maxOutputBytes: number;
  /** Seen before opening: SQLite creates a new -wal as it opens, which would hide that the old one was deleted. */
  readonly #walMissingAtOpen: boolean;

  constructor(root: string, options: StoreOptions = {}) {
    this.root = root;
    this.dbPath = join(root, "registry.db");
    this.readOnly = options.readOnly === true;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    this.#maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const logger = options.logger ?? stderrLogger;
    const { DatabaseSync } = sqlite();
    if (existsSync(root) && !statSync(root).isDirectory()) {
      throw new DistillError(
        "STORE",
        `cannot open the store at ${root}: it is a file, not a folder. Check the path (store: in tooldistill.yaml).`,
      );
    }
    if (this.readOnly && !existsSync(this.dbPath)) {
      throw new DistillError(
        "NOT_FOUND",
        `no store at ${root}: nothing has been recorded there yet. Check the store path (store: in tooldistill.yaml, or --config), or record a run first.`,
      );
    }
    this.#refuseEmptyRegistry(this.#fileIsEmpty());
    this.#walMissingAtOpen = !existsSync(`${this.dbPath}-wal`) && existsSync(`${this.dbPath}-shm`);
    try {
      if (!this.readOnly) this.#prepareFolder();
      this.#db = new DatabaseSync(this.dbPath, { timeout: this.#busyTimeoutMs, readOnly: this.readOnly });
    } catch (err) {
      throw this.#explain(err, "open");
    }
    try {
      if (!this.readOnly) {
        this.#exec("PRAGMA journal_mode = WAL");
        // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commit.
        this.#exec("PRAGMA synchronous = NORMAL");
      }
      this.#exec("PRAGMA foreign_keys = ON");
      if (this.#userVersion() === 0 && !this.#hasTables()) this.#refuseEmptyRegistry(true);
      this.#migrate();
    } catch (err) {
      this.#db.close();
      throw err;
    }
    this.lifecycleProblems = options.checkInvariants === false ? [] : this.#checkLifecycle(logger);
  }

  /** True when registry.db is missing or 0 bytes (a new store, or one whose database was lost). */
  #fileIsEmpty(): boolean {
    try {
      return statSync(this.dbPath).size === 0;
    } catch {
      return true;
    }
  }

  /** An empty database over existing tool files means the registry was lost: never start a new one silently. */
  #refuseEmptyRegistry(empty: boolean): void {
    if (!empty) return;
    const files = countToolFiles(this.root);
    if (files === 0) return;
    const what = existsSync(this.dbPath)
      ? `${this.dbPath} is empty (${statSync(this.dbPath).size === 0 ? "0 bytes" : "no tables"})`
      : `${this.dbPath} is missing`;
    throw new DistillError(
      "STORE",
      `${what} while ${join(this.root, "tools")} holds ${files} tool file${files === 1 ? "" : "s"}: the registry ` +
        "(every version's status, verdict and the recorded runs) was lost, truncated or replaced, and opening it " +
        "would start an empty one that hides them. Restore registry.db from a backup (with its registry.db-wal if " +
        "there is one) and run the command again; or, to start over, run `tooldistill doctor --fix`, which moves " +
        `the tool files to ${join(this.root, "orphaned")} and creates a new registry.`,
    );
  }

  #prepareFolder(): void {
    mkdirSync(join(this.root, "tools"), { recursive: true });
    const ignore = join(this.root, ".gitignore");
    if (!existsSync(ignore)) {
      writeFileSync(
        ignore,
        "# traces and fixtures hold real tool outputs, which may include personal data\nregistry.db*\n*.log\n*.log.1\nspill/\norphaned/\n",
      );
    }
  }

  #hasTables(): boolean {
    const row = this.#stmt("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
      n: number;
    };
    return Number(row.n) > 0;
  }

  #migrate(): void {
    const current = this.#userVersion();
    if (current === SCHEMA_VERSION) return;
    if (current > SCHEMA_VERSION) {
      throw new DistillError(
        "STORE",
        `the store at ${this.root} has schema version ${current}, newer than this tooldistill understands (${SCHEMA_VERSION}): upgrade tooldistill.`,
      );
    }
    if (this.readOnly) {
      throw new DistillError(
        "STORE",
        `the store at ${this.root} was written by an older tooldistill (schema ${current}, now ${SCHEMA_VERSION}) and this command only reads it: run \`tooldistill doctor --fix\` once to upgrade it.`,
      );
    }
    this.transaction(() => {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      for (let v = this.#userVersion(); v < SCHEMA_VERSION; v++) {
        this.#exec(MIGRATIONS[v]!);
        this.#exec(`PRAGMA user_version = ${v + 1}`);
      }
    });
  }

  /** Runs the lifecycle invariants; repairs the safe ones in one transaction when writable, reports the rest. */
  #checkLifecycle(logger: Logger): LifecycleProblem[] {
    const found = checkLifecycle(this);
    if (found.length === 0) return [];
    const repairable = found.filter((p) => p.repair !== null);
    let left = found;
    if (!this.readOnly && repairable.length > 0) {
      try {
        this.transaction(() => {
          for (const p of repairable) p.apply?.(this);
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

  #userVersion(): number {
    const row = this.#stmt("PRAGMA user_version").get() as { user_version: number };
    return row.user_version;
  }

  #stmt(sql: string): Statement {
    let s = this.#statements.get(sql);
    if (!s) {
      try {
        s = new Statement(this.#db.prepare(sql), (err) => {
          throw this.#explain(err, "query");
        });
      } catch (err) {
        throw this.#explain(err, "query");
      }
      this.#statements.set(sql, s);
    }
    return s;
  }

  #exec(sql: string): void {
    try {
      this.#db.exec(sql);
    } catch (err) {
      throw this.#explain(err, "query");
    }
  }

  /**
   * An SQLite failure as a DistillError that names the file and what to do; anything else (a programming error)
   * is passed on as it is.
   */
  #explain(err: unknown, when: "open" | "query"): unknown {
    if (err instanceof DistillError) return err;
    const e = err as { errcode?: unknown; code?: unknown; message?: string };
    const db = this.dbPath;
    const fsCode = typeof e.code === "string" && !e.code.startsWith("ERR_") ? e.code : null;
    if (fsCode !== null) {
      return new DistillError(
        "STORE",
        `cannot ${when === "open" ? "open" : "use"} the store at ${this.root}: ${errorMessage(err)}. ` +
          "Check the path (store: in tooldistill.yaml) and that the folder is writable by this user.",
        { cause: err },
      );
    }
    if (typeof e.errcode !== "number") return err;
    const code = e.errcode & 0xff;
    const detail = e.message ?? "";
    const make = (code: "STORE" | "STORE_BUSY", message: string) =>
      new DistillError(code, message, { cause: err });
    const recover =
      "Stop every process using the store (Claude Code sessions, the td server, agents), copy the store folder " +
      `aside, then restore registry.db from a backup, or recover what is readable with \`sqlite3 ${db} ".recover" | sqlite3 recovered.db\` ` +
      "and put recovered.db in its place. `tooldistill doctor` shows what is damaged.";
    switch (code) {
      case SQLITE.busy:
      case SQLITE.locked:
        return make(
          "STORE_BUSY",
          `the store ${db} is locked by another process (waited ${this.#busyTimeoutMs} ms for its write lock). ` +
            "Something holds a write transaction open (an sqlite3 shell, a backup, a stuck process): close it and try again.",
        );
      case SQLITE.corrupt:
        return make("STORE", `the store's database ${db} is damaged (${detail}). ${recover}`);
      case SQLITE.notadb:
        return make(
          "STORE",
          `${db} is not an SQLite database (${detail}): its header was overwritten or another file was put in its place. ${recover}`,
        );
      case SQLITE.ioerr: {
        const wal = `${db}-wal`;
        if (this.#walMissingAtOpen) {
          return make(
            "STORE",
            `disk I/O error on ${db}: its write-ahead log ${wal} is missing while ${db}-shm says it holds ` +
              "changes: it was deleted while a process had the store open. Stop every process using the store " +
              "(the last one to close writes the log back), then run the command again; if no process has it open " +
              `any more, the changes that were only in the log are lost: restore ${wal} from a backup if you have one.`,
          );
        }
        return make("STORE", `disk I/O error on ${db} (${detail}): check the disk and the file. ${recover}`);
      }
      case SQLITE.readonly:
        return make(
          "STORE",
          `cannot write to ${db} (${detail}): check that the file, its folder and the ${db}-wal and -shm files ` +
            "beside it are writable by this user, or that the disk is not mounted read-only.",
        );
      case SQLITE.full:
        return make("STORE", `the disk holding ${db} is full (${detail}): free some space and try again.`);
      case SQLITE.cantopen:
        return make(
          "STORE",
          `cannot open ${db} (${detail}): check that the folder exists and is readable and writable by this user.`,
        );
      default:
        return err;
    }
  }

  /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
  transaction<T>(fn: () => T): T {
    // Reentrant: an outer transaction (e.g. a hook writing a trace and its first call) owns the commit.
    if (this.#db.isTransaction) return fn();
    this.#stmt("BEGIN IMMEDIATE").run();
    try {
      const result = fn();
      this.#stmt("COMMIT").run();
      return result;
    } catch (err) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      throw err;
    }
  }

  /**
   * Runs `fn` inside a savepoint of the current transaction: a throw undoes only what `fn` wrote (one spilled
   * hook event that cannot be applied must not undo the others).
   */
  savepoint<T>(fn: () => T): T {
    this.#exec("SAVEPOINT td_step");
    try {
      const result = fn();
      this.#exec("RELEASE td_step");
      return result;
    } catch (err) {
      this.#exec("ROLLBACK TO td_step");
      this.#exec("RELEASE td_step");
      throw err;
    }
  }

  /** Closes the database; the store object is unusable afterwards. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /** `PRAGMA integrity_check` ("ok", or SQLite's list of problems), for tests and `tooldistill doctor`. */
  integrityCheck(): string {
    const rows = this.#stmt("PRAGMA integrity_check").all() as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join("\n");
  }

  // ---- traces -------------------------------------------------------------------------------------

  /** Creates a trace row; a trace that already exists is left as it is (hooks may race to create it). */
  createTrace(id: string, task: string, source: TraceSource): void {
    this.#stmt("INSERT OR IGNORE INTO traces (id, task, source, started_at) VALUES (?, ?, ?, ?)").run(
      id,
      task,
      source,
      now(),
    );
  }

  /** The trace, or null. */
  getTrace(id: string): TraceRecord | null {
    const row = this.#stmt("SELECT * FROM traces WHERE id = ?").get(id) as Row | undefined;
    return row ? traceFromRow(row) : null;
  }

  /** Ids of the traces whose id starts with `prefix` (at most `limit`), for `traces show <prefix>`. */
  traceIdsStartingWith(prefix: string, limit = 10): string[] {
    const rows = this.#stmt(
      "SELECT id FROM traces WHERE substr(id, 1, ?) = ? ORDER BY started_at DESC, rowid DESC LIMIT ?",
    ).all(prefix.length, prefix, limit) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Traces, newest first. */
  listTraces(limit = 50): TraceRecord[] {
    const rows = this.#stmt("SELECT * FROM traces ORDER BY started_at DESC, rowid DESC LIMIT ?").all(
      limit,
    ) as Row[];
    return rows.map(traceFromRow);
  }

  /** Sets the task text (Claude Code learns it from the first prompt of a span). */
  setTask(id: string, task: string): void {
    this.#stmt("UPDATE traces SET task = ? WHERE id = ?").run(task, id);
  }

  /** Records the caller's verdict on the run. */
  setOutcome(id: string, success: boolean): void {
    this.#stmt("UPDATE traces SET outcome = ? WHERE id = ?").run(success ? 1 : 0, id);
  }

  /** Adds usage to the trace's totals, atomically (several processes may add at once). */
  addUsage(id: string, usage: UsageTotals): void {
    this.#stmt(
      `UPDATE traces SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
       cache_creation_input_tokens = cache_creation_input_tokens + ?, cache_read_input_tokens = cache_read_input_tokens + ?
       WHERE id = ?`,
    ).run(
      usage.input_tokens,
      usage.output_tokens,
      usage.cache_creation_input_tokens,
      usage.cache_read_input_tokens,
      id,
    );
  }

  /** Marks the trace ended (idempotent: the first end time is kept). */
  endTrace(id: string): void {
    this.#stmt("UPDATE traces SET ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(now(), id);
  }

  /** Records why something that should have happened at the end of the run did not. */
  setTraceNote(id: string, note: string): void {
    this.#stmt("UPDATE traces SET note = ? WHERE id = ?").run(note, id);
  }

  /** Nudge and proposal bookkeeping. */
  getTraceFlags(id: string): TraceFlags {
    const row = this.#stmt("SELECT nudged, proposed, replace_name FROM traces WHERE id = ?").get(id) as
      | Row
      | undefined;
    return {
      nudged: Boolean(row?.["nudged"]),
      proposed: Boolean(row?.["proposed"]),
      replaceName: (row?.["replace_name"] as string | null | undefined) ?? null,
    };
  }

  /** Sets the nudge at most once: returns false when another caller already took it. */
  claimNudge(id: string): boolean {
    const r = this.#stmt("UPDATE traces SET nudged = 1 WHERE id = ? AND nudged = 0").run(id);
    return Number(r.changes) === 1;
  }

  /** Any submitted proposal counts as proposing (the fallback distiller then stays out). */
  markProposed(id: string): void {
    this.#stmt("UPDATE traces SET proposed = 1 WHERE id = ?").run(id);
  }

  /** After a distilled tool failed in this run, the nudge asks for a replacement under its name. */
  setReplaceName(id: string, name: string): void {
    this.#stmt("UPDATE traces SET replace_name = ? WHERE id = ?").run(name, id);
  }

  // ---- calls --------------------------------------------------------------------------------------

  /** Appends a started call; its seq is the next in the trace, allocated inside the write lock. */
  startCall(call: NewCall): number {
    return this.#insertCall(call, "started", null, null, null);
  }

  /**
   * Appends a call that already finished, in one commit: the SDK loop knows the outcome when it records, so it
   * pays for one write instead of a start and a finish.
   */
  appendCall(
    call: NewCall,
    outcome: { output: unknown } | { error: string },
    latencyMs: number | null,
  ): number {
    return "output" in outcome
      ? this.#insertCall(call, "ok", outcome.output, null, latencyMs)
      : this.#insertCall(call, "error", undefined, outcome.error, latencyMs);
  }

  /** The text kept of an output, clipped at the depth and size caps, and the note saying what was clipped. */
  #output(output: unknown): { text: string; note: string | null; clipped: boolean } {
    return recordableOutput(output, this.#maxOutputBytes);
  }

  #insertCall(
    call: NewCall,
    status: CallRecord["status"],
    output: unknown,
    error: string | null,
    latencyMs: number | null,
  ): number {
    const out = status === "ok" ? this.#output(output) : null;
    const err = error === null ? null : recordableError(error, this.#maxOutputBytes);
    const note = joinNotes(call.note ?? null, out?.note ?? null, err?.note ?? null);
    return this.transaction(() => {
      const row = this.#stmt(
        `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at, note, clipped)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id`,
      ).get(
        call.traceId,
        call.traceId,
        call.parentId ?? null,
        call.tool,
        call.kind,
        JSON.stringify(call.args),
        status,
        out?.text ?? null,
        err?.text ?? null,
        latencyMs,
        call.version ?? null,
        call.externalId ?? null,
        now(),
        note,
        out?.clipped ? 1 : 0,
      ) as { id: number };
      return row.id;
    });
  }

  /** Completes a call with its output (clipped at the caps; the call's note says so). */
  finishCall(id: number, output: unknown, latencyMs: number | null): void {
    const out = this.#output(output);
    this.#stmt(
      `UPDATE calls SET status = 'ok', output = ?1, latency_ms = ?2, clipped = ?3,
       note = CASE WHEN ?4 IS NULL THEN note WHEN note IS NULL THEN ?4 ELSE note || '; ' || ?4 END WHERE id = ?5`,
    ).run(out.text, latencyMs, out.clipped ? 1 : 0, out.note, id);
  }

  /** Completes a call with its error. */
  failCall(id: number, error: string, latencyMs: number | null): void {
    const err = recordableError(error, this.#maxOutputBytes);
    this.#stmt(
      `UPDATE calls SET status = 'error', error = ?1, latency_ms = ?2,
       note = CASE WHEN ?3 IS NULL THEN note WHEN note IS NULL THEN ?3 ELSE note || '; ' || ?3 END WHERE id = ?4`,
    ).run(err.text, latencyMs, err.note, id);
  }

  /** Changes what a recorded call counts as (e.g. a Claude Code call later found to be a distilled tool). */
  setCallKind(id: number, kind: CallKind, version: number | null): void {
    this.#stmt("UPDATE calls SET kind = ?, version = ? WHERE id = ?").run(kind, version, id);
  }

  /**
   * The newest call recorded under an external id (Claude Code's tool_use_id) in the traces whose ids start with
   * `traceIdPrefix` (one session's spans). External ids are only unique within a session: a fake or replayed
   * API may reuse them, so a lookup across the whole store could attach to another session's call.
   */
  getCallByExternalId(externalId: string, traceIdPrefix: string): CallRecord | null {
    const row = this.#stmt(
      "SELECT * FROM calls WHERE external_id = ? AND substr(trace_id, 1, ?) = ? ORDER BY id DESC LIMIT 1",
    ).get(externalId, traceIdPrefix.length, traceIdPrefix) as Row | undefined;
    return row ? callFromRow(row) : null;
  }

  /** Calls still `started` under an external id, newest first, in any trace (the plugin's server picks one). */
  startedCallsByExternalId(externalId: string): CallRecord[] {
    const rows = this.#stmt(
      "SELECT * FROM calls WHERE external_id = ? AND status = 'started' ORDER BY id DESC",
    ).all(externalId) as Row[];
    return rows.map(callFromRow);
  }

  /** Every call of a trace in seq order, inner calls included. */
  getCalls(traceId: string): CallRecord[] {
    const rows = this.#stmt("SELECT * FROM calls WHERE trace_id = ? ORDER BY seq").all(traceId) as Row[];
    return rows.map(callFromRow);
  }

  /** Top-level base calls that finished (ok or error): the unit of baselines and of `min_calls_to_distill`. */
  countTopLevelBaseCalls(traceId: string): number {
    const row = this.#stmt(
      "SELECT COUNT(*) AS n FROM calls WHERE trace_id = ? AND kind = 'base' AND parent_id IS NULL AND status != 'started'",
    ).get(traceId) as { n: number };
    return Number(row.n);
  }

  /** Replaces a call's recorded arguments (the plugin re-canonicalises hook-recorded ones with schema defaults). */
  setCallArgs(id: number, args: Record<string, unknown>): void {
    this.#stmt("UPDATE calls SET args = ? WHERE id = ?").run(JSON.stringify(args), id);
  }

  // ---- Claude Code sessions -----------------------------------------------------------------------

  /** The current span of a Claude Code session, created as span 1 on first sight (hooks may race to create it). */
  sessionSpan(sessionId: string): SessionSpan {
    this.#stmt(
      "INSERT OR IGNORE INTO cc_sessions (session_id, span, confirmed, updated_at) VALUES (?, 1, 0, ?)",
    ).run(sessionId, now());
    const row = this.#stmt("SELECT span, confirmed FROM cc_sessions WHERE session_id = ?").get(
      sessionId,
    ) as Row;
    return { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) };
  }

  /** The current span, or null for a session never seen. */
  findSessionSpan(sessionId: string): SessionSpan | null {
    const row = this.#stmt("SELECT span, confirmed FROM cc_sessions WHERE session_id = ?").get(sessionId) as
      | Row
      | undefined;
    return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
  }

  /** Moves a session to its next span when it is still at `from` (two racing hooks advance it once). */
  advanceSpan(sessionId: string, from: number): void {
    this.#stmt(
      "UPDATE cc_sessions SET span = span + 1, confirmed = 0, updated_at = ? WHERE session_id = ? AND span = ?",
    ).run(now(), sessionId, from);
  }

  /** Marks a span as confirmed by the user (`/tooldistill:distill`): the next ordinary prompt starts a new span. */
  confirmSpan(sessionId: string, span: number): void {
    this.#stmt("UPDATE cc_sessions SET confirmed = 1, updated_at = ? WHERE session_id = ? AND span = ?").run(
      now(),
      sessionId,
      span,
    );
  }

  /** A small cached value (JSON text), or null. */
  getMeta(key: string): string | null {
    const row = this.#stmt("SELECT value FROM meta WHERE key = ?").get(key) as Row | undefined;
    return (row?.["value"] as string | undefined) ?? null;
  }

  /** Stores a small cached value. */
  setMeta(key: string, value: string): void {
    this.#stmt(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(key, value);
  }

  // ---- spilled hook events ---------------------------------------------------------------------------

  /** True when a spilled hook event was already applied (its file may outlive the commit by a crash). */
  spillApplied(eventId: string): boolean {
    return this.#stmt("SELECT 1 AS x FROM spill_applied WHERE event_id = ?").get(eventId) !== undefined;
  }

  /** Records a spilled event as applied, in the transaction that applies it. */
  markSpillApplied(eventId: string): void {
    this.#stmt("INSERT OR IGNORE INTO spill_applied (event_id, applied_at) VALUES (?, ?)").run(
      eventId,
      now(),
    );
  }

  /** Forgets applied event ids older than `before` (an ISO time): their files are long gone. */
  pruneSpillApplied(before: string): void {
    this.#stmt("DELETE FROM spill_applied WHERE applied_at < ?").run(before);
  }

  // ---- versions -----------------------------------------------------------------------------------

  /**
   * Path of a version's tool file. The name is checked first and the path must stay inside `tools/`: a name
   * read from model-written code must never place a file anywhere else.
   */
  toolFile(name: string, version: number): string {
    const problem = toolNameProblem(name);
    if (problem !== null) throw new DistillError("PROPOSAL_INVALID", problem);
    if (!Number.isSafeInteger(version) || version < 1) {
      throw new DistillError("USAGE", `version numbers are whole numbers from 1 (got ${version})`);
    }
    const tools = resolve(this.root, "tools");
    const file = resolve(tools, name, `v${version}.ts`);
    if (!file.startsWith(tools + sep)) {
      throw new DistillError("PROPOSAL_INVALID", `tool name '${name}' would place its file outside ${tools}`);
    }
    return file;
  }

  /** Reads a version's code from its file. */
  readCode(name: string, version: number): string {
    const file = this.toolFile(name, version);
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      throw new DistillError(
        "NOT_FOUND",
        `the file of ${name} v${version} is missing (${file}); deprecate this version or restore the file`,
        { cause: err },
      );
    }
  }

  /**
   * Stores a new draft version: allocates the next version number, writes `tools/<name>/v<N>.ts` and the row
   * in one transaction, so two proposers of the same name get different numbers.
   */
  createVersion(v: {
    name: string;
    code: string;
    description: string;
    inputSchema: Record<string, unknown>;
    testInputs: Record<string, unknown>[];
    sourceTrace: string | null;
    reason: string;
  }): VersionRecord {
    const version = this.transaction(() => {
      const row = this.#stmt("SELECT COALESCE(MAX(version), 0) + 1 AS n FROM versions WHERE name = ?").get(
        v.name,
      ) as { n: number };
      const n = Number(row.n);
      const file = this.toolFile(v.name, n);
      try {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, v.code);
      } catch (err) {
        throw new DistillError(
          "STORE",
          `cannot write the tool file ${file}: ${errorMessage(err)}. Check that ${join(this.root, "tools")} is writable by this user.`,
          { cause: err },
        );
      }
      const at = now();
      this.#stmt(
        `INSERT INTO versions (name, version, status, description, input_schema, test_inputs, source_trace, source_hash, created_at)
         VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?)`,
      ).run(
        v.name,
        n,
        v.description,
        JSON.stringify(v.inputSchema),
        JSON.stringify(v.testInputs),
        v.sourceTrace,
        hashSource(v.code),
        at,
      );
      this.#stmt(
        "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, NULL, 'draft', ?, NULL, ?)",
      ).run(v.name, n, v.reason, at);
      return n;
    });
    return this.getVersion(v.name, version)!;
  }

  /** A version, or null. */
  getVersion(name: string, version: number): VersionRecord | null {
    const row = this.#stmt("SELECT * FROM versions WHERE name = ? AND version = ?").get(name, version) as
      | Row
      | undefined;
    return row ? versionFromRow(row) : null;
  }

  /** Versions, by name then version; optionally one name and/or one status. */
  listVersions(filter: { name?: string; status?: Status } = {}): VersionRecord[] {
    const rows = this.#stmt(
      `SELECT * FROM versions WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR status = ?2) ORDER BY name, version`,
    ).all(filter.name ?? null, filter.status ?? null) as Row[];
    return rows.map(versionFromRow);
  }

  /**
   * Applies a status change and records it in the history, in one transaction. `expect` guards against a
   * concurrent change: when the stored status differs, nothing is written and false is returned.
   */
  setStatus(change: {
    name: string;
    version: number;
    expect: Status;
    to: Status;
    problems: readonly OpenProblem[];
    reason: string;
    evidence?: unknown;
  }): boolean {
    return this.transaction(() => {
      // A deprecated version is never rebuilt: its queue flag goes in the same write as the status.
      const r = this.#stmt(
        `UPDATE versions SET status = ?1, problems = ?2,
         queued_rebuild = CASE WHEN ?1 = 'deprecated' THEN 0 ELSE queued_rebuild END,
         rebuild_note = CASE WHEN ?1 = 'deprecated' THEN NULL ELSE rebuild_note END
         WHERE name = ?3 AND version = ?4 AND status = ?5`,
      ).run(
        change.to,
        JSON.stringify([...new Set(change.problems)].sort()),
        change.name,
        change.version,
        change.expect,
      );
      if (Number(r.changes) !== 1) return false;
      this.#stmt(
        "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ).run(
        change.name,
        change.version,
        change.expect,
        change.to,
        change.reason,
        json(change.evidence),
        now(),
      );
      return true;
    });
  }

  /** Stores the latest verdict and the measured baseline of a version. */
  setVerification(name: string, version: number, verdict: Verdict, baselineTokens: number | null): void {
    this.#stmt(
      "UPDATE versions SET verdict = ?, baseline = ?, baseline_tokens = ? WHERE name = ? AND version = ?",
    ).run(JSON.stringify(verdict), verdict.baseline, baselineTokens, name, version);
  }

  /** Queues (or unqueues) a version for a rebuild, with the note the distiller will get. */
  setQueuedRebuild(name: string, version: number, queued: boolean, note: string | null): void {
    this.#stmt("UPDATE versions SET queued_rebuild = ?, rebuild_note = ? WHERE name = ? AND version = ?").run(
      queued ? 1 : 0,
      note,
      name,
      version,
    );
  }

  /** The status history of a version, oldest first. */
  getHistory(name: string, version: number): HistoryRecord[] {
    const rows = this.#stmt("SELECT * FROM status_history WHERE name = ? AND version = ? ORDER BY id").all(
      name,
      version,
    ) as Row[];
    return rows.map(historyFromRow);
  }

  /** The newest history row of every version (its status should be that row's `to`). */
  latestHistory(): HistoryRecord[] {
    const rows = this.#stmt(
      "SELECT * FROM status_history WHERE id IN (SELECT MAX(id) FROM status_history GROUP BY name, version) ORDER BY name, version",
    ).all() as Row[];
    return rows.map(historyFromRow);
  }

  /** The order in which versions last became active (history row id), for telling two actives apart. */
  lastActivation(name: string, version: number): number {
    const row = this.#stmt(
      "SELECT COALESCE(MAX(id), 0) AS id FROM status_history WHERE name = ? AND version = ? AND to_status = 'active'",
    ).get(name, version) as { id: number };
    return Number(row.id);
  }

  /** Appends a history row without changing the version (the open check records a status the history lacked). */
  addHistory(h: Omit<HistoryRecord, "at">): void {
    this.#stmt(
      "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(h.name, h.version, h.from, h.to, h.reason, json(h.evidence), now());
  }

  // ---- dependencies and stats ---------------------------------------------------------------------

  /** Replaces the dependency rows of a version. */
  setDependencies(name: string, version: number, deps: Omit<DependencyRecord, "name" | "version">[]): void {
    this.transaction(() => {
      this.#stmt("DELETE FROM dependencies WHERE name = ? AND version = ?").run(name, version);
      const insert = this.#stmt(
        "INSERT INTO dependencies (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)",
      );
      for (const d of deps) insert.run(name, version, d.baseTool, d.fingerprint, d.avoided ? 1 : 0);
    });
  }

  /** Dependencies of one version, or of every version when no name is given. */
  getDependencies(name?: string, version?: number): DependencyRecord[] {
    const rows = this.#stmt(
      "SELECT * FROM dependencies WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR version = ?2) ORDER BY name, version, base_tool",
    ).all(name ?? null, version ?? null) as Row[];
    return rows.map((r) => ({
      name: r["name"] as string,
      version: Number(r["version"]),
      baseTool: r["base_tool"] as string,
      fingerprint: (r["fingerprint"] as string | null) ?? null,
      avoided: Boolean(r["avoided"]),
    }));
  }

  /** Counts one live run of a version. */
  recordRun(name: string, version: number, success: boolean, innerCalls: number): void {
    this.#stmt(
      `INSERT INTO run_stats (name, version, runs, successes, failures, inner_calls, last_run_at) VALUES (?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (name, version) DO UPDATE SET runs = runs + 1, successes = successes + excluded.successes,
       failures = failures + excluded.failures, inner_calls = inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`,
    ).run(name, version, success ? 1 : 0, success ? 0 : 1, innerCalls, now());
  }

  /** Run counters of a version (zeros when it never ran). */
  getRunStats(name: string, version: number): RunStats {
    const r = this.#stmt("SELECT * FROM run_stats WHERE name = ? AND version = ?").get(name, version) as
      | Row
      | undefined;
    return {
      name,
      version,
      runs: Number(r?.["runs"] ?? 0),
      successes: Number(r?.["successes"] ?? 0),
      failures: Number(r?.["failures"] ?? 0),
      innerCalls: Number(r?.["inner_calls"] ?? 0),
      lastRunAt: (r?.["last_run_at"] as string | null | undefined) ?? null,
    };
  }
}

function historyFromRow(r: Row): HistoryRecord {
  return {
    name: r["name"] as string,
    version: Number(r["version"]),
    from: (r["from_status"] as Status | null) ?? null,
    to: r["to_status"] as Status,
    reason: r["reason"] as string,
    evidence: parse(r["evidence"]),
    at: r["at"] as string,
  };
}

function traceFromRow(r: Row): TraceRecord {
  return {
    id: r["id"] as string,
    task: r["task"] as string,
    source: r["source"] as TraceSource,
    outcome: r["outcome"] === null || r["outcome"] === undefined ? null : Boolean(r["outcome"]),
    usage: {
      input_tokens: Number(r["input_tokens"]),
      output_tokens: Number(r["output_tokens"]),
      cache_creation_input_tokens: Number(r["cache_creation_input_tokens"]),
      cache_read_input_tokens: Number(r["cache_read_input_tokens"]),
    },
    startedAt: r["started_at"] as string,
    endedAt: (r["ended_at"] as string | null) ?? null,
    note: (r["note"] as string | null) ?? null,
  };
}

function callFromRow(r: Row): CallRecord {
  return {
    id: Number(r["id"]),
    traceId: r["trace_id"] as string,
    seq: Number(r["seq"]),
    parentId: r["parent_id"] === null ? null : Number(r["parent_id"]),
    tool: r["tool"] as string,
    kind: r["kind"] as CallKind,
    args: parse(r["args"]) as Record<string, unknown>,
    status: r["status"] as CallRecord["status"],
    output: parse(r["output"]),
    error: (r["error"] as string | null) ?? null,
    latencyMs: r["latency_ms"] === null ? null : Number(r["latency_ms"]),
    version: r["version"] === null ? null : Number(r["version"]),
    note: (r["note"] as string | null | undefined) ?? null,
    clipped: Boolean(r["clipped"]),
  };
}

function joinNotes(...notes: (string | null)[]): string | null {
  const kept = notes.filter((n): n is string => n !== null && n !== "");
  return kept.length === 0 ? null : kept.join("; ");
}

function versionFromRow(r: Row): VersionRecord {
  return {
    name: r["name"] as string,
    version: Number(r["version"]),
    status: r["status"] as Status,
    problems: parse(r["problems"]) as OpenProblem[],
    baseline: r["baseline"] === null ? null : Number(r["baseline"]),
    baselineTokens: r["baseline_tokens"] === null ? null : Number(r["baseline_tokens"]),
    sourceTrace: (r["source_trace"] as string | null) ?? null,
    description: r["description"] as string,
    inputSchema: parse(r["input_schema"]) as Record<string, unknown>,
    testInputs: parse(r["test_inputs"]) as Record<string, unknown>[],
    sourceHash: r["source_hash"] as string,
    verdict: parse(r["verdict"]) as Verdict | null,
    queuedRebuild: Boolean(r["queued_rebuild"]),
    rebuildNote: (r["rebuild_note"] as string | null) ?? null,
    createdAt: r["created_at"] as string,
  };
}
