/**
 * The ways into a Store's open database for code that needs more than its methods, kept out of the Store's public
 * surface: a WeakMap filled by the Store's constructor, so no property of a Store exposes its database.
 */

import type { Store } from "./store.ts";
import type { StoreDatabase, StoreStatement } from "./store-database.ts";

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
 * The adapters' way into the store (exported through core/internal.ts only, never the public barrel): a prepared
 * statement on the store's own database, for the tables an adapter owns (claude-code/ keeps its session spans in
 * `cc_sessions`). Failures are explained like the store's own; group writes with `store.transaction` so they
 * share its one transaction boundary. The library itself never calls it.
 */
export function adapterSql(store: Store, statement: string): StoreStatement {
  return databaseOf(store).stmt(statement);
}

/**
 * The store's open database, for core's own store modules that need more than the Store's methods: the async
 * registry over SQLite (sqlite-registry-store.ts) holds a transaction open across awaits, keeps its tool-lock
 * leases and copies whole tables. In no barrel.
 */
export function storeDatabase(store: Store): StoreDatabase {
  return databaseOf(store);
}
