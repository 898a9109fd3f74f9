/**
 * What only the PostgreSQL store has: its URL and connection failures, migrations when several processes start
 * at once, the lifecycle's rules held by the database itself, numbering under concurrent writers on separate
 * pools, and a change feed that survives a lost connection. Against a real server this file starts.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { DistillError } from "../core/errors.ts";
import { MIGRATION_VERSIONS, SCHEMA_VERSION } from "../core/store/postgres/postgres-schema.ts";
import type { EngineRegistryData } from "../core/store/registry-data.ts";
import { openRegistryStore } from "../core/store/registry-open.ts";
import type { RegistryChange, RegistryStore } from "../core/store/registry-store.ts";
import { hashSource } from "../core/store/tool-files.ts";
import { silentLogger } from "../core/types.ts";
import { eventually, openStore, pgServer, proposal, verdict } from "./registry-helpers.ts";

const isCode = (code: string, message?: RegExp) => (err: unknown) =>
  err instanceof DistillError && err.code === code && (message === undefined || message.test(err.message));

/** A raw connection to the database at `url`, bypassing the store, closed when the test ends. */
async function raw(t: import("node:test").TestContext, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.after(() => client.end());
  return client;
}

/** The SQLSTATE a raw statement fails with. */
async function sqlstate(client: pg.Client, sql: string, params: unknown[] = []): Promise<string> {
  try {
    await client.query(sql, params);
  } catch (err) {
    return String((err as { code?: string }).code);
  }
  return "no error";
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

test("a malformed URL is CONFIG_INVALID, naming the setting and never the password", async () => {
  for (const url of ["postgres://u:secret@[bad/db", "postgresql:///registry"]) {
    await assert.rejects(openRegistryStore(url, { logger: silentLogger }), (err) => {
      assert.ok(isCode("CONFIG_INVALID", /^store: in tooldistill\.yaml /)(err), String(err));
      assert.ok(!(err as Error).message.includes("secret"), (err as Error).message);
      assert.match((err as Error).message, /postgres:\/\/user:password@host:5432\/database/);
      return true;
    });
  }
});

test("an unreachable server or a missing database is a STORE error that says what to do", async () => {
  const port = await closedPort();
  await assert.rejects(
    openRegistryStore(`postgres://me:secret@127.0.0.1:${port}/registry`, { logger: silentLogger }),
    (err) => {
      assert.ok(isCode("STORE")(err), String(err));
      const message = (err as Error).message;
      assert.match(
        message,
        /^cannot reach the PostgreSQL server of the store postgres:\/\/me:\*\*\*@127\.0\.0\.1:\d+\/registry /,
      );
      assert.match(message, /store: in tooldistill\.yaml/);
      assert.ok(!message.includes("secret"));
      return true;
    },
  );
  const server = await pgServer();
  await assert.rejects(
    openRegistryStore(server.url("no_such_db"), { logger: silentLogger }),
    isCode("STORE", /does not exist .*create it/),
  );
});

test("five processes opening a new database at once migrate it once", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const stores = await Promise.all(Array.from({ length: 5 }, () => openStore(t, url, { poolSize: 2 })));
  const client = await raw(t, url);
  const { rows } = await client.query("SELECT version FROM tooldistill.schema_version ORDER BY version");
  assert.deepEqual(
    rows.map((r) => r.version),
    [...MIGRATION_VERSIONS],
  );
  // Every one of them works on the result.
  await Promise.all(stores.map((s, i) => s.createTrace(`t${i}`, "task", "sdk")));
  assert.equal((await stores[0]!.listTraces()).length, 5);
});

test("the tables' statements are prepared once per connection, under one name per text", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const store = await openStore(t, url, { poolSize: 1 });
  await store.setMeta("k", "v1");
  await store.setMeta("k", "v2");
  assert.equal(await store.getMeta("k"), "v2");
  // One pooled connection: the statements it prepared are visible on it, each once.
  const prepared = await (store as unknown as EngineRegistryData).engine.rows(
    "SELECT statement FROM pg_prepared_statements WHERE statement LIKE ?",
    ["%tooldistill.meta%"],
  );
  assert.deepEqual(prepared.map((r) => String(r["statement"]).replace(/\s+/g, " ")).sort(), [
    "INSERT INTO tooldistill.meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    "SELECT value FROM tooldistill.meta WHERE key = $1",
  ]);
});

test("a database migrated by a newer tooldistill is refused; a read-only open migrates nothing", async (t) => {
  const url = await (await pgServer()).createDatabase();
  await assert.rejects(
    openRegistryStore(url, { readOnly: true, logger: silentLogger }),
    isCode("STORE", /has no tooldistill registry yet and this command only reads it/),
  );
  const client = await raw(t, url);
  const schemas = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = 'tooldistill'");
  assert.equal(schemas.rowCount, 0, "a read-only open creates nothing");
  (await openRegistryStore(url, { logger: silentLogger })).close();
  await client.query("INSERT INTO tooldistill.schema_version (version) VALUES ($1)", [SCHEMA_VERSION + 1]);
  await assert.rejects(
    openRegistryStore(url, { logger: silentLogger }),
    isCode(
      "STORE",
      new RegExp(
        `has schema version ${SCHEMA_VERSION + 1}, newer than this tooldistill understands \\(${SCHEMA_VERSION}\\): .*Upgrade tooldistill`,
      ),
    ),
  );
});

test("the lifecycle's rules are the database's: raw SQL that breaks them is refused", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const store = await openStore(t, url);
  await store.createVersion(proposal("make_invoice", "a"));
  await store.createVersion(proposal("make_invoice", "b"));
  const db = await raw(t, url);
  const T = "tooldistill";
  await db.query(`UPDATE ${T}.versions SET status = 'active' WHERE version = 1`);
  // The one-active rule is checked at COMMIT (a promotion writes the new active version first).
  await db.query("BEGIN");
  await db.query(`UPDATE ${T}.versions SET status = 'active' WHERE version = 2`);
  assert.equal(await sqlstate(db, "COMMIT"), "23P01");
  assert.equal(await sqlstate(db, `UPDATE ${T}.versions SET status = 'active' WHERE version = 2`), "23P01");
  assert.equal(await sqlstate(db, `UPDATE ${T}.versions SET status = 'retired' WHERE version = 2`), "23514");
  assert.equal(
    await sqlstate(db, `UPDATE ${T}.versions SET code = 'export default 2;' WHERE version = 2`),
    "23514",
  );
  assert.equal(
    await sqlstate(db, `UPDATE ${T}.versions SET problems = '["schema_changed"]' WHERE version = 1`),
    "23514",
    "an active version has no open problem",
  );
  assert.equal(
    await sqlstate(
      db,
      `UPDATE ${T}.versions SET status = 'deprecated', queued_rebuild = true WHERE version = 2`,
    ),
    "23514",
    "a deprecated version is not queued for a rebuild",
  );
  const code = "export default 3;";
  assert.equal(
    await sqlstate(
      db,
      `INSERT INTO ${T}.versions (name, version, status, code, source_hash) VALUES ('make_invoice', 2, 'draft', $1, $2)`,
      [code, hashSource(code)],
    ),
    "23505",
  );
  assert.equal(
    await sqlstate(
      db,
      `INSERT INTO ${T}.status_history (name, version, to_status, reason) VALUES ('nope', 1, 'draft', 'x')`,
    ),
    "23503",
  );
  assert.equal(
    await sqlstate(
      db,
      `INSERT INTO ${T}.calls (trace_id, seq, tool, kind, args, status) VALUES ('nope', 1, 't', 'base', '{}', 'ok')`,
    ),
    "23503",
  );
  assert.equal(
    await sqlstate(db, `UPDATE ${T}.calls SET kind = 'weird'`),
    "no error",
    "no call to break yet",
  );
  // Through the store, a rule the code broke comes back as a DistillError that says what happened.
  await store.setStatus({
    name: "make_invoice",
    version: 2,
    expect: "draft",
    to: "deprecated",
    problems: [],
    reason: "x",
  });
  await assert.rejects(
    store.setQueuedRebuild("make_invoice", 2, true, "rebuild"),
    isCode("STORE", /refused a write that breaks its rules .*versions_never_rebuilt_not_queued/),
  );
  // The statuses of issue 12 are the database's too: rejected and superseded are statuses, and never rebuilt.
  await db.query(`UPDATE ${T}.versions SET status = 'superseded' WHERE version = 2`);
  await db.query(
    `INSERT INTO ${T}.status_history (name, version, from_status, to_status, reason) VALUES ('make_invoice', 2, 'superseded', 'rejected', 'x')`,
  );
  await db.query(`UPDATE ${T}.versions SET status = 'rejected' WHERE version = 2`);
  assert.equal(
    await sqlstate(db, `UPDATE ${T}.versions SET queued_rebuild = true WHERE version = 2`),
    "23514",
    "a rejected version is not queued for a rebuild",
  );
  assert.equal(
    await sqlstate(db, `INSERT INTO ${T}.runs (name, version, outcome) VALUES ('make_invoice', 2, 'flaky')`),
    "23514",
  );
  assert.equal(
    await sqlstate(db, `INSERT INTO ${T}.runs (name, version, outcome) VALUES ('nope', 1, 'ok')`),
    "23503",
    "a run belongs to an existing version",
  );
});

test("a database with a migration this build does not have is refused; one whose migrations were numbered apart is completed", async (t) => {
  const url = await (await pgServer()).createDatabase();
  (await openRegistryStore(url, { logger: silentLogger })).close();
  const client = await raw(t, url);
  // A migration number between this build's (another branch's) is not this build's: refused, not misread.
  const gap = Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1).find(
    (v) => !MIGRATION_VERSIONS.includes(v),
  );
  if (gap !== undefined) {
    await client.query("INSERT INTO tooldistill.schema_version (version) VALUES ($1)", [gap]);
    await assert.rejects(
      openRegistryStore(url, { logger: silentLogger }),
      isCode("STORE", new RegExp(`has migration ${gap}, which this tooldistill does not have`)),
    );
    await client.query("DELETE FROM tooldistill.schema_version WHERE version = $1", [gap]);
  }
  // A database that lacks the newest migration gets it on the next open, and running it again changes nothing.
  await client.query("DELETE FROM tooldistill.schema_version WHERE version = $1", [SCHEMA_VERSION]);
  const store = await openStore(t, url);
  const { rows } = await client.query("SELECT version FROM tooldistill.schema_version ORDER BY version");
  assert.deepEqual(
    rows.map((r) => r.version),
    [...MIGRATION_VERSIONS],
  );
  await store.createVersion(proposal("make_invoice"));
  assert.deepEqual(await store.getRunStats("make_invoice", 1), {
    name: "make_invoice",
    version: 1,
    runs: 0,
    successes: 0,
    failures: 0,
    notApplicable: 0,
    innerCalls: 0,
    lastRunAt: null,
  });
});

test("migration 3: a draft that failed verification under an older build becomes rejected, with its history", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const store = await openStore(t, url);
  await store.createVersion(proposal("make_invoice", "a"));
  await store.createVersion(proposal("make_invoice", "b"));
  await store.setVerification("make_invoice", 1, verdict("make_invoice", 1, "rejected"), null);
  await store.setDependencies("make_invoice", 2, [
    { baseTool: "crm__search", fingerprint: "f1", avoided: false },
    { baseTool: "billing__create", fingerprint: "f2", avoided: true },
  ]);
  const client = await raw(t, url);
  // As a database of the build before migration 3 held it: no definitions yet, and the migration not applied.
  await client.query("DELETE FROM tooldistill.verified_definitions");
  await client.query("DELETE FROM tooldistill.schema_version WHERE version = 3");
  const again = await openStore(t, url);
  assert.equal((await again.getVersion("make_invoice", 1))?.status, "rejected");
  assert.equal(
    (await again.getVersion("make_invoice", 2))?.status,
    "draft",
    "a draft never verified stays one",
  );
  assert.deepEqual(
    (await again.getHistory("make_invoice", 1)).map((h) => [h.from, h.to]),
    [
      [null, "draft"],
      ["draft", "rejected"],
    ],
  );
  assert.deepEqual(
    (await again.verifiedDefinitions()).map((d) => [
      d.name,
      d.version,
      d.baseTool,
      d.fingerprint,
      d.definition,
    ]),
    [["make_invoice", 2, "crm__search", "f1", null]],
    "the fingerprints depended on seed the definitions; an avoided tool does not",
  );
  // Numbers follow the newest version that is not rejected (v2): the rejected v1 below it stays until pruned.
  assert.equal((await again.createVersion(proposal("make_invoice", "c"))).version, 3);
});

test("calls recorded into one trace from 8 pools at once are numbered without gaps", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const stores: RegistryStore[] = [];
  for (let i = 0; i < 8; i++) stores.push(await openStore(t, url, { poolSize: 2 }));
  await stores[0]!.createTrace("t1", "task", "sdk");
  await Promise.all(
    stores.flatMap((s, i) =>
      Array.from({ length: 10 }, (_, j) =>
        s.appendCall({ traceId: "t1", tool: `w${i}`, kind: "base", args: { j } }, { output: j }, 1),
      ),
    ),
  );
  const calls = await stores[0]!.getCalls("t1");
  assert.deepEqual(
    calls.map((c) => c.seq),
    Array.from({ length: 80 }, (_, i) => i + 1),
  );
});

test("the change feed survives a lost connection: it reconnects and says resync", async (t) => {
  const url = await (await pgServer()).createDatabase();
  const store = await openStore(t, url);
  const heard: RegistryChange[] = [];
  await store.onChange((c) => heard.push(c));
  const admin = await raw(t, url);
  const killed = await admin.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
  );
  assert.equal(killed.rowCount, 1);
  await eventually("resync", () => (heard.some((c) => c.type === "resync") ? true : undefined));
  await store.createVersion(proposal("make_invoice"));
  await eventually("the proposal", () => (heard.some((c) => c.type === "status") ? true : undefined));
  // The pool got over the lost connections too.
  await admin.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  assert.equal((await store.listVersions()).length, 1);
});

test("a SQLite store never loads pg", () => {
  const script = `
    import { createRequire } from "node:module";
    import { mkdtempSync } from "node:fs";
    import { tmpdir } from "node:os";
    import { join } from "node:path";
    const { openRegistryStore } = await import(${JSON.stringify(new URL("../core/store/registry-open.ts", import.meta.url).href)});
    const store = await openRegistryStore(join(mkdtempSync(join(tmpdir(), "td-nopg-")), "s"));
    await store.createTrace("t", "task", "sdk");
    await store.close();
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes("/node_modules/pg"));
    process.stdout.write(JSON.stringify(loaded));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    encoding: "utf8",
  });
  assert.deepEqual(JSON.parse(out), []);
});
