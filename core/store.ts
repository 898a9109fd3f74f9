import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { DistillError } from "./errors.ts";
import type {
  CallKind,
  CallRecord,
  OpenProblem,
  Status,
  TraceRecord,
  TraceSource,
  UsageTotals,
  Verdict,
} from "./types.ts";

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

/** Fields of a new call row. */
export interface NewCall {
  traceId: string;
  tool: string;
  kind: CallKind;
  args: Record<string, unknown>;
  parentId?: number | null;
  version?: number | null;
  externalId?: string | null;
}

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

/**
 * The registry: `<root>/registry.db` (SQLite, WAL) plus tool files under `<root>/tools/<name>/v<N>.ts`.
 * The only importer of `node:sqlite`. Every write is one short `BEGIN IMMEDIATE` transaction, so the agent
 * process, the CLI and concurrent hook processes can share one store without losing rows.
 */
export class Store {
  readonly root: string;
  readonly dbPath: string;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(root: string) {
    this.root = root;
    this.dbPath = join(root, "registry.db");
    try {
      mkdirSync(join(root, "tools"), { recursive: true });
      const ignore = join(root, ".gitignore");
      if (!existsSync(ignore)) {
        writeFileSync(
          ignore,
          "# traces and fixtures hold real tool outputs, which may include personal data\nregistry.db*\n*.log\n",
        );
      }
      this.#db = new DatabaseSync(this.dbPath, { timeout: 10_000 });
      this.#db.exec("PRAGMA busy_timeout = 10000");
      this.#db.exec("PRAGMA journal_mode = WAL");
      // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commit.
      this.#db.exec("PRAGMA synchronous = NORMAL");
      this.#db.exec("PRAGMA foreign_keys = ON");
      this.#migrate();
    } catch (err) {
      if (err instanceof DistillError) throw err;
      throw new DistillError(
        "STORE",
        `cannot open the store at ${root}: ${(err as Error).message}. Check the path and its permissions (store: in tooldistill.yaml).`,
        { cause: err },
      );
    }
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
    this.transaction(() => {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      for (let v = this.#userVersion(); v < SCHEMA_VERSION; v++) {
        this.#db.exec(MIGRATIONS[v]!);
        this.#db.exec(`PRAGMA user_version = ${v + 1}`);
      }
    });
  }

  #userVersion(): number {
    const row = this.#db.prepare("PRAGMA user_version").get() as { user_version: number };
    return row.user_version;
  }

  #stmt(sql: string): StatementSync {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
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

  /** Closes the database; the store object is unusable afterwards. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /** `PRAGMA integrity_check`, for tests and `doctor`-style checks. */
  integrityCheck(): string {
    const row = this.#db.prepare("PRAGMA integrity_check").get() as { integrity_check: string };
    return row.integrity_check;
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
      ? this.#insertCall(call, "ok", json(outcome.output) ?? "null", null, latencyMs)
      : this.#insertCall(call, "error", null, outcome.error, latencyMs);
  }

  #insertCall(
    call: NewCall,
    status: CallRecord["status"],
    output: string | null,
    error: string | null,
    latencyMs: number | null,
  ): number {
    return this.transaction(() => {
      const row = this.#stmt(
        `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id`,
      ).get(
        call.traceId,
        call.traceId,
        call.parentId ?? null,
        call.tool,
        call.kind,
        JSON.stringify(call.args),
        status,
        output,
        error,
        latencyMs,
        call.version ?? null,
        call.externalId ?? null,
        now(),
      ) as { id: number };
      return row.id;
    });
  }

  /** Completes a call with its output. */
  finishCall(id: number, output: unknown, latencyMs: number | null): void {
    this.#stmt("UPDATE calls SET status = 'ok', output = ?, latency_ms = ? WHERE id = ?").run(
      json(output) ?? "null",
      latencyMs,
      id,
    );
  }

  /** Completes a call with its error. */
  failCall(id: number, error: string, latencyMs: number | null): void {
    this.#stmt("UPDATE calls SET status = 'error', error = ?, latency_ms = ? WHERE id = ?").run(
      error,
      latencyMs,
      id,
    );
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

  // ---- versions -----------------------------------------------------------------------------------

  /** Path of a version's tool file. */
  toolFile(name: string, version: number): string {
    return join(this.root, "tools", name, `v${version}.ts`);
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
      mkdirSync(join(this.root, "tools", v.name), { recursive: true });
      writeFileSync(file, v.code);
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
      const r = this.#stmt(
        "UPDATE versions SET status = ?, problems = ? WHERE name = ? AND version = ? AND status = ?",
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
    return rows.map((r) => ({
      name: r["name"] as string,
      version: Number(r["version"]),
      from: (r["from_status"] as Status | null) ?? null,
      to: r["to_status"] as Status,
      reason: r["reason"] as string,
      evidence: parse(r["evidence"]),
      at: r["at"] as string,
    }));
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
  };
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
