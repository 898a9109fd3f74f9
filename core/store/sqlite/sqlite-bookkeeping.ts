/**
 * The store's `meta` table (small cached values, e.g. the base tools an adapter last listed), for the embedded
 * `Store`'s own open path; the registry's data methods on `meta` and `spill_applied` are tables/bookkeeping.ts.
 */

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

/** Forgets applied event ids older than `before` (an ISO time). */
export function pruneSpillApplied(db: StoreDatabase, before: string): void {
  db.stmt("DELETE FROM spill_applied WHERE applied_at < ?").run(before);
}
