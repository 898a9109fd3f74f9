/**
 * Each table of a registry as a copy carries it (`exportRegistry`, `importRegistry`, registry files): its columns,
 * each with its type and its field in the table's transfer row (transfer-rows.ts), and the key its pages are read
 * in. Both engines' exports and imports, and the transfer rows themselves, are built from this one list, so a
 * column added to a table is added here once; `test/transfer-columns.test.ts` fails when a table of either
 * engine's schema has a column this list lacks, when the list names one the schema lacks, or when a field of a
 * table's record is missing from its transfer row.
 */
import type { TableName } from "../engine.ts";
import type { Row } from "../row-mappers.ts";
import type { RegistryBatch } from "../transfer-rows.ts";

/**
 * A column's type, named after PostgreSQL's: SQLite stores a `boolean` as 0/1 and the others as they come; a
 * `json` column travels as its text (so a copy is exact); `code` is a version's code, a text column on PostgreSQL
 * and a tool file under `tools/` on SQLite.
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

/** The rows of one table of a copy. */
export type RowOf<K extends RegistryBatch["table"]> = Extract<RegistryBatch, { table: K }>["rows"][number];

/** A field of a transfer row: a top-level one, or one level into an object field (`usage.input_tokens`). */
export type FieldOf<R> = {
  [F in keyof R & string]: NonNullable<R[F]> extends string | number | boolean
    ? F
    : `${F}.${keyof NonNullable<R[F]> & string}`;
}[keyof R & string];

/** One column: its name, its type, and its field in a transfer row. */
export type Column<R> = readonly [name: string, type: ColumnType, field: FieldOf<R>];

/** A column of any table, as the engines' generic imports and exports take it. */
export type AnyColumn = readonly [name: string, type: ColumnType, field: string];

/**
 * A table of a copy: its name in SQL, its columns, and the key its pages are read in (each column with the value
 * before the first). Traces are read in the order they were written (the dialect's `traceOrder`), not by a key.
 */
export interface TransferTable<K extends RegistryBatch["table"]> {
  readonly table: TableName;
  readonly columns: readonly Column<RowOf<K>>[];
  readonly key: readonly (readonly [column: string, start: string | number])[] | "written";
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
    columns: [
      ["id", "text", "id"],
      ["task", "text", "task"],
      ["source", "text", "source"],
      ["outcome", "boolean", "outcome"],
      ["input_tokens", "bigint", "usage.input_tokens"],
      ["output_tokens", "bigint", "usage.output_tokens"],
      ["cache_creation_input_tokens", "bigint", "usage.cache_creation_input_tokens"],
      ["cache_read_input_tokens", "bigint", "usage.cache_read_input_tokens"],
      ["started_at", "timestamptz", "startedAt"],
      ["ended_at", "timestamptz", "endedAt"],
      ["nudged", "boolean", "nudged"],
      ["proposed", "boolean", "proposed"],
      ["replace_name", "text", "replaceName"],
      ["note", "text", "note"],
    ],
  },
  calls: {
    table: "calls",
    key: BY_ID,
    columns: [
      ["id", "bigint", "id"],
      ["trace_id", "text", "traceId"],
      ["seq", "integer", "seq"],
      ["parent_id", "bigint", "parentId"],
      ["tool", "text", "tool"],
      ["kind", "text", "kind"],
      ["args", "text", "args"],
      ["status", "text", "status"],
      ["output", "text", "output"],
      ["error", "text", "error"],
      ["latency_ms", "double precision", "latencyMs"],
      ["version", "integer", "version"],
      ["external_id", "text", "externalId"],
      ["started_at", "timestamptz", "startedAt"],
      ["note", "text", "note"],
      ["clipped", "boolean", "clipped"],
      ["raw_args", "text", "rawArgs"],
      ["failure", "text", "failure"],
    ],
  },
  versions: {
    table: "versions",
    key: BY_VERSION,
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["status", "text", "status"],
      ["problems", "json", "problems"],
      ["baseline", "integer", "baseline"],
      ["baseline_tokens", "bigint", "baselineTokens"],
      ["source_trace", "text", "sourceTrace"],
      ["description", "text", "description"],
      ["input_schema", "json", "inputSchema"],
      ["test_inputs", "json", "testInputs"],
      ["code", "code", "code"],
      ["source_hash", "text", "sourceHash"],
      ["verdict", "json", "verdict"],
      ["queued_rebuild", "boolean", "queuedRebuild"],
      ["rebuild_note", "text", "rebuildNote"],
      ["created_at", "timestamptz", "createdAt"],
      ["replay_runs", "json", "replayRuns"],
    ],
  },
  history: {
    table: "status_history",
    key: BY_ID,
    columns: [
      ["id", "bigint", "id"],
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["from_status", "text", "from"],
      ["to_status", "text", "to"],
      ["reason", "text", "reason"],
      ["evidence", "json", "evidence"],
      ["at", "timestamptz", "at"],
    ],
  },
  dependencies: {
    table: "dependencies",
    key: [...BY_VERSION, ["base_tool", ""]],
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["base_tool", "text", "baseTool"],
      ["fingerprint", "text", "fingerprint"],
      ["avoided", "boolean", "avoided"],
    ],
  },
  runStats: {
    table: "run_stats",
    key: BY_VERSION,
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["runs", "integer", "runs"],
      ["successes", "integer", "successes"],
      ["failures", "integer", "failures"],
      ["not_applicable", "integer", "notApplicable"],
      ["inner_calls", "bigint", "innerCalls"],
      ["last_run_at", "timestamptz", "lastRunAt"],
    ],
  },
  runs: {
    table: "runs",
    key: BY_ID,
    columns: [
      ["id", "bigint", "id"],
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["outcome", "text", "outcome"],
      ["trace_id", "text", "traceId"],
      ["call_id", "bigint", "callId"],
      ["inner_calls", "integer", "innerCalls"],
      ["evidence", "text", "evidence"],
      ["at", "timestamptz", "at"],
    ],
  },
  verifiedDefinitions: {
    table: "verified_definitions",
    key: [...BY_VERSION, ["base_tool", ""], ["fingerprint", ""]],
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["base_tool", "text", "baseTool"],
      ["fingerprint", "text", "fingerprint"],
      ["definition", "text", "definition"],
      ["verified_at", "timestamptz", "verifiedAt"],
    ],
  },
  baseHealth: {
    table: "base_health",
    key: [["tool", ""]],
    columns: [
      ["tool", "text", "tool"],
      ["failures", "integer", "failures"],
      ["consecutive", "integer", "consecutive"],
      ["last_error", "text", "lastError"],
      ["last_failure_at", "timestamptz", "lastFailureAt"],
      ["last_ok_at", "timestamptz", "lastOkAt"],
      ["probe_ok", "boolean", "probeOk"],
      ["probed_at", "timestamptz", "probedAt"],
    ],
  },
  meta: {
    table: "meta",
    key: [["key", ""]],
    columns: [
      ["key", "text", "key"],
      ["value", "text", "value"],
    ],
  },
  sessions: {
    table: "cc_sessions",
    key: [["session_id", ""]],
    columns: [
      ["session_id", "text", "sessionId"],
      ["span", "integer", "span"],
      ["confirmed", "boolean", "confirmed"],
      ["updated_at", "timestamptz", "updatedAt"],
    ],
  },
};

/** The columns of one page's table (TypeScript cannot narrow the mapped type by itself). */
export function columnsOf(batch: { table: RegistryBatch["table"] }): readonly AnyColumn[] {
  return TRANSFER_COLUMNS[batch.table].columns as readonly AnyColumn[];
}

/** A column's value in a transfer row. */
export function fieldValue(row: unknown, [, , field]: AnyColumn): unknown {
  const dot = field.indexOf(".");
  const record = row as Record<string, unknown>;
  if (dot === -1) return record[field];
  return (record[field.slice(0, dot)] as Record<string, unknown>)[field.slice(dot + 1)];
}

/** A database value as the transfer row holds it: booleans as booleans, numbers as numbers, the rest as text. */
function transferred(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "boolean":
      return Boolean(value);
    case "integer":
    case "bigint":
    case "double precision":
      return Number(value);
    default:
      return String(value);
  }
}

/** A database row of `table` as its transfer row; `code` gives a version's code, wherever it is kept. */
export function transferRow<K extends RegistryBatch["table"]>(
  table: K,
  r: Row,
  code: () => string,
): RowOf<K> {
  const out: Record<string, unknown> = {};
  for (const [name, type, field] of TRANSFER_COLUMNS[table].columns as readonly AnyColumn[]) {
    const value = type === "code" ? code() : transferred(type, r[name]);
    const dot = field.indexOf(".");
    if (dot === -1) out[field] = value;
    else {
      const parent = field.slice(0, dot);
      out[parent] = {
        ...(out[parent] as Record<string, unknown> | undefined),
        [field.slice(dot + 1)]: value,
      };
    }
  }
  return out as unknown as RowOf<K>;
}
