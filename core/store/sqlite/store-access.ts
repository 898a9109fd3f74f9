/**
 * The ways into a Store's open database for code that needs more than its methods, kept out of the Store's public
 * surface: a WeakMap filled by the Store's constructor, so no property of a Store exposes its database.
 */

import type { StoreDatabase } from "./sqlite-database.ts";
import type { Store } from "./sqlite-store.ts";

const databases = new WeakMap<Store, StoreDatabase>();

/** Called once by the Store's constructor. */
export function registerDatabase(store: Store, db: StoreDatabase): void {
  databases.set(store, db);
}

function databaseOf(store: Store): StoreDatabase {
  const db = databases.get(store);
  if (!db) throw new Error("not a Store opened by this module");
  return db;
}

/**
 * The store's open database, for core's own store modules that need more than the Store's methods: the async
 * registry over SQLite (sqlite-registry-store.ts) holds a transaction open across awaits, keeps its tool-lock
 * leases and copies whole tables. In no barrel.
 */
export function storeDatabase(store: Store): StoreDatabase {
  return databaseOf(store);
}
