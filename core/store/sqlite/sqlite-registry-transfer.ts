/**
 * Moving a whole SQLite registry in and out: every table a page at a time in TRANSFER_ORDER (keyset pages, so a
 * large registry is never held in memory at once), versions with the code of their tool files. Functions over
 * the open database; the caller (sqlite-registry-store.ts) holds the snapshot or the write transaction.
 */
import type { SQLInputValue } from "node:sqlite";
import {
  callRow,
  historyRow,
  metaRow,
  runRow,
  runStatsRow,
  sessionRow,
  traceRow,
  verifiedDefinitionRow,
  versionRow,
} from "../registry-rows.ts";
import { INTERNAL_META_PREFIX, type RegistryBatch } from "../registry-store.ts";
import { baseHealthFromRow, dependencyFromRow, type Row } from "../row-mappers.ts";
import { readToolCode, toolFilePath, writeToolCode } from "../tool-files.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

/** Rows per page: small enough that a page of large recorded outputs stays a few hundred MB at worst. */
const PAGE = 200;

/** A column of the last row read, as the next page's bound (`start` before the first page). */
function key(last: Row | undefined, column: string, start: SQLInputValue): SQLInputValue {
  return last === undefined ? start : (last[column] as SQLInputValue);
}

/** Pages of one table: `next` reads the page after the row given (or the first page). */
function* pages(next: (last: Row | undefined) => Row[]): Generator<Row[]> {
  let last: Row | undefined;
  for (;;) {
    const rows = next(last);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    last = rows.at(-1);
  }
}

/** The whole registry of the store at `root`, table by table; run inside one read transaction. */
export function* exportSqlite(db: StoreDatabase, root: string): Generator<RegistryBatch> {
  for (const rows of pages((last) =>
    db
      .stmt("SELECT rowid AS row_order, * FROM traces WHERE rowid > ? ORDER BY rowid LIMIT ?")
      .all(key(last, "row_order", 0), PAGE),
  )) {
    yield { table: "traces", rows: rows.map(traceRow) };
  }
  for (const rows of pages((last) =>
    db.stmt("SELECT * FROM calls WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE),
  )) {
    yield { table: "calls", rows: rows.map(callRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM versions WHERE (name, version) > (?, ?) ORDER BY name, version LIMIT ?")
      .all(key(last, "name", ""), key(last, "version", 0), PAGE),
  )) {
    yield {
      table: "versions",
      rows: rows.map((r) => versionRow(r, readToolCode(root, String(r["name"]), Number(r["version"])))),
    };
  }
  for (const rows of pages((last) =>
    db.stmt("SELECT * FROM status_history WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE),
  )) {
    yield { table: "history", rows: rows.map(historyRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt(
        "SELECT * FROM dependencies WHERE (name, version, base_tool) > (?, ?, ?) ORDER BY name, version, base_tool LIMIT ?",
      )
      .all(key(last, "name", ""), key(last, "version", 0), key(last, "base_tool", ""), PAGE),
  )) {
    yield { table: "dependencies", rows: rows.map(dependencyFromRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM run_stats WHERE (name, version) > (?, ?) ORDER BY name, version LIMIT ?")
      .all(key(last, "name", ""), key(last, "version", 0), PAGE),
  )) {
    yield { table: "runStats", rows: rows.map(runStatsRow) };
  }
  for (const rows of pages((last) =>
    db.stmt("SELECT * FROM runs WHERE id > ? ORDER BY id LIMIT ?").all(key(last, "id", 0), PAGE),
  )) {
    yield { table: "runs", rows: rows.map(runRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt(
        `SELECT * FROM verified_definitions WHERE (name, version, base_tool, fingerprint) > (?, ?, ?, ?)
         ORDER BY name, version, base_tool, fingerprint LIMIT ?`,
      )
      .all(
        key(last, "name", ""),
        key(last, "version", 0),
        key(last, "base_tool", ""),
        key(last, "fingerprint", ""),
        PAGE,
      ),
  )) {
    yield { table: "verifiedDefinitions", rows: rows.map(verifiedDefinitionRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM base_health WHERE tool > ? ORDER BY tool LIMIT ?")
      .all(key(last, "tool", ""), PAGE),
  )) {
    yield { table: "baseHealth", rows: rows.map(baseHealthFromRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM meta WHERE key > ? AND substr(key, 1, ?) != ? ORDER BY key LIMIT ?")
      .all(key(last, "key", ""), INTERNAL_META_PREFIX.length, INTERNAL_META_PREFIX, PAGE),
  )) {
    yield { table: "meta", rows: rows.map(metaRow) };
  }
  for (const rows of pages((last) =>
    db
      .stmt("SELECT * FROM cc_sessions WHERE session_id > ? ORDER BY session_id LIMIT ?")
      .all(key(last, "session_id", ""), PAGE),
  )) {
    yield { table: "sessions", rows: rows.map(sessionRow) };
  }
}

/** True when the registry holds no row of registry data (the tool-lock leases do not count). */
export function sqliteIsEmpty(db: StoreDatabase): boolean {
  const row = db
    .stmt(
      `SELECT EXISTS (SELECT 1 FROM traces) OR EXISTS (SELECT 1 FROM calls) OR EXISTS (SELECT 1 FROM versions)
       OR EXISTS (SELECT 1 FROM status_history) OR EXISTS (SELECT 1 FROM dependencies)
       OR EXISTS (SELECT 1 FROM run_stats) OR EXISTS (SELECT 1 FROM runs)
       OR EXISTS (SELECT 1 FROM verified_definitions) OR EXISTS (SELECT 1 FROM base_health)
       OR EXISTS (SELECT 1 FROM meta WHERE substr(key, 1, ?) != ?)
       OR EXISTS (SELECT 1 FROM cc_sessions) AS used`,
    )
    .get(INTERNAL_META_PREFIX.length, INTERNAL_META_PREFIX);
  return !row?.["used"];
}

const bit = (b: boolean) => (b ? 1 : 0);

/**
 * Writes one page into the store at `root` (inside the caller's write transaction); tool files included, each
 * added to `written` so that a failed import removes them with its rollback.
 */
export function importSqlite(db: StoreDatabase, root: string, batch: RegistryBatch, written: string[]): void {
  switch (batch.table) {
    case "traces": {
      const insert = db.stmt(
        `INSERT INTO traces (id, task, source, outcome, input_tokens, output_tokens, cache_creation_input_tokens,
         cache_read_input_tokens, started_at, ended_at, nudged, proposed, replace_name, note)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          t.note,
        );
      }
      return;
    }
    case "calls": {
      const insert = db.stmt(
        `INSERT INTO calls (id, trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms,
         version, external_id, started_at, note, clipped, raw_args, failure)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          c.failure,
        );
      }
      return;
    }
    case "versions": {
      const insert = db.stmt(
        `INSERT INTO versions (name, version, status, problems, baseline, baseline_tokens, source_trace, description,
         input_schema, test_inputs, source_hash, verdict, queued_rebuild, rebuild_note, created_at, replay_runs)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          v.replayRuns,
        );
      }
      return;
    }
    case "history": {
      const insert = db.stmt(
        "INSERT INTO status_history (id, name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const h of batch.rows)
        insert.run(h.id, h.name, h.version, h.from, h.to, h.reason, h.evidence, h.at);
      return;
    }
    case "dependencies": {
      const insert = db.stmt(
        "INSERT INTO dependencies (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)",
      );
      for (const d of batch.rows) insert.run(d.name, d.version, d.baseTool, d.fingerprint, bit(d.avoided));
      return;
    }
    case "runStats": {
      const insert = db.stmt(
        `INSERT INTO run_stats (name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
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
          s.lastRunAt,
        );
      }
      return;
    }
    case "runs": {
      const insert = db.stmt(
        `INSERT INTO runs (id, name, version, outcome, trace_id, call_id, inner_calls, evidence, at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const r of batch.rows) {
        insert.run(r.id, r.name, r.version, r.outcome, r.traceId, r.callId, r.innerCalls, r.evidence, r.at);
      }
      return;
    }
    case "verifiedDefinitions": {
      const insert = db.stmt(
        `INSERT INTO verified_definitions (name, version, base_tool, fingerprint, definition, verified_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      );
      for (const d of batch.rows) {
        insert.run(d.name, d.version, d.baseTool, d.fingerprint, d.definition, d.verifiedAt);
      }
      return;
    }
    case "baseHealth": {
      const insert = db.stmt(
        `INSERT INTO base_health (tool, failures, consecutive, last_error, last_failure_at, last_ok_at, probe_ok,
         probed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
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
          h.probedAt,
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
        "INSERT INTO cc_sessions (session_id, span, confirmed, updated_at) VALUES (?, ?, ?, ?)",
      );
      for (const x of batch.rows) insert.run(x.sessionId, x.span, bit(x.confirmed), x.updatedAt);
      return;
    }
  }
}
