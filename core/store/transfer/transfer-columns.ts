/**
 * Each table's columns as a copy writes them (`importRegistry`): the column, its type, and its value in a
 * transfer row (transfer-rows.ts). Both engines' imports are built from this one list, so a column added to a
 * table is added here once; `test/transfer-columns.test.ts` fails when a table of either engine's schema has a
 * column this list lacks, or the other way round.
 */
import type { TableName } from "../engine.ts";
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
import { baseHealthFromRow, dependencyFromRow, type Row } from "../row-mappers.ts";
import type { RegistryBatch } from "../transfer-rows.ts";

/**
 * A column's type, named after PostgreSQL's: SQLite stores a `boolean` as 0/1 and the others as they come; `code`
 * is a version's code, a text column on PostgreSQL and a tool file under `tools/` on SQLite.
 */
export type ColumnType =
  | "text"
  | "integer"
  | "bigint"
  | "double precision"
  | "boolean"
  | "json"
  | "timestamptz"
  | "code";

/** One column: its name, its type, and its value in a row of the copy. */
export type Column<R> = readonly [name: string, type: ColumnType, value: (row: R) => unknown];

/** The rows of one table of a copy. */
export type RowOf<K extends RegistryBatch["table"]> = Extract<RegistryBatch, { table: K }>["rows"][number];

/**
 * A table of a copy: its name in SQL, its columns, the key its pages are read in (each column with the value
 * before the first), and its transfer row from a database row (`code`: a version's code, wherever it is kept).
 * Traces are read in the order they were written (the dialect's `traceOrder`), not by a key column.
 */
export interface TransferTable<K extends RegistryBatch["table"]> {
  readonly table: TableName;
  readonly columns: readonly Column<RowOf<K>>[];
  readonly key: readonly (readonly [column: string, start: string | number])[] | "written";
  readonly fromRow: (r: Row, code: () => string) => RowOf<K>;
}

const BY_VERSION = [
  ["name", ""],
  ["version", 0],
] as const;
const BY_ID = [["id", 0]] as const;

export const TRANSFER_COLUMNS: { readonly [K in RegistryBatch["table"]]: TransferTable<K> } = {
  traces: {
    table: "traces",
    key: "written",
    fromRow: (r) => traceRow(r),
    columns: [
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
  },
  calls: {
    table: "calls",
    key: BY_ID,
    fromRow: (r) => callRow(r),
    columns: [
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
  },
  versions: {
    table: "versions",
    key: BY_VERSION,
    fromRow: (r, code) => versionRow(r, code()),
    columns: [
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
      ["code", "code", (v) => v.code],
      ["source_hash", "text", (v) => v.sourceHash],
      ["verdict", "json", (v) => v.verdict],
      ["queued_rebuild", "boolean", (v) => v.queuedRebuild],
      ["rebuild_note", "text", (v) => v.rebuildNote],
      ["created_at", "timestamptz", (v) => v.createdAt],
      ["replay_runs", "json", (v) => v.replayRuns],
    ],
  },
  history: {
    table: "status_history",
    key: BY_ID,
    fromRow: (r) => historyRow(r),
    columns: [
      ["id", "bigint", (h) => h.id],
      ["name", "text", (h) => h.name],
      ["version", "integer", (h) => h.version],
      ["from_status", "text", (h) => h.from],
      ["to_status", "text", (h) => h.to],
      ["reason", "text", (h) => h.reason],
      ["evidence", "json", (h) => h.evidence],
      ["at", "timestamptz", (h) => h.at],
    ],
  },
  dependencies: {
    table: "dependencies",
    key: [...BY_VERSION, ["base_tool", ""]],
    fromRow: (r) => dependencyFromRow(r),
    columns: [
      ["name", "text", (d) => d.name],
      ["version", "integer", (d) => d.version],
      ["base_tool", "text", (d) => d.baseTool],
      ["fingerprint", "text", (d) => d.fingerprint],
      ["avoided", "boolean", (d) => d.avoided],
    ],
  },
  runStats: {
    table: "run_stats",
    key: BY_VERSION,
    fromRow: (r) => runStatsRow(r),
    columns: [
      ["name", "text", (s) => s.name],
      ["version", "integer", (s) => s.version],
      ["runs", "integer", (s) => s.runs],
      ["successes", "integer", (s) => s.successes],
      ["failures", "integer", (s) => s.failures],
      ["not_applicable", "integer", (s) => s.notApplicable],
      ["inner_calls", "bigint", (s) => s.innerCalls],
      ["last_run_at", "timestamptz", (s) => s.lastRunAt],
    ],
  },
  runs: {
    table: "runs",
    key: BY_ID,
    fromRow: (r) => runRow(r),
    columns: [
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
  },
  verifiedDefinitions: {
    table: "verified_definitions",
    key: [...BY_VERSION, ["base_tool", ""], ["fingerprint", ""]],
    fromRow: (r) => verifiedDefinitionRow(r),
    columns: [
      ["name", "text", (d) => d.name],
      ["version", "integer", (d) => d.version],
      ["base_tool", "text", (d) => d.baseTool],
      ["fingerprint", "text", (d) => d.fingerprint],
      ["definition", "text", (d) => d.definition],
      ["verified_at", "timestamptz", (d) => d.verifiedAt],
    ],
  },
  baseHealth: {
    table: "base_health",
    key: [["tool", ""]],
    fromRow: (r) => baseHealthFromRow(r),
    columns: [
      ["tool", "text", (h) => h.tool],
      ["failures", "integer", (h) => h.failures],
      ["consecutive", "integer", (h) => h.consecutive],
      ["last_error", "text", (h) => h.lastError],
      ["last_failure_at", "timestamptz", (h) => h.lastFailureAt],
      ["last_ok_at", "timestamptz", (h) => h.lastOkAt],
      ["probe_ok", "boolean", (h) => h.probeOk],
      ["probed_at", "timestamptz", (h) => h.probedAt],
    ],
  },
  meta: {
    table: "meta",
    key: [["key", ""]],
    fromRow: (r) => metaRow(r),
    columns: [
      ["key", "text", (m) => m.key],
      ["value", "text", (m) => m.value],
    ],
  },
  sessions: {
    table: "cc_sessions",
    key: [["session_id", ""]],
    fromRow: (r) => sessionRow(r),
    columns: [
      ["session_id", "text", (x) => x.sessionId],
      ["span", "integer", (x) => x.span],
      ["confirmed", "boolean", (x) => x.confirmed],
      ["updated_at", "timestamptz", (x) => x.updatedAt],
    ],
  },
};

/** The columns of one page's table, typed for its rows (TypeScript cannot narrow the mapped type by itself). */
export function columnsOf<K extends RegistryBatch["table"]>(batch: {
  table: K;
}): readonly Column<RowOf<K>>[] {
  return TRANSFER_COLUMNS[batch.table].columns;
}
