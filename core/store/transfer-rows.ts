/**
 * The rows a registry is moved in (`exportRegistry`, `importRegistry`, registry files): the records the data
 * methods return, plus the columns they leave out, with JSON columns as their stored text (so a copy is exact) and
 * times as ISO text.
 */
import type { CallRecord, TraceRecord } from "../types.ts";
import type {
  BaseHealthRecord,
  DependencyRecord,
  HistoryRecord,
  RunRecord,
  RunStats,
  SessionSpan,
  TraceFlags,
  VerifiedDefinition,
  VersionRecord,
} from "./records.ts";

/** A `traces` row: the record and its flags. */
export interface TraceRow extends TraceRecord, TraceFlags {}

/** A `calls` row: the record's columns with `args` and `output` as their JSON text, and the two it leaves out. */
export interface CallRow extends Omit<CallRecord, "args" | "output"> {
  args: string;
  output: string | null;
  /** A distilled call's input as received, as its JSON text (null: not kept, rows from before migration 6/4). */
  rawArgs: string | null;
  externalId: string | null;
  startedAt: string;
}

/** A `versions` row with the version's code; its JSON columns as their text. */
export interface VersionRow
  extends Omit<VersionRecord, "problems" | "inputSchema" | "testInputs" | "verdict" | "replayRuns"> {
  problems: string;
  inputSchema: string;
  testInputs: string;
  verdict: string | null;
  replayRuns: string;
  code: string;
}

/** A `runs` row with its id (the order of runs); `evidence` as its JSON text. */
export interface RunRow extends Omit<RunRecord, "evidence"> {
  id: number;
  evidence: string | null;
}

/** A `verified_definitions` row; `definition` as its JSON text. */
export interface VerifiedDefinitionRow extends Omit<VerifiedDefinition, "definition"> {
  definition: string | null;
}

/** A `status_history` row with its id (the order of changes); `evidence` as its JSON text. */
export interface HistoryRow extends Omit<HistoryRecord, "evidence"> {
  id: number;
  evidence: string | null;
}

/** A cached value. */
export interface MetaRow {
  key: string;
  value: string;
}

/** A `cc_sessions` row: a Claude Code session's current span, and when it last changed. */
export interface SessionRow extends SessionSpan {
  updatedAt: string;
}

/** One page of one table. */
export type RegistryBatch =
  | { table: "traces"; rows: TraceRow[] }
  | { table: "calls"; rows: CallRow[] }
  | { table: "versions"; rows: VersionRow[] }
  | { table: "history"; rows: HistoryRow[] }
  | { table: "dependencies"; rows: DependencyRecord[] }
  | { table: "runStats"; rows: RunStats[] }
  | { table: "runs"; rows: RunRow[] }
  | { table: "verifiedDefinitions"; rows: VerifiedDefinitionRow[] }
  | { table: "baseHealth"; rows: BaseHealthRecord[] }
  | { table: "meta"; rows: MetaRow[] }
  | { table: "sessions"; rows: SessionRow[] };

/** The tables of a registry in the order a copy writes them (what a row refers to comes first). */
export const TRANSFER_ORDER = [
  "traces",
  "calls",
  "versions",
  "history",
  "dependencies",
  "runStats",
  "runs",
  "verifiedDefinitions",
  "baseHealth",
  "meta",
  "sessions",
] as const satisfies readonly RegistryBatch["table"][];

/** Rows written, per table. */
export type TransferCounts = Record<RegistryBatch["table"], number>;

/** A count of zero for every table. */
export function emptyCounts(): TransferCounts {
  return {
    traces: 0,
    calls: 0,
    versions: 0,
    history: 0,
    dependencies: 0,
    runStats: 0,
    runs: 0,
    verifiedDefinitions: 0,
    baseHealth: 0,
    meta: 0,
    sessions: 0,
  };
}

/**
 * Not in a copy: `spill_applied`, the ids of hook events applied from one machine's spill files, which mean
 * nothing to another store.
 *
 * Keys of `meta` that are a store's own machinery (the SQLite tool-lock leases), not registry data: a copy
 * neither reads nor writes them, and they do not make a registry non-empty.
 */
export const INTERNAL_META_PREFIX = "tooldistill.lock:";
