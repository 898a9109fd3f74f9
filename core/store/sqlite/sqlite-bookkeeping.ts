/**
 * The store's bookkeeping tables: `meta` (small cached values, e.g. the base tools an adapter last listed) and
 * `spill_applied` (the ids of spilled hook events already applied, so an event is applied exactly once even when
 * a process dies between applying it and removing its file). Functions over the open database; the Store offers
 * them as its methods (see store.ts).
 */

import { now } from "../row-mappers.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

/** A small cached value (JSON text), or null. */
export function getMeta(db: StoreDatabase, key: string): string | null {
  const row = db.stmt("SELECT value FROM meta WHERE key = ?").get(key);
  return (row?.["value"] as string | undefined) ?? null;
}

/** Stores a small cached value. */
export function setMeta(db: StoreDatabase, key: string, value: string): void {
  db.stmt(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(key, value);
}

/** True when a spilled hook event was already applied. */
export function spillApplied(db: StoreDatabase, eventId: string): boolean {
  return db.stmt("SELECT 1 AS x FROM spill_applied WHERE event_id = ?").get(eventId) !== undefined;
}

/** Records a spilled event as applied. */
export function markSpillApplied(db: StoreDatabase, eventId: string): void {
  db.stmt("INSERT OR IGNORE INTO spill_applied (event_id, applied_at) VALUES (?, ?)").run(eventId, now());
}

/** Forgets applied event ids older than `before` (an ISO time). */
export function pruneSpillApplied(db: StoreDatabase, before: string): void {
  db.stmt("DELETE FROM spill_applied WHERE applied_at < ?").run(before);
}
