/**
 * Claude Code sessions in the PostgreSQL registry: which span of each session is current (`cc_sessions`), and
 * the spilled hook events already applied (`spill_applied`). The same operations as store-sessions.ts's on
 * SQLite; the td server, the one process of the plugin that connects to PostgreSQL, uses them.
 */

import type { SessionSpan } from "../sqlite/sqlite-sessions.ts";
import type { PostgresDatabase } from "./postgres-database.ts";

const T = "tooldistill";

export async function sessionSpan(db: PostgresDatabase, sessionId: string): Promise<SessionSpan> {
  await db.run(
    `INSERT INTO ${T}.cc_sessions (session_id, span, confirmed) VALUES ($1, 1, false)
     ON CONFLICT (session_id) DO NOTHING`,
    [sessionId],
  );
  return (await findSessionSpan(db, sessionId))!;
}

export async function findSessionSpan(db: PostgresDatabase, sessionId: string): Promise<SessionSpan | null> {
  const row = await db.first(`SELECT span, confirmed FROM ${T}.cc_sessions WHERE session_id = $1`, [
    sessionId,
  ]);
  return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
}

export async function advanceSpan(db: PostgresDatabase, sessionId: string, from: number): Promise<void> {
  await db.run(
    `UPDATE ${T}.cc_sessions SET span = span + 1, confirmed = false, updated_at = now()
     WHERE session_id = $1 AND span = $2`,
    [sessionId, from],
  );
}

export async function markSpanConfirmed(
  db: PostgresDatabase,
  sessionId: string,
  span: number,
): Promise<void> {
  await db.run(
    `UPDATE ${T}.cc_sessions SET confirmed = true, updated_at = now() WHERE session_id = $1 AND span = $2`,
    [sessionId, span],
  );
}

/**
 * Inserting the id is the claim: a second applier's insert of the same id waits for the first one's transaction
 * and then finds the row (or, if that one rolled back, takes the claim itself).
 */
export async function claimSpillEvent(db: PostgresDatabase, eventId: string): Promise<boolean> {
  const inserted = await db.run(
    `INSERT INTO ${T}.spill_applied (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING`,
    [eventId],
  );
  return inserted === 1;
}

export async function pruneSpillApplied(db: PostgresDatabase, before: string): Promise<void> {
  await db.run(`DELETE FROM ${T}.spill_applied WHERE applied_at < $1::timestamptz`, [before]);
}
