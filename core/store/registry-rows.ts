/**
 * The rows a registry is moved in (registry-store.ts's TraceRow, CallRow, …), from a database row as both
 * engines give it (see row-mappers.ts): the record of the row, plus the columns the record leaves out, with JSON
 * columns kept as their stored text. Pure: no database here.
 */

import type { RunStats } from "./records.ts";
import type {
  CallRow,
  HistoryRow,
  MetaRow,
  RunRow,
  SessionRow,
  TraceRow,
  VerifiedDefinitionRow,
  VersionRow,
} from "./registry-store.ts";
import {
  callFromRow,
  historyFromRow,
  type Row,
  runFromRow,
  runStatsFromRow,
  text,
  textOrNull,
  traceFlagsFromRow,
  traceFromRow,
  verifiedDefinitionFromRow,
  versionFromRow,
} from "./row-mappers.ts";

/** A `traces` row, every column. */
export function traceRow(r: Row): TraceRow {
  return { ...traceFromRow(r), ...traceFlagsFromRow(r) };
}

/** A `calls` row, every column. */
export function callRow(r: Row): CallRow {
  return {
    ...callFromRow(r),
    args: text(r, "args"),
    output: textOrNull(r, "output"),
    externalId: textOrNull(r, "external_id"),
    startedAt: text(r, "started_at"),
    rawArgs: textOrNull(r, "raw_args"),
  };
}

/** A `versions` row, every column, with the version's code. */
export function versionRow(r: Row, code: string): VersionRow {
  return {
    ...versionFromRow(r),
    problems: text(r, "problems"),
    inputSchema: text(r, "input_schema"),
    testInputs: text(r, "test_inputs"),
    verdict: textOrNull(r, "verdict"),
    replayRuns: text(r, "replay_runs"),
    code,
  };
}

/** A `status_history` row, every column. */
export function historyRow(r: Row): HistoryRow {
  return { ...historyFromRow(r), id: Number(r["id"]), evidence: textOrNull(r, "evidence") };
}

/** A `run_stats` row, every column. */
export function runStatsRow(r: Row): RunStats {
  return runStatsFromRow(text(r, "name"), Number(r["version"]), r);
}

/** A `meta` row. */
export function metaRow(r: Row): MetaRow {
  return { key: text(r, "key"), value: text(r, "value") };
}

/** A `cc_sessions` row. */
export function sessionRow(r: Row): SessionRow {
  return {
    sessionId: text(r, "session_id"),
    span: Number(r["span"]),
    confirmed: Boolean(r["confirmed"]),
    updatedAt: text(r, "updated_at"),
  };
}

/** A `runs` row, every column. */
export function runRow(r: Row): RunRow {
  return { ...runFromRow(r), id: Number(r["id"]), evidence: textOrNull(r, "evidence") };
}

/** A `verified_definitions` row, every column. */
export function verifiedDefinitionRow(r: Row): VerifiedDefinitionRow {
  return { ...verifiedDefinitionFromRow(r), definition: textOrNull(r, "definition") };
}
