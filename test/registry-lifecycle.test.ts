/**
 * The RegistryStore methods of the lifecycle for agents that write (issue 12) and of verification evidence (issue
 * 13), the same tests on both engines: live runs with their outcomes and counters, base tool health, the
 * definitions a version was verified against, replay runs, live runs read back, one code one version, pruning,
 * and rejected attempts that use up no number, also under concurrent proposers.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, test } from "node:test";
import { DistillError } from "../core/errors.ts";
import type { StatusChange } from "../core/store/records.ts";
import type { RegistryChange, RegistryData } from "../core/store/registry-store.ts";
import { hashSource } from "../core/store/tool-files.ts";
import type { Status, ToolDef } from "../core/types.ts";
import { eventually, freshStore, KINDS, openStore, proposal, verdict } from "./registry-helpers.ts";

const isCode = (code: string) => (err: unknown) => err instanceof DistillError && err.code === code;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Moves a version along `path` (each step guarded by the one before), as the lifecycle would. */
async function move(store: RegistryData, name: string, version: number, path: Status[]): Promise<void> {
  for (let i = 1; i < path.length; i++) {
    const change: StatusChange = {
      name,
      version,
      expect: path[i - 1]!,
      to: path[i]!,
      problems: [],
      reason: `to ${path[i]}`,
    };
    assert.ok(await store.setStatus(change), `${name} v${version}: ${path[i - 1]} → ${path[i]}`);
    if (path[i] !== "draft") await store.setVerification(name, version, verdict(name, version), null);
  }
}

const def = (name: string, description: string): ToolDef => ({
  name,
  description,
  input_schema: { type: "object", properties: { q: { type: "string" } } },
});

for (const kind of KINDS) {
  describe(`RegistryStore lifecycle methods on ${kind}`, () => {
    test("runs: every outcome recorded with its evidence and counted in one transaction", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createVersion(proposal("make_invoice", "a"));
      await store.createVersion(proposal("make_invoice", "b"));
      await store.createTrace("t1", "task", "sdk");
      const evidence = { kind: "tool", cause: "tool", message: "402 \u00e9\u{1F600} \ud800", step: 2 };
      const outcomes = ["ok", "not_applicable", "tool", "infrastructure", "host", "ok"] as const;
      for (const [i, outcome] of outcomes.entries()) {
        await store.recordRun({
          name: "make_invoice",
          version: 1,
          outcome,
          innerCalls: i,
          traceId: "t1",
          callId: 100 + i,
          evidence: outcome === "ok" ? undefined : { ...evidence, i },
        });
      }
      await store.recordRun({ name: "make_invoice", version: 2, outcome: "tool", innerCalls: 7 });

      const stats = await store.getRunStats("make_invoice", 1);
      assert.match(stats.lastRunAt!, ISO);
      assert.deepEqual(
        { ...stats, lastRunAt: null },
        {
          name: "make_invoice",
          version: 1,
          runs: 6,
          successes: 2,
          failures: 3,
          notApplicable: 1,
          innerCalls: 15,
          lastRunAt: null,
        },
      );
      const recent = await store.recentRuns("make_invoice", 1, 10);
      assert.deepEqual(
        recent.map((r) => [r.outcome, r.innerCalls, r.callId]),
        [
          ["ok", 5, 105],
          ["host", 4, 104],
          ["infrastructure", 3, 103],
          ["tool", 2, 102],
          ["not_applicable", 1, 101],
          ["ok", 0, 100],
        ],
        "newest first, this version's only",
      );
      assert.match(recent[0]!.at, ISO);
      assert.deepEqual(
        { ...recent[3]!, at: "" },
        {
          name: "make_invoice",
          version: 1,
          outcome: "tool",
          traceId: "t1",
          callId: 102,
          innerCalls: 2,
          evidence: { ...evidence, i: 2 },
          at: "",
        },
        "the evidence comes back exactly, foreign text included",
      );
      assert.equal(recent[0]!.evidence, null);
      assert.equal(recent[0]!.at, stats.lastRunAt, "the run and its counters carry one time");
      assert.deepEqual(
        (await store.recentRuns("make_invoice", 1, 2)).map((r) => r.callId),
        [105, 104],
      );
      assert.deepEqual(
        (await store.recentRuns("make_invoice", 1, 10, ["tool", "host"])).map((r) => r.outcome),
        ["host", "tool"],
      );
      assert.deepEqual(
        (await store.recentRuns("make_invoice", 1, 1, ["tool", "infrastructure"])).map((r) => r.callId),
        [103],
      );
      assert.deepEqual(await store.recentRuns("make_invoice", 1, 10, []), []);
      const other = await store.recentRuns("make_invoice", 2, 10);
      assert.deepEqual(
        other.map((r) => [r.outcome, r.traceId, r.callId, r.evidence]),
        [["tool", null, null, null]],
      );
      assert.deepEqual(await store.recentRuns("make_invoice", 3, 10), []);

      // The run row and its counters are one write: a transaction that fails keeps neither.
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.recordRun({ name: "make_invoice", version: 2, outcome: "ok", innerCalls: 1 });
          throw new Error("boom");
        }),
        /boom/,
      );
      assert.equal((await store.getRunStats("make_invoice", 2)).runs, 1);
      assert.equal((await store.recentRuns("make_invoice", 2, 10)).length, 1);
    });

    test("runs recorded by several handles at once all count", async (t) => {
      const { store, location } = await freshStore(t, kind);
      await store.createVersion(proposal("make_invoice"));
      const handles = [store, ...(await Promise.all([1, 2, 3].map(() => openStore(t, location))))];
      await Promise.all(
        handles.flatMap((h, i) =>
          Array.from({ length: 5 }, (_, j) =>
            h.recordRun({
              name: "make_invoice",
              version: 1,
              outcome: j % 2 ? "not_applicable" : "ok",
              innerCalls: i,
            }),
          ),
        ),
      );
      const stats = await store.getRunStats("make_invoice", 1);
      assert.deepEqual(
        [stats.runs, stats.successes, stats.notApplicable, stats.failures, stats.innerCalls],
        [20, 12, 8, 0, 30],
      );
      assert.equal((await store.recentRuns("make_invoice", 1, 100)).length, 20);
    });

    test("base tool health: infrastructure failures, answers and probes", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.recordBaseHealth("crm__search", true);
      assert.deepEqual(await store.baseHealth(), [], "a healthy answer of an unknown tool writes nothing");
      await store.recordBaseHealth("crm__search", false, "ECONNREFUSED");
      await store.recordBaseHealth("crm__search", false, "503 unavailable");
      await store.recordProbe("billing__create", false);
      const failing = await store.baseHealth();
      assert.deepEqual(
        failing.map((h) => ({
          ...h,
          lastFailureAt: h.lastFailureAt && "set",
          probedAt: h.probedAt && "set",
        })),
        [
          {
            tool: "billing__create",
            failures: 0,
            consecutive: 0,
            lastError: null,
            lastFailureAt: null,
            lastOkAt: null,
            probeOk: false,
            probedAt: "set",
          },
          {
            tool: "crm__search",
            failures: 2,
            consecutive: 2,
            lastError: "503 unavailable",
            lastFailureAt: "set",
            lastOkAt: null,
            probeOk: null,
            probedAt: null,
          },
        ],
      );
      assert.match(failing[1]!.lastFailureAt!, ISO);

      await store.recordBaseHealth("crm__search", true);
      const answered = (await store.baseHealth())[1]!;
      assert.deepEqual(
        [answered.failures, answered.consecutive, answered.lastError],
        [2, 0, "503 unavailable"],
        "an answer ends the run of failures and keeps the count",
      );
      assert.match(answered.lastOkAt!, ISO);
      await store.recordBaseHealth("crm__search", true);
      assert.deepEqual((await store.baseHealth())[1], answered, "a healthy tool's answer changes nothing");

      await store.recordBaseHealth("crm__search", false, "timeout");
      await store.recordProbe("crm__search", false);
      assert.equal((await store.baseHealth())[1]!.consecutive, 1, "a failed probe keeps the failures");
      await store.recordProbe("crm__search", true);
      const probed = (await store.baseHealth())[1]!;
      assert.deepEqual([probed.consecutive, probed.failures, probed.probeOk], [0, 3, true]);
    });

    test("verified definitions: a version's set grows, a known fingerprint gains its text once", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createVersion(proposal("make_invoice", "a"));
      await store.createVersion(proposal("make_invoice", "b"));
      await store.createVersion(proposal("find_customer"));
      const search = def("crm__search", "Searches \u00e9\u{1F600} \ud800 the CRM.");
      await store.addVerifiedDefinitions("make_invoice", 1, [
        { baseTool: "crm__search", fingerprint: "f1", definition: null },
        { baseTool: "billing__create", fingerprint: "b1", definition: def("billing__create", "Bills.") },
      ]);
      await store.addVerifiedDefinitions("make_invoice", 1, [
        { baseTool: "crm__search", fingerprint: "f1", definition: search },
        { baseTool: "crm__search", fingerprint: "f2", definition: def("crm__search", "v2") },
        {
          baseTool: "crm__search",
          fingerprint: "f2",
          definition: def("crm__search", "ignored: f2 has text"),
        },
      ]);
      await store.addVerifiedDefinitions("make_invoice", 1, [
        { baseTool: "billing__create", fingerprint: "b1", definition: def("billing__create", "ignored") },
      ]);
      await store.addVerifiedDefinitions("find_customer", 1, [
        { baseTool: "crm__search", fingerprint: "f1", definition: null },
      ]);
      await store.addVerifiedDefinitions("make_invoice", 2, []);

      const mine = await store.verifiedDefinitions("make_invoice", 1);
      for (const d of mine) assert.match(d.verifiedAt, ISO);
      assert.deepEqual(
        mine.map((d) => [d.baseTool, d.fingerprint, d.definition]),
        [
          ["billing__create", "b1", def("billing__create", "Bills.")],
          ["crm__search", "f1", search],
          ["crm__search", "f2", def("crm__search", "v2")],
        ],
      );
      assert.deepEqual(await store.verifiedDefinitions("make_invoice", 2), []);
      assert.deepEqual(
        (await store.verifiedDefinitions()).map((d) => `${d.name} v${d.version} ${d.fingerprint}`),
        ["find_customer v1 f1", "make_invoice v1 b1", "make_invoice v1 f1", "make_invoice v1 f2"],
      );
      assert.deepEqual(
        (await store.verifiedDefinitions("make_invoice")).map((d) => d.fingerprint),
        ["b1", "f1", "f2"],
      );
    });

    test("replay runs and live runs: recorded refs, the newest successful runs with their inner calls", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createVersion(proposal("make_invoice"));
      await store.createTrace("t1", "task", "sdk");
      await store.createTrace("t2", "task", "sdk");
      const run = async (trace: string, version: number, input: Record<string, unknown>, ok: boolean) => {
        const id = await store.startCall({
          traceId: trace,
          tool: "make_invoice",
          kind: "distilled",
          args: input,
          version,
        });
        const a = await store.appendCall(
          { traceId: trace, tool: "crm__search", kind: "base", args: { q: input["c"] }, parentId: id },
          { output: { id: 7 } },
          1,
        );
        const b = await store.appendCall(
          { traceId: trace, tool: "billing__create", kind: "base", args: { id: 7 }, parentId: id },
          { error: "402" },
          1,
        );
        if (ok) await store.finishCall(id, { invoice: input["c"] }, 3);
        else await store.failCall(id, "failed", 3);
        return { id, inner: [a, b] };
      };
      const first = await run("t1", 1, { c: "ACME" }, true);
      await store.appendCall(
        { traceId: "t1", tool: "crm__search", kind: "base", args: {} },
        { output: 1 },
        1,
      );
      const failed = await run("t1", 1, { c: "FAIL" }, false);
      const second = await run("t2", 1, { c: "Globex" }, true);
      const otherVersion = await run("t2", 2, { c: "v2" }, true);

      const live = await store.liveRuns("make_invoice", 1, 10);
      assert.deepEqual(
        live.map((r) => [r.trace, r.call, r.version, r.input, r.output]),
        [
          ["t2", second.id, 1, { c: "Globex" }, { invoice: "Globex" }],
          ["t1", first.id, 1, { c: "ACME" }, { invoice: "ACME" }],
        ],
        "successful runs of this version only, newest first",
      );
      assert.match(live[0]!.at, ISO);
      assert.deepEqual(
        live[1]!.calls.map((c) => [c.id, c.tool, c.status, c.parentId, c.args]),
        [
          [first.inner[0], "crm__search", "ok", first.id, { q: "ACME" }],
          [first.inner[1], "billing__create", "error", first.id, { id: 7 }],
        ],
        "each with the base calls made inside it, in order",
      );
      assert.deepEqual(
        (await store.liveRuns("make_invoice", 1, 1)).map((r) => r.call),
        [second.id],
      );
      assert.deepEqual(await store.liveRuns("make_invoice", 3, 10), []);

      const refs = [
        { trace: "t1", call: first.id },
        { trace: "t2", call: otherVersion.id },
        { trace: "t2", call: first.id },
        { trace: "t1", call: failed.id },
        { trace: "t1", call: 999_999 },
        { trace: "t2", call: second.id },
      ];
      const of = await store.liveRunsOf(refs);
      assert.deepEqual(
        of.map((r) => [r.trace, r.call, r.version, r.calls.length]),
        [
          ["t1", first.id, 1, 2],
          ["t2", otherVersion.id, 2, 2],
          ["t2", second.id, 1, 2],
        ],
        "in the order given; a ref to the wrong trace, a failed run or a missing call is left out",
      );
      assert.deepEqual(of[0], live[1]);
      assert.deepEqual(await store.liveRunsOf([]), []);

      assert.deepEqual((await store.getVersion("make_invoice", 1))!.replayRuns, []);
      await store.setReplayRuns("make_invoice", 1, [
        { trace: "t2", call: second.id },
        { trace: "t1", call: first.id, extra: "dropped" } as never,
      ]);
      const replayRuns = (await store.getVersion("make_invoice", 1))!.replayRuns;
      assert.deepEqual(replayRuns, [
        { trace: "t2", call: second.id },
        { trace: "t1", call: first.id },
      ]);
      assert.deepEqual(
        (await store.liveRunsOf(replayRuns)).map((r) => r.call),
        [second.id, first.id],
      );
      assert.deepEqual((await store.listVersions())[0]!.replayRuns, replayRuns);
    });

    test("one code, one version: the oldest version with the code that is not rejected", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createVersion(proposal("make_invoice", "a"));
      await store.createVersion(proposal("make_invoice", "x"));
      await move(store, "make_invoice", 1, ["draft", "rejected"]);
      const a = hashSource(proposal("make_invoice", "a").code);
      assert.equal(await store.versionWithCode("make_invoice", a), null, "a rejected version does not count");
      assert.equal((await store.createVersion(proposal("make_invoice", "a"))).version, 3);
      assert.equal((await store.createVersion(proposal("make_invoice", "a"))).version, 4);
      const found = await store.versionWithCode("make_invoice", a);
      assert.deepEqual(found, await store.getVersion("make_invoice", 3));
      assert.equal(
        (await store.versionWithCode("make_invoice", hashSource(proposal("make_invoice", "x").code)))
          ?.version,
        2,
      );
      assert.equal(await store.versionWithCode("find_customer", a), null);
      assert.equal(await store.versionWithCode("make_invoice", hashSource("nothing")), null);
    });

    test("a rejected attempt uses up no number: the next proposal takes it, with nothing of the old one", async (t) => {
      const { store } = await freshStore(t, kind);
      await store.createTrace("t1", "task", "sdk");
      await store.createVersion(proposal("make_invoice", "a"));
      await store.createVersion(proposal("make_invoice", "b"));
      await move(store, "make_invoice", 2, ["draft", "rejected"]);
      await store.recordRun({ name: "make_invoice", version: 2, outcome: "tool", innerCalls: 1 });
      await store.addVerifiedDefinitions("make_invoice", 2, [
        { baseTool: "crm__search", fingerprint: "f1", definition: null },
      ]);
      await store.setDependencies("make_invoice", 2, [
        { baseTool: "crm__search", fingerprint: "f1", avoided: false },
      ]);

      const again = await store.createVersion(proposal("make_invoice", "c"));
      assert.equal(again.version, 2);
      assert.equal(again.status, "draft");
      assert.equal(again.verdict, null);
      assert.equal(await store.readCode("make_invoice", 2), proposal("make_invoice", "c").code);
      assert.deepEqual(
        (await store.getHistory("make_invoice", 2)).map((h) => [h.from, h.to]),
        [[null, "draft"]],
      );
      assert.equal((await store.getRunStats("make_invoice", 2)).runs, 0);
      assert.deepEqual(await store.recentRuns("make_invoice", 2, 10), []);
      assert.deepEqual(await store.verifiedDefinitions("make_invoice", 2), []);
      assert.deepEqual(await store.getDependencies("make_invoice", 2), []);
      // A rejected attempt that a person verified after all is a version again: the next number is after it.
      await move(store, "make_invoice", 2, ["draft", "rejected", "verified"]);
      assert.equal((await store.createVersion(proposal("make_invoice", "d"))).version, 3);
    });

    test("concurrent proposers that reject some attempts: distinct numbers, no gaps, rejected numbers reused", async (t) => {
      const { store: first, location } = await freshStore(t, kind);
      const handles = await Promise.all(
        Array.from({ length: 8 }, () => openStore(t, location, { poolSize: 1 })),
      );
      // A rejected v2 under eight proposers at once: one of them takes 2 again, the others 3 to 9.
      await first.createVersion(proposal("make_invoice", "first"));
      await first.createVersion(proposal("make_invoice", "failed"));
      await move(first, "make_invoice", 2, ["draft", "rejected"]);
      const wave = await Promise.all(
        handles.map((h, i) => h.createVersion(proposal("make_invoice", `wave${i}`))),
      );
      assert.deepEqual(
        wave.map((v) => v.version).sort((a, b) => a - b),
        [2, 3, 4, 5, 6, 7, 8, 9],
      );
      const two = (await first.getVersion("make_invoice", 2))!;
      assert.equal(two.status, "draft");
      assert.equal(two.sourceHash, wave.find((v) => v.version === 2)!.sourceHash);

      // Then proposers that reject half of their attempts as they go.
      const kept: { version: number; sourceHash: string }[] = [...wave, { version: 1, sourceHash: "" }];
      const rejected: { version: number; sourceHash: string }[] = [];
      await Promise.all(
        handles.map(async (h, i) => {
          for (let round = 0; round < 3; round++) {
            const v = await h.createVersion(proposal("make_invoice", `w${i}r${round}`));
            if ((i + round) % 2 === 0) {
              await move(h, v.name, v.version, ["draft", "rejected"]);
              rejected.push(v);
            } else kept.push(v);
          }
        }),
      );
      const store = handles[0]!;
      const all = await store.listVersions({ name: "make_invoice" });
      const numbers = all.map((v) => v.version);
      assert.deepEqual(
        numbers,
        Array.from({ length: numbers.length }, (_, i) => i + 1),
        "every number from 1 to the highest is held, once",
      );
      assert.equal(
        new Set(kept.map((v) => v.version)).size,
        kept.length,
        "kept proposals have distinct numbers",
      );
      for (const v of kept.filter((x) => x.sourceHash !== "")) {
        const stored = (await store.getVersion("make_invoice", v.version))!;
        assert.equal(stored.sourceHash, v.sourceHash, `v${v.version} holds the proposal that got it`);
        assert.equal(stored.status, "draft");
        assert.equal(hashSource(await store.readCode("make_invoice", v.version)), v.sourceHash);
        assert.deepEqual(
          (await store.getHistory("make_invoice", v.version)).map((h) => h.to),
          ["draft"],
        );
      }
      // What is left of the rejected attempts is theirs alone: code, verdict and a two-row history.
      for (const v of all.filter((x) => x.status === "rejected")) {
        assert.ok(rejected.some((r) => r.version === v.version && r.sourceHash === v.sourceHash));
        assert.deepEqual(
          (await store.getHistory("make_invoice", v.version)).map((h) => h.to),
          ["draft", "rejected"],
        );
      }
      assert.equal(all.filter((v) => v.status !== "rejected").length, kept.length);
    });

    test("prune: rejected and superseded versions removed with everything of theirs; a tool's newest kept", async (t) => {
      const { store } = await freshStore(t, kind);
      for (const tag of ["a", "b", "c", "d"]) await store.createVersion(proposal("make_invoice", tag));
      await store.createVersion(proposal("find_customer"));
      await store.createVersion(proposal("quote_trip"));
      await move(store, "make_invoice", 1, ["draft", "verified", "superseded"]);
      await move(store, "make_invoice", 2, ["draft", "rejected"]);
      await move(store, "make_invoice", 3, ["draft", "verified", "active"]);
      await move(store, "make_invoice", 4, ["draft", "verified", "superseded"]);
      await move(store, "find_customer", 1, ["draft", "rejected"]);
      await move(store, "quote_trip", 1, ["draft", "verified", "superseded"]);
      await store.recordRun({ name: "make_invoice", version: 1, outcome: "ok", innerCalls: 1 });
      await store.addVerifiedDefinitions("make_invoice", 1, [
        { baseTool: "crm__search", fingerprint: "f1", definition: null },
      ]);
      await store.setDependencies("make_invoice", 1, [
        { baseTool: "crm__search", fingerprint: "f1", avoided: false },
      ]);
      const file = store.codeLocation("make_invoice", 1);
      if (kind === "sqlite") assert.ok(existsSync(file));

      assert.deepEqual(
        await store.pruneVersions(["rejected", "superseded"], "2000-01-01T00:00:00.000Z"),
        [],
        "nothing got its status before then",
      );
      const since = (await store.getHistory("make_invoice", 2)).at(-1)!.at;
      const pruned = await store.pruneVersions(["rejected", "superseded"], null);
      assert.deepEqual(
        pruned.map((p) => [p.name, p.version, p.status]),
        [
          ["find_customer", 1, "rejected"],
          ["make_invoice", 1, "superseded"],
          ["make_invoice", 2, "rejected"],
        ],
        "v4 is make_invoice's newest version and quote_trip v1 its only one: both kept",
      );
      assert.equal(pruned[2]!.since, since, "since: when it got that status");
      assert.deepEqual(
        (await store.listVersions()).map((v) => `${v.name} v${v.version}`),
        ["make_invoice v3", "make_invoice v4", "quote_trip v1"],
      );
      for (const [name, version] of [
        ["make_invoice", 1],
        ["make_invoice", 2],
        ["find_customer", 1],
      ] as const) {
        assert.equal(await store.getVersion(name, version), null);
        assert.deepEqual(await store.getHistory(name, version), []);
        await assert.rejects(store.readCode(name, version), isCode("NOT_FOUND"));
      }
      assert.equal((await store.getRunStats("make_invoice", 1)).runs, 0);
      assert.deepEqual(await store.recentRuns("make_invoice", 1, 10), []);
      assert.deepEqual(await store.verifiedDefinitions("make_invoice", 1), []);
      assert.deepEqual(await store.getDependencies("make_invoice", 1), []);
      // SQLite keeps code in tool files and removes them; PostgreSQL keeps it in the row, gone with it.
      if (kind === "sqlite") assert.equal(existsSync(file), false, "the tool file is removed");
      assert.deepEqual(
        (await store.latestHistory()).map((h) => `${h.name} v${h.version}`),
        ["make_invoice v3", "make_invoice v4", "quote_trip v1"],
      );
      assert.deepEqual(
        await store.pruneVersions(["rejected", "superseded"], null),
        [],
        "nothing left to prune",
      );
      // Pruned numbers are never handed out again: the tool's newest version was kept.
      assert.equal((await store.createVersion(proposal("make_invoice", "e"))).version, 5);
      assert.equal((await store.createVersion(proposal("find_customer", "b"))).version, 1);
    });

    test("a rejection and a supersession are status changes like any other: heard by another handle", async (t) => {
      const { store, location } = await freshStore(t, kind);
      const other = await openStore(t, location);
      const heard: RegistryChange[] = [];
      const stop = await store.onChange((c) => heard.push(c));
      t.after(stop);
      await other.createVersion(proposal("make_invoice", "a"));
      await other.createVersion(proposal("make_invoice", "b"));
      await move(other, "make_invoice", 1, ["draft", "rejected"]);
      await move(other, "make_invoice", 2, ["draft", "verified", "superseded"]);
      const seen = () =>
        heard.flatMap((c) => (c.type === "status" ? [`v${c.version} ${c.from ?? "-"}→${c.to}`] : []));
      await eventually("the supersession", () =>
        seen().includes("v2 verified→superseded") ? true : undefined,
      );
      assert.deepEqual(seen(), [
        "v1 -→draft",
        "v2 -→draft",
        "v1 draft→rejected",
        "v2 draft→verified",
        "v2 verified→superseded",
      ]);
    });
  });
}
