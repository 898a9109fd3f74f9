/**
 * The store's schema: one ordered list of forward migrations, and `PRAGMA user_version` saying how many of them a
 * database has had. A newer database is refused rather than misread; an older one is upgraded on open, in one
 * write transaction, unless the store was opened read-only.
 */
import { type Migration, MigrationList, migrateNow } from "../migrations.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

/**
 * Forward migrations; entry i takes `PRAGMA user_version` from i to i + 1 (it is migration i + 1).
 * Never edit a shipped entry: append a new one.
 */
const STEPS: readonly string[] = [
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
  `,
];

/** The SQLite store's migrations, numbered from 1: a database at user_version n has had 1 … n. */
export const SQLITE_MIGRATIONS = new MigrationList(
  STEPS.map((sql, i): Migration => ({ version: i + 1, sql })),
);

/** The schema version this build writes; a newer database is refused rather than misread. */
export const SCHEMA_VERSION = SQLITE_MIGRATIONS.schemaVersion;

/** True when the database has no table at all (a new file, or one whose content was lost). */
export function hasTables(db: StoreDatabase): boolean {
  const row = db.stmt("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get();
  return Number(row?.["n"]) > 0;
}

/**
 * Brings the database of the store at `root` to SCHEMA_VERSION, or says why it cannot: every missing migration
 * in one write transaction (its lock is the migration lock), each followed by its user_version.
 */
export function migrate(db: StoreDatabase, root: string, readOnly: boolean): void {
  migrateNow(
    SQLITE_MIGRATIONS,
    {
      where: `at ${root}`,
      readOnly,
      upgradeHint: "run `tooldistill doctor --fix` once to upgrade it",
      createHint: "record a run into it first",
    },
    {
      applied: () => Array.from({ length: db.userVersion() }, (_, i) => i + 1),
      locked: (fn) => db.transaction(fn),
      apply: (m) => {
        db.exec(m.sql);
        db.exec(`PRAGMA user_version = ${m.version}`);
      },
    },
  );
}
