/** The migration runner both engines share: what a database needs and what is refused, decided once. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DistillError } from "../core/errors.ts";
import {
  type Migration,
  MigrationList,
  migrate,
  migrateNow,
  type SyncMigrationDriver,
} from "../core/store/migrations.ts";
import { POSTGRES_MIGRATIONS } from "../core/store/postgres/postgres-schema.ts";
import { SQLITE_MIGRATIONS } from "../core/store/sqlite/sqlite-schema.ts";

const list = new MigrationList([1, 2, 4].map((version) => ({ version, sql: `step ${version}` })));
const store = (readOnly = false) => ({
  where: "at x",
  readOnly,
  upgradeHint: "upgrade it",
  createHint: "create it",
});
const refused = (message: RegExp) => (err: unknown) =>
  err instanceof DistillError && err.code === "STORE" && message.test(err.message);

/** A database in memory: the migrations it has had, and each step in the order the runner took it. */
function memory(applied: number[]): SyncMigrationDriver & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    applied: () => {
      log.push("read");
      return [...applied];
    },
    locked: (fn) => {
      log.push("lock");
      fn();
      log.push("unlock");
    },
    apply: (m: Migration) => {
      applied.push(m.version);
      log.push(m.sql);
    },
  };
}

test("the missing migrations are applied in order, under the lock, after reading again there", () => {
  const db = memory([2]);
  migrateNow(list, store(), db);
  assert.deepEqual(db.log, ["read", "lock", "read", "step 1", "step 4", "unlock"]);
  // Current: one read, no lock.
  const current = memory([1, 2, 4]);
  migrateNow(list, store(), current);
  assert.deepEqual(current.log, ["read"]);
});

test("another process that migrated while this one waited for the lock leaves nothing to do", () => {
  const applied: number[] = [];
  const log: string[] = [];
  migrateNow(list, store(), {
    applied: () => {
      log.push("read");
      return [...applied];
    },
    locked: (fn) => {
      applied.push(1, 2, 4);
      fn();
    },
    apply: (m) => {
      log.push(m.sql);
    },
  });
  assert.deepEqual(log, ["read", "read"]);
});

test("a newer schema, an unknown migration and an older schema opened read-only are refused, naming the fix", async () => {
  assert.throws(
    () => list.pending([1, 2, 4, 5], store()),
    refused(/has schema version 5, newer than this tooldistill understands \(4\): .*Upgrade tooldistill/),
  );
  assert.throws(
    () => list.pending([1, 2, 3, 4], store()),
    refused(/has migration 3, which this tooldistill does not have: a different build/),
  );
  assert.throws(
    () => list.pending([1], store(true)),
    refused(/the store at x was written by an older tooldistill \(schema 1, now 4\) .*: upgrade it\.$/),
  );
  assert.throws(
    () => list.pending([], store(true)),
    refused(/has no tooldistill registry yet .*: create it\.$/),
  );
  // Read-only and current: nothing to do, nothing refused.
  assert.deepEqual(list.pending([1, 2, 4], store(true)), []);
  // The asynchronous runner makes the same decisions.
  await assert.rejects(
    migrate(list, store(true), {
      applied: async () => [1],
      locked: async (fn) => fn(),
      apply: async () => assert.fail("nothing may be applied to a read-only store"),
    }),
    refused(/written by an older tooldistill/),
  );
});

test("a list out of order is a mistake of this build, refused when it loads", () => {
  assert.throws(
    () =>
      new MigrationList([
        { version: 2, sql: "" },
        { version: 1, sql: "" },
      ]),
    /ascending/,
  );
  assert.throws(
    () =>
      new MigrationList([
        { version: 1, sql: "" },
        { version: 1, sql: "" },
      ]),
    /each once/,
  );
});

test("both engines' migrations are lists the runner takes", () => {
  assert.deepEqual(
    SQLITE_MIGRATIONS.versions,
    Array.from({ length: SQLITE_MIGRATIONS.schemaVersion }, (_, i) => i + 1),
  );
  assert.ok(POSTGRES_MIGRATIONS.schemaVersion >= 1);
  assert.equal(POSTGRES_MIGRATIONS.versions.at(-1), POSTGRES_MIGRATIONS.schemaVersion);
});
