/**
 * The `cc_sessions` table: which span of each Claude Code session is current, and whether the user confirmed it.
 * The table is Claude Code's, not the library's: its SQL lives here and reaches the store's database through the
 * adapters' door (`adapterSql`), inside the store's transactions. Its migration stays in core's one migration
 * sequence (core/store-schema.ts) so that every existing store upgrades in order.
 */
import type { Store } from "../core/index.ts";
import { adapterSql } from "../core/internal.ts";

/** Where a Claude Code session is: its current span and whether the user confirmed it with /tooldistill:distill. */
export interface SessionSpan {
  sessionId: string;
  span: number;
  confirmed: boolean;
}

const SELECT_SPAN = "SELECT span, confirmed FROM cc_sessions WHERE session_id = ?";

function now(): string {
  return new Date().toISOString();
}

/** The current span of a Claude Code session, created as span 1 on first sight (hooks may race to create it). */
export function sessionSpan(store: Store, sessionId: string): SessionSpan {
  adapterSql(
    store,
    "INSERT OR IGNORE INTO cc_sessions (session_id, span, confirmed, updated_at) VALUES (?, 1, 0, ?)",
  ).run(sessionId, now());
  return findSessionSpan(store, sessionId)!;
}

/** The current span, or null for a session never seen. */
export function findSessionSpan(store: Store, sessionId: string): SessionSpan | null {
  const row = adapterSql(store, SELECT_SPAN).get(sessionId);
  return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
}

/** Moves a session to its next span when it is still at `from` (two racing hooks advance it once). */
export function advanceSpan(store: Store, sessionId: string, from: number): void {
  adapterSql(
    store,
    "UPDATE cc_sessions SET span = span + 1, confirmed = 0, updated_at = ? WHERE session_id = ? AND span = ?",
  ).run(now(), sessionId, from);
}

/** Marks a span as confirmed by the user (`/tooldistill:distill`): the next ordinary prompt starts a new span. */
export function markSpanConfirmed(store: Store, sessionId: string, span: number): void {
  adapterSql(
    store,
    "UPDATE cc_sessions SET confirmed = 1, updated_at = ? WHERE session_id = ? AND span = ?",
  ).run(now(), sessionId, span);
}
