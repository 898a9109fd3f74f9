/**
 * Claude Code sessions in the SQLite store: which span of each session is current (`cc_sessions`), and the
 * spilled hook events already applied (`spill_applied`), as the async registry's session methods
 * (sqlite-registry-data.ts), which the plugin's hooks and td server use; the PostgreSQL registry has the same
 * tables (postgres-sessions.ts).
 */

import type { SessionSpan } from "../records.ts";
import { now } from "../row-mappers.ts";
import type { Store } from "./sqlite-store.ts";

export type { SessionSpan } from "../records.ts";

/** The current span of a Claude Code session, created as span 1 on first sight (hooks may race to create it). */
export function sessionSpan(store: Store, sessionId: string): SessionSpan {
  store.database
    .stmt("INSERT OR IGNORE INTO cc_sessions (session_id, span, confirmed, updated_at) VALUES (?, 1, 0, ?)")
    .run(sessionId, now());
  return findSessionSpan(store, sessionId)!;
}

/** The current span, or null for a session never seen. */
export function findSessionSpan(store: Store, sessionId: string): SessionSpan | null {
  const row = store.database
    .stmt("SELECT span, confirmed FROM cc_sessions WHERE session_id = ?")
    .get(sessionId);
  return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
}

/** Moves a session to its next span when it is still at `from` (two racing hooks advance it once). */
export function advanceSpan(store: Store, sessionId: string, from: number): void {
  store.database
    .stmt(
      "UPDATE cc_sessions SET span = span + 1, confirmed = 0, updated_at = ? WHERE session_id = ? AND span = ?",
    )
    .run(now(), sessionId, from);
}

/** Marks a span as confirmed by the user (`/tooldistill:distill`): the next ordinary prompt starts a new span. */
export function markSpanConfirmed(store: Store, sessionId: string, span: number): void {
  store.database
    .stmt("UPDATE cc_sessions SET confirmed = 1, updated_at = ? WHERE session_id = ? AND span = ?")
    .run(now(), sessionId, span);
}

/** Records a spilled event as applied; false when it already was (another applier got there first). */
export function claimSpillEvent(store: Store, eventId: string): boolean {
  const result = store.database
    .stmt("INSERT OR IGNORE INTO spill_applied (event_id, applied_at) VALUES (?, ?)")
    .run(eventId, now());
  return Number(result.changes) === 1;
}
