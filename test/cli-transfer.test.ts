/**
 * `tooldistill export`, `import` and `copy` through the CLI, on a real SQLite store and a real PostgreSQL server:
 * SQLite → file → PostgreSQL → file → SQLite gives back the same registry; a store that is not empty, an
 * existing file, a damaged or cut-short file are refused with messages that name the problem, and nothing is
 * written.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import { openRegistryStore } from "../core/store/registry-open.ts";
import type { RegistryBatch, RegistryStore } from "../core/store/registry-store.ts";
import { silentLogger } from "../core/types.ts";
import { cli, tempDir } from "./helpers.ts";
import { openStore, pgServer, proposal, verdict } from "./registry-helpers.ts";

/** A project folder whose tooldistill.yaml says `store: <store>`. */
function project(t: TestContext, store: string): string {
  const dir = tempDir(t);
  writeFileSync(join(dir, "tooldistill.yaml"), `store: ${store}\n`);
  return dir;
}

/** A registry with something in every table that a copy carries. */
async function fill(store: RegistryStore): Promise<void> {
  await store.createTrace("sess.1", "book a trip to Lisbon", "claude-code");
  await store.addUsage("sess.1", {
    input_tokens: 120,
    output_tokens: 30,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 4,
  });
  const call = await store.startCall({
    traceId: "sess.1",
    tool: "travel__search",
    kind: "base",
    args: { to: "LIS", note: "caf\u00e9 \u{1F600}\nline two" },
    externalId: "toolu_1",
  });
  await store.finishCall(call, { flights: [{ id: 7, price: 99.5 }] }, 12.5);
  await store.setOutcome("sess.1", true);
  await store.createVersion(proposal("book_trip", "a"));
  await store.setStatus({
    name: "book_trip",
    version: 1,
    expect: "draft",
    to: "verified",
    problems: [],
    reason: "ok",
  });
  await store.setVerification("book_trip", 1, verdict("book_trip", 1), 900);
  await store.setDependencies("book_trip", 1, [
    { baseTool: "travel__search", fingerprint: "f1", avoided: false },
  ]);
  await store.recordRun({ name: "book_trip", version: 1, outcome: "ok", innerCalls: 2 });
  await store.setMeta("base-tools", '[{"name":"travel__search"}]');
  await store.sessionSpan("sess");
}

/** Everything an export gives, table by table. */
async function dump(location: string): Promise<Record<string, unknown[]>> {
  const store = await openRegistryStore(location, { readOnly: true, logger: silentLogger });
  try {
    const out: Record<string, unknown[]> = {};
    for await (const batch of store.exportRegistry() as AsyncIterable<RegistryBatch>) {
      out[batch.table] = [...(out[batch.table] ?? []), ...batch.rows];
    }
    return out;
  } finally {
    await store.close();
  }
}

const body = (file: string) => readFileSync(file, "utf8").split("\n").slice(1).join("\n");

test("SQLite → file → PostgreSQL → file → SQLite gives back the same registry", async (t) => {
  const a = project(t, ".tooldistill");
  await fill(await openStore(t, join(a, ".tooldistill")));

  const exported = await cli(a, "export", "registry.jsonl");
  assert.equal(exported.code, 0, exported.stderr);
  assert.match(
    exported.stdout,
    /^exported 10 rows: .*\.tooldistill to .*registry\.jsonl\n {2}traces {14}1\n/,
  );
  const header = JSON.parse(readFileSync(join(a, "registry.jsonl"), "utf8").split("\n")[0]!);
  assert.equal(header.format, "tooldistill-registry");
  assert.equal(header.version, 1);
  assert.equal(header.source, "sqlite");
  assert.deepEqual(header.counts, {
    traces: 1,
    calls: 1,
    versions: 1,
    history: 2,
    dependencies: 1,
    runStats: 1,
    runs: 1,
    verifiedDefinitions: 0,
    baseHealth: 0,
    meta: 1,
    sessions: 1,
  });
  // The tool code is in the file: a SQLite export needs no tools/ folder beside it.
  assert.match(readFileSync(join(a, "registry.jsonl"), "utf8"), /"code":"\/\/ a\\nexport default 1;\\n"/);

  const url = await (await pgServer()).createDatabase();
  process.env["TD_TEST_DATABASE_URL"] = url;
  t.after(() => delete process.env["TD_TEST_DATABASE_URL"]);
  const b = project(t, "${TD_TEST_DATABASE_URL}");
  const imported = await cli(b, "import", join(a, "registry.jsonl"), "--json");
  assert.equal(imported.code, 0, imported.stderr);
  assert.equal(JSON.parse(imported.stdout).counts.history, 2);
  assert.equal((await cli(b, "export", "again.jsonl")).code, 0);
  assert.equal(JSON.parse(readFileSync(join(b, "again.jsonl"), "utf8").split("\n")[0]!).source, "postgres");
  assert.equal(body(join(b, "again.jsonl")), body(join(a, "registry.jsonl")), "the same rows, line for line");

  const c = project(t, "restored");
  assert.equal((await cli(c, "import", join(b, "again.jsonl"))).code, 0);
  assert.deepEqual(await dump(join(c, "restored")), await dump(join(a, ".tooldistill")));
  assert.deepEqual(await dump(url), await dump(join(a, ".tooldistill")));
  assert.equal(
    readFileSync(join(c, "restored", "tools", "book_trip", "v1.ts"), "utf8"),
    "// a\nexport default 1;\n",
    "the tool file is written back",
  );

  // copy: the same registry straight into another store.
  const d = tempDir(t);
  const copied = await cli(a, "copy", "--to", join(d, "copy"));
  assert.equal(copied.code, 0, copied.stderr);
  assert.deepEqual(await dump(join(d, "copy")), await dump(join(a, ".tooldistill")));
});

test("import refuses a store that is not empty, and export an existing file unless --force", async (t) => {
  const a = project(t, ".tooldistill");
  await fill(await openStore(t, join(a, ".tooldistill")));
  assert.equal((await cli(a, "export", "registry.jsonl")).code, 0);
  const again = await cli(a, "export", "registry.jsonl");
  assert.equal(again.code, 1);
  assert.match(again.stderr, /registry\.jsonl already exists: choose another file name, or pass --force/);
  assert.equal((await cli(a, "export", "registry.jsonl", "--force")).code, 0);

  const before = await dump(join(a, ".tooldistill"));
  const into = await cli(a, "import", "registry.jsonl");
  assert.equal(into.code, 1);
  assert.match(into.stderr, /is not empty: an import never merges two registries, so nothing was written/);
  assert.deepEqual(await dump(join(a, ".tooldistill")), before);

  const missing = await cli(a, "copy");
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /copy needs --to <location>/);
});

for (const kind of ["sqlite", "postgres"] as const) {
  test(`a damaged or cut-short file imports nothing into ${kind}, naming the line`, async (t) => {
    const a = project(t, ".tooldistill");
    await fill(await openStore(t, join(a, ".tooldistill")));
    assert.equal((await cli(a, "export", "registry.jsonl")).code, 0);
    const lines = readFileSync(join(a, "registry.jsonl"), "utf8").trimEnd().split("\n");
    assert.equal(lines.length, 10, "a header and one page per table with rows");
    const location = kind === "sqlite" ? "target" : await (await pgServer()).createDatabase();
    process.env["TD_TEST_TARGET"] = location;
    t.after(() => delete process.env["TD_TEST_TARGET"]);
    const target = project(t, "${TD_TEST_TARGET}");
    const cases: [string, string, RegExp][] = [
      // Cut in the middle of the history page, after the versions (whose tool files were written) went in.
      [
        "cut.jsonl",
        `${lines.slice(0, 5).join("\n")}\n${lines[5]!.slice(0, 40)}`,
        /cut\.jsonl:6: not a whole JSON line/,
      ],
      [
        "short.jsonl",
        `${lines.slice(0, 9).join("\n")}\n`,
        /short\.jsonl:9: the file ends here with rows missing \(sessions: 0 of 1\)/,
      ],
      [
        "page.jsonl",
        `${lines.slice(0, 3).join("\n")}\n{"table":"nope","rows":[]}\n`,
        /page\.jsonl:4: not a page of rows/,
      ],
      ["other.jsonl", '{"hello":"world"}\n', /other\.jsonl:1: not a tooldistill registry export/],
    ];
    for (const [name, text, message] of cases) {
      writeFileSync(join(a, name), text);
      const run = await cli(target, "import", join(a, name));
      assert.equal(run.code, 1, name);
      assert.match(run.stderr, message);
      const store = await openRegistryStore(kind === "sqlite" ? join(target, location) : location, {
        logger: silentLogger,
      });
      try {
        assert.equal(await store.isEmpty(), true, `${name}: nothing was written`);
      } finally {
        await store.close();
      }
      if (kind === "sqlite") {
        const tools = join(target, location, "tools");
        assert.deepEqual(existsSync(tools) ? readdirSync(tools) : [], [], `${name}: no tool file is left`);
      }
    }
    assert.equal(
      (await cli(target, "import", join(a, "registry.jsonl"))).code,
      0,
      "the whole file still imports",
    );
  });
}

test("a PostgreSQL store the CLI cannot reach is named without its password, and nothing is created", async (t) => {
  process.env["TD_TEST_SECRET_URL"] = "postgres://td:hunter2@db.internal:5432/registry";
  t.after(() => delete process.env["TD_TEST_SECRET_URL"]);
  const dir = project(t, "${TD_TEST_SECRET_URL}");
  const run = await cli(dir, "list");
  assert.equal(run.code, 1);
  assert.match(run.stderr, /cannot reach the PostgreSQL server of the store/);
  assert.match(run.stderr, /postgres:\/\/td:\*\*\*@db\.internal:5432\/registry/);
  assert.doesNotMatch(run.stderr, /hunter2/);
  assert.deepEqual(readdirSync(dir), ["tooldistill.yaml"], "nothing was created");
});
