/**
 * The `cc_sessions` table, as the hooks use it: synchronously, on the SQLite store, inside the store's
 * transactions. The SQL is core's (core/store/sqlite/sqlite-sessions.ts), shared with the async registry's session methods,
 * which the td server uses on either store.
 */
export type { SessionSpan } from "../core/internal.ts";
export { advanceSpan, findSessionSpan, markSpanConfirmed, sessionSpan } from "../core/internal.ts";
