/**
 * Opening a store that is not what it should be: an empty or missing database over existing tool files, damaged
 * pages, a header that is not SQLite, a write-ahead log deleted under a running process, a store opened read-only.
 * Each gets a DistillError naming the file and what to do, and nothing already stored is replaced.
 */
import assert from "node:assert/strict";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { DistillError } from "../core/errors.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { silentLogger } from "../core/types.ts";
import { tempDir } from "./helpers.ts";

const VERSION = {
  name: "make_invoice",
  code: "export default 1;\n",
  description: "Make an invoice.",
  inputSchema: { type: "object" },
  testInputs: [],
  sourceTrace: null,
  reason: "proposed",
};

function storeError(pattern: RegExp, code = "STORE") {
  return (err: unknown): boolean => {
    assert.ok(err instanceof DistillError, `expected a DistillError, got ${String(err)}`);
    assert.equal(err.code, code);
    assert.match(err.message, pattern);
    return true;
  };
}

/** A store with one tool file and enough rows to span many pages. */
async function filledStore(root: string): Promise<void> {
  const store = SqliteRegistryStore.open(root);
  await store.createVersion(VERSION);
  await store.createTrace("t1", "task", "sdk");
  for (let i = 0; i < 300; i++) {
    await store.appendCall(
      { traceId: "t1", tool: "x", kind: "base", args: { pad: "y".repeat(1000) } },
      { output: i },
      1,
    );
  }
  await store.close();
}

test("a 0-byte registry.db over existing tool files is refused, naming the file and how to restore", async (t) => {
  const root = tempDir(t);
  await filledStore(root);
  writeFileSync(join(root, "registry.db"), "");
  assert.throws(
    () => SqliteRegistryStore.open(root),
    storeError(
      /registry\.db is empty \(0 bytes\) while .*tools holds 1 tool file: .*Restore registry\.db from a backup .*tooldistill doctor --fix/s,
    ),
  );
  assert.equal(
    statSync(join(root, "registry.db")).size,
    0,
    "the empty file was not turned into a new registry",
  );
  assert.throws(() => SqliteRegistryStore.open(root, { readOnly: true }), storeError(/is empty \(0 bytes\)/));
});

test("a missing registry.db over existing tool files is refused too; a new store in an empty folder is not", async (t) => {
  const root = tempDir(t);
  await filledStore(root);
  for (const f of readdirSync(root)) if (f.startsWith("registry.db")) rmSync(join(root, f));
  assert.throws(
    () => SqliteRegistryStore.open(root),
    storeError(/registry\.db is missing while .*holds 1 tool file/),
  );
  assert.equal(existsSync(join(root, "registry.db")), false);
  const fresh = tempDir(t);
  await SqliteRegistryStore.open(join(fresh, ".tooldistill")).close();
  assert.ok(existsSync(join(fresh, ".tooldistill", "registry.db")));
});

test("damaged pages: a STORE error naming the file, a backup and sqlite3 .recover, never a raw SQLite error", async (t) => {
  const root = tempDir(t);
  await filledStore(root);
  const fd = openSync(join(root, "registry.db"), "r+");
  writeSync(fd, Buffer.alloc(4096 * 3, 0xab), 0, 4096 * 3, 4096 * 2);
  closeSync(fd);
  await assert.rejects(
    async () => {
      const store = SqliteRegistryStore.open(root);
      try {
        await store.getCalls("t1");
      } finally {
        await store.close();
      }
    },
    storeError(
      new RegExp(
        `database ${join(root, "registry.db").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is damaged \\(database disk image is malformed\\)\\..*restore registry\\.db from a backup.*\\.recover.*tooldistill doctor`,
        "s",
      ),
    ),
  );
});

test("a header that is not SQLite: the file is named and the advice is to restore it, not to check permissions", async (t) => {
  const root = tempDir(t);
  await filledStore(root);
  const fd = openSync(join(root, "registry.db"), "r+");
  writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0);
  closeSync(fd);
  assert.throws(
    () => SqliteRegistryStore.open(root),
    (err: unknown) => {
      storeError(/registry\.db is not an SQLite database \(file is not a database\).*restore registry\.db/s)(
        err,
      );
      assert.doesNotMatch((err as Error).message, /permissions/);
      return true;
    },
  );
});

test("a -wal deleted while another connection has the store open is named, with what to do", async (t) => {
  const root = tempDir(t);
  const holder = SqliteRegistryStore.open(root);
  t.after(() => holder.close());
  await holder.createTrace("t1", "task", "sdk");
  for (let i = 0; i < 50; i++)
    await holder.appendCall({ traceId: "t1", tool: "x", kind: "base", args: {} }, { output: i }, 1);
  rmSync(join(root, "registry.db-wal"));
  assert.throws(
    () => SqliteRegistryStore.open(root),
    storeError(
      /registry\.db-wal is missing while .*registry\.db-shm says it holds changes: .*Stop every process/s,
    ),
  );
});

test("read-only: a missing store is NOT_FOUND and nothing is created; writes are refused with the reason", async (t) => {
  const dir = tempDir(t);
  const root = join(dir, ".tooldistill");
  assert.throws(
    () => SqliteRegistryStore.open(root, { readOnly: true }),
    storeError(/^no store at .*\.tooldistill: /, "NOT_FOUND"),
  );
  assert.equal(existsSync(root), false, "a read-only open created the store");

  await SqliteRegistryStore.open(root).close();
  const ro = SqliteRegistryStore.open(root, { readOnly: true });
  t.after(() => ro.close());
  assert.deepEqual(await ro.listVersions(), []);
  await assert.rejects(
    async () => ro.createTrace("t1", "task", "sdk"),
    storeError(/^cannot write to .*registry\.db/),
  );
});

test("a store of an older schema is upgraded by a writer, and a read-only open says how to upgrade it", async (t) => {
  const root = tempDir(t);
  await SqliteRegistryStore.open(root).close();
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const db = new DatabaseSync(join(root, "registry.db"));
  // Undo migrations 6, 5, 4 and 3, newest first.
  db.exec(
    "ALTER TABLE calls DROP COLUMN failure; ALTER TABLE calls DROP COLUMN raw_args; ALTER TABLE versions DROP COLUMN replay_runs; DROP INDEX calls_parent; DROP INDEX calls_distilled; DROP TABLE runs; DROP TABLE base_health; DROP TABLE verified_definitions; DROP INDEX versions_by_code; DROP TRIGGER versions_status_insert; DROP TRIGGER versions_status_update; DROP TRIGGER history_status_insert; ALTER TABLE run_stats DROP COLUMN not_applicable; ALTER TABLE calls DROP COLUMN note; ALTER TABLE calls DROP COLUMN clipped; DROP TABLE spill_applied;",
  );
  db.exec("PRAGMA user_version = 2");
  db.close();
  assert.throws(
    () => SqliteRegistryStore.open(root, { readOnly: true }),
    storeError(/older tooldistill .*tooldistill doctor --fix/),
  );
  const store = SqliteRegistryStore.open(root);
  await store.createTrace("t1", "task", "sdk");
  await store.appendCall({ traceId: "t1", tool: "x", kind: "base", args: {} }, { output: 1 }, 1);
  assert.equal((await store.getCalls("t1"))[0]?.clipped, false);
  await store.close();
});

test("a tool name from a proposal never places a file outside tools/", async (t) => {
  const root = join(tempDir(t), "store");
  const store = SqliteRegistryStore.open(root);
  t.after(() => store.close());
  for (const name of ["../../../x", "a/../../b", "/etc/passwd", "UPPER", "ab"]) {
    await assert.rejects(
      async () => store.createVersion({ ...VERSION, name }),
      (err: unknown) => err instanceof DistillError && err.code === "PROPOSAL_INVALID",
      name,
    );
  }
  assert.deepEqual(await store.listVersions(), [], "no draft was listed");
  assert.deepEqual(readdirSync(join(root, "tools")), []);
  assert.deepEqual(readdirSync(join(root, "..")), ["store"], "nothing written next to the store");
  mkdirSync(join(root, "tools", "ok_name"), { recursive: true });
  assert.equal(store.toolFile("ok_name", 2), join(root, "tools", "ok_name", "v2.ts"));
});

test("a PostgreSQL URL given to the SQLite store is refused without creating a folder or showing the password", (t) => {
  const dir = tempDir(t);
  const before = process.cwd();
  process.chdir(dir);
  try {
    assert.throws(
      () =>
        SqliteRegistryStore.open("postgres://td:hunter2@db.internal:5432/registry", { logger: silentLogger }),
      (err: unknown) => {
        assert.ok(err instanceof DistillError);
        assert.equal(err.code, "USAGE");
        assert.match(err.message, /postgres:\/\/td:\*\*\*@db\.internal:5432\/registry/);
        assert.doesNotMatch(err.message, /hunter2/);
        assert.match(err.message, /point store: at a folder/);
        return true;
      },
    );
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    process.chdir(before);
  }
});
