/**
 * Writing one page of a registry copy into PostgreSQL (see postgres-transfer.ts): each table's columns with their
 * types, and the page as one INSERT over unnest()ed column arrays, in the order the rows came.
 */

import type { RegistryBatch } from "../registry-store.ts";
import type { PostgresDatabase } from "./postgres-database.ts";

/** One column of a page insert: its name, its PostgreSQL type, and its value in a row. */
type Column<R> = readonly [name: string, type: string, value: (row: R) => unknown];

/** Inserts `rows` in their order as one statement: one array parameter per column. */
async function insertRows<R>(db: PostgresDatabase, table: string, columns: Column<R>[], rows: R[]) {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  await db.run(
    `INSERT INTO tooldistill.${table} (${names})
     SELECT ${names} FROM unnest(${arrays}) WITH ORDINALITY AS r(${names}, ord) ORDER BY ord`,
    columns.map(([, , value]) => rows.map(value)),
  );
}

/** Pieces of `rows` of at most ~16 MB of text each, so one statement never carries a huge page. */
function* pieces<R>(rows: R[]): Generator<R[]> {
  let piece: R[] = [];
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

/** Writes one page of a copy (inside the import's transaction). */
export async function insertBatch(db: PostgresDatabase, batch: RegistryBatch): Promise<void> {
  switch (batch.table) {
    case "traces":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "traces",
          [
            ["id", "text", (t) => t.id],
            ["task", "text", (t) => t.task],
            ["source", "text", (t) => t.source],
            ["outcome", "boolean", (t) => t.outcome],
            ["input_tokens", "bigint", (t) => t.usage.input_tokens],
            ["output_tokens", "bigint", (t) => t.usage.output_tokens],
            ["cache_creation_input_tokens", "bigint", (t) => t.usage.cache_creation_input_tokens],
            ["cache_read_input_tokens", "bigint", (t) => t.usage.cache_read_input_tokens],
            ["started_at", "timestamptz", (t) => t.startedAt],
            ["ended_at", "timestamptz", (t) => t.endedAt],
            ["nudged", "boolean", (t) => t.nudged],
            ["proposed", "boolean", (t) => t.proposed],
            ["replace_name", "text", (t) => t.replaceName],
            ["note", "text", (t) => t.note],
          ],
          rows,
        );
      }
      return;
    case "calls":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "calls",
          [
            ["id", "bigint", (c) => c.id],
            ["trace_id", "text", (c) => c.traceId],
            ["seq", "integer", (c) => c.seq],
            ["parent_id", "bigint", (c) => c.parentId],
            ["tool", "text", (c) => c.tool],
            ["kind", "text", (c) => c.kind],
            ["args", "text", (c) => c.args],
            ["status", "text", (c) => c.status],
            ["output", "text", (c) => c.output],
            ["error", "text", (c) => c.error],
            ["latency_ms", "double precision", (c) => c.latencyMs],
            ["version", "integer", (c) => c.version],
            ["external_id", "text", (c) => c.externalId],
            ["started_at", "timestamptz", (c) => c.startedAt],
            ["note", "text", (c) => c.note],
            ["clipped", "boolean", (c) => c.clipped],
            ["raw_args", "text", (c) => c.rawArgs],
            ["failure", "text", (c) => c.failure],
          ],
          rows,
        );
      }
      return;
    case "versions":
      await db.run(
        "INSERT INTO tooldistill.tools (name) SELECT DISTINCT unnest($1::text[]) ON CONFLICT (name) DO NOTHING",
        [batch.rows.map((v) => v.name)],
      );
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "versions",
          [
            ["name", "text", (v) => v.name],
            ["version", "integer", (v) => v.version],
            ["status", "text", (v) => v.status],
            ["problems", "json", (v) => v.problems],
            ["baseline", "integer", (v) => v.baseline],
            ["baseline_tokens", "bigint", (v) => v.baselineTokens],
            ["source_trace", "text", (v) => v.sourceTrace],
            ["description", "text", (v) => v.description],
            ["input_schema", "json", (v) => v.inputSchema],
            ["test_inputs", "json", (v) => v.testInputs],
            ["code", "text", (v) => v.code],
            ["source_hash", "text", (v) => v.sourceHash],
            ["verdict", "json", (v) => v.verdict],
            ["queued_rebuild", "boolean", (v) => v.queuedRebuild],
            ["rebuild_note", "text", (v) => v.rebuildNote],
            ["created_at", "timestamptz", (v) => v.createdAt],
            ["replay_runs", "json", (v) => v.replayRuns],
          ],
          rows,
        );
      }
      return;
    case "history":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "status_history",
          [
            ["id", "bigint", (h) => h.id],
            ["name", "text", (h) => h.name],
            ["version", "integer", (h) => h.version],
            ["from_status", "text", (h) => h.from],
            ["to_status", "text", (h) => h.to],
            ["reason", "text", (h) => h.reason],
            ["evidence", "json", (h) => h.evidence],
            ["at", "timestamptz", (h) => h.at],
          ],
          rows,
        );
      }
      return;
    case "dependencies":
      await insertRows(
        db,
        "dependencies",
        [
          ["name", "text", (d) => d.name],
          ["version", "integer", (d) => d.version],
          ["base_tool", "text", (d) => d.baseTool],
          ["fingerprint", "text", (d) => d.fingerprint],
          ["avoided", "boolean", (d) => d.avoided],
        ],
        batch.rows,
      );
      return;
    case "runStats":
      await insertRows(
        db,
        "run_stats",
        [
          ["name", "text", (s) => s.name],
          ["version", "integer", (s) => s.version],
          ["runs", "integer", (s) => s.runs],
          ["successes", "integer", (s) => s.successes],
          ["failures", "integer", (s) => s.failures],
          ["not_applicable", "integer", (s) => s.notApplicable],
          ["inner_calls", "bigint", (s) => s.innerCalls],
          ["last_run_at", "timestamptz", (s) => s.lastRunAt],
        ],
        batch.rows,
      );
      return;
    case "runs":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "runs",
          [
            ["id", "bigint", (r) => r.id],
            ["name", "text", (r) => r.name],
            ["version", "integer", (r) => r.version],
            ["outcome", "text", (r) => r.outcome],
            ["trace_id", "text", (r) => r.traceId],
            ["call_id", "bigint", (r) => r.callId],
            ["inner_calls", "integer", (r) => r.innerCalls],
            ["evidence", "text", (r) => r.evidence],
            ["at", "timestamptz", (r) => r.at],
          ],
          rows,
        );
      }
      return;
    case "verifiedDefinitions":
      for (const rows of pieces(batch.rows)) {
        await insertRows(
          db,
          "verified_definitions",
          [
            ["name", "text", (d) => d.name],
            ["version", "integer", (d) => d.version],
            ["base_tool", "text", (d) => d.baseTool],
            ["fingerprint", "text", (d) => d.fingerprint],
            ["definition", "text", (d) => d.definition],
            ["verified_at", "timestamptz", (d) => d.verifiedAt],
          ],
          rows,
        );
      }
      return;
    case "baseHealth":
      await insertRows(
        db,
        "base_health",
        [
          ["tool", "text", (h) => h.tool],
          ["failures", "integer", (h) => h.failures],
          ["consecutive", "integer", (h) => h.consecutive],
          ["last_error", "text", (h) => h.lastError],
          ["last_failure_at", "timestamptz", (h) => h.lastFailureAt],
          ["last_ok_at", "timestamptz", (h) => h.lastOkAt],
          ["probe_ok", "boolean", (h) => h.probeOk],
          ["probed_at", "timestamptz", (h) => h.probedAt],
        ],
        batch.rows,
      );
      return;
    case "meta":
      await insertRows(
        db,
        "meta",
        [
          ["key", "text", (m) => m.key],
          ["value", "text", (m) => m.value],
        ],
        batch.rows,
      );
      return;
    case "sessions":
      await insertRows(
        db,
        "cc_sessions",
        [
          ["session_id", "text", (x) => x.sessionId],
          ["span", "integer", (x) => x.span],
          ["confirmed", "boolean", (x) => x.confirmed],
          ["updated_at", "timestamptz", (x) => x.updatedAt],
        ],
        batch.rows,
      );
      return;
  }
}
