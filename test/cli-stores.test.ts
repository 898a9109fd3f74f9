/**
 * The CLI's main verbs on either store, the same commands and the same answers: `store:` a folder (SQLite) or a
 * postgres:// URL through `${VAR}` (a real PostgreSQL server). Reading verbs open the registry read-only, so a
 * database they find empty stays empty; lifecycle verbs go through the library on either.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import pg from "pg";
import { main } from "../cli/main.ts";
import type { RegistryStore } from "../core/store/registry-store.ts";
import { spillEvent } from "../core/store/spill.ts";
import { tempDir } from "./helpers.ts";
import { freshLocation, KINDS, openStore, pgServer, proposal, verdict } from "./registry-helpers.ts";

async function cli(cwd: string, env: NodeJS.ProcessEnv, ...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const saved = process.env["TD_CLI_STORE"];
  process.env["TD_CLI_STORE"] = env["TD_CLI_STORE"];
  try {
    const code = await main(argv, {
      cwd,
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
    });
    return { code, stdout, stderr };
  } finally {
    if (saved === undefined) delete process.env["TD_CLI_STORE"];
    else process.env["TD_CLI_STORE"] = saved;
  }
}

/** A project whose tooldistill.yaml names its store through ${TD_CLI_STORE}, as a team's config would. */
function project(t: TestContext): string {
  const dir = tempDir(t);
  writeFileSync(join(dir, "tooldistill.yaml"), "store: ${TD_CLI_STORE}\n");
  return dir;
}

/** A source run and two versions of one tool: v1 verified (with a live run), v2 rejected. */
async function fill(store: RegistryStore): Promise<void> {
  await store.createTrace("sess-cli.1", "book a trip to Lisbon", "claude-code");
  for (const to of ["LIS", "OPO"]) {
    const id = await store.startCall({
      traceId: "sess-cli.1",
      tool: "travel__search",
      kind: "base",
      args: { to },
    });
    await store.finishCall(id, { flights: [{ to }] }, 5);
  }
  await store.setOutcome("sess-cli.1", true);
  await store.createVersion({ ...proposal("book_trip", "a"), sourceTrace: "sess-cli.1" });
  await store.setStatus({
    name: "book_trip",
    version: 1,
    expect: "draft",
    to: "verified",
    problems: [],
    reason: "ok",
  });
  await store.setVerification("book_trip", 1, verdict("book_trip", 1), 900);
  await store.recordRun({ name: "book_trip", version: 1, outcome: "ok", innerCalls: 1 });
  await store.createVersion(proposal("book_trip", "b"));
  await store.setStatus({
    name: "book_trip",
    version: 2,
    expect: "draft",
    to: "rejected",
    problems: [],
    reason: "failed verification",
  });
}

for (const kind of KINDS) {
  test(`CLI on ${kind}: list, show, traces, deprecate, prune`, { timeout: 120_000 }, async (t) => {
    const location = await freshLocation(t, kind);
    const store = await openStore(t, location);
    await fill(store);
    const dir = project(t);
    const env = { TD_CLI_STORE: location };
    const run = (...argv: string[]) => cli(dir, env, ...argv);

    const list = await run("list", "--json");
    assert.equal(list.code, 0, list.stderr);
    const rows = JSON.parse(list.stdout) as Array<{ name: string; version: number; status: string }>;
    assert.deepEqual(
      rows.map((r) => [r.name, r.version, r.status]),
      [
        ["book_trip", 1, "verified"],
        ["book_trip", 2, "rejected"],
      ],
    );
    const show = await run("show", "book_trip", "--version", "1", "--json");
    assert.equal(show.code, 0, show.stderr);
    const shown = JSON.parse(show.stdout) as {
      code: string;
      source_trace: string;
      run_stats: { runs: number };
    };
    assert.equal(
      shown.code,
      proposal("book_trip", "a").code,
      "the code comes from the store on either engine",
    );
    assert.equal(shown.source_trace, "sess-cli.1");
    assert.equal(shown.run_stats.runs, 1);
    const text = await run("show", "book_trip", "--version", "1");
    assert.match(text.stdout, /export default 1;/);

    const traces = await run("traces", "list", "--json");
    assert.equal(traces.code, 0, traces.stderr);
    assert.deepEqual(
      (JSON.parse(traces.stdout) as Array<{ id: string; base_calls: number }>).map((r) => [
        r.id,
        r.base_calls,
      ]),
      [["sess-cli.1", 2]],
    );
    const trace = await run("traces", "show", "sess-cli", "--json");
    assert.equal(trace.code, 0, trace.stderr);
    assert.deepEqual(
      (JSON.parse(trace.stdout) as { calls: Array<{ args: unknown }> }).calls.map((c) => c.args),
      [{ to: "LIS" }, { to: "OPO" }],
    );
    const missing = await run("traces", "show", "nope");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no trace 'nope': see tooldistill traces list/);

    const deprecated = await run("deprecate", "book_trip", "--version", "1");
    assert.equal(deprecated.code, 0, deprecated.stderr);
    assert.equal((await store.getVersion("book_trip", 1))?.status, "deprecated");
    const pruned = await run("prune");
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, /removed book_trip v2 \(rejected/);
    assert.equal(await store.getVersion("book_trip", 2), null);
  });
}

test("CLI on PostgreSQL: reading an empty database changes nothing and says what to do", {
  timeout: 60_000,
}, async (t) => {
  const url = await (await pgServer()).createDatabase();
  const dir = project(t);
  const list = await cli(dir, { TD_CLI_STORE: url }, "list");
  assert.equal(list.code, 1);
  assert.match(list.stderr, /has no tooldistill registry yet and this command only reads it/);
  assert.doesNotMatch(list.stderr, /password/);
  // Nothing was created by looking: not even the schema.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.after(() => client.end());
  const found = await client.query("SELECT to_regnamespace('tooldistill') IS NOT NULL AS found");
  assert.equal(found.rows[0]?.found, false);
});

test("doctor on PostgreSQL: hook events this machine spilled are reported, and applied by --fix", {
  timeout: 60_000,
}, async (t) => {
  const location = await freshLocation(t, "postgres");
  const store = await openStore(t, location);
  const dir = project(t);
  const session = "9d0c7e1a-5b1f-4c61-9a57-3f1e2d4c5b6a";
  const input = { session_id: session, hook_event_name: "UserPromptSubmit", prompt: "find Ada", cwd: dir };
  spillEvent(join(dir, ".tooldistill"), session, "UserPromptSubmit", JSON.stringify(input));
  const check = await cli(dir, { TD_CLI_STORE: location }, "doctor");
  assert.equal(check.code, 1, check.stdout);
  assert.match(check.stdout, /1 spill file .* that no td server has applied yet/);
  assert.equal(await store.getTrace(`${session}.1`), null);
  const fixed = await cli(dir, { TD_CLI_STORE: location }, "doctor", "--fix");
  assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
  assert.match(fixed.stdout, /applied 1 spilled hook event/);
  assert.equal((await store.getTrace(`${session}.1`))?.task, "find Ada");
});
