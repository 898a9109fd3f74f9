/**
 * Copying whole registries between stores: SQLite → PostgreSQL → SQLite comes back equal, row for row and through
 * every read; a copy into a registry that is not empty, or of code changed after it was stored, writes nothing.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { type TestContext, test } from "node:test";
import { DistillError } from "../core/errors.ts";
import {
  INTERNAL_META_PREFIX,
  type RegistryBatch,
  type RegistryStore,
} from "../core/store/registry-store.ts";
import type { SqliteRegistryStore } from "../core/store/sqlite/sqlite-registry-store.ts";
import { copyRegistry } from "../core/store/transfer/registry-transfer.ts";
import { PAGE } from "../core/store/transfer/transfer-pages.ts";
import { freshStore, proposal, verdict } from "./registry-helpers.ts";

const isCode = (code: string, message?: RegExp) => (err: unknown) =>
  err instanceof DistillError && err.code === code && (message === undefined || message.test(err.message));

/** A registry with something in every table: finished, failed, nested, clipped and started calls; a promoted
 * version that replaced another; a suspect one queued for a rebuild; verdicts, dependencies, runs, cached values. */
async function fill(store: RegistryStore): Promise<void> {
  await store.createTrace("s1-0", "book a trip", "claude-code");
  await store.createTrace("s1-1", "book another", "claude-code");
  await store.createTrace("sdk-1", "invoice ACME", "sdk");
  await store.addUsage("sdk-1", {
    input_tokens: 7,
    output_tokens: 3,
    cache_creation_input_tokens: 1,
    cache_read_input_tokens: 0,
  });
  await store.setOutcome("sdk-1", true);
  await store.endTrace("sdk-1");
  await store.claimNudge("sdk-1");
  await store.markProposed("sdk-1");
  await store.setReplaceName("s1-0", "book_trip");
  await store.setTraceNote("s1-1", "the fallback distiller failed");
  const a = await store.startCall({
    traceId: "sdk-1",
    tool: "crm__search",
    kind: "base",
    args: { q: "ACME", n: 1.5 },
    externalId: "toolu_1",
  });
  await store.finishCall(a, { hits: [{ id: 7, name: "ACME \u00e9\u{1F600}" }] }, 12.25);
  // Its input as received differs from its canonical args (a default filled in): the copy must keep both.
  const b = await store.startCall({
    traceId: "sdk-1",
    tool: "make_invoice",
    kind: "distilled",
    args: { customer: "ACME", currency: "EUR" },
    rawArgs: '{"customer":"ACME"}',
    version: 1,
  });
  const inner = await store.startCall({
    traceId: "sdk-1",
    tool: "billing__create",
    kind: "base",
    args: { c: 7 },
    parentId: b,
  });
  await store.failCall(inner, "402 payment required", 3);
  await store.finishCall(b, null, 5);
  await store.appendCall(
    { traceId: "s1-0", tool: "Bash", kind: "other", args: { command: "ls" } },
    { output: "x".repeat(300) },
    1,
  );
  await store.startCall({
    traceId: "s1-0",
    tool: "crm__search",
    kind: "base",
    args: {},
    externalId: "toolu_2",
    note: "args clipped",
  });
  await store.setCallKind(a, "base", null);

  for (const tag of ["a", "b", "c"]) await store.createVersion(proposal("make_invoice", tag));
  await store.createVersion(proposal("find_customer"));
  const move = (
    name: string,
    version: number,
    expect: string,
    to: string,
    reason: string,
    problems: string[] = [],
  ) => store.setStatus({ name, version, expect, to, problems, reason, evidence: { by: "test" } } as never);
  await move("make_invoice", 1, "draft", "verified", "all three checks passed");
  await store.setVerification("make_invoice", 1, verdict("make_invoice", 1), 900);
  await move("make_invoice", 1, "verified", "active", "auto_promote");
  await move("make_invoice", 2, "draft", "verified", "all three checks passed");
  await store.transaction(async (tx) => {
    await tx.setStatus({
      name: "make_invoice",
      version: 2,
      expect: "verified",
      to: "active",
      problems: [],
      reason: "promoted",
    });
    await tx.setStatus({
      name: "make_invoice",
      version: 1,
      expect: "active",
      to: "deprecated",
      problems: [],
      reason: "replaced by v2",
    });
  });
  await move("find_customer", 1, "draft", "verified", "ok");
  await move("find_customer", 1, "verified", "active", "promoted");
  await move("find_customer", 1, "active", "suspect", "schema changed", ["schema_changed"]);
  await store.setQueuedRebuild("find_customer", 1, true, "crm__search changed its schema");
  await store.setDependencies("make_invoice", 2, [
    { baseTool: "crm__search", fingerprint: "f-crm", avoided: false },
    { baseTool: "billing__create", fingerprint: null, avoided: true },
  ]);
  await store.recordRun({
    name: "make_invoice",
    version: 2,
    outcome: "ok",
    innerCalls: 3,
    traceId: "sdk-1",
    callId: b,
  });
  await store.recordRun({
    name: "make_invoice",
    version: 2,
    outcome: "tool",
    innerCalls: 1,
    evidence: { kind: "runtime", message: "402 \u00e9\u{1F600} \ud800", step: 1 },
  });
  await store.recordRun({
    name: "make_invoice",
    version: 2,
    outcome: "not_applicable",
    innerCalls: 0,
    evidence: { reason: "no open invoice" },
  });
  await store.recordRun({ name: "find_customer", version: 1, outcome: "infrastructure", innerCalls: 2 });
  await store.addVerifiedDefinitions("make_invoice", 2, [
    { baseTool: "crm__search", fingerprint: "f-crm", definition: null },
    {
      baseTool: "billing__create",
      fingerprint: "f-bill",
      definition: { name: "billing__create", description: "Bills \ud800.", input_schema: { type: "object" } },
    },
  ]);
  await store.setReplayRuns("make_invoice", 2, [{ trace: "sdk-1", call: b }]);
  await store.recordBaseHealth("crm__search", false, "ECONNREFUSED");
  await store.recordBaseHealth("crm__search", true);
  await store.recordProbe("billing__create", false);
  // A rejected attempt (its number is the next proposal's, in the copies too).
  await store.createVersion(proposal("make_invoice", "rejected"));
  await move("make_invoice", 4, "draft", "rejected", "failed verification");
  await store.setVerification("make_invoice", 4, verdict("make_invoice", 4, "rejected"), null);
  await store.setMeta("base-tools", '[{"name":"crm__search"}]');
  await store.sessionSpan("s1");
  await store.advanceSpan("s1", 1);
  await store.markSpanConfirmed("s1", 2);
  await store.sessionSpan("s2");
  // Machinery of one machine's spill folder: not copied.
  await store.claimSpillEvent("ev-1");
}

/** Everything an export gives, table by table, pages joined. */
async function dump(store: RegistryStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for await (const batch of store.exportRegistry() as AsyncIterable<RegistryBatch>) {
    out[batch.table] = [...(out[batch.table] ?? []), ...batch.rows];
  }
  return out;
}

/** What the library reads back through the interface. */
async function reads(store: RegistryStore) {
  const versions = await store.listVersions();
  const perVersion = [];
  for (const v of versions) {
    perVersion.push({
      v,
      code: await store.readCode(v.name, v.version),
      history: await store.getHistory(v.name, v.version),
      lastActivation: await store.lastActivation(v.name, v.version),
      runs: await store.getRunStats(v.name, v.version),
      recentRuns: await store.recentRuns(v.name, v.version, 10),
      liveRuns: await store.liveRuns(v.name, v.version, 10),
      replayRuns: await store.liveRunsOf(v.replayRuns),
      definitions: await store.verifiedDefinitions(v.name, v.version),
      sameCode: await store.versionWithCode(v.name, v.sourceHash),
    });
  }
  const traces = await store.listTraces();
  return {
    traces,
    calls: await Promise.all(traces.map((t) => store.getCalls(t.id))),
    flags: await Promise.all(traces.map((t) => store.getTraceFlags(t.id))),
    perVersion,
    latest: await store.latestHistory(),
    deps: await store.getDependencies(),
    meta: await store.getMeta("base-tools"),
    sessions: [await store.findSessionSpan("s1"), await store.findSessionSpan("s2")],
    baseHealth: await store.baseHealth(),
    definitions: await store.verifiedDefinitions(),
  };
}

async function sqlite(t: TestContext) {
  return (await freshStore(t, "sqlite")).store;
}

test("SQLite → PostgreSQL → SQLite gives back the same registry", async (t) => {
  const source = await sqlite(t);
  await fill(source);
  const { store: shared } = await freshStore(t, "postgres");
  const back = await sqlite(t);

  const counts = await copyRegistry(source, shared);
  assert.deepEqual(counts, {
    traces: 3,
    calls: 5,
    versions: 5,
    history: 14,
    dependencies: 2,
    runStats: 2,
    runs: 4,
    verifiedDefinitions: 2,
    baseHealth: 2,
    meta: 1,
    sessions: 2,
  });
  assert.deepEqual(await copyRegistry(shared, back), counts);

  const original = await dump(source);
  assert.deepEqual(await dump(shared), original);
  assert.deepEqual(await dump(back), original);
  assert.deepEqual(await reads(shared), await reads(source));
  assert.deepEqual(await reads(back), await reads(source));

  // What issues 12 and 13 added came across, not only as rows but as the library reads it.
  const copied = await reads(back);
  const v2 = copied.perVersion.find((p) => p.v.name === "make_invoice" && p.v.version === 2)!;
  assert.deepEqual(
    v2.recentRuns.map((r) => r.outcome),
    ["not_applicable", "tool", "ok"],
  );
  assert.equal((v2.recentRuns[1]!.evidence as { message: string }).message, "402 \u00e9\u{1F600} \ud800");
  assert.deepEqual([v2.runs.runs, v2.runs.successes, v2.runs.failures, v2.runs.notApplicable], [3, 1, 1, 1]);
  assert.deepEqual(
    v2.replayRuns.map((r) => [r.trace, r.calls.length]),
    [["sdk-1", 1]],
  );
  assert.deepEqual(
    v2.definitions.map((d) => [d.baseTool, d.definition?.description ?? null]),
    [
      ["billing__create", "Bills \ud800."],
      ["crm__search", null],
    ],
  );
  assert.deepEqual(
    copied.baseHealth.map((h) => [h.tool, h.failures, h.consecutive, h.probeOk]),
    [
      ["billing__create", 0, 0, false],
      ["crm__search", 1, 0, null],
    ],
  );

  // The copies go on where the source left off: numbers (the rejected v4 taken again), call seqs, history ids
  // and run ids continue.
  for (const store of [shared, back]) {
    assert.equal(await store.claimSpillEvent("ev-1"), true, "applied-event ids stay with their store");
    assert.equal((await store.getVersion("make_invoice", 4))?.status, "rejected");
    assert.equal((await store.createVersion(proposal("make_invoice", "d"))).version, 4);
    await store.recordRun({ name: "make_invoice", version: 2, outcome: "host", innerCalls: 0 });
    assert.deepEqual(
      (await store.recentRuns("make_invoice", 2, 2)).map((r) => r.outcome),
      ["host", "not_applicable"],
    );
    await store.appendCall(
      { traceId: "sdk-1", tool: "crm__search", kind: "base", args: {} },
      { output: 1 },
      1,
    );
    assert.deepEqual(
      (await store.getCalls("sdk-1")).map((c) => c.seq),
      [1, 2, 3, 4],
    );
    assert.ok(
      await store.setStatus({
        name: "make_invoice",
        version: 4,
        expect: "draft",
        to: "verified",
        problems: [],
        reason: "ok",
      }),
    );
    const history = await store.getHistory("make_invoice", 4);
    assert.equal(history.length, 2);
  }
});

test("a copy into a registry that is not empty is refused before anything is read", async (t) => {
  const source = await sqlite(t);
  await fill(source);
  for (const kind of ["sqlite", "postgres"] as const) {
    const { store: target } = await freshStore(t, kind);
    await target.createTrace("mine", "a trace of the target's own", "sdk");
    await assert.rejects(
      copyRegistry(source, target),
      isCode("USAGE", /is not empty: a copy never merges two registries/),
    );
    // importRegistry refuses too, inside its transaction (a target that filled up meanwhile).
    await assert.rejects(target.importRegistry(source.exportRegistry()), isCode("USAGE", /is not empty/));
    assert.deepEqual(
      (await target.listTraces()).map((x) => x.id),
      ["mine"],
    );
  }
  await assert.rejects(copyRegistry(source, source), isCode("USAGE", /onto itself/));
});

test("code changed after it was stored stops the copy, and the target stays empty", async (t) => {
  const source = await sqlite(t);
  await fill(source);
  writeFileSync(source.codeLocation("make_invoice", 2), "export default 'edited';\n");
  for (const kind of ["sqlite", "postgres"] as const) {
    const { store: target } = await freshStore(t, kind);
    await assert.rejects(
      copyRegistry(source, target),
      isCode(
        "TOOL_FILE_CHANGED",
        /^the copy stopped and wrote nothing: the code of make_invoice v2 \(.*v2\.ts\) was changed/,
      ),
    );
    assert.equal(
      await target.isEmpty(),
      true,
      "the traces and calls copied before the versions were rolled back",
    );
  }
});

test("a tool-lock lease is a store's machinery: it is not copied and does not make a store non-empty", async (t) => {
  const source = (await freshStore(t, "sqlite")).store as SqliteRegistryStore;
  await source.withToolLock("make_invoice", async () => {
    assert.notEqual(
      await source.getMeta(`${INTERNAL_META_PREFIX}make_invoice`),
      null,
      "the lease is a meta row",
    );
    assert.equal(await source.isEmpty(), true);
    const { store: target } = await freshStore(t, "postgres");
    await source.setMeta("kept", "1");
    await copyRegistry(source, target);
    assert.equal(await target.getMeta(`${INTERNAL_META_PREFIX}make_invoice`), null);
    assert.equal(await target.getMeta("kept"), "1");
  });
  assert.equal(await source.getMeta(`${INTERNAL_META_PREFIX}make_invoice`), null, "released");
});

test("a registry larger than a page comes out whole on both engines, each page at most PAGE rows, in key order", async (t) => {
  for (const kind of ["sqlite", "postgres"] as const) {
    const { store } = await freshStore(t, kind);
    const n = PAGE * 2 + 7;
    for (let i = 0; i < n; i++)
      await store.createTrace(`t-${String(n - i).padStart(4, "0")}`, `task ${i}`, "sdk");
    await store.transaction(async (tx) => {
      for (let i = 0; i < n; i++) {
        await tx.appendCall(
          { traceId: "t-0001", tool: "lookup", kind: "base", args: { i } },
          { output: i },
          1,
        );
        await tx.setMeta(`key-${String(i).padStart(4, "0")}`, String(i));
      }
      // A lease sorts among the keys: the page after it still comes whole.
      await tx.setMeta(`${INTERNAL_META_PREFIX}x`, "{}");
    });
    const sizes: Record<string, number[]> = {};
    const rows: Record<string, unknown[]> = {};
    for await (const batch of store.exportRegistry() as AsyncIterable<RegistryBatch>) {
      sizes[batch.table] = [...(sizes[batch.table] ?? []), batch.rows.length];
      rows[batch.table] = [...(rows[batch.table] ?? []), ...batch.rows];
    }
    for (const table of ["traces", "calls", "meta"]) {
      assert.deepEqual(sizes[table], [PAGE, PAGE, 7], `${kind} ${table}`);
    }
    // Traces in the order they were written, not by id; calls and meta by their keys.
    assert.deepEqual(
      (rows["traces"] as { task: string }[]).map((r) => r.task),
      Array.from({ length: n }, (_, i) => `task ${i}`),
    );
    assert.deepEqual(
      (rows["calls"] as { seq: number }[]).map((r) => r.seq),
      Array.from({ length: n }, (_, i) => i + 1),
    );
    const keys = (rows["meta"] as { key: string }[]).map((r) => r.key);
    assert.deepEqual(keys, [...keys].sort());
    assert.ok(!keys.some((k) => k.startsWith(INTERNAL_META_PREFIX)));
    await store.close();
  }
});
