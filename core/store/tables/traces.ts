/**
 * The `traces` table: one recorded run, its totals and the flags of the nudge and the fallback distiller. Each
 * method is one statement, so each is atomic on its own on either engine.
 */

import type { TraceRecord, TraceSource, UsageTotals } from "../../types.ts";
import { sql } from "../engine.ts";
import type { TraceFlags } from "../records.ts";
import { traceFlagsFromRow, traceFromRow } from "../row-mappers.ts";
import type { Tables } from "./types.ts";

const COLUMNS = `id, task, source, outcome, input_tokens, output_tokens, cache_creation_input_tokens,
  cache_read_input_tokens, started_at, ended_at, note`;

const CREATE = sql(
  (d) =>
    `INSERT INTO ${d.t.traces} (id, task, source, started_at) VALUES (?, ?, ?, ${d.now}) ON CONFLICT (id) DO NOTHING`,
);
const GET = sql((d) => `SELECT ${COLUMNS} FROM ${d.t.traces} WHERE id = ?`);
const IDS_STARTING_WITH = sql(
  (d) =>
    `SELECT id FROM ${d.t.traces} WHERE ${d.startsWith("id", "?1")} ORDER BY started_at DESC, ${d.traceOrder} DESC LIMIT ?2`,
);
const LIST = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.traces} ORDER BY started_at DESC, ${d.traceOrder} DESC LIMIT ?`,
);
const SET_TASK = sql((d) => `UPDATE ${d.t.traces} SET task = ? WHERE id = ?`);
const SET_OUTCOME = sql((d) => `UPDATE ${d.t.traces} SET outcome = ? WHERE id = ?`);
const ADD_USAGE = sql(
  (d) => `UPDATE ${d.t.traces} SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
     cache_creation_input_tokens = cache_creation_input_tokens + ?,
     cache_read_input_tokens = cache_read_input_tokens + ? WHERE id = ?`,
);
const END = sql((d) => `UPDATE ${d.t.traces} SET ended_at = COALESCE(ended_at, ${d.now}) WHERE id = ?`);
const SET_NOTE = sql((d) => `UPDATE ${d.t.traces} SET note = ? WHERE id = ?`);
const FLAGS = sql((d) => `SELECT nudged, proposed, replace_name FROM ${d.t.traces} WHERE id = ?`);
const CLAIM_NUDGE = sql((d) => `UPDATE ${d.t.traces} SET nudged = true WHERE id = ? AND NOT nudged`);
const MARK_PROPOSED = sql((d) => `UPDATE ${d.t.traces} SET proposed = true WHERE id = ?`);
const SET_REPLACE_NAME = sql((d) => `UPDATE ${d.t.traces} SET replace_name = ? WHERE id = ?`);

/** The trace methods of RegistryData (see registry-store.ts for what each promises). */
export const traceMethods = {
  async createTrace(this: Tables, id: string, task: string, source: TraceSource): Promise<void> {
    await this.engine.run(CREATE(this.engine.dialect), [id, task, source]);
  },
  async getTrace(this: Tables, id: string): Promise<TraceRecord | null> {
    const row = await this.engine.first(GET(this.engine.dialect), [id]);
    return row ? traceFromRow(row) : null;
  },
  async traceIdsStartingWith(this: Tables, prefix: string, limit = 10): Promise<string[]> {
    const rows = await this.engine.rows(IDS_STARTING_WITH(this.engine.dialect), [prefix, limit]);
    return rows.map((r) => String(r["id"]));
  },
  async listTraces(this: Tables, limit = 50): Promise<TraceRecord[]> {
    return (await this.engine.rows(LIST(this.engine.dialect), [limit])).map(traceFromRow);
  },
  async setTask(this: Tables, id: string, task: string): Promise<void> {
    await this.engine.run(SET_TASK(this.engine.dialect), [task, id]);
  },
  async setOutcome(this: Tables, id: string, success: boolean): Promise<void> {
    await this.engine.run(SET_OUTCOME(this.engine.dialect), [success, id]);
  },
  /** One statement: concurrent additions from several processes all count. */
  async addUsage(this: Tables, id: string, usage: UsageTotals): Promise<void> {
    await this.engine.run(ADD_USAGE(this.engine.dialect), [
      usage.input_tokens,
      usage.output_tokens,
      usage.cache_creation_input_tokens,
      usage.cache_read_input_tokens,
      id,
    ]);
  },
  async endTrace(this: Tables, id: string): Promise<void> {
    await this.engine.run(END(this.engine.dialect), [id]);
  },
  async setTraceNote(this: Tables, id: string, note: string): Promise<void> {
    await this.engine.run(SET_NOTE(this.engine.dialect), [note, id]);
  },
  async getTraceFlags(this: Tables, id: string): Promise<TraceFlags> {
    return traceFlagsFromRow(await this.engine.first(FLAGS(this.engine.dialect), [id]));
  },
  /** The guarded UPDATE gives the nudge to exactly one caller, in whichever process. */
  async claimNudge(this: Tables, id: string): Promise<boolean> {
    return (await this.engine.run(CLAIM_NUDGE(this.engine.dialect), [id])) === 1;
  },
  async markProposed(this: Tables, id: string): Promise<void> {
    await this.engine.run(MARK_PROPOSED(this.engine.dialect), [id]);
  },
  async setReplaceName(this: Tables, id: string, name: string): Promise<void> {
    await this.engine.run(SET_REPLACE_NAME(this.engine.dialect), [name, id]);
  },
};
