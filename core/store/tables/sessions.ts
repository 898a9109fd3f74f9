/**
 * Claude Code sessions: which span of each session is current (`cc_sessions`), and the spilled hook events
 * already applied (`spill_applied`), so an event is applied exactly once even when a process dies between
 * applying it and removing its file.
 */
import { sql } from "../engine.ts";
import type { SessionSpan } from "../records.ts";
import type { Tables } from "./types.ts";

const CREATE = sql(
  (
    d,
  ) => `INSERT INTO ${d.t.cc_sessions} (session_id, span, confirmed, updated_at) VALUES (?, 1, false, ${d.now})
     ON CONFLICT (session_id) DO NOTHING`,
);
const FIND = sql((d) => `SELECT span, confirmed FROM ${d.t.cc_sessions} WHERE session_id = ?`);
const ADVANCE = sql(
  (d) => `UPDATE ${d.t.cc_sessions} SET span = span + 1, confirmed = false, updated_at = ${d.now}
     WHERE session_id = ? AND span = ?`,
);
const CONFIRM = sql(
  (d) =>
    `UPDATE ${d.t.cc_sessions} SET confirmed = true, updated_at = ${d.now} WHERE session_id = ? AND span = ?`,
);
const CLAIM = sql(
  (d) =>
    `INSERT INTO ${d.t.spill_applied} (event_id, applied_at) VALUES (?, ${d.now}) ON CONFLICT (event_id) DO NOTHING`,
);
const PRUNE = sql((d) => `DELETE FROM ${d.t.spill_applied} WHERE applied_at < ?`);

/** The session and spill methods of RegistryData. */
export const sessionMethods = {
  async sessionSpan(this: Tables, sessionId: string): Promise<SessionSpan> {
    await this.engine.run(CREATE(this.engine.dialect), [sessionId]);
    return (await sessionMethods.findSessionSpan.call(this, sessionId))!;
  },
  async findSessionSpan(this: Tables, sessionId: string): Promise<SessionSpan | null> {
    const row = await this.engine.first(FIND(this.engine.dialect), [sessionId]);
    return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
  },
  async advanceSpan(this: Tables, sessionId: string, from: number): Promise<void> {
    await this.engine.run(ADVANCE(this.engine.dialect), [sessionId, from]);
  },
  async markSpanConfirmed(this: Tables, sessionId: string, span: number): Promise<void> {
    await this.engine.run(CONFIRM(this.engine.dialect), [sessionId, span]);
  },
  /**
   * Inserting the id is the claim: a second applier's insert of the same id waits for the first one's
   * transaction and then finds the row (or, if that one rolled back, takes the claim itself).
   */
  async claimSpillEvent(this: Tables, eventId: string): Promise<boolean> {
    return (await this.engine.run(CLAIM(this.engine.dialect), [eventId])) === 1;
  },
  async pruneSpillApplied(this: Tables, before: string): Promise<void> {
    await this.engine.run(PRUNE(this.engine.dialect), [before]);
  },
};
