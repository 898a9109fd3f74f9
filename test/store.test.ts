import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { DistillError } from "../core/errors.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { SCHEMA_VERSION } from "../core/store/sqlite/sqlite-schema.ts";
import { hashSource } from "../core/store/tool-files.ts";
import type { Verdict } from "../core/types.ts";
import { tempDir } from "./helpers.ts";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Reads one PRAGMA straight from the database file, bypassing the Store. */
function pragma(root: string, name: string): unknown {
  const db = new DatabaseSync(join(root, "registry.db"));
  try {
    return Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];
  } finally {
    db.close();
  }
}

const VERSION_INPUT = {
  name: "make_invoice",
  code: "export default 1;\n",
  description: "Make an invoice.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } } },
  testInputs: [{ customer: "ACME" }],
  sourceTrace: "t1",
  reason: "proposed",
};

// ---- opening ---------------------------------------------------------------------------------------

test("a new store is migrated to the current schema version and in WAL mode", async (t) => {
  const root = join(tempDir(t), "nested", ".tooldistill");
  const store = SqliteRegistryStore.open(root);
  await store.createTrace("t1", "task", "sdk");
  await store.close();
  assert.equal(pragma(root, "user_version"), SCHEMA_VERSION);
  assert.ok(SCHEMA_VERSION >= 1);
  assert.equal(pragma(root, "journal_mode"), "wal");
  assert.ok(existsSync(join(root, "tools")));

  // Reopening neither re-runs the migrations nor loses rows.
  const again = SqliteRegistryStore.open(root);
  assert.equal((await again.getTrace("t1"))?.task, "task");
  assert.equal(await again.integrityCheck(), "ok");
  await again.close();
  assert.equal(pragma(root, "user_version"), SCHEMA_VERSION);
});

test("a store written by a newer tooldistill is refused, not misread", async (t) => {
  const root = tempDir(t);
  await SqliteRegistryStore.open(root).close();
  const db = new DatabaseSync(join(root, "registry.db"));
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  assert.throws(
    () => SqliteRegistryStore.open(root),
    (err: unknown) =>
      err instanceof DistillError &&
      err.code === "STORE" &&
      err.message ===
        `the store at ${root} has schema version ${SCHEMA_VERSION + 1}, newer than this tooldistill understands (${SCHEMA_VERSION}): a newer tooldistill migrated it. Upgrade tooldistill on this machine (every process sharing the store needs the same or a newer version).`,
  );
});

test("a store that cannot be created is a STORE error naming the path", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "file"), "");
  assert.throws(
    () => SqliteRegistryStore.open(join(dir, "file")),
    (err: unknown) =>
      err instanceof DistillError &&
      err.code === "STORE" &&
      err.message.startsWith(`cannot open the store at ${join(dir, "file")}: `),
  );
});

test("the store's .gitignore keeps the database out of git, and a user's own is kept", async (t) => {
  const root = tempDir(t);
  await SqliteRegistryStore.open(root).close();
  assert.equal(
    readFileSync(join(root, ".gitignore"), "utf8"),
    "# traces and fixtures hold real tool outputs, which may include personal data\nregistry.db*\n*.log\n*.log.1\nspill/\norphaned/\n",
  );
  writeFileSync(join(root, ".gitignore"), "registry.db*\nmine\n");
  await SqliteRegistryStore.open(root).close();
  assert.equal(readFileSync(join(root, ".gitignore"), "utf8"), "registry.db*\nmine\n");
});

// ---- traces and calls ------------------------------------------------------------------------------

test("traces and calls round-trip", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await store.createTrace("t1", "first task", "claude-code");
  await store.createTrace("t1", "ignored: the trace exists", "sdk");
  await store.setTask("t1", "the real task");
  assert.equal((await store.getTrace("t1"))?.outcome, null);
  await store.setOutcome("t1", true);
  const usage = {
    input_tokens: 10,
    output_tokens: 5,
    cache_creation_input_tokens: 2,
    cache_read_input_tokens: 1,
  };
  await store.addUsage("t1", usage);
  await store.addUsage("t1", usage);
  await store.endTrace("t1");
  const ended = (await store.getTrace("t1"))!.endedAt;
  await store.endTrace("t1");
  await store.setTraceNote("t1", "fallback distiller failed");
  const trace = (await store.getTrace("t1"))!;
  assert.deepEqual(
    { ...trace, startedAt: "", endedAt: "" },
    {
      id: "t1",
      task: "the real task",
      source: "claude-code",
      outcome: true,
      usage: {
        input_tokens: 20,
        output_tokens: 10,
        cache_creation_input_tokens: 4,
        cache_read_input_tokens: 2,
      },
      startedAt: "",
      endedAt: "",
      note: "fallback distiller failed",
    },
  );
  assert.equal(trace.endedAt, ended, "the first end time is kept");
  assert.equal(await store.getTrace("nope"), null);

  const a = await store.startCall({
    traceId: "t1",
    tool: "search",
    kind: "base",
    args: { q: "x" },
    externalId: "toolu_1",
  });
  await store.finishCall(a, { hits: [1, 2] }, 12.5);
  const b = await store.startCall({ traceId: "t1", tool: "search", kind: "base", args: { q: "y" } });
  await store.failCall(b, "boom", 3);
  const c = await store.startCall({
    traceId: "t1",
    tool: "make_invoice",
    kind: "distilled",
    args: {},
    version: 2,
  });
  const inner = await store.startCall({
    traceId: "t1",
    tool: "search",
    kind: "base",
    args: { q: "z" },
    parentId: c,
  });
  await store.finishCall(inner, null, 1);
  await store.finishCall(c, "done", 4);
  await store.startCall({ traceId: "t1", tool: "search", kind: "base", args: {} }); // started, never finished
  const other = await store.startCall({
    traceId: "t1",
    tool: "Bash",
    kind: "other",
    args: { command: "ls" },
  });
  await store.finishCall(other, "", 1);

  const calls = await store.getCalls("t1");
  assert.deepEqual(
    calls.map((x) => [x.seq, x.tool, x.kind, x.status, x.parentId]),
    [
      [1, "search", "base", "ok", null],
      [2, "search", "base", "error", null],
      [3, "make_invoice", "distilled", "ok", null],
      [4, "search", "base", "ok", c],
      [5, "search", "base", "started", null],
      [6, "Bash", "other", "ok", null],
    ],
  );
  assert.deepEqual(calls[0], {
    id: a,
    traceId: "t1",
    seq: 1,
    parentId: null,
    tool: "search",
    kind: "base",
    args: { q: "x" },
    status: "ok",
    output: { hits: [1, 2] },
    error: null,
    latencyMs: 12.5,
    version: null,
    note: null,
    clipped: false,
    failure: null,
  });
  assert.equal(calls[1]!.error, "boom");
  assert.equal(calls[2]!.version, 2);
  assert.equal(calls[3]!.output, null);
  // Finished top-level base calls only: not the inner one, the started one or Bash.
  assert.equal(await store.countTopLevelBaseCalls("t1"), 2);
  assert.equal((await store.getCallByExternalId("toolu_1", "t1"))?.id, a);
  assert.equal(
    await store.getCallByExternalId("toolu_1", "t2"),
    null,
    "looked up only within the given traces",
  );
  assert.equal(await store.getCallByExternalId("toolu_2", "t"), null);
  assert.deepEqual(await store.startedCallsByExternalId("toolu_1"), [], "toolu_1 has finished");
  await store.setCallKind(other, "distilled", 1);
  assert.equal((await store.getCalls("t1"))[5]!.kind, "distilled");

  await store.createTrace("t2", "second", "sdk");
  assert.deepEqual(
    (await store.listTraces()).map((x) => x.id),
    ["t2", "t1"],
  );
  assert.deepEqual(
    (await store.listTraces(1)).map((x) => x.id),
    ["t2"],
  );
});

test("trace flags: the nudge is claimed once", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await store.createTrace("t1", "task", "sdk");
  assert.deepEqual(await store.getTraceFlags("t1"), { nudged: false, proposed: false, replaceName: null });
  assert.equal(await store.claimNudge("t1"), true);
  assert.equal(await store.claimNudge("t1"), false);
  await store.markProposed("t1");
  await store.setReplaceName("t1", "make_invoice");
  assert.deepEqual(await store.getTraceFlags("t1"), {
    nudged: true,
    proposed: true,
    replaceName: "make_invoice",
  });
});

// ---- versions, history, dependencies, run stats --------------------------------------------------------

test("versions round-trip with their files, numbers, history and verdicts", async (t) => {
  const root = tempDir(t);
  const store = SqliteRegistryStore.open(root);
  t.after(() => store.close());
  const v1 = await store.createVersion(VERSION_INPUT);
  const v2 = await store.createVersion({ ...VERSION_INPUT, code: "export default 2;\n", sourceTrace: null });
  assert.equal(v1.version, 1);
  assert.equal(v2.version, 2);
  assert.deepEqual(
    { ...v1, createdAt: "" },
    {
      name: "make_invoice",
      version: 1,
      status: "draft",
      problems: [],
      baseline: null,
      baselineTokens: null,
      sourceTrace: "t1",
      description: "Make an invoice.",
      inputSchema: VERSION_INPUT.inputSchema,
      testInputs: [{ customer: "ACME" }],
      sourceHash: hashSource(VERSION_INPUT.code),
      verdict: null,
      queuedRebuild: false,
      rebuildNote: null,
      createdAt: "",
      replayRuns: [],
    },
  );
  assert.equal(store.toolFile("make_invoice", 2), join(root, "tools", "make_invoice", "v2.ts"));
  assert.equal(readFileSync(store.toolFile("make_invoice", 1), "utf8"), VERSION_INPUT.code);
  assert.equal(await store.readCode("make_invoice", 2), "export default 2;\n");

  assert.equal(
    await store.setStatus({
      name: "make_invoice",
      version: 1,
      expect: "draft",
      to: "verified",
      problems: [],
      reason: "passed",
      evidence: { calls: 2 },
    }),
    true,
  );
  // A stale expectation writes nothing: neither the status nor a history row.
  assert.equal(
    await store.setStatus({
      name: "make_invoice",
      version: 1,
      expect: "draft",
      to: "deprecated",
      problems: [],
      reason: "stale",
    }),
    false,
  );
  await store.setStatus({
    name: "make_invoice",
    version: 1,
    expect: "verified",
    to: "active",
    problems: [],
    reason: "promoted",
  });
  await store.setStatus({
    name: "make_invoice",
    version: 1,
    expect: "active",
    to: "suspect",
    problems: ["runtime_failure", "schema_changed", "runtime_failure"],
    reason: "schema of search changed",
  });
  const suspect = (await store.getVersion("make_invoice", 1))!;
  assert.equal(suspect.status, "suspect");
  assert.deepEqual(suspect.problems, ["runtime_failure", "schema_changed"], "deduplicated and sorted");
  assert.deepEqual(
    (await store.getHistory("make_invoice", 1)).map((h) => [h.from, h.to, h.reason, h.evidence]),
    [
      [null, "draft", "proposed", null],
      ["draft", "verified", "passed", { calls: 2 }],
      ["verified", "active", "promoted", null],
      ["active", "suspect", "schema of search changed", null],
    ],
  );
  assert.deepEqual(
    (await store.getHistory("make_invoice", 2)).map((h) => h.to),
    ["draft"],
  );

  const verdict: Verdict = {
    name: "make_invoice",
    version: 1,
    status: "verified",
    checks: {
      static: { ok: true, problems: [] },
      replay: {
        ok: false,
        problems: [{ rule: "replay-mismatch", line: 3, token: "call", message: "no fixture" }],
      },
      efficiency: { ok: true, problems: [] },
    },
    calls: 4,
    baseline: 9,
    limit: 6.3,
    liveCalls: ["search"],
    evidence: { callSites: null, literals: null, runs: null, writes: [], promotion: null },
  };
  await store.setVerification("make_invoice", 1, verdict, 4200);
  await store.setQueuedRebuild("make_invoice", 1, true, "search recovered");
  // A verdict written before problems had rule ids reads back with `unnamed` ones, so every reader sees one shape.
  const { rule: _rule, ...unnamed } = verdict.checks.replay.problems[0]!;
  const before = { ...verdict, checks: { ...verdict.checks, replay: { ok: false, problems: [unnamed] } } };
  await store.setVerification("make_invoice", 1, before as unknown as Verdict, 4200);
  assert.deepEqual((await store.getVersion("make_invoice", 1))!.verdict?.checks.replay.problems, [
    { ...unnamed, rule: "unnamed" },
  ]);
  await store.setVerification("make_invoice", 1, verdict, 4200);
  const verified = (await store.getVersion("make_invoice", 1))!;
  assert.deepEqual(verified.verdict, verdict);
  assert.equal(verified.baseline, 9);
  assert.equal(verified.baselineTokens, 4200);
  assert.equal(verified.queuedRebuild, true);
  assert.equal(verified.rebuildNote, "search recovered");

  await store.createVersion({ ...VERSION_INPUT, name: "other_tool" });
  assert.deepEqual(
    (await store.listVersions()).map((v) => `${v.name} v${v.version}`),
    ["make_invoice v1", "make_invoice v2", "other_tool v1"],
  );
  assert.deepEqual(
    (await store.listVersions({ status: "draft" })).map((v) => `${v.name} v${v.version}`),
    ["make_invoice v2", "other_tool v1"],
  );
  assert.deepEqual(
    (await store.listVersions({ name: "make_invoice", status: "suspect" })).map((v) => v.version),
    [1],
  );
  assert.equal(await store.getVersion("make_invoice", 9), null);

  rmSync(store.toolFile("other_tool", 1));
  await assert.rejects(
    async () => store.readCode("other_tool", 1),
    (err: unknown) =>
      err instanceof DistillError && err.code === "NOT_FOUND" && /other_tool v1 is missing/.test(err.message),
  );
});

test("dependencies and run stats round-trip", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await store.setDependencies("a_tool", 1, [
    { baseTool: "search", fingerprint: "f1", avoided: false },
    { baseTool: "import", fingerprint: null, avoided: true },
  ]);
  await store.setDependencies("b_tool", 3, [{ baseTool: "search", fingerprint: "f1", avoided: false }]);
  assert.deepEqual(await store.getDependencies("a_tool", 1), [
    { name: "a_tool", version: 1, baseTool: "import", fingerprint: null, avoided: true },
    { name: "a_tool", version: 1, baseTool: "search", fingerprint: "f1", avoided: false },
  ]);
  assert.equal((await store.getDependencies()).length, 3);
  await store.setDependencies("a_tool", 1, [{ baseTool: "search", fingerprint: "f2", avoided: false }]);
  assert.deepEqual(
    (await store.getDependencies("a_tool", 1)).map((d) => [d.baseTool, d.fingerprint]),
    [["search", "f2"]],
  );

  assert.deepEqual(await store.getRunStats("a_tool", 1), {
    name: "a_tool",
    version: 1,
    runs: 0,
    successes: 0,
    failures: 0,
    notApplicable: 0,
    innerCalls: 0,
    lastRunAt: null,
  });
  await store.recordRun({ name: "a_tool", version: 1, outcome: "ok", innerCalls: 4 });
  await store.recordRun({
    name: "a_tool",
    version: 1,
    outcome: "tool",
    innerCalls: 2,
    evidence: { kind: "code_error" },
  });
  await store.recordRun({ name: "a_tool", version: 1, outcome: "ok", innerCalls: 4 });
  await store.recordRun({ name: "a_tool", version: 1, outcome: "not_applicable", innerCalls: 1 });
  const stats = await store.getRunStats("a_tool", 1);
  assert.deepEqual(
    { ...stats, lastRunAt: null },
    {
      name: "a_tool",
      version: 1,
      runs: 4,
      successes: 2,
      failures: 1,
      notApplicable: 1,
      innerCalls: 11,
      lastRunAt: null,
    },
  );
  assert.match(stats.lastRunAt!, /^\d{4}-\d\d-\d\dT/);
});

test("live runs of a version: the successful ones, newest first, with their inner calls; replay runs round-trip", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await store.createTrace("t1", "task", "sdk");
  await store.createTrace("t2", "task", "sdk");
  /** One live run of make_invoice v1 in `trace`: its call, then one inner base call per entry of `inner`. */
  const run = async (trace: string, customer: string, ok: boolean, inner: string[]) => {
    const id = await store.startCall({
      traceId: trace,
      tool: "make_invoice",
      kind: "distilled",
      args: { customer },
      version: 1,
    });
    for (const tool of inner) {
      await store.appendCall(
        { traceId: trace, tool, kind: "base", args: { customer }, parentId: id },
        { output: { tool } },
        1,
      );
    }
    if (ok) await store.finishCall(id, { invoice: customer }, 5);
    else await store.failCall(id, "boom", 5);
    return id;
  };
  const a = await run("t1", "ACME", true, ["find", "create"]);
  await run("t1", "Initech", false, ["find"]);
  const b = await run("t2", "Globex", true, ["find"]);
  // Another version's run and a base call at top level are not runs of v1.
  await store.startCall({ traceId: "t2", tool: "make_invoice", kind: "distilled", args: {}, version: 2 });
  await store.appendCall({ traceId: "t2", tool: "find", kind: "base", args: {} }, { output: 1 }, 1);

  const runs = await store.liveRuns("make_invoice", 1, 10);
  assert.deepEqual(
    runs.map((r) => [r.trace, r.call, r.input, r.output, r.calls.map((c) => [c.tool, c.parentId])]),
    [
      ["t2", b, { customer: "Globex" }, { invoice: "Globex" }, [["find", b]]],
      [
        "t1",
        a,
        { customer: "ACME" },
        { invoice: "ACME" },
        [
          ["find", a],
          ["create", a],
        ],
      ],
    ],
  );
  assert.match(runs[0]!.at, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(
    (await store.liveRuns("make_invoice", 1, 1)).map((r) => r.call),
    [b],
  );
  // By reference: only runs still stored, of the trace named, that succeeded; in the order given.
  assert.deepEqual(
    (
      await store.liveRunsOf([
        { trace: "t1", call: a },
        { trace: "t1", call: b },
        { trace: "t2", call: b },
        { trace: "t1", call: a + 1 },
      ])
    ).map((r) => r.call),
    [a, b],
  );

  await store.createVersion(VERSION_INPUT);
  assert.deepEqual((await store.getVersion("make_invoice", 1))?.replayRuns, []);
  await store.setReplayRuns("make_invoice", 1, [{ trace: "t1", call: a }]);
  assert.deepEqual((await store.getVersion("make_invoice", 1))?.replayRuns, [{ trace: "t1", call: a }]);
});

test("transactions roll back on a throw and nest into the outer one", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await assert.rejects(
    store.transaction(async (tx) => {
      await tx.createTrace("t1", "task", "sdk");
      await tx.startCall({ traceId: "t1", tool: "x", kind: "base", args: {} });
      throw new Error("abort");
    }),
  );
  assert.equal(await store.getTrace("t1"), null);
  assert.equal((await store.getCalls("t1")).length, 0);
  await store.transaction((tx) => tx.createTrace("t1", "task", "sdk"));
  assert.equal((await store.getTrace("t1"))?.task, "task");
});

// ---- processes ------------------------------------------------------------------------------------

/** Resolves with the child's first stdout line. */
async function firstLine(child: ChildProcess): Promise<string> {
  let buffered = "";
  child.stdout!.setEncoding("utf8");
  for await (const chunk of child.stdout!) {
    buffered += chunk;
    const nl = buffered.indexOf("\n");
    if (nl >= 0) return buffered.slice(0, nl);
  }
  throw new Error(`the child ended before writing a line (exit ${child.exitCode})`);
}

function stderrOf(child: ChildProcess): () => string {
  let text = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

test("8 processes appending 200 calls each to one trace at once lose nothing", {
  timeout: 120_000,
}, async (t) => {
  const root = tempDir(t);
  const setup = SqliteRegistryStore.open(root);
  await setup.createTrace("shared", "concurrency", "sdk");
  await setup.close();

  const workers = Array.from({ length: 8 }, (_, w) =>
    spawn(process.execPath, [fixture("store-append.ts"), root, "shared", String(w), "200"], {
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  const errors = workers.map(stderrOf);
  t.after(() => {
    for (const w of workers) if (w.exitCode === null) w.kill("SIGKILL");
  });
  // Every worker has the store open before any of them writes.
  const ready = await Promise.all(workers.map(firstLine));
  assert.deepEqual(ready, Array(8).fill("ready"));
  const exits = workers.map((w) => once(w, "exit"));
  for (const w of workers) w.stdin.end("go\n");
  const codes = await Promise.all(exits);
  codes.forEach(([code], i) => {
    assert.equal(code, 0, `worker ${i}: ${errors[i]!()}`);
  });

  const store = SqliteRegistryStore.open(root);
  t.after(() => store.close());
  const calls = await store.getCalls("shared");
  assert.equal(calls.length, 1600);
  assert.deepEqual(
    calls.map((c) => c.seq),
    Array.from({ length: 1600 }, (_, i) => i + 1),
  );
  assert.equal(new Set(calls.map((c) => c.seq)).size, 1600);
  assert.ok(calls.every((c) => c.status === "ok"));
  // Each worker's own calls are all there, in its order.
  for (let w = 0; w < 8; w++) {
    const mine = calls.filter((c) => c.args["worker"] === w).map((c) => c.args["i"]);
    assert.deepEqual(
      mine,
      Array.from({ length: 200 }, (_, i) => i),
    );
  }
  assert.equal(await store.countTopLevelBaseCalls("shared"), 1600);
  assert.equal(await store.integrityCheck(), "ok");
});

test("a writer killed mid-transaction leaves an intact store without its rows", {
  timeout: 60_000,
}, async (t) => {
  const root = tempDir(t);
  const before = SqliteRegistryStore.open(root);
  await before.createTrace("kept", "committed before", "sdk");
  await before.close();

  const writer = spawn(process.execPath, [fixture("store-crash.ts"), root, "doomed"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const errors = stderrOf(writer);
  t.after(() => {
    if (writer.exitCode === null) writer.kill("SIGKILL");
  });
  assert.equal(await firstLine(writer).catch((err) => `${err.message}: ${errors()}`), "in-transaction");
  const exited = once(writer, "exit");
  writer.kill("SIGKILL");
  const [, signal] = await exited;
  assert.equal(signal, "SIGKILL");

  const store = SqliteRegistryStore.open(root);
  t.after(() => store.close());
  assert.equal(await store.integrityCheck(), "ok");
  assert.equal(await store.getTrace("doomed"), null);
  assert.equal((await store.getCalls("doomed")).length, 0);
  assert.equal((await store.getTrace("kept"))?.task, "committed before");
  // The write lock died with the writer: the store takes writes again at once.
  await store.createTrace("after", "after the crash", "sdk");
  assert.equal((await store.getTrace("after"))?.task, "after the crash");
});
