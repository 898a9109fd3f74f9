import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { ToolDistill, type ToolDistillOptions } from "../core/tool-distill/tool-distill.ts";
import type { Trace } from "../core/trace/trace.ts";
import { invoiceWorld } from "./fakes/invoice-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

function setup(t: TestContext, options: Partial<ToolDistillOptions> = {}) {
  const world = invoiceWorld();
  const store = join(tempDir(t), ".tooldistill");
  const td = new ToolDistill({
    store,
    executor: world.executor,
    tools: world.tools,
    sandbox,
    minCallsToDistill: 4,
    fallbackDistiller: false,
    ...options,
  });
  t.after(() => td.close());
  return { td, world, store };
}

/** The trial-and-error run of the invoice task during an import outage: 9 top-level base calls. */
async function sourceRun(
  td: ToolDistill,
  world: ReturnType<typeof invoiceWorld>,
  customer = "ACME",
): Promise<Trace> {
  world.outage = true;
  const trace = td.startTrace(`Create a draft invoice for ${customer} from their latest order email`);
  const msgId = `msg-from-${customer}-order`;
  await trace.execute("gmail_search", { query: `from:${customer} order` });
  await trace.execute("gmail_get_message", { id: msgId });
  await trace.execute("billing_import_from_email", { message_id: msgId });
  await trace.execute("billing_import_from_email", { message_id: msgId });
  await trace.execute("billing_find_customer", { name: "Nobody" });
  await trace.execute("billing_find_customer", { name: customer });
  await trace.execute("billing_list_invoices", { customer_id: `cus_${customer.toLowerCase()}` });
  await trace.execute("billing_create_invoice", {
    customer_id: `cus_${customer.toLowerCase()}`,
    lines: [{ sku: "A-1", qty: 2, price: 10 }],
  });
  await trace.execute("billing_list_invoices", { customer_id: `cus_${customer.toLowerCase()}` });
  trace.setOutcome({ success: true });
  world.outage = false;
  return trace;
}

const GOOD_TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "invoice_from_email",
  description: "Create a draft invoice for a customer from their latest order email.",
  inputSchema: {
    type: "object",
    properties: { customer: { type: "string" } },
    required: ["customer"],
  },
  async run({ customer }: { customer: string }) {
    const [msg] = await call("gmail_search", { query: \`from:\${customer} order\` });
    const order = await call("gmail_get_message", { id: msg.id });
    const cust = await call("billing_find_customer", { name: customer });
    return call("billing_create_invoice", { customer_id: cust.id, lines: order.lines });
  },
  check: (result: { status: string }) => result.status === "draft",
});
`;

async function propose(
  trace: Trace,
  code: string,
  inputs: Record<string, unknown>[] = [{ customer: "ACME" }],
) {
  return trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: inputs });
}

test("a good proposal is stored as a draft, passes all three checks and becomes verified", async (t) => {
  const { td, store, world } = setup(t);
  const trace = await sourceRun(td, world);
  const out = await propose(trace, GOOD_TOOL);
  assert.equal(out.isError, false, out.content);
  assert.equal(
    out.content,
    [
      "verified: invoice_from_email v1",
      "4 base calls; limit 6.3 (baseline 9 × 0.7)",
      "call sites covered: 4/4",
      "literals checked: 0",
      "reproduces 1 of 1 recorded run",
      // None of the fake tools is annotated read-only, so each may write.
      "tools that may write: billing_create_invoice, billing_find_customer, gmail_get_message, gmail_search",
      "promotion: waits for tooldistill promote (auto_promote: false)",
      "invoice_from_email v1 is verified and waits for promote (tooldistill promote invoice_from_email).",
    ].join("\n"),
  );
  const v = await sqliteOf(td).getVersion("invoice_from_email", 1);
  assert.equal(v?.status, "verified");
  assert.equal(v?.baseline, 9);
  assert.equal(v?.sourceTrace, trace.id);
  assert.equal(await sqliteOf(td).readCode("invoice_from_email", 1), GOOD_TOOL);
  assert.ok(
    sqliteOf(td)
      .toolFile("invoice_from_email", 1)
      .startsWith(join(store, "tools", "invoice_from_email")),
  );
  assert.deepEqual(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).map((h) => [h.from, h.to, h.reason]),
    [
      [null, "draft", "proposed"],
      ["draft", "verified", "all three checks passed"],
    ],
  );
  // Dependencies are read from the source; the tool that failed on every call is an avoided dependency.
  assert.deepEqual(
    (await sqliteOf(td).getDependencies("invoice_from_email", 1)).map((d) => [
      d.baseTool,
      d.avoided,
      typeof d.fingerprint,
    ]),
    [
      ["billing_create_invoice", false, "string"],
      ["billing_find_customer", false, "string"],
      ["billing_import_from_email", true, "string"],
      ["gmail_get_message", false, "string"],
      ["gmail_search", false, "string"],
    ],
  );
  assert.deepEqual(td.activeTools(), [], "verified is not exposed until promoted");
  await td.promote("invoice_from_email");
  assert.deepEqual(td.activeTools(), [
    {
      name: "invoice_from_email",
      description: "Create a draft invoice for a customer from their latest order email.",
      input_schema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
    },
  ]);
  // The proposal itself is a recorded call that never counts toward the baseline.
  assert.equal(trace.baseCallCount(), 9);
});

test("the static check runs first: a typo is rejected with line and did-you-mean; the rejected proposal uses up no version number", async (t) => {
  const { td, world } = setup(t);
  const trace = await sourceRun(td, world);
  const out = await propose(
    trace,
    GOOD_TOOL.replace('call("billing_find_customer"', 'call("billing_find_customr"'),
  );
  assert.equal(out.isError, true);
  const lines = out.content.split("\n");
  assert.equal(lines[0], "rejected: invoice_from_email v1: static check failed");
  assert.ok(
    lines.includes(
      "- line 14: call to 'billing_find_customr' — no such base tool (did you mean 'billing_find_customer'?)",
    ),
    out.content,
  );
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.status, "rejected");
  // The corrected proposal takes the number the rejected attempt held: rejections never use up version numbers.
  const fixed = await propose(trace, GOOD_TOOL);
  assert.match(fixed.content, /^verified: invoice_from_email v1/);
  assert.deepEqual(
    (await sqliteOf(td).listVersions()).map((v) => [v.version, v.status]),
    [[1, "verified"]],
  );
});

test("replay: an unmatched call names the nearest recorded call", async (t) => {
  const { td, world } = setup(t);
  const trace = await sourceRun(td, world);
  const out = await propose(trace, GOOD_TOOL.replace("{ name: customer }", '{ name: customer + " Corp" }'));
  assert.equal(out.isError, true);
  assert.match(out.content, /^rejected: invoice_from_email v1: replay check failed/);
  assert.ok(
    out.content.includes(
      `- call 3 to 'billing_find_customer' with {"name":"ACME Corp"} matches no recorded call; nearest recorded: call 5 billing_find_customer {"name":"Nobody"}; differs in name: "ACME Corp" ≠ recorded "Nobody"`,
    ) ||
      out.content.includes(
        `- call 3 to 'billing_find_customer' with {"name":"ACME Corp"} matches no recorded call; nearest recorded: call 6 billing_find_customer {"name":"ACME"}; differs in name: "ACME Corp" ≠ recorded "ACME"`,
      ),
    out.content,
  );
});

test("replay: a recorded error is replayed as a thrown error and fails the tool", async (t) => {
  const { td, world } = setup(t);
  const trace = await sourceRun(td, world);
  const code = GOOD_TOOL.replace(
    'const cust = await call("billing_find_customer", { name: customer });',
    'await call("billing_import_from_email", { message_id: msg.id });\n    const cust = await call("billing_find_customer", { name: customer });',
  );
  const out = await propose(trace, code);
  assert.equal(out.isError, true);
  assert.ok(
    out.content.includes(
      "- call 3 to 'billing_import_from_email' failed as recorded in the source run: 503 Service Unavailable: billing import is down; a distilled tool must follow calls that succeeded",
    ),
    out.content,
  );
});

test("replay: arguments are validated against the base tool's current schema", async (t) => {
  const { td, world } = setup(t);
  const trace = await sourceRun(td, world);
  const out = await propose(trace, GOOD_TOOL.replace("{ id: msg.id }", "{ id: 42 } as never"));
  assert.equal(out.isError, true);
  assert.ok(
    out.content.includes(
      "- call 2 to 'gmail_get_message': arguments do not match its current input schema: id must be string",
    ),
    out.content,
  );
});

test("replay: a check() that does not hold fails; a failing test input is named", async (t) => {
  const { td, world } = setup(t);
  const trace = await sourceRun(td, world);
  const out = await propose(
    trace,
    GOOD_TOOL.replace('result.status === "draft"', 'result.status === "sent"'),
  );
  assert.equal(out.isError, true);
  assert.match(out.content, /^rejected: invoice_from_email v1: replay check failed/);
  assert.match(out.content, /- check\(result\) did not hold: /);
  const two = await propose(trace, GOOD_TOOL, [{ customer: "ACME" }, { customer: "Initech" }]);
  assert.match(
    two.content,
    /- test input 2: call 1 to 'gmail_search' with \{"query":"from:Initech order","since":"7d"\} matches no recorded call/,
  );
  const empty = await propose(trace, GOOD_TOOL, []);
  assert.match(empty.content, /- test_inputs is empty: give at least one input taken from the source run/);
  const badInput = await propose(trace, GOOD_TOOL, [{ client: "ACME" }]);
  assert.match(
    badInput.content,
    /input \{"client":"ACME"\} does not match the tool's inputSchema: missing required property 'customer'/,
  );
});

test("efficiency: a tool that repeats the whole run is rejected with the arithmetic", async (t) => {
  const { td, world } = setup(t, { minCallReduction: 0.5 });
  const trace = await sourceRun(td, world);
  const code = GOOD_TOOL.replace(
    "return call(",
    'await call("billing_list_invoices", { customer_id: cust.id });\n    return call(',
  );
  const out = await propose(trace, code);
  assert.equal(out.isError, true);
  assert.match(out.content, /^rejected: invoice_from_email v1: efficiency check failed/);
  assert.ok(
    out.content.includes(
      "- 5 base calls; limit 4.5 (baseline 9 × 0.5): use at least 50% fewer base calls than the source run",
    ),
    out.content,
  );
});

test("a new version inherits the larger baseline of its predecessor", async (t) => {
  const { td, world } = setup(t);
  const first = await sourceRun(td, world);
  await propose(first, GOOD_TOOL);
  await td.promote("invoice_from_email");
  // A shorter run (5 calls) proposes v2: the baseline stays 9.
  const short = td.startTrace("again");
  await short.execute("gmail_search", { query: "from:ACME order" });
  await short.execute("gmail_get_message", { id: "msg-from-ACME-order" });
  await short.execute("billing_find_customer", { name: "ACME" });
  await short.execute("billing_list_invoices", { customer_id: "cus_acme" });
  await short.execute("billing_create_invoice", {
    customer_id: "cus_acme",
    lines: [{ sku: "A-1", qty: 2, price: 10 }],
  });
  short.setOutcome({ success: true });
  // Byte-identical code would be v1 itself: the new version differs in its description.
  const out = await propose(short, GOOD_TOOL.replace("latest order email.", "latest order email (v2)."));
  assert.match(out.content, /^verified: invoice_from_email v2\n4 base calls; limit 6.3 \(baseline 9 × 0.7\)/);
});

test("auto_promote activates at once and deprecates the previous active version", async (t) => {
  const { td, world } = setup(t, { autoPromote: "all" });
  const trace = await sourceRun(td, world);
  const a = await propose(trace, GOOD_TOOL);
  assert.match(a.content, /invoice_from_email v1 is active: agents can call it now\./);
  const b = await propose(trace, GOOD_TOOL.replace("latest order email.", "latest order email (v2)."));
  assert.equal(b.isError, false, b.content);
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.status, "deprecated");
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 2))?.status, "active");
  assert.deepEqual(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).map((h) => `${h.from}→${h.to}: ${h.reason}`),
    [
      "null→draft: proposed",
      "draft→verified: all three checks passed",
      "verified→active: auto_promote: all",
      "active→deprecated: replaced by v2",
    ],
  );
});

test("a distilled tool runs live in one call, with inner calls recorded under it", async (t) => {
  const { td, world } = setup(t, { autoPromote: "all" });
  await propose(await sourceRun(td, world), GOOD_TOOL);
  const reuse = td.startTrace("Create a draft invoice for Globex");
  world.log.length = 0;
  const out = await reuse.execute("invoice_from_email", { customer: "Globex" });
  assert.equal(out.isError, false, out.content);
  assert.deepEqual(JSON.parse(out.content), {
    id: "inv_2",
    customer_id: "cus_globex",
    lines: [{ sku: "A-1", qty: 2, price: 10 }],
    status: "draft",
  });
  assert.deepEqual(
    world.log.map((c) => c.name),
    ["gmail_search", "gmail_get_message", "billing_find_customer", "billing_create_invoice"],
  );
  const calls = await sqliteOf(td).getCalls(reuse.id);
  assert.equal(calls[0]?.kind, "distilled");
  assert.equal(calls[0]?.version, 1);
  assert.deepEqual(
    calls.slice(1).map((c) => [c.tool, c.parentId]),
    [
      ["gmail_search", calls[0]?.id],
      ["gmail_get_message", calls[0]?.id],
      ["billing_find_customer", calls[0]?.id],
      ["billing_create_invoice", calls[0]?.id],
    ],
  );
  assert.equal(reuse.baseCallCount(), 0, "inner calls are not top-level");
  assert.deepEqual((await sqliteOf(td).getRunStats("invoice_from_email", 1)).successes, 1);
  // Invalid input is the caller's error: an error result, no demotion.
  const bad = await reuse.execute("invoice_from_email", { customer: 7 });
  assert.deepEqual(bad, {
    content:
      "Error: invalid input for 'invoice_from_email': customer must be string. Call it again with input that matches its schema.",
    isError: true,
  });
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.status, "active");
});

test("runtime failure: structured error with resume packet, demotion, waived threshold, nudge for a replacement", async (t) => {
  const { td, world } = setup(t, { autoPromote: "all", minCallsToDistill: 8 });
  await propose(await sourceRun(td, world), GOOD_TOOL);
  world.requireCurrency = true;
  const run = td.startTrace("Create a draft invoice for Initech");
  const out = await run.execute("invoice_from_email", { customer: "Initech" });
  assert.equal(out.isError, true);
  assert.equal(
    out.content,
    [
      "Distilled tool 'invoice_from_email' (v1) failed at step 4 of 4.",
      "Base tool: billing_create_invoice",
      "Error: missing required property 'currency'",
      "This distilled tool has been disabled. Complete the task using the base tools directly.",
      "",
      "Steps already completed (do not repeat the ones that changed something):",
      `1. gmail_search {"query":"from:Initech order"} → [{"id":"msg-from-Initech-order","subject":"Order"}] (may have changed something)`,
      `2. gmail_get_message {"id":"msg-from-Initech-order"} → {"id":"msg-from-Initech-order","lines":[{"sku":"A-1","qty":2,"price":10}]} (may have changed something)`,
      `3. billing_find_customer {"name":"Initech"} → {"id":"cus_initech","name":"Initech"} (may have changed something)`,
      "Left to do: 1 step starting with billing_create_invoice.",
    ].join("\n"),
  );
  const v = await sqliteOf(td).getVersion("invoice_from_email", 1);
  assert.equal(v?.status, "suspect");
  assert.deepEqual(v?.problems, ["runtime_failure"]);
  assert.deepEqual(td.activeTools(), [], "a suspect(runtime_failure) version is not exposed");
  // The demotion rule: a failure of its own while it has fewer than 3 successful runs demotes it at once.
  assert.equal(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).at(-1)?.reason,
    "runtime failure: missing required property 'currency'; demoted: it failed with only 0 successful runs (fewer than the 3 of demotion.probation)",
  );
  // The agent falls back with two base calls: far below min_calls_to_distill = 8, but the failure waives it.
  await run.execute("billing_find_customer", { name: "Initech" });
  await run.execute("billing_create_invoice", { customer_id: "cus_initech", lines: [], currency: "EUR" });
  run.setOutcome({ success: true });
  const nudge = run.distillNudge();
  assert.ok(nudge);
  assert.match(nudge, /^The distilled tool 'invoice_from_email' failed in this run and was disabled/);
  assert.match(nudge, /Propose a replacement under the same name 'invoice_from_email'/);
  // Only verify --live clears a runtime failure; a replay re-verification keeps it.
  await assert.rejects(td.promote("invoice_from_email", { version: 1 }), {
    message:
      "invoice_from_email v1 failed at run time: only tooldistill verify invoice_from_email --version 1 --live can clear that",
  });
});

test("verify --live clears a runtime failure once the tool works again; a failed write must run live to count", async (t) => {
  const { td, world } = setup(t, { autoPromote: "all" });
  await propose(await sourceRun(td, world), GOOD_TOOL);
  world.requireCurrency = true;
  await td.startTrace("x").execute("invoice_from_email", { customer: "ACME" });
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.status, "suspect");
  world.requireCurrency = false;
  const replayOnly = await td.verify("invoice_from_email", { version: 1 });
  assert.equal(replayOnly.status, "suspect", "replay alone does not clear a runtime failure");
  // No fake tool is read-only: without --allow-writes every call is answered from the record, nothing runs.
  world.log.length = 0;
  const recorded = await td.verify("invoice_from_email", { version: 1, live: true });
  assert.deepEqual(world.log, [], "no call ran for real");
  assert.equal(recorded.status, "suspect", "the failed write was answered from the record: not shown fixed");
  // With consent to writes, on a fresh input: the source run's invoice is not created a second time.
  await assert.rejects(td.verify("invoice_from_email", { version: 1, live: true, allowWrites: true }), {
    code: "WRITE_REFUSED",
  });
  const live = await td.verify("invoice_from_email", {
    version: 1,
    live: true,
    allowWrites: true,
    input: { customer: "Globex" },
  });
  assert.equal(live.status, "active");
  assert.equal(live.liveCalls.length, 4);
  assert.equal(
    (await sqliteOf(td).getHistory("invoice_from_email", 1)).at(-1)?.reason,
    "re-verification passed (live)",
  );
});

test("promote and deprecate: newest verified, refusals, superseded, rollback re-verifies", async (t) => {
  const { td, world } = setup(t);
  const trace = await sourceRun(td, world);
  await assert.rejects(td.promote("nope"), { code: "NOT_FOUND", message: "no distilled tool named 'nope'" });
  await propose(trace, GOOD_TOOL.replace("from:${customer}", "from:${customer}x"));
  await assert.rejects(td.promote("invoice_from_email"), {
    message: "invoice_from_email has no verified or active version (v1 rejected): pass --version N",
  });
  await assert.rejects(td.promote("invoice_from_email", { version: 1 }), {
    message:
      "invoice_from_email v1 is rejected: it failed verification: run tooldistill verify invoice_from_email --version 1",
  });
  // The good proposal takes v1 back from the rejected attempt; the next one is v2.
  await propose(trace, GOOD_TOOL);
  await propose(trace, GOOD_TOOL.replace("latest order email.", "latest order email!"));
  const active = await td.promote("invoice_from_email");
  assert.equal(active.version, 2, "the newest verified version");
  assert.equal(
    (await sqliteOf(td).getVersion("invoice_from_email", 1))?.status,
    "superseded",
    "older verified: superseded",
  );
  // Promoting the active version again is no change, not an error.
  const again = await td.promote("invoice_from_email", { version: 2 });
  assert.equal(again.status, "active");
  assert.equal((await sqliteOf(td).getHistory("invoice_from_email", 2)).length, 3, "no history entry added");
  // A superseded version can still be promoted by a person, after re-passing verification.
  await td.promote("invoice_from_email", { version: 1 });
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 2))?.status, "deprecated");
  // Rollback: v2 re-passes verification first.
  const back = await td.promote("invoice_from_email", { version: 2 });
  assert.equal(back.status, "active");
  assert.equal(
    (await sqliteOf(td).getHistory("invoice_from_email", 2)).at(-1)?.reason,
    "rollback: re-verification passed",
  );
  assert.equal((await sqliteOf(td).getVersion("invoice_from_email", 1))?.status, "deprecated");
  assert.equal(
    (await sqliteOf(td).getVersion("invoice_from_email", 2))?.verdict?.evidence.promotion,
    "promoted by a person (tooldistill promote)",
  );
  const dep = await td.deprecate("invoice_from_email");
  assert.equal(dep.version, 2);
  await assert.rejects(() => td.deprecate("invoice_from_email", { version: 2 }), {
    message: "invoice_from_email v2 is already deprecated",
  });
  await assert.rejects(() => td.deprecate("invoice_from_email"), {
    message: "invoice_from_email has no active version (v1 deprecated, v2 deprecated): pass --version N",
  });
  // A rollback whose re-verification fails is refused: the tool it needs no longer exists.
  td.setTools(world.tools.filter((x) => x.name !== "billing_find_customer"));
  await assert.rejects(
    td.promote("invoice_from_email", { version: 1 }),
    /cannot be promoted: static check failed: call to 'billing_find_customer' — no such base tool/,
  );
});

test("exposure is ranked by successful runs and capped by max_exposed_tools", async (t) => {
  const { td, world } = setup(t, { autoPromote: "all", maxExposedTools: 2 });
  const trace = await sourceRun(td, world);
  for (const name of ["tool_a", "tool_b", "tool_c"]) {
    const out = await propose(trace, GOOD_TOOL.replace('"invoice_from_email"', `"${name}"`));
    assert.equal(out.isError, false, out.content);
  }
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["tool_a", "tool_b"],
    "ties are broken by name",
  );
  const reuse = td.startTrace("reuse");
  await reuse.execute("tool_b", { customer: "ACME" });
  await reuse.execute("tool_b", { customer: "ACME" });
  await reuse.execute("tool_a", { customer: "ACME" });
  // tool_c is not exposed, so it does not run; the answer says why instead of "no such tool".
  const hidden = await reuse.execute("tool_c", { customer: "ACME" });
  assert.deepEqual(hidden, {
    content:
      "Error: the distilled tool 'tool_c' is active but not offered now: max_exposed_tools (2) offers the tools a person promoted, then the most used distilled tools, with a share kept for new ones. Complete the task with the base tools.",
    isError: true,
  });
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["tool_b", "tool_a"],
  );
});

test("a tool file edited by hand after verification is refused at run time", async (t) => {
  const { td, world } = setup(t, { autoPromote: "all" });
  await propose(await sourceRun(td, world), GOOD_TOOL);
  appendFileSync(sqliteOf(td).toolFile("invoice_from_email", 1), "\n// tweak\n");
  const out = await td.startTrace("x").execute("invoice_from_email", { customer: "ACME" });
  assert.equal(out.isError, true);
  assert.equal(
    out.content,
    "Error: the file of 'invoice_from_email' v1 was edited after it was verified, so it is not run. Propose the edited code as a new version (propose_distilled_tool) to have it verified. Complete the task with the base tools.",
  );
  assert.equal(
    (await sqliteOf(td).getVersion("invoice_from_email", 1))?.status,
    "active",
    "a hand edit is not a runtime failure",
  );
});

test("a proposal whose name cannot be read stores nothing", async (t) => {
  const { td, world } = setup(t);
  const trace = await sourceRun(td, world);
  const out = await propose(trace, "export default 1;");
  assert.equal(out.isError, true);
  assert.match(
    out.content,
    /^rejected: the tool's name, description and inputSchema could not be read, so nothing was stored:/,
  );
  assert.deepEqual(await sqliteOf(td).listVersions(), []);
});
