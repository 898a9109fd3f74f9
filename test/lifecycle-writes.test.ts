/**
 * The lifecycle for agents that write, through the public API (`ToolDistill`, `trace.execute`) on a support desk
 * that refunds: failures that mean something (notApplicable, outages, the demotion rule, the host's load), recovery
 * without repeating writes, version hygiene and what is promoted without a person.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox, silentLogger, ToolDistill, type ToolDistillOptions } from "../core/index.ts";
import { REFUND_TOOL, SOURCE_RUN, type SupportWorld, supportWorld } from "./fakes/support-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

function library(t: TestContext, world: SupportWorld, options: Partial<ToolDistillOptions> = {}) {
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    fallbackDistiller: false,
    ...options,
  });
  t.after(() => td.close());
  return td;
}

/**
 * The recorded trial and error for ACME, then a proposal of `code` from it; returns the trace and the answer. With
 * `world`, ACME's order is made refundable again first, so every recorded run is the same.
 */
async function distil(td: ToolDistill, code = REFUND_TOOL, world?: SupportWorld) {
  world?.refunded.delete("O-ACME");
  const trace = td.startTrace("Refund ACME's open ticket");
  for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
  trace.setOutcome({ success: true });
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{ customer: "ACME" }] });
  return { trace, out };
}

/** An active refund_ticket (promoted by a person), with the world as the source run left it. */
async function activeTool(t: TestContext, options: Partial<ToolDistillOptions> = {}) {
  const world = supportWorld();
  const td = library(t, world, options);
  const { out } = await distil(td);
  assert.equal(out.isError, false, out.content);
  if ((await sqliteOf(td).getVersion("refund_ticket", 1))?.status === "verified")
    await td.promote("refund_ticket");
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "active");
  world.log.length = 0;
  return { td, world };
}

test("notApplicable: the tool ends on purpose, stays active, and the agent is told to go on with the base tools", async (t) => {
  const { td, world } = await activeTool(t);
  world.tickets.delete("Globex");
  const out = await td.startTrace("Refund Globex").execute("refund_ticket", { customer: "Globex" });
  assert.equal(out.isError, false, "not an error");
  assert.equal(out.notApplicable, "no open ticket for Globex");
  assert.deepEqual(JSON.parse(out.content), {
    status: "not_applicable",
    tool: "refund_ticket",
    reason: "no open ticket for Globex",
    next: "'refund_ticket' does not cover this case, by design (this is not an error, and the tool stays available): complete the task with the base tools.",
  });
  assert.deepEqual(
    world.log.map((c) => c.name),
    ["tickets_find"],
    "nothing after notApplicable ran",
  );
  const v = await sqliteOf(td).getVersion("refund_ticket", 1);
  assert.equal(v?.status, "active");
  assert.deepEqual(v?.problems, []);
  const stats = await sqliteOf(td).getRunStats("refund_ticket", 1);
  assert.deepEqual([stats.runs, stats.successes, stats.failures, stats.notApplicable], [1, 0, 0, 1]);
  assert.deepEqual(
    (await sqliteOf(td).recentRuns("refund_ticket", 1, 5)).map((r) => [r.outcome, r.evidence]),
    [["not_applicable", { reason: "no open ticket for Globex" }]],
  );
});

test("notApplicable on an input of the recorded run fails replay, saying why", async (t) => {
  const world = supportWorld();
  const td = library(t, world);
  const { out } = await distil(
    td,
    REFUND_TOOL.replace("if (!found.ticket)", 'if (customer === "ACME" || !found.ticket)'),
  );
  assert.equal(out.isError, true);
  assert.match(out.content, /^rejected: refund_ticket v1: replay check failed/);
  assert.match(
    out.content,
    /the tool answered notApplicable\("no open ticket for ACME"\) for the input of the source run, where the task was done/,
  );
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "rejected");
});

test("one 503 leaves the tool active and returns the structured error with the resume packet; the base tool's health counts it", async (t) => {
  const { td, world } = await activeTool(t);
  world.outage = true;
  const out = await td.startTrace("Refund Initech").execute("refund_ticket", { customer: "Initech" });
  assert.equal(out.isError, true);
  assert.equal(
    out.content,
    [
      "Distilled tool 'refund_ticket' (v1) failed at step 1 of 4.",
      "Base tool: tickets_find",
      "Error: 503 Service Unavailable",
      "A base tool could not answer (an outage, not a fault of this distilled tool), so the tool stays available. Complete this task using the base tools directly, or call the tool again later.",
      "",
      "No step completed: nothing was changed by the tool.",
      "Left to do: 4 steps starting with tickets_find.",
    ].join("\n"),
  );
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "active");
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["refund_ticket"],
  );
  assert.deepEqual(
    (await sqliteOf(td).recentRuns("refund_ticket", 1, 5)).map((r) => r.outcome),
    ["infrastructure"],
  );
  const health = await td.health({ probe: false });
  // tickets_find is read-only, so the host tried it three times (base_call_retries): each attempt counts.
  assert.deepEqual(
    health.baseTools.map((b) => [b.tool, b.failures, b.consecutive, b.lastError]),
    [["tickets_find", 3, 3, "503 Service Unavailable"]],
  );
  // The next answer ends the outage in the base tool's record.
  world.outage = false;
  const ok = await td.startTrace("Refund Initech").execute("refund_ticket", { customer: "Initech" });
  assert.equal(ok.isError, false, ok.content);
  assert.equal((await sqliteOf(td).baseHealth())[0]?.consecutive, 0);
});

test("two argument errors in five runs demote the tool; one does not; each failure's evidence is kept", async (t) => {
  const { td } = await activeTool(t);
  const run = (customer: string) =>
    td.startTrace(`Refund ${customer}`).execute("refund_ticket", { customer });
  for (const customer of ["Globex", "Initech", "Umbrella"])
    assert.equal((await run(customer)).isError, false);
  // ACME was refunded by the source run: the payment API refuses a second refund (422), the tool's fault.
  const first = await run("ACME");
  assert.equal(first.isError, true);
  assert.match(
    first.content,
    /^This run failed, but the tool stays available \(1 failure of its own in its last 4 runs; it is demoted at 2 in 5 \(demotion setting\)\)\. Complete the task using the base tools directly\.$/m,
  );
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "active");
  assert.equal((await run("Hooli")).isError, false);
  const second = await run("Globex");
  assert.match(
    second.content,
    /^This distilled tool has been disabled\. Complete the task using the base tools directly\.$/m,
  );
  const v = await sqliteOf(td).getVersion("refund_ticket", 1);
  assert.equal(v?.status, "suspect");
  assert.deepEqual(v?.problems, ["runtime_failure"]);
  const demotion = (await sqliteOf(td).getHistory("refund_ticket", 1)).at(-1);
  assert.equal(
    demotion?.reason,
    "runtime failure: 422 order O-Globex was already refunded; demoted: 2 failures of its own in its last 5 runs (demotion: 2 in 5)",
  );
  const evidence = demotion?.evidence as { demotion: string; failures: { message: string; cause: string }[] };
  assert.deepEqual(
    evidence.failures.map((f) => [f.cause, f.message]),
    [
      ["tool", "422 order O-Globex was already refunded"],
      ["tool", "422 order O-ACME was already refunded"],
    ],
  );
});

test("the demotion rule is a setting: demotion { failures: 1 } demotes at the first failure", async (t) => {
  const { td } = await activeTool(t, { demotion: { failures: 1, window: 5, probation: 0 } });
  await td.startTrace("again").execute("refund_ticket", { customer: "ACME" });
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "suspect");
  assert.throws(
    () =>
      new ToolDistill({ store: join(tempDir(t), "x"), demotion: { failures: 0, window: 5, probation: 3 } }),
    /ToolDistill options: demotion\/failures must be a whole number ≥ 1 \(got 0\)/,
  );
});

test("a failure caused by the host (the sandbox closing mid-run) never demotes", async (t) => {
  const world = supportWorld();
  const own = new Sandbox({ poolSize: 0 });
  const td = library(t, world, { sandbox: own });
  await distil(td);
  await td.promote("refund_ticket");
  let release = () => {};
  let waiting = false;
  const executor = world.executor;
  world.executor = async (name, args) => {
    if (name === "orders_get") {
      waiting = true;
      await new Promise<void>((r) => {
        release = r;
      });
    }
    return executor(name, args);
  };
  const td2 = new ToolDistill({
    store: sqliteOf(td).location,
    executor: (n, a) => world.executor(n, a),
    tools: world.tools,
    sandbox: own,
    fallbackDistiller: false,
  });
  t.after(() => td2.close());
  const pending = td2.startTrace("Refund Globex").execute("refund_ticket", { customer: "Globex" });
  while (!waiting) await new Promise((r) => setImmediate(r));
  await own.close();
  release();
  const out = await pending;
  assert.match(out.content, /The host was too busy to finish the run/);
  assert.equal((await sqliteOf(td2).getVersion("refund_ticket", 1))?.status, "active");
  assert.deepEqual(
    (await sqliteOf(td2).recentRuns("refund_ticket", 1, 5)).map((r) => r.outcome),
    ["host"],
  );
});

test("a suspect tool whose failures were outages comes back when its base tools answer the probe, without any live write", async (t) => {
  const { td, world } = await activeTool(t);
  // An older build demoted on any failure: its evidence is one failure, without a cause.
  const v = (await sqliteOf(td).getVersion("refund_ticket", 1))!;
  await sqliteOf(td).setStatus({
    name: "refund_ticket",
    version: 1,
    expect: "active",
    to: "suspect",
    problems: ["runtime_failure"],
    reason: "runtime failure: 503 Service Unavailable",
    evidence: {
      trace: "t",
      call: 1,
      failure: { kind: "call_failed", message: "503 Service Unavailable", tool: "tickets_find" },
    },
  });
  assert.equal(v.status, "active");
  const probed: string[] = [];
  const healthy = new ToolDistill({
    store: sqliteOf(td).location,
    executor: world.executor,
    tools: world.tools,
    sandbox,
    fallbackDistiller: false,
    healthProbe: (name) => {
      probed.push(name);
      return true;
    },
  });
  t.after(() => healthy.close());
  const report = await healthy.health();
  assert.deepEqual(probed, ["orders_get", "refunds_create", "tickets_close", "tickets_find"]);
  assert.deepEqual(
    report.changes.map((c) => [c.from, c.to, c.problems]),
    [["suspect", "active", []]],
  );
  assert.match(
    report.changes[0]?.reason ?? "",
    /its runtime failures were outages.*; replay: all checks passed$/,
  );
  assert.deepEqual(world.log, [], "replay answered every call from the record: nothing ran, no refund");
  // A tool whose failures were its own does not come back this way.
  const own = supportWorld();
  const td3 = library(t, own);
  await distil(td3);
  await td3.promote("refund_ticket");
  await td3.startTrace("again").execute("refund_ticket", { customer: "ACME" });
  assert.equal((await sqliteOf(td3).getVersion("refund_ticket", 1))?.status, "suspect");
  const probe = new ToolDistill({
    store: sqliteOf(td3).location,
    executor: own.executor,
    tools: own.tools,
    sandbox,
    healthProbe: () => true,
  });
  t.after(() => probe.close());
  await probe.health();
  assert.equal((await sqliteOf(probe).getVersion("refund_ticket", 1))?.status, "suspect");
});

test("verify --live runs reads live and answers writes from the record: no second refund", async (t) => {
  const { td, world } = await activeTool(t);
  const verdict = await td.verify("refund_ticket", { live: true });
  assert.equal(verdict.status, "active");
  assert.deepEqual(verdict.liveCalls, ["tickets_find (call 1)", "orders_get (call 2)"]);
  assert.deepEqual(
    world.log.map((c) => c.name),
    ["tickets_find", "orders_get"],
    "only the read-only tools ran",
  );
  const plan = await td.planLiveVerification("refund_ticket");
  assert.deepEqual(
    plan.steps.map((s) => [s.step, s.tool, s.how]),
    [
      [1, "tickets_find", "live"],
      [2, "orders_get", "live"],
      [3, "refunds_create", "record"],
      [4, "tickets_close", "record"],
    ],
  );
  assert.deepEqual(plan.refused, []);
});

test("verify --live on a tool with a write the record cannot answer refuses without --allow-writes; --dry-run shows the plan", async (t) => {
  const world = supportWorld();
  // The source run never closed the ticket; the tool does, and was verified with live calls allowed.
  const td = library(t, world, { allowLiveVerification: true });
  const trace = td.startTrace("Refund ACME's open ticket");
  for (const [name, args] of SOURCE_RUN.filter(([name]) => name !== "tickets_close"))
    await trace.execute(name, args);
  trace.setOutcome({ success: true });
  // A note of the tool's own words would be a constant the source run never passed to tickets_close, which
  // provenance rejects for a tool that may write: the note here is the refund's id, taken from its result.
  const code = REFUND_TOOL.replace("note: `refunded ${refund.refund_id}`", "note: refund.refund_id");
  assert.notEqual(code, REFUND_TOOL);
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{ customer: "ACME" }] });
  assert.equal(out.isError, false, out.content);
  await td.promote("refund_ticket");
  const before = (await sqliteOf(td).getHistory("refund_ticket", 1)).length;
  world.log.length = 0;
  const plan = await td.planLiveVerification("refund_ticket");
  assert.deepEqual(
    plan.steps.map((s) => [s.tool, s.how]),
    [
      ["tickets_find", "live"],
      ["orders_get", "live"],
      ["refunds_create", "record"],
      ["tickets_close", "refused"],
    ],
  );
  assert.deepEqual(world.log, [], "a dry run calls no base tool");
  await assert.rejects(td.verify("refund_ticket", { live: true }), {
    code: "WRITE_REFUSED",
    message:
      "verify --live refused for refund_ticket v1: call 4 to 'tickets_close' may write and the source run recorded no answer, so it would run for real. Nothing was run. See the plan with tooldistill verify refund_ticket --version 1 --live --dry-run, or pass --allow-writes to let those calls write.",
  });
  assert.deepEqual(world.log, [], "refused before anything ran");
  assert.equal((await sqliteOf(td).getHistory("refund_ticket", 1)).length, before, "nothing stored");
  // With --allow-writes every call runs for real, on a fresh input: the source run's refund is never sent again.
  const allowed = await td.verify("refund_ticket", {
    live: true,
    allowWrites: true,
    input: { customer: "Globex" },
  });
  assert.equal(allowed.status, "active");
  assert.equal(allowed.liveCalls.length, 4);
});

test("six identical concurrent proposals give one version, and each gets its verdict", async (t) => {
  const world = supportWorld();
  const td = library(t, world);
  const traces = [];
  for (let i = 0; i < 6; i++) {
    const trace = td.startTrace(`Refund ACME (run ${i + 1})`);
    world.refunded.clear();
    for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
    trace.setOutcome({ success: true });
    traces.push(trace);
  }
  const answers = await Promise.all(
    traces.map((trace) =>
      trace.execute(PROPOSE_TOOL_NAME, { code: REFUND_TOOL, test_inputs: [{ customer: "ACME" }] }),
    ),
  );
  for (const a of answers) assert.match(a.content, /^verified: refund_ticket v1\n/);
  assert.deepEqual(
    (await sqliteOf(td).listVersions()).map((v) => [v.version, v.status]),
    [[1, "verified"]],
  );
  assert.equal(
    (await sqliteOf(td).getHistory("refund_ticket", 1)).length,
    2,
    "one verification: draft, then verified",
  );
});

test("rejected proposals use up no version number; promoting supersedes older verified ones; prune removes both", async (t) => {
  const world = supportWorld();
  const td = library(t, world);
  for (let i = 0; i < 3; i++) {
    const { out } = await distil(td, REFUND_TOOL.replace("tickets_close", "tickets_closed"), world);
    assert.match(out.content, /^rejected: refund_ticket v1: static check failed/);
  }
  assert.deepEqual(
    (await sqliteOf(td).listVersions()).map((v) => [v.version, v.status]),
    [[1, "rejected"]],
  );
  await distil(td, REFUND_TOOL, world);
  await distil(td, REFUND_TOOL.replace("and close the ticket.", "and close the ticket (v2)."), world);
  assert.deepEqual(
    (await sqliteOf(td).listVersions()).map((v) => [v.version, v.status]),
    [
      [1, "verified"],
      [2, "verified"],
    ],
  );
  await td.promote("refund_ticket");
  assert.deepEqual(
    (await sqliteOf(td).listVersions()).map((v) => [v.version, v.status]),
    [
      [1, "superseded"],
      [2, "active"],
    ],
  );
  const { out } = await distil(td, REFUND_TOOL.replace("orders_get", "orders_gett"), world);
  assert.match(out.content, /^rejected: refund_ticket v3/);
  assert.deepEqual(await td.prune({ olderThanDays: 1 }), [], "nothing is a day old");
  const pruned = await td.prune();
  assert.deepEqual(
    pruned.map((p) => [p.version, p.status]),
    [
      [1, "superseded"],
      [3, "rejected"],
    ],
  );
  assert.deepEqual(
    (await sqliteOf(td).listVersions()).map((v) => [v.version, v.status]),
    [[2, "active"]],
  );
  assert.ok(
    await sqliteOf(td).getTrace((await sqliteOf(td).getVersion("refund_ticket", 2))!.sourceTrace!),
    "source traces are kept",
  );
});

test("auto_promote: true promotes tools that only read; a tool that may write waits for a person, and the verdict says which", async (t) => {
  const world = supportWorld();
  const td = library(t, world, { autoPromote: true });
  const { out } = await distil(td);
  assert.match(out.content, /\ntools that may write: refunds_create, tickets_close\n/);
  assert.match(
    out.content,
    /\npromotion: waits for tooldistill promote: it calls tools that may write \(refunds_create, tickets_close\); auto_promote: true promotes read-only tools only/,
  );
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "verified");
  const lookup = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "ticket_order",
  description: "The order behind a customer's open ticket.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer }: { customer: string }) {
    const found = await call("tickets_find", { customer });
    return call("orders_get", { order_id: found.ticket.order_id });
  },
});
`;
  const read = await distil(td, lookup, world);
  assert.match(read.out.content, /\npromotion: auto_promote \(read-only tools only\)\n/);
  assert.equal((await sqliteOf(td).getVersion("ticket_order", 1))?.status, "active");
  assert.deepEqual((await sqliteOf(td).getVersion("ticket_order", 1))?.verdict?.evidence.writes, []);
  const all = library(t, supportWorld(), { autoPromote: "all" });
  const written = await distil(all);
  assert.match(written.out.content, /\npromotion: auto_promote: all\n/);
  assert.equal((await sqliteOf(all).getVersion("refund_ticket", 1))?.status, "active");
});

/** The support tools with tickets_find changed by `change` (a copy; the world's tools are left as they are). */
function withTicketsFind(world: SupportWorld, change: (schema: Record<string, unknown>) => void) {
  const tools = structuredClone(world.tools);
  const find = tools.find((x) => x.name === "tickets_find")!;
  change(find.input_schema as Record<string, unknown>);
  return tools;
}

/** Starts an instance on `root` with `tools` (as a process of a rolling deploy would), and closes it. */
async function start(root: string, world: SupportWorld, tools: SupportWorld["tools"]) {
  const td = new ToolDistill({
    store: root,
    executor: world.executor,
    tools,
    sandbox,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  try {
    const report = await td.ready();
    const v = (await sqliteOf(td).getVersion("refund_ticket", 1))!;
    return { report, status: v.status, history: (await sqliteOf(td).getHistory("refund_ticket", 1)).length };
  } finally {
    await td.close();
  }
}

test("no flapping: two instances with different definitions of a base tool, started alternately 10 times, leave the status unchanged", async (t) => {
  const { td, world } = await activeTool(t);
  const root = sqliteOf(td).location;
  const before = (await sqliteOf(td).getHistory("refund_ticket", 1)).length;
  // The newer deploy adds an optional filter to tickets_find (compatible): one re-verification, then known.
  const newer = withTicketsFind(world, (s) => {
    (s["properties"] as Record<string, unknown>)["include_closed"] = { type: "boolean" };
  });
  const seen: string[] = [];
  for (let round = 0; round < 10; round++) {
    for (const [label, tools] of [
      ["old", world.tools],
      ["new", newer],
    ] as const) {
      const s = await start(root, world, tools);
      seen.push(`${label} ${s.status} ${s.history - before}`);
      const changes = s.report?.changes ?? [];
      if (round === 0 && label === "new") {
        assert.deepEqual(
          changes.map((c) => [c.change, c.from, c.to]),
          [["compatible", "active", "active"]],
        );
        assert.match(changes[0]?.reason ?? "", /re-verified: passed$/);
      } else {
        assert.deepEqual(changes, [], `${label} start ${round + 1}: its definitions are known`);
      }
    }
  }
  assert.deepEqual(
    seen,
    Array(10).fill(["old active 0", "new active 0"]).flat(),
    "status and history unchanged",
  );
  assert.equal(
    (await sqliteOf(td).verifiedDefinitions("refund_ticket", 1)).filter((d) => d.baseTool === "tickets_find")
      .length,
    2,
    "both definitions are in the version's set",
  );
  // Either deploy uses the tool without touching its status.
  const out = await td.startTrace("Refund Globex").execute("refund_ticket", { customer: "Globex" });
  assert.equal(out.isError, false, out.content);
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "active");
});

test("no flapping after a breaking difference: one suspect-and-back at the first start of the new definition, then stable", async (t) => {
  const { td, world } = await activeTool(t);
  const root = sqliteOf(td).location;
  const before = (await sqliteOf(td).getHistory("refund_ticket", 1)).length;
  // A tightened constraint is breaking; every recorded call still satisfies it, so re-verification passes.
  const newer = withTicketsFind(world, (s) => {
    (s["properties"] as Record<string, unknown>)["customer"] = { type: "string", minLength: 1 };
  });
  const first = await start(root, world, newer);
  assert.deepEqual(
    first.report?.changes.map((c) => [c.change, c.from, c.to, c.problems]),
    [["breaking", "active", "active", []]],
  );
  assert.deepEqual(
    (await sqliteOf(td).getHistory("refund_ticket", 1)).slice(before).map((h) => [h.from, h.to]),
    [
      ["active", "suspect"],
      ["suspect", "active"],
    ],
  );
  for (let round = 0; round < 10; round++) {
    assert.deepEqual((await start(root, world, world.tools)).report?.changes, []);
    assert.deepEqual((await start(root, world, newer)).report?.changes, []);
  }
  assert.equal(
    (await sqliteOf(td).getHistory("refund_ticket", 1)).length,
    before + 2,
    "nothing moved after the first",
  );
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "active");
});
