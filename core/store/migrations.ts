/**
 * The migration runner both engines share: each engine keeps its list of forward migrations (sqlite-schema.ts,
 * postgres-schema.ts) and a small driver that says which ones a database has had and applies one; what a
 * database needs, and what is refused (a migration this build does not know, a newer schema, an older one opened
 * read-only), is decided here once. The runner reads what was applied, and when something is missing reads it
 * again under the driver's lock (another process may have migrated meanwhile) and applies the rest in order.
 *
 * A SQLite store is migrated while it opens, which is synchronous (a ToolDistill's constructor opens one), so the
 * runner's loop exists for a synchronous driver (`migrateNow`) and an asynchronous one (`migrate`): three lines
 * each, every decision in `MigrationList.pending`.
 */
import { DistillError } from "../errors.ts";

/** One migration: its number (never reused) and its statements, applied in one transaction. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** An engine's migrations, ascending, with the schema version they bring a database to. */
export class MigrationList {
  readonly migrations: readonly Migration[];
  readonly versions: readonly number[];
  /** The highest migration: the schema version this build writes. */
  readonly schemaVersion: number;

  constructor(migrations: readonly Migration[]) {
    const versions = migrations.map((m) => m.version);
    if (versions.some((v, i) => i > 0 && v <= versions[i - 1]!)) {
      throw new Error("migrations must be listed by ascending version, each once");
    }
    this.migrations = migrations;
    this.versions = versions;
    this.schemaVersion = Math.max(0, ...versions);
  }

  /**
   * The migrations a database that has had `applied` still needs, in order. Throws when it has one this build
   * does not know (a newer or a different build migrated it), or when it needs any and `readOnly` is set.
   */
  pending(applied: readonly number[], store: MigratedStore): Migration[] {
    const unknown = applied.filter((v) => !this.versions.includes(v));
    if (unknown.length > 0) {
      const highest = Math.max(...unknown);
      if (highest > this.schemaVersion) {
        throw new DistillError(
          "STORE",
          `the store ${store.where} has schema version ${highest}, newer than this tooldistill understands (${this.schemaVersion}): a newer tooldistill migrated it. Upgrade tooldistill on this machine (every process sharing the store needs the same or a newer version).`,
        );
      }
      throw new DistillError(
        "STORE",
        `the store ${store.where} has migration ${unknown.join(", ")}, which this tooldistill does not have: a different build of tooldistill migrated it. Use the same or a newer tooldistill on every process sharing the store.`,
      );
    }
    const missing = this.migrations.filter((m) => !applied.includes(m.version));
    if (missing.length > 0 && store.readOnly) {
      throw new DistillError(
        "STORE",
        applied.length === 0
          ? `the store ${store.where} has no tooldistill registry yet and this command only reads it: ${store.createHint}.`
          : `the store ${store.where} was written by an older tooldistill (schema ${Math.max(...applied)}, now ${this.schemaVersion}) and this command only reads it: ${store.upgradeHint}.`,
      );
    }
    return missing;
  }
}

/** The store being migrated, as the runner's messages name it. */
export interface MigratedStore {
  /** Where it is, as it reads after "the store" (e.g. "at .tooldistill", or a URL without its password). */
  readonly where: string;
  readonly readOnly: boolean;
  /** What a person does to upgrade an older schema that a read-only command met. */
  readonly upgradeHint: string;
  /** What a person does when a read-only command met no registry at all. */
  readonly createHint: string;
}

/** What a synchronous driver does for the runner: the engine's bookkeeping, locking and transactions. */
export interface SyncMigrationDriver {
  /** The migrations the database has had. */
  applied(): number[];
  /** Runs `fn` holding the lock that lets one process migrate at a time. */
  locked(fn: () => void): void;
  /** Applies one migration and records it, in one transaction (or in the lock's). */
  apply(m: Migration): void;
}

/** The same, for an engine whose calls are asynchronous. */
export interface MigrationDriver {
  applied(): Promise<number[]>;
  locked(fn: () => Promise<void>): Promise<void>;
  apply(m: Migration): Promise<void>;
}

/** Brings a database to the list's schema through a synchronous driver (SQLite's open). */
export function migrateNow(list: MigrationList, store: MigratedStore, driver: SyncMigrationDriver): void {
  if (list.pending(driver.applied(), store).length === 0) return;
  driver.locked(() => {
    for (const m of list.pending(driver.applied(), store)) driver.apply(m);
  });
}

/** Brings a database to the list's schema through an asynchronous driver (PostgreSQL). */
export async function migrate(
  list: MigrationList,
  store: MigratedStore,
  driver: MigrationDriver,
): Promise<void> {
  if (list.pending(await driver.applied(), store).length === 0) return;
  await driver.locked(async () => {
    for (const m of list.pending(await driver.applied(), store)) await driver.apply(m);
  });
}
