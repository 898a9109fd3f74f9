import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import type { Distiller, DistillRequest, Proposal } from "../core/distill/distiller.ts";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { fallbackDistill } from "../core/distill/rebuild.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { ToolDistill, type ToolDistillOptions } from "../core/tool-distill/tool-distill.ts";
import type { ToolDef } from "../core/types.ts";
import { invoiceWorld } from "./fakes/invoice-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

const TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "invoice_from_email",
  description: "Create a draft invoice for a customer from their latest order email.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer }: { customer: string }) {
    const [msg] = await call("gmail_search", { query: \`from:\${customer} order\` });
    const order = await call("gmail_get_message", { id: msg.id });
    const cust = await call("billing_find_customer", { name: customer });
    return call("billing_create_invoice", { customer_id: cust.id, lines: order.lines });
  },
});
`;

/** The shorter path once the import tool is back: 3 calls instead of 4. */
const REBUILT = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "invoice_from_email",
  description: "Create a draft invoice for a customer from their latest order email.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer }: { customer: string }) {
    const [msg] = await call("gmail_search", { query: \`from:\${customer} order\` });
    return call("billing_import_from_email", { message_id: msg.id });
  },
});
`;

/** A scripted distiller: returns the given proposals in turn and remembers what it was asked. */
class ScriptedDistiller implements Distiller {
  readonly requests: DistillRequest[] = [];
  readonly verdicts: string[] = [];
  readonly #proposals: (Proposal | Error)[];
  constructor(proposals: (Proposal | Error)[]) {
    this.#proposals = proposals;
  }
  async distill(
    request: DistillRequest,
    verify?: (p: Proposal) => Promise<import("../core/types.ts").Verdict>,
  ) {
    this.requests.push(request);
    const next = this.#proposals.shift();
    if (!next) return null;
    if (next instanceof Error) throw next;
    if (verify) this.verdicts.push((await verify(next)).status);
    return next;
  }
}

function world2() {
  return invoiceWorld();
}

async function withActiveTool(t: TestContext, options: Partial<ToolDistillOptions> = {}) {
  const world = world2();
  const store = join(tempDir(t), ".tooldistill");
  const td = new ToolDistill({
    store,
    executor: world.executor,
    tools: world.tools,
    sandbox,
    autoPromote: "all",
    fallbackDistiller: false,
    ...options,
  });
  world.outage = true;
  const trace = td.startTrace("invoice ACME");
  await trace.execute("gmail_search", { query: "from:ACME order" });
  await trace.execute("gmail_get_message", { id: "msg-from-ACME-order" });
  await trace.execute("billing_import_from_email", { message_id: "msg-from-ACME-order" });
  await trace.execute("billing_import_from_email", { message_id: "msg-from-ACME-order" });
  await trace.execute("billing_find_customer", { name: "ACME" });
  await trace.execute("billing_list_invoices", { customer_id: "cus_acme" });
  await trace.execute("billing_create_invoice", {
    customer_id: "cus_acme",
    lines: [{ sku: "A-1", qty: 2, price: 10 }],
  });
  await trace.execute("billing_list_invoices", { customer_id: "cus_acme" });
  trace.setOutcome({ success: true });
  world.outage = false;
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [{ customer: "ACME" }] });
  assert.equal(out.isError, false, out.content);
  await td.close();
  return { world, store, traceId: trace.id };
}

function reopen(t: TestContext, store: string, tools: ToolDef[], options: Partial<ToolDistillOptions> = {}) {
  const world = world2();
  const td = new ToolDistill({
    store,
    executor: world.executor,
    tools,
    sandbox,
    fallbackDistiller: false,
    ...options,
  });
  t.after(() => td.close());
  return td;
}

function changeTool(tools: ToolDef[], name: string, change: (t: ToolDef) => ToolDef): ToolDef[] {
  return tools.map((t) => (t.name === name ? change(structuredClone(t)) : t));
}

test("check_schemas_on_start: a description-only change keeps the tool active and re-verifies nothing", async (t) => {
  const { world, store } = await withActiveTool(t);
  const tools = changeTool(world.tools, "gmail_search", (x) => ({ ...x, description: "Search email (v2)." }));
  const td = reopen(t, store, tools);
  assert.deepEqual(await td.ready(), {
    changes: [
      {
        name: "invoice_from_email",
        version: 1,
        from: "active",
        to: "active",
        problems: [],
        reason:
          "base tool 'gmail_search' changed (cosmetic): the tool's description changed: nothing to re-verify",
        queuedRebuild: false,
        change: "cosmetic",
      },
    ],
    messages: [],
  });
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["invoice_from_email"],
  );
  assert.equal(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).length,
    3,
    "no status change recorded",
  );
  // The new text joins the definitions the version is known to work with: the next start says nothing.
  assert.deepEqual((await reopen(t, store, tools).ready())?.changes, []);
  // An unchanged start changes nothing.
  const quiet = reopen(t, (await withActiveTool(t)).store, world.tools);
  assert.deepEqual((await quiet.ready())?.changes, []);
});

test("check_schemas_on_start: a breaking change is re-verified at start-up with no user code (pass: active again)", async (t) => {
  const { world, store } = await withActiveTool(t);
  // `lines` becomes required-with-a-minimum: every recorded call still fits, but a call that fitted may not.
  const tools = changeTool(world.tools, "billing_create_invoice", (x) => {
    x.input_schema["properties"] = {
      ...(x.input_schema["properties"] as object),
      lines: { type: "array", minItems: 1 },
    };
    return x;
  });
  const td = reopen(t, store, tools);
  // Not offered as soon as the constructor returns, before the review (which makes it suspect once the store is
  // open) and its re-verification end.
  assert.deepEqual(td.activeTools(), []);
  const report = await td.ready();
  assert.deepEqual(
    report?.changes.map((c) => [c.from, c.to, c.change, c.reason]),
    [
      [
        "active",
        "active",
        "breaking",
        "base tool 'billing_create_invoice' changed (breaking): lines: minItems changed from nothing to 1; re-verified: passed",
      ],
    ],
  );
  assert.deepEqual(
    (await sqliteOf(td).getHistory("invoice_from_email", 1))
      .slice(-2)
      .map((h) => `${h.from}→${h.to}: ${h.reason}`),
    [
      "active→suspect: base tool 'billing_create_invoice' changed (breaking): lines: minItems changed from nothing to 1",
      "suspect→active: re-verification after 'billing_create_invoice' changed passed",
    ],
  );
  // The new definition joined the set the version was verified against: the next start does nothing.
  await td.close();
  const again = reopen(t, store, tools);
  assert.deepEqual((await again.ready())?.changes, []);
});

test("check_schemas_on_start: a compatible change is re-verified with the status unchanged", async (t) => {
  const { world, store } = await withActiveTool(t);
  const tools = changeTool(world.tools, "billing_find_customer", (x) => {
    x.input_schema["properties"] = {
      ...(x.input_schema["properties"] as object),
      region: { type: "string" },
    };
    return x;
  });
  const td = reopen(t, store, tools);
  assert.equal(
    (await sqliteOf(td).getVersion("invoice_from_email", 1))?.status,
    "active",
    "still offered meanwhile",
  );
  const report = await td.ready();
  assert.deepEqual(
    report?.changes.map((c) => [c.from, c.to, c.change]),
    [["active", "active", "compatible"]],
  );
  assert.match(report?.changes[0]?.reason ?? "", /region was added \(optional\); re-verified: passed$/);
  assert.equal(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).length,
    3,
    "no status change recorded",
  );
});

test("check_schemas_on_start: a missing tool is dependency_missing; the check can be switched off", async (t) => {
  const { world, store } = await withActiveTool(t);
  const without = world.tools.filter((x) => x.name !== "billing_find_customer");
  const off = reopen(t, store, without, { checkSchemasOnStart: false });
  assert.equal(off.startupReport, null);
  assert.equal((await sqliteOf(off).getVersion("invoice_from_email", 1))?.status, "active");
  await off.close();
  const on = reopen(t, store, without);
  assert.deepEqual(on.activeTools(), [], "not offered from the start");
  await on.ready();
  assert.deepEqual((await sqliteOf(on).getVersion("invoice_from_email", 1))?.problems, [
    "dependency_missing",
  ]);
  assert.deepEqual(on.activeTools(), []);
});

test("onToolUpdated: a compatible change is re-verified at once and the status never moves", async (t) => {
  const { world, store } = await withActiveTool(t);
  const tools = changeTool(world.tools, "billing_find_customer", (x) => {
    x.input_schema["properties"] = {
      ...(x.input_schema["properties"] as object),
      region: { type: "string" },
    };
    return x;
  });
  const td = reopen(t, store, tools, { checkSchemasOnStart: false });
  const report = await td.onToolUpdated("billing_find_customer");
  assert.deepEqual(
    report.changes.map((c) => [c.name, c.version, c.from, c.to, c.reason]),
    [
      [
        "invoice_from_email",
        1,
        "active",
        "active",
        "base tool 'billing_find_customer' changed (compatible): region was added (optional); re-verified: passed",
      ],
    ],
  );
  assert.equal(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).length,
    3,
    "no status change recorded",
  );
  // The definition joined the verified set: a second report finds nothing to do.
  const again = await td.onToolUpdated("billing_find_customer");
  assert.deepEqual(again.changes, []);
  // A description-only change is nothing to do at all.
  td.setTools(
    changeTool(tools, "billing_find_customer", (x) => ({ ...x, description: "Find a customer fast." })),
  );
  const cosmetic = await td.onToolUpdated("billing_find_customer");
  assert.deepEqual(
    cosmetic.changes.map((c) => [c.to, c.change]),
    [["active", "cosmetic"]],
  );
});

test("onToolUpdated: a breaking change makes the version suspect, fails re-verification and deprecates it", async (t) => {
  const { world, store } = await withActiveTool(t);
  const tools = changeTool(world.tools, "billing_create_invoice", (x) => {
    x.input_schema["required"] = ["customer_id", "lines", "currency"];
    return x;
  });
  const td = reopen(t, store, tools, { checkSchemasOnStart: false });
  const report = await td.onToolUpdated("billing_create_invoice");
  assert.deepEqual(
    report.changes.map((c) => [c.from, c.to, c.change]),
    [["active", "deprecated", "breaking"]],
  );
  assert.deepEqual(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).slice(-2).map((h) => `${h.from}→${h.to}`),
    ["active→suspect", "suspect→deprecated"],
  );
  assert.match(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).at(-1)?.reason ?? "",
    /^re-verification after 'billing_create_invoice' changed failed: static check failed: call to 'billing_create_invoice' — missing required property 'currency'/,
  );
});

test("onToolUpdated on an avoided tool: suspect(avoided_tool_recovered), still exposed, queued; rebuild beats it", async (t) => {
  const { world, store } = await withActiveTool(t);
  const distiller = new ScriptedDistiller([{ code: REBUILT, test_inputs: [{ customer: "ACME" }] }]);
  const td = reopen(t, store, world.tools, { distiller, allowLiveVerification: true });
  const report = await td.onToolUpdated("billing_import_from_email");
  assert.deepEqual(
    report.changes.map((c) => [c.from, c.to, c.problems, c.queuedRebuild]),
    [["active", "suspect", ["avoided_tool_recovered"], true]],
  );
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["invoice_from_email"],
    "it still works: still exposed",
  );
  assert.equal((await sqliteOf(td).listVersions())[0]?.queuedRebuild, true);

  const verdict = await td.rebuild("invoice_from_email");
  assert.equal(verdict.status, "verified");
  assert.equal(verdict.version, 2);
  assert.equal(verdict.calls, 2);
  assert.deepEqual(verdict.liveCalls, ["billing_import_from_email (call 2)"]);
  const request = distiller.requests[0];
  assert.equal(request?.reason, "rebuild");
  assert.equal(request?.replacing?.version, 1);
  assert.match(request?.note ?? "", /'billing_import_from_email' failed on every call in the source run/);
  assert.equal(
    (await sqliteOf(td).getVersion("invoice_from_email", 1))?.queuedRebuild,
    false,
    "unqueued after a verified rebuild",
  );
  await td.promote("invoice_from_email");
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.status, "deprecated");
});

test("rebuild: without live verification the recovered tool's recorded failure names the setting", async (t) => {
  const { world, store } = await withActiveTool(t);
  const distiller = new ScriptedDistiller([{ code: REBUILT, test_inputs: [{ customer: "ACME" }] }]);
  const td = reopen(t, store, world.tools, { distiller });
  await td.onToolUpdated("billing_import_from_email");
  const verdict = await td.rebuild("invoice_from_email");
  assert.equal(verdict.status, "rejected");
  assert.match(
    verdict.checks.replay.problems[0]?.message ?? "",
    /call 2 to 'billing_import_from_email' has only a failure recorded before 'billing_import_from_email' recovered: set allow_live_verification: true in tooldistill.yaml/,
  );
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.queuedRebuild, true, "still queued");
});

test("rebuild: a version that does not beat the one it replaces is rejected", async (t) => {
  const { world, store } = await withActiveTool(t);
  const distiller = new ScriptedDistiller([
    { code: TOOL.replace("latest order email.", "latest order email!"), test_inputs: [{ customer: "ACME" }] },
  ]);
  const td = reopen(t, store, world.tools, { distiller, allowLiveVerification: true });
  await td.onToolUpdated("billing_import_from_email");
  const verdict = await td.rebuild("invoice_from_email");
  assert.equal(verdict.status, "rejected");
  assert.equal(
    verdict.checks.efficiency.problems[0]?.message,
    "4 base calls; the version it replaces (v1) needs 4: a rebuild must use fewer",
  );
});

test("health: missing and changed tools, and probe-found recoveries; never calls the executor", async (t) => {
  const { world, store } = await withActiveTool(t);
  const probed: string[] = [];
  let executorCalls = 0;
  const td = new ToolDistill({
    store,
    tools: world.tools,
    executor: () => {
      executorCalls++;
    },
    sandbox,
    fallbackDistiller: false,
    healthProbe: (name) => {
      probed.push(name);
      return name === "billing_import_from_email";
    },
  });
  t.after(() => td.close());
  const noProbe = await td.health({ probe: false });
  assert.deepEqual(noProbe.changes, []);
  assert.deepEqual(noProbe.messages, ["all distilled tools match their base tools"]);
  const report = await td.health();
  assert.deepEqual(probed, ["billing_import_from_email"]);
  assert.deepEqual(report.probed, [{ tool: "billing_import_from_email", recovered: true }]);
  assert.deepEqual(
    report.changes.map((c) => [c.to, c.problems, c.queuedRebuild]),
    [["suspect", ["avoided_tool_recovered"], true]],
  );
  td.setTools(world.tools.filter((x) => x.name !== "gmail_get_message"));
  const missing = await td.health({ probe: false });
  assert.deepEqual(
    missing.changes.map((c) => [c.reason, c.problems]),
    [
      [
        "base tool 'gmail_get_message' is no longer offered",
        ["avoided_tool_recovered", "dependency_missing"],
      ],
    ],
  );
  assert.equal(executorCalls, 0);
});

test("fallback distiller: exactly one call for a worth-distilling run without a proposal; result ingested", async (t) => {
  const world = world2();
  const distiller = new ScriptedDistiller([{ code: TOOL, test_inputs: [{ customer: "ACME" }] }]);
  const td = new ToolDistill({
    store: join(tempDir(t), "s"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    distiller,
    minCallsToDistill: 5,
  });
  t.after(() => td.close());
  const trace = td.startTrace("invoice ACME");
  for (const [name, args] of [
    ["gmail_search", { query: "from:ACME order" }],
    ["gmail_get_message", { id: "msg-from-ACME-order" }],
    ["billing_find_customer", { name: "Nobody" }],
    ["billing_find_customer", { name: "ACME" }],
    ["billing_list_invoices", { customer_id: "cus_acme" }],
    ["billing_create_invoice", { customer_id: "cus_acme", lines: [{ sku: "A-1", qty: 2, price: 10 }] }],
  ] as const) {
    await trace.execute(name, args);
  }
  trace.setOutcome({ success: true });
  await trace.finish();
  await trace.finish();
  assert.equal(distiller.requests.length, 1);
  assert.equal(distiller.requests[0]?.reason, "fallback");
  assert.equal(distiller.requests[0]?.calls.length, 6);
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.status, "verified");
  assert.equal((await trace.record()).note, "fallback distiller: invoice_from_email v1 verified");
});

test("fallback distiller: not called when the agent proposed, the run failed, or the setting is off", async (t) => {
  const world = world2();
  for (const scenario of ["proposed", "failed", "off", "short"] as const) {
    const distiller = new ScriptedDistiller([]);
    const td = new ToolDistill({
      store: join(tempDir(t), scenario),
      executor: world.executor,
      tools: world.tools,
      sandbox,
      distiller,
      minCallsToDistill: 2,
      fallbackDistiller: scenario !== "off",
    });
    const trace = td.startTrace("x");
    await trace.execute("gmail_search", { query: "a" });
    if (scenario !== "short") await trace.execute("gmail_search", { query: "b" });
    if (scenario === "proposed") await trace.execute(PROPOSE_TOOL_NAME, { code: "x", test_inputs: [] });
    trace.setOutcome({ success: scenario !== "failed" });
    await trace.finish();
    assert.equal(distiller.requests.length, 0, scenario);
    await td.close();
  }
});

test("fallback distiller: a failure never escapes finish() and is recorded on the trace", async (t) => {
  const world = world2();
  const errors: string[] = [];
  const distiller = new ScriptedDistiller([new Error("network down")]);
  const td = new ToolDistill({
    store: join(tempDir(t), "s"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    distiller,
    minCallsToDistill: 1,
    logger: { info() {}, warn() {}, error: (m) => errors.push(m) },
  });
  t.after(() => td.close());
  const trace = td.startTrace("x");
  await trace.execute("gmail_search", { query: "a" });
  trace.setOutcome({ success: true });
  await trace.finish();
  assert.equal((await trace.record()).note, "fallback distiller failed: network down");
  assert.deepEqual(errors, ["tooldistill: fallback distiller failed: network down"]);
  assert.deepEqual(await sqliteOf(td).listVersions(), []);
});

test("fallback distiller: bounded in time", async (t) => {
  const world = world2();
  const td = new ToolDistill({
    store: join(tempDir(t), "s"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    minCallsToDistill: 1,
  });
  t.after(() => td.close());
  const trace = td.startTrace("x");
  await trace.execute("gmail_search", { query: "a" });
  trace.setOutcome({ success: true });
  const never: Distiller = { distill: () => new Promise(() => {}) };
  await fallbackDistill(
    {
      store: td.store,
      settings: td.settings,
      logger: td.logger,
      executor: null,
      healthProbe: null,
      sandbox,
      tools: () => td.tools(),
      baseTool: (name) => td.tools().find((t) => t.name === name),
      distiller: async () => never,
      exposureChanged: () => {},
    },
    trace.id,
    50,
  );
  assert.equal(
    (await trace.record()).note,
    "fallback distiller failed: the fallback distiller took longer than 0.05 s",
  );
});

test("check_schemas_on_start: a rollback that removes an optional property no call passes changes nothing", async (t) => {
  const { world } = await withActiveTool(t);
  // gmail_search goes back to a schema without `since` (optional, default "7d"), which the tool never passes; the
  // recorded calls carry since: "7d" from the schema they were recorded under.
  const rolledBack = changeTool(world.tools, "gmail_search", (x) => {
    delete (x.input_schema["properties"] as Record<string, unknown>)["since"];
    return x;
  });
  for (const [label, tools] of [
    ["extra properties allowed", rolledBack],
    [
      "extra properties refused",
      changeTool(rolledBack, "gmail_search", (x) => ({
        ...x,
        input_schema: { ...x.input_schema, additionalProperties: false },
      })),
    ],
  ] as const) {
    const { store } = await withActiveTool(t);
    const td = reopen(t, store, [...tools]);
    const report = await td.ready();
    assert.deepEqual(
      report?.changes.map((c) => [c.from, c.to, c.change, c.reason]),
      [
        [
          "active",
          "active",
          "compatible",
          `base tool 'gmail_search' changed (compatible): since was removed (no call of this tool passes since)${label === "extra properties refused" ? "; input: extra properties are no longer allowed (the calls of this tool pass only declared properties)" : ""}; re-verified: passed`,
        ],
      ],
      label,
    );
    assert.deepEqual(
      td.activeTools().map((x) => x.name),
      ["invoice_from_email"],
      label,
    );
    assert.equal(
      (await sqliteOf(td).getHistory("invoice_from_email", 1)).length,
      3,
      `${label}: no status change`,
    );
    await td.close();
  }
});

test("onToolUpdated: a removed property a call passes is breaking, and fails re-verification", async (t) => {
  const { world, store } = await withActiveTool(t);
  const tools = changeTool(world.tools, "billing_create_invoice", (x) => {
    delete (x.input_schema["properties"] as Record<string, unknown>)["lines"];
    x.input_schema["required"] = ["customer_id"];
    return x;
  });
  const td = reopen(t, store, tools, { checkSchemasOnStart: false });
  const report = await td.onToolUpdated("billing_create_invoice");
  assert.deepEqual(
    report.changes.map((c) => [c.from, c.to, c.change]),
    [["active", "deprecated", "breaking"]],
  );
  assert.match(
    report.changes[0]?.reason ?? "",
    /; lines was removed; re-verified: static check failed: call to 'billing_create_invoice' — unknown property 'lines'/,
  );
});
