/**
 * The RegistryStore interface, the same tests on both implementations: the embedded SQLite store and a real
 * PostgreSQL server that this file starts (test/support/pg-server.ts). What differs between them is said where it does.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DistillError } from "../core/errors.ts";
import { type Engine, read } from "../core/store/engine.ts";
import { openRegistryStore } from "../core/store/registry-open.ts";
import type { RegistryChange, RegistryData } from "../core/store/registry-store.ts";
import { unknownDependenciesRead } from "../core/store/tables/dependencies.ts";
import { hashSource } from "../core/store/tool-files.ts";
import { silentLogger } from "../core/types.ts";
import { eventually, freshStore, KINDS, openStore, proposal, verdict } from "./registry-helpers.ts";

const usage = {
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: 2,
  cache_read_input_tokens: 1,
};

const isCode = (code: string) => (err: unknown) => err instanceof DistillError && err.code === code;

for (const kind of KINDS) {
  describe(`RegistryStore on ${kind}`, () => {
    test("a base call and what it says of its tool's health are one write", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createTrace("h", "", "sdk");
      const call = (n: number) => ({ traceId: "h", tool: "flaky", kind: "base" as const, args: { n } });
      await store.appendBaseCall(call(1), { error: "503", failure: "infrastructure" }, 1, {
        ok: false,
        error: "503",
      });
      await store.appendBaseCall(call(2), { error: "503", failure: "infrastructure" }, 1, {
        ok: false,
        error: "503 again",
      });
      let [health] = await store.baseHealth();
      assert.equal(health?.failures, 2);
      assert.equal(health?.consecutive, 2);
      assert.equal(health?.lastError, "503 again");
      // A refusal the host did not class as an outage counts nothing.
      await store.appendBaseCall(call(3), { error: "409", failure: "conflict" }, 1, null);
      [health] = await store.baseHealth();
      assert.equal(health?.consecutive, 2);
      await store.appendBaseCall(call(4), { output: "fine" }, 1, { ok: true });
      [health] = await store.baseHealth();
      assert.equal(health?.consecutive, 0);
      assert.equal(health?.failures, 2);
      assert.ok(health?.lastOkAt);
      assert.deepEqual(
        (await store.getCalls("h")).map((c) => [c.seq, c.status]),
        [
          [1, "error"],
          [2, "error"],
          [3, "error"],
          [4, "ok"],
        ],
      );
      // An answer of a tool that never failed writes no health row.
      await store.appendBaseCall({ ...call(5), tool: "steady" }, { output: 1 }, 1, { ok: true });
      assert.deepEqual(
        (await store.baseHealth()).map((h) => h.tool),
        ["flaky"],
      );
    });

    test("the start-up's read judges base tools an MCP server named after Object's own keys, or with quotes, by fingerprint alone", async (t) => {
      // An outside server names its tools: a name that is a key every object has, or that breaks out of a JSON
      // string, must neither pass for a tool that is there nor hide one whose definition changed.
      const { store } = await freshStore(t, kind);
      const { engine } = store as unknown as { engine: Engine };
      const deps: Record<string, [string, string][]> = {
        steady: [
          ["__proto__", "fp-a"],
          ['we"ird\\name', "fp-b"],
        ],
        changed: [["constructor", "fp-old"]],
        gone: [["toString", "fp-old"]],
      };
      for (const [name, tools] of Object.entries(deps)) {
        await store.createVersion(proposal(name));
        await store.setStatus({
          name,
          version: 1,
          expect: "draft",
          to: "verified",
          problems: [],
          reason: "t",
        });
        await store.setStatus({
          name,
          version: 1,
          expect: "verified",
          to: "active",
          problems: [],
          reason: "t",
        });
        await store.setDependencies(
          name,
          1,
          tools.map(([baseTool, fingerprint]) => ({ baseTool, fingerprint, avoided: false })),
        );
        await store.addVerifiedDefinitions(
          name,
          1,
          tools.map(([baseTool, fingerprint]) => ({ baseTool, fingerprint, definition: null })),
        );
      }
      const current = new Map([
        ["__proto__", "fp-a"],
        ['we"ird\\name', "fp-b"],
        ["constructor", "fp-new"],
      ]);
      const unknown = await read(
        engine,
        unknownDependenciesRead(engine.dialect, current, ["active", "suspect"]),
      );
      assert.deepEqual([...unknown].sort(), ["changed\u00001", "gone\u00001"]);
    });

    test("the start-up's one read finds the watched versions a current definition is new to", async (t) => {
      const { store } = await freshStore(t, kind);
      const { engine } = store as unknown as { engine: Engine };
      for (const name of ["steady", "changed", "gone", "draft"]) {
        await store.createVersion(proposal(name));
        if (name === "draft") continue;
        await store.setStatus({
          name,
          version: 1,
          expect: "draft",
          to: "verified",
          problems: [],
          reason: "t",
        });
        await store.setStatus({
          name,
          version: 1,
          expect: "verified",
          to: "active",
          problems: [],
          reason: "t",
        });
      }
      for (const name of ["steady", "changed", "gone", "draft"]) {
        await store.setDependencies(name, 1, [
          { baseTool: `${name}_tool`, fingerprint: "fp-old", avoided: false },
          // An avoided tool's definition does not matter: it is gone here and no version is judged by it.
          { baseTool: "avoided_tool", fingerprint: "fp-x", avoided: true },
        ]);
        await store.addVerifiedDefinitions(name, 1, [
          { baseTool: `${name}_tool`, fingerprint: "fp-old", definition: null },
        ]);
      }
      const current = new Map([
        ["steady_tool", "fp-old"],
        ["changed_tool", "fp-new"],
        ["draft_tool", "fp-new"],
      ]);
      const unknown = await read(
        engine,
        unknownDependenciesRead(engine.dialect, current, ["active", "suspect"]),
      );
      assert.deepEqual([...unknown].sort(), ["changed\u00001", "gone\u00001"]);
    });

    test("a call learnt afterwards goes in at its place: later calls move one on, new calls follow", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createTrace("late", "", "claude-code");
      for (const tool of ["a", "c"])
        await store.appendCall({ traceId: "late", tool, kind: "base", args: {} }, { output: tool }, 1);
      const b = await store.transaction((tx) =>
        tx.insertCallAt(
          { traceId: "late", tool: "b", kind: "base", args: {}, externalId: "toolu_b" },
          { error: "no" },
          null,
          2,
        ),
      );
      await store.startCall({ traceId: "late", tool: "d", kind: "base", args: {} });
      const calls = await store.getCalls("late");
      assert.deepEqual(
        calls.map((x) => [x.seq, x.tool, x.status]),
        [
          [1, "a", "ok"],
          [2, "b", "error"],
          [3, "c", "ok"],
          [4, "d", "started"],
        ],
      );
      assert.equal(calls[1]?.id, b);
      assert.equal((await store.getCallByExternalId("toolu_b", "late"))?.seq, 2);
    });

    test("traces: created once, read, listed newest first, updated, flagged", async (t) => {
      const { store } = await freshStore(t, kind);
      assert.equal(store.kind, kind);
      assert.equal(await store.isEmpty(), true);
      await store.createTrace("t1", "first task", "claude-code");
      await store.createTrace("t1", "ignored: the trace exists", "sdk");
      await store.createTrace("t2", "second", "sdk");
      await store.createTrace("u3", "third", "sdk");
      assert.equal(await store.isEmpty(), false);
      await store.setTask("t1", "the real task");
      assert.equal((await store.getTrace("t1"))?.outcome, null);
      await store.setOutcome("t1", true);
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
      assert.match(trace.startedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(trace.endedAt, ended, "the first end time is kept");
      assert.equal(await store.getTrace("nope"), null);

      assert.deepEqual(
        (await store.listTraces()).map((x) => x.id),
        ["u3", "t2", "t1"],
      );
      assert.deepEqual(
        (await store.listTraces(2)).map((x) => x.id),
        ["u3", "t2"],
      );
      assert.deepEqual(await store.traceIdsStartingWith("t"), ["t2", "t1"]);
      assert.deepEqual(await store.traceIdsStartingWith("t", 1), ["t2"]);
      assert.deepEqual(await store.traceIdsStartingWith("x"), []);

      assert.deepEqual(await store.getTraceFlags("t2"), {
        nudged: false,
        proposed: false,
        replaceName: null,
      });
      assert.deepEqual(await store.getTraceFlags("nope"), {
        nudged: false,
        proposed: false,
        replaceName: null,
      });
      assert.equal(await store.claimNudge("t2"), true);
      assert.equal(await store.claimNudge("t2"), false, "the nudge is taken once");
      await store.markProposed("t2");
      await store.setReplaceName("t2", "make_invoice");
      assert.deepEqual(await store.getTraceFlags("t2"), {
        nudged: true,
        proposed: true,
        replaceName: "make_invoice",
      });
    });

    test("the nudge goes to exactly one of many concurrent claimers", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const other = await openStore(t, location);
      await store.createTrace("t1", "task", "sdk");
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? store : other).claimNudge("t1")),
      );
      assert.equal(claims.filter(Boolean).length, 1);
    });

    test("calls: numbered in their trace, finished, failed, nested, looked up, counted", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createTrace("s1-0", "task", "sdk");
      await store.createTrace("s2-0", "task", "sdk");
      const a = await store.startCall({
        traceId: "s1-0",
        tool: "search",
        kind: "base",
        args: { q: "x" },
        externalId: "toolu_1",
      });
      await store.finishCall(a, { hits: [1, 2] }, 12.5);
      const b = await store.startCall({ traceId: "s1-0", tool: "search", kind: "base", args: { q: "y" } });
      await store.failCall(b, "boom", 3);
      const c = await store.startCall({
        traceId: "s1-0",
        tool: "make_invoice",
        kind: "distilled",
        args: {},
        version: 2,
      });
      const inner = await store.appendCall(
        { traceId: "s1-0", tool: "search", kind: "base", args: { q: "z" }, parentId: c },
        { output: null },
        1,
      );
      await store.finishCall(c, "done", 4);
      const started = await store.startCall({
        traceId: "s1-0",
        tool: "search",
        kind: "base",
        args: {},
        externalId: "toolu_2",
      });
      await store.appendCall(
        { traceId: "s1-0", tool: "Bash", kind: "other", args: {} },
        { error: "no" },
        null,
      );
      await store.startCall({
        traceId: "s2-0",
        tool: "search",
        kind: "base",
        args: {},
        externalId: "toolu_2",
      });

      const calls = await store.getCalls("s1-0");
      assert.deepEqual(
        calls.map((x) => [x.seq, x.tool, x.kind, x.status, x.parentId]),
        [
          [1, "search", "base", "ok", null],
          [2, "search", "base", "error", null],
          [3, "make_invoice", "distilled", "ok", null],
          [4, "search", "base", "ok", c],
          [5, "search", "base", "started", null],
          [6, "Bash", "other", "error", null],
        ],
      );
      assert.deepEqual(calls[0], {
        id: a,
        traceId: "s1-0",
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
      assert.equal(calls[2]!.output, "done");
      assert.equal(calls[3]!.id, inner);
      assert.equal(calls[3]!.output, null);
      assert.equal(calls[5]!.latencyMs, null);
      assert.equal((await store.getCalls("s2-0"))[0]!.seq, 1, "each trace numbers its own calls");
      assert.deepEqual(await store.getCalls("nope"), []);

      // Finished top-level base calls only: not the inner one, the started one or Bash.
      assert.equal(await store.countTopLevelBaseCalls("s1-0"), 2);
      assert.equal((await store.getCallByExternalId("toolu_1", "s1"))?.id, a);
      assert.equal(await store.getCallByExternalId("toolu_1", "s2"), null, "only within the given traces");
      assert.deepEqual(
        (await store.startedCallsByExternalId("toolu_2")).map((x) => x.traceId),
        ["s2-0", "s1-0"],
        "newest first, any trace",
      );

      await store.setCallKind(started, "distilled", 3);
      await store.setCallArgs(started, { q: "canonical", n: 1 });
      const changed = (await store.getCalls("s1-0"))[4]!;
      assert.deepEqual(
        [changed.kind, changed.version, changed.args],
        ["distilled", 3, { q: "canonical", n: 1 }],
      );
      await assert.rejects(store.startCall({ traceId: "nope", tool: "x", kind: "base", args: {} }));
    });

    test("calls: a distilled call's input as received is kept beside its canonical args, and live runs replay it", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createTrace("t1", "task", "sdk");
      const raw = '{"to":"JFK","from":"SFO","__proto__":{"x":1}}';
      const run = await store.startCall({
        traceId: "t1",
        tool: "book",
        kind: "distilled",
        version: 1,
        args: { cabin: "economy", from: "SFO", to: "JFK" },
        rawArgs: raw,
      });
      await store.finishCall(run, { ok: true }, 1);
      // A hook-recorded row completed later: the raw text comes with the canonical args.
      const hooked = await store.startCall({
        traceId: "t1",
        tool: "book",
        kind: "other",
        args: { to: "BOS" },
      });
      await store.setCallKind(hooked, "distilled", 1);
      await store.setCallArgs(hooked, { cabin: "economy", to: "BOS" }, '{"to":"BOS"}');
      await store.finishCall(hooked, { ok: true }, 1);
      // A row from before the column (or one whose text was lost) falls back to its args.
      const old = await store.startCall({
        traceId: "t1",
        tool: "book",
        kind: "distilled",
        version: 1,
        args: { to: "ORD" },
      });
      await store.finishCall(old, { ok: true }, 1);
      const runs = await store.liveRuns("book", 1, 10);
      assert.deepEqual(
        runs.map((r) => JSON.stringify(r.input)),
        ['{"to":"ORD"}', '{"to":"BOS"}', '{"to":"JFK","from":"SFO","__proto__":{"x":1}}'],
      );
      assert.ok(Object.hasOwn(runs[2]!.input, "__proto__"), "the key is the input's own, as parsed");
      const byRef = await store.liveRunsOf([{ trace: "t1", call: run }]);
      assert.equal(JSON.stringify(byRef[0]?.input), raw);
      // In the order asked, twice when asked twice; a ref naming another trace, or no call, finds nothing.
      const asked = await store.liveRunsOf([
        { trace: "t1", call: old },
        { trace: "t2", call: run },
        { trace: "t1", call: run },
        { trace: "t1", call: 999_999 },
        { trace: "t1", call: old },
      ]);
      assert.deepEqual(
        asked.map((r) => r.call),
        [old, run, old],
      );
      // Matching still reads the canonical args.
      assert.deepEqual((await store.getCalls("t1"))[0]?.args, { cabin: "economy", from: "SFO", to: "JFK" });
    });

    test("calls: outputs over max_output_bytes are clipped and the note says so", async (t) => {
      const { store } = await freshStore(t, kind, { maxOutputBytes: 64 });
      await store.createTrace("t1", "task", "sdk");
      const big = { text: "x".repeat(200) };
      const id = await store.startCall({
        traceId: "t1",
        tool: "read",
        kind: "base",
        args: {},
        note: "args noted",
      });
      await store.finishCall(id, big, 1);
      await store.appendCall(
        { traceId: "t1", tool: "read", kind: "base", args: {} },
        { error: "e".repeat(100) },
        1,
      );
      const [clipped, failed] = await store.getCalls("t1");
      assert.equal(clipped!.clipped, true);
      assert.match(String(clipped!.output), /^\{"text":"x{200}"\}… \[clipped\]$/);
      assert.match(clipped!.note!, /^args noted; output clipped: 211 bytes is over the 64 bytes cap/);
      assert.equal(failed!.error, `${"e".repeat(64)}… [clipped]`);
      assert.match(failed!.note!, /^error message clipped at 64 bytes/);
    });

    test("cached values", async (t) => {
      const { store } = await freshStore(t, kind);
      assert.equal(await store.getMeta("base-tools"), null);
      await store.setMeta("base-tools", '["a"]');
      await store.setMeta("base-tools", '["a","b"]');
      assert.equal(await store.getMeta("base-tools"), '["a","b"]');
    });

    test("versions: numbered per tool, with their code, history, verdicts, queue flags", async (t) => {
      const { store } = await freshStore(t, kind);
      const v1 = await store.createVersion(proposal("make_invoice", "a"));
      const v2 = await store.createVersion(proposal("make_invoice", "b"));
      const other = await store.createVersion(proposal("find_customer"));
      assert.deepEqual([v1.version, v2.version, other.version], [1, 2, 1]);
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
          description: "Does make_invoice.",
          inputSchema: { type: "object", properties: { customer: { type: "string" } } },
          testInputs: [{ customer: "ACME" }],
          sourceHash: hashSource("// a\nexport default 1;\n"),
          verdict: null,
          queuedRebuild: false,
          rebuildNote: null,
          createdAt: "",
          replayRuns: [],
        },
      );
      assert.deepEqual(await store.getVersion("make_invoice", 1), v1);
      assert.equal(await store.getVersion("make_invoice", 3), null);
      assert.equal(await store.readCode("make_invoice", 2), "// b\nexport default 1;\n");
      await assert.rejects(store.readCode("make_invoice", 9), isCode("NOT_FOUND"));
      assert.ok(store.codeLocation("make_invoice", 2).includes("make_invoice"));
      await assert.rejects(store.createVersion(proposal("Bad Name")), isCode("PROPOSAL_INVALID"));
      // The library's own tool names are refused by both engines alike (SQLite once checked only the pattern).
      await assert.rejects(store.createVersion(proposal("propose_distilled_tool")), (err: unknown) => {
        assert.ok(isCode("PROPOSAL_INVALID")(err));
        assert.match((err as Error).message, /'propose_distilled_tool' is reserved/);
        return true;
      });

      assert.deepEqual(
        (await store.listVersions()).map((v) => `${v.name} v${v.version}`),
        ["find_customer v1", "make_invoice v1", "make_invoice v2"],
      );
      assert.equal((await store.listVersions({ name: "make_invoice" })).length, 2);

      const change = { name: "make_invoice", version: 1, problems: [], reason: "all three checks passed" };
      assert.equal(
        await store.setStatus({ ...change, expect: "draft", to: "verified", evidence: { ok: 1 } }),
        true,
      );
      assert.equal(
        await store.setStatus({ ...change, expect: "draft", to: "verified" }),
        false,
        "a stale expectation writes nothing",
      );
      await store.setVerification("make_invoice", 1, verdict("make_invoice", 1), 1234);
      const verified = (await store.getVersion("make_invoice", 1))!;
      assert.deepEqual(
        [verified.status, verified.verdict, verified.baseline, verified.baselineTokens],
        ["verified", verdict("make_invoice", 1), 6, 1234],
      );
      assert.deepEqual(
        (await store.listVersions({ status: "verified" })).map((v) => v.version),
        [1],
      );
      assert.equal(await store.lastActivation("make_invoice", 1), 0);
      await store.setStatus({ ...change, expect: "verified", to: "active", reason: "promoted" });
      assert.ok((await store.lastActivation("make_invoice", 1)) > 0);
      await store.setStatus({
        ...change,
        expect: "active",
        to: "suspect",
        problems: ["schema_changed", "runtime_failure", "schema_changed"],
        reason: "schema changed",
      });
      assert.deepEqual((await store.getVersion("make_invoice", 1))!.problems, [
        "runtime_failure",
        "schema_changed",
      ]);
      await store.setQueuedRebuild("make_invoice", 1, true, "the schema changed");
      const queued = (await store.getVersion("make_invoice", 1))!;
      assert.deepEqual([queued.queuedRebuild, queued.rebuildNote], [true, "the schema changed"]);
      await store.setStatus({
        ...change,
        expect: "suspect",
        to: "deprecated",
        problems: queued.problems,
        reason: "replaced",
      });
      const deprecated = (await store.getVersion("make_invoice", 1))!;
      assert.deepEqual(
        [deprecated.status, deprecated.queuedRebuild, deprecated.rebuildNote],
        ["deprecated", false, null],
        "deprecating drops the rebuild queue flag in the same write",
      );

      const history = await store.getHistory("make_invoice", 1);
      assert.deepEqual(
        history.map((h) => [h.from, h.to, h.reason]),
        [
          [null, "draft", "proposed"],
          ["draft", "verified", "all three checks passed"],
          ["verified", "active", "promoted"],
          ["active", "suspect", "schema changed"],
          ["suspect", "deprecated", "replaced"],
        ],
      );
      assert.deepEqual(history[1]!.evidence, { ok: 1 });
      assert.equal(history[0]!.evidence, null);
      await store.addHistory({
        name: "make_invoice",
        version: 2,
        from: "draft",
        to: "draft",
        reason: "noted",
        evidence: [1],
      });
      assert.deepEqual(
        (await store.latestHistory()).map((h) => [h.name, h.version, h.to, h.reason]),
        [
          ["find_customer", 1, "draft", "proposed"],
          ["make_invoice", 1, "deprecated", "replaced"],
          ["make_invoice", 2, "draft", "noted"],
        ],
      );
    });

    test("dependencies and run counters", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createVersion(proposal("make_invoice"));
      await store.createVersion(proposal("find_customer"));
      await store.setDependencies("make_invoice", 1, [
        { baseTool: "crm__search", fingerprint: "f1", avoided: false },
        { baseTool: "billing__create", fingerprint: null, avoided: true },
      ]);
      await store.setDependencies("find_customer", 1, [
        { baseTool: "crm__search", fingerprint: "f1", avoided: false },
      ]);
      await store.setDependencies("make_invoice", 1, [
        { baseTool: "billing__create", fingerprint: "f2", avoided: false },
        { baseTool: "crm__search", fingerprint: "f1", avoided: true },
      ]);
      assert.deepEqual(await store.getDependencies("make_invoice", 1), [
        { name: "make_invoice", version: 1, baseTool: "billing__create", fingerprint: "f2", avoided: false },
        { name: "make_invoice", version: 1, baseTool: "crm__search", fingerprint: "f1", avoided: true },
      ]);
      assert.deepEqual(
        (await store.getDependencies()).map((d) => `${d.name}:${d.baseTool}`),
        ["find_customer:crm__search", "make_invoice:billing__create", "make_invoice:crm__search"],
      );
      await store.setDependencies("find_customer", 1, []);
      assert.deepEqual(await store.getDependencies("find_customer"), []);

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
      await store.recordRun({ name: "make_invoice", version: 1, outcome: "ok", innerCalls: 3 });
      await store.recordRun({ name: "make_invoice", version: 1, outcome: "tool", innerCalls: 2 });
      await store.recordRun({ name: "make_invoice", version: 1, outcome: "ok", innerCalls: 4 });
      // A refusal of the caller's input: its own outcome, which the demotion rule's reading leaves out.
      await store.recordRun({ name: "make_invoice", version: 1, outcome: "caller", innerCalls: 1 });
      assert.deepEqual(
        (await store.recentRuns("make_invoice", 1, 10, ["ok", "not_applicable", "tool"])).map(
          (r) => r.outcome,
        ),
        ["ok", "tool", "ok"],
      );
      assert.equal((await store.recentRuns("make_invoice", 1, 10)).at(0)?.outcome, "caller");
      const stats = await store.getRunStats("make_invoice", 1);
      assert.deepEqual(
        { ...stats, lastRunAt: null },
        {
          name: "make_invoice",
          version: 1,
          runs: 4,
          successes: 2,
          failures: 2,
          notApplicable: 0,
          innerCalls: 10,
          lastRunAt: null,
        },
      );
      assert.match(stats.lastRunAt!, /Z$/);
    });

    test("a failed base call keeps the host's class of its error; a declared run is a success", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createTrace("t1", "task", "sdk");
      const call = { traceId: "t1", tool: "accounts_create", kind: "base" as const, args: { email: "a@x" } };
      await store.appendCall(call, { error: "exists", failure: "conflict" }, 1);
      await store.appendCall(call, { error: "503 Service Unavailable" }, 1);
      await store.appendCall(call, { output: { id: "a" } }, 1);
      assert.deepEqual(
        (await store.getCalls("t1")).map((c) => [c.status, c.failure]),
        [
          ["error", "conflict"],
          ["error", null],
          ["ok", null],
        ],
      );
      await store.createVersion(proposal("make_invoice", "a"));
      const evidence = {
        declared: [{ step: 1, tool: "accounts_create", outcome: "conflict", error: "exists" }],
      };
      await store.recordRun({
        name: "make_invoice",
        version: 1,
        outcome: "declared",
        innerCalls: 2,
        evidence,
      });
      const [run] = await store.recentRuns("make_invoice", 1, 5, ["declared"]);
      assert.deepEqual([run?.outcome, run?.evidence], ["declared", evidence]);
      const stats = await store.getRunStats("make_invoice", 1);
      assert.deepEqual([stats.runs, stats.successes, stats.failures], [1, 1, 0]);
    });

    test("16 proposals of one tool from 16 handles at once get 16 consecutive numbers", async (t) => {
      const { location } = await freshStore(t, kind);
      const handles = await Promise.all(
        Array.from({ length: 16 }, () => openStore(t, location, { poolSize: 1 })),
      );
      const created = await Promise.all(
        handles.map((h, i) => h.createVersion(proposal("make_invoice", `w${i}`))),
      );
      const numbers = (list: { version: number }[]) => list.map((v) => v.version).sort((a, b) => a - b);
      const expected = Array.from({ length: 16 }, (_, i) => i + 1);
      assert.deepEqual(numbers(created), expected);
      const store = handles[0]!;
      assert.deepEqual(numbers(await store.listVersions({ name: "make_invoice" })), expected);
      for (const v of created) {
        // Each number holds the code of the proposal that got it, and exactly one history row.
        assert.equal(hashSource(await store.readCode(v.name, v.version)), v.sourceHash);
        assert.deepEqual(
          (await store.getHistory(v.name, v.version)).map((h) => h.to),
          ["draft"],
        );
      }
    });

    test("a write on one handle waits for another handle's open transaction in the same process", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const other = await openStore(t, location);
      const order: string[] = [];
      let began!: () => void;
      const inside = new Promise<void>((resolve) => {
        began = resolve;
      });
      const held = store.transaction(async (tx) => {
        await tx.setMeta("k", "from the transaction");
        began();
        // The other handle's write is issued while this transaction is open and still awaiting.
        await new Promise((resolve) => setTimeout(resolve, 100));
        order.push("committed");
      });
      await inside;
      const write = other.setMeta("k", "from the other handle").then(() => order.push("written"));
      await Promise.all([held, write]);
      assert.deepEqual(order, ["committed", "written"]);
      assert.equal(await store.getMeta("k"), "from the other handle");
    });

    test("a transaction commits once: nothing is seen elsewhere before it ends", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const reader = await openStore(t, location);
      const seen = await store.transaction(async (tx) => {
        await tx.createTrace("t1", "task", "sdk");
        await tx.appendCall({ traceId: "t1", tool: "a", kind: "base", args: {} }, { output: 1 }, 1);
        const v = await tx.createVersion(proposal("make_invoice"));
        await tx.setStatus({
          name: v.name,
          version: 1,
          expect: "draft",
          to: "verified",
          problems: [],
          reason: "ok",
        });
        // Inside: the transaction sees its own writes; another connection sees none of them yet.
        assert.equal((await tx.getVersion("make_invoice", 1))?.status, "verified");
        const joined = await tx.transaction(async (inner) => (await inner.getTrace("t1"))?.task);
        assert.equal(joined, "task", "a nested transaction joins the open one");
        return [await reader.getTrace("t1"), await reader.listVersions()];
      });
      assert.deepEqual(seen, [null, []]);
      assert.equal((await reader.getCalls("t1")).length, 1);
      assert.equal((await reader.getVersion("make_invoice", 1))?.status, "verified");
      assert.equal((await reader.getHistory("make_invoice", 1)).length, 2);
    });

    test("a transaction that throws writes nothing, and its error comes out as it was thrown", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createTrace("t0", "kept", "sdk");
      const boom = new Error("boom");
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.createTrace("t1", "task", "sdk");
          await tx.setTask("t0", "changed");
          await tx.createVersion(proposal("make_invoice"));
          throw boom;
        }),
        (err) => err === boom,
      );
      assert.equal(await store.getTrace("t1"), null);
      assert.equal((await store.getTrace("t0"))?.task, "kept");
      assert.deepEqual(await store.listVersions(), []);
      assert.deepEqual(await store.latestHistory(), []);
      // The numbering did not move: the next proposal is v1.
      assert.equal((await store.createVersion(proposal("make_invoice"))).version, 1);
    });

    test("inside a transaction, the store itself and an ended transaction are refused", async (t) => {
      const { store } = await freshStore(t, kind);
      let kept: RegistryData | undefined;
      await assert.rejects(
        store.transaction(async (tx) => {
          kept = tx;
          await store.getTrace("t1");
        }),
        (err) => isCode("USAGE")(err) && /inside its own transaction/.test((err as Error).message),
      );
      await assert.rejects(
        store.transaction(() => store.withToolLock("make_invoice", async () => 1)),
        isCode("USAGE"),
      );
      await assert.rejects(kept!.getTrace("t1"), isCode("USAGE"));
      // Concurrent transactions of one store queue (SQLite) or run side by side (PostgreSQL); both commit.
      await Promise.all(
        ["a", "b", "c"].map((id) => store.transaction((tx) => tx.createTrace(id, id, "sdk"))),
      );
      assert.equal((await store.listTraces()).length, 3);
    });

    test("a promotion in one transaction: the new version active first, then the old one deprecated", async (t) => {
      const { store } = await freshStore(t, kind);
      for (const tag of ["a", "b"]) {
        const v = await store.createVersion(proposal("make_invoice", tag));
        await store.setStatus({
          name: v.name,
          version: v.version,
          expect: "draft",
          to: "verified",
          problems: [],
          reason: "ok",
        });
      }
      await store.setStatus({
        name: "make_invoice",
        version: 1,
        expect: "verified",
        to: "active",
        problems: [],
        reason: "promoted",
      });
      // versions.ts's activation writes in this order; the one-active rule holds at COMMIT, not per statement.
      await store.transaction(async (tx) => {
        assert.ok(
          await tx.setStatus({
            name: "make_invoice",
            version: 2,
            expect: "verified",
            to: "active",
            problems: [],
            reason: "promoted",
          }),
        );
        assert.ok(
          await tx.setStatus({
            name: "make_invoice",
            version: 1,
            expect: "active",
            to: "deprecated",
            problems: [],
            reason: "replaced by v2",
          }),
        );
      });
      assert.deepEqual(
        (await store.listVersions()).map((v) => v.status),
        ["deprecated", "active"],
      );
    });

    test("a second active version of a tool", async (t) => {
      const { store, location } = await freshStore(t, kind);
      for (const tag of ["a", "b"]) {
        const v = await store.createVersion(proposal("make_invoice", tag));
        await store.setStatus({
          name: v.name,
          version: v.version,
          expect: "draft",
          to: "verified",
          problems: [],
          reason: "ok",
        });
      }
      await store.setStatus({
        name: "make_invoice",
        version: 1,
        expect: "verified",
        to: "active",
        problems: [],
        reason: "promoted",
      });
      const second = store.setStatus({
        name: "make_invoice",
        version: 2,
        expect: "verified",
        to: "active",
        problems: [],
        reason: "promoted without replacing v1",
      });
      if (kind === "postgres") {
        // Refused by the database itself (the exclusion constraint), whatever the code does.
        await assert.rejects(
          second,
          (err) => isCode("TRANSITION")(err) && /second active version/.test((err as Error).message),
        );
        assert.deepEqual(
          (await store.listVersions()).map((v) => v.status),
          ["active", "verified"],
        );
        assert.equal(
          (await store.getHistory("make_invoice", 2)).length,
          2,
          "no history row for the refused change",
        );
      } else {
        // SQLite cannot defer a unique index to COMMIT, and promotion writes the new active version first: here
        // the rule is the code's (one transaction) and the open check's, which repairs it when the store opens.
        assert.equal(await second, true);
        await store.close();
        const reopened = await openStore(t, location);
        assert.deepEqual(
          (await reopened.listVersions()).map((v) => v.status),
          ["deprecated", "active"],
          "the open check keeps the version that became active last",
        );
      }
    });

    test("tool locks serialise work on one tool across two handles, and not across tools", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const other = await openStore(t, location);
      const events: string[] = [];
      const work = (who: string, name: string) => async () => {
        events.push(`${who} in ${name}`);
        await new Promise((r) => setTimeout(r, 150));
        events.push(`${who} out ${name}`);
        return who;
      };
      const results = await Promise.all([
        store.withToolLock("make_invoice", work("a", "make_invoice")),
        other.withToolLock("make_invoice", work("b", "make_invoice")),
        store.withToolLock("make_invoice", work("c", "make_invoice")),
      ]);
      assert.deepEqual(results, ["a", "b", "c"]);
      // Never two holders inside at once.
      for (let i = 0; i < events.length; i += 2) {
        assert.equal(events[i]!.replace(" in ", " out "), events[i + 1], `overlap in ${events.join(", ")}`);
      }
      // Different tools do not wait for each other; the same flow may take its lock again.
      const order: string[] = [];
      await Promise.all([
        store.withToolLock("slow_tool", async () => {
          await eventually("the other tool's lock", () => (order.includes("fast") ? true : undefined));
          order.push("slow");
        }),
        other.withToolLock("fast_tool", async () => {
          order.push("fast");
        }),
      ]);
      assert.deepEqual(order, ["fast", "slow"]);
      assert.equal(await store.withToolLock("x_tool", () => store.withToolLock("x_tool", async () => 7)), 7);
      // A throw releases the lock.
      await assert.rejects(
        store.withToolLock("y_tool", async () => Promise.reject(new Error("no"))),
        /no/,
      );
      assert.equal(await other.withToolLock("y_tool", async () => "free"), "free");
    });

    test("a tool lock held by a process that is killed is released", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const holder = spawn(
        process.execPath,
        [fileURLToPath(new URL("./fixtures/hold-tool-lock.ts", import.meta.url)), location, "make_invoice"],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      t.after(() => holder.kill("SIGKILL"));
      const [line] = (await once(holder.stdout!, "data")) as [Buffer];
      assert.equal(line.toString().trim(), "locked");
      let got = false;
      const waiting = store.withToolLock("make_invoice", async () => {
        got = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(got, false, "the lock is held by the other process");
      holder.kill("SIGKILL");
      await waiting;
      assert.equal(got, true);
    });

    test("changes committed by another handle are heard; rolled back ones are not", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const other = await openStore(t, location);
      const heard: RegistryChange[] = [];
      const stop = await store.onChange((c) => heard.push(c));
      await other.createVersion(proposal("make_invoice"));
      await assert.rejects(
        other.transaction(async (tx) => {
          await tx.setStatus({
            name: "make_invoice",
            version: 1,
            expect: "draft",
            to: "verified",
            problems: [],
            reason: "x",
          });
          throw new Error("rolled back");
        }),
      );
      const started = Date.now();
      await other.transaction(async (tx) => {
        await tx.setStatus({
          name: "make_invoice",
          version: 1,
          expect: "draft",
          to: "verified",
          problems: [],
          reason: "ok",
        });
        await tx.setStatus({
          name: "make_invoice",
          version: 1,
          expect: "verified",
          to: "active",
          problems: [],
          reason: "promoted",
        });
      });
      await eventually("the promotion", () =>
        heard.some((c) => c.type === "status" && c.to === "active") ? true : undefined,
      );
      t.diagnostic(`${kind}: heard the promotion ${Date.now() - started} ms after its commit began`);
      assert.deepEqual(
        heard.map((c) => (c.type === "status" ? `${c.name} v${c.version} ${c.from}→${c.to}` : c.type)),
        ["make_invoice v1 null→draft", "make_invoice v1 draft→verified", "make_invoice v1 verified→active"],
      );
      // The store's own changes are heard too, and nothing after stop().
      await store.setStatus({
        name: "make_invoice",
        version: 1,
        expect: "active",
        to: "deprecated",
        problems: [],
        reason: "done",
      });
      await eventually("the own change", () => (heard.length === 4 ? true : undefined));
      await stop();
      await other.createVersion(proposal("make_invoice", "2"));
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(heard.length, 4);
    });

    test("read-only: reads work, writes are refused, nothing is created", async (t) => {
      const { store, location } = await freshStore(t, kind);
      await store.createTrace("t1", "task", "sdk");
      const reader = await openStore(t, location, { readOnly: true });
      assert.equal(reader.readOnly, true);
      assert.equal((await reader.getTrace("t1"))?.task, "task");
      await assert.rejects(reader.createTrace("t2", "task", "sdk"), isCode("STORE"));
      assert.equal(await store.getTrace("t2"), null);
    });

    test("openRegistryStore refuses a URL of another kind, naming the setting", async () => {
      await assert.rejects(
        openRegistryStore("mysql://db.example/registry", { logger: silentLogger }),
        (err) =>
          isCode("CONFIG_INVALID")(err) &&
          /^store: in tooldistill\.yaml is a mysql:\/\/ URL/.test((err as Error).message),
      );
    });
  });
}
