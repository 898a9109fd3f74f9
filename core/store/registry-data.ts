/**
 * The one implementation of RegistryData: the table methods of tables/, written once, over an engine (the
 * store's, or an open transaction's). SqliteRegistryStore and PostgresStore extend it with what only a whole
 * store does; a transaction's `tx` is one of these over the transaction's connection.
 */
import type { Engine } from "./engine.ts";
import { noTransaction } from "./registry-scope.ts";
import type { RegistryData } from "./registry-store.ts";
import { bookkeepingMethods } from "./tables/bookkeeping.ts";
import { callMethods } from "./tables/calls.ts";
import { dependencyMethods } from "./tables/dependencies.ts";
import { historyMethods } from "./tables/history.ts";
import { runMethods } from "./tables/runs.ts";
import { sessionMethods } from "./tables/sessions.ts";
import { traceMethods } from "./tables/traces.ts";
import type { Tables } from "./tables/types.ts";
import { versionMethods } from "./tables/versions.ts";

/** The table methods as a registry's own: `this` is the registry, whose `engine` they run on. */
type Bound<T> = { [K in keyof T]: OmitThisParameter<T[K]> };

/** A base class whose prototype holds `methods`, so they are shared, not copied per registry or transaction. */
function withMethods<T extends object>(methods: T): new () => Bound<T> {
  class Methods {}
  Object.assign(Methods.prototype, methods);
  return Methods as unknown as new () => Bound<T>;
}

const TableMethods = withMethods({
  ...traceMethods,
  ...callMethods,
  ...bookkeepingMethods,
  ...sessionMethods,
  ...versionMethods,
  ...historyMethods,
  ...dependencyMethods,
  ...runMethods,
});

/** What the table methods read besides the engine. */
export type TableSettings = Omit<Tables, "engine">;

/** A registry's data methods over `engine`. */
export class EngineRegistryData extends TableMethods implements RegistryData, Tables {
  readonly engine: Engine;
  readonly maxOutputBytes: number;
  readonly toolRoot: string | null;

  constructor(engine: Engine, settings: TableSettings) {
    super();
    this.engine = engine;
    this.maxOutputBytes = settings.maxOutputBytes;
    this.toolRoot = settings.toolRoot;
  }

  transaction<T>(fn: (tx: RegistryData) => Promise<T>): Promise<T> {
    // On a transaction's view it joins the open transaction (and refuses one that has ended).
    if (this.engine.inTransaction) return this.engine.transaction(() => fn(this));
    return this.engine.transaction((tx) => fn(new EngineRegistryData(tx, this)), "transaction()");
  }

  async savepoint<T>(fn: (tx: RegistryData) => Promise<T>): Promise<T> {
    if (!this.engine.inTransaction) throw noTransaction();
    // Savepoints of one name nest on both engines: ROLLBACK TO and RELEASE act on the innermost.
    const e = this.engine;
    await e.run("SAVEPOINT td_step");
    try {
      const result = await fn(this);
      await e.run("RELEASE SAVEPOINT td_step");
      return result;
    } catch (err) {
      await e.run("ROLLBACK TO SAVEPOINT td_step");
      await e.run("RELEASE SAVEPOINT td_step");
      throw err;
    }
  }
}
