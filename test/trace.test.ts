import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { invoiceWorld } from "./fakes/invoice-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

function setup(t: import("node:test").TestContext, options: { minCallsToDistill?: number } = {}) {
  const world = invoiceWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    minCallsToDistill: options.minCallsToDistill ?? 3,
    fallbackDistiller: false,
  });
  t.after(() => td.close());
  return { td, world };
}

test("execute records a successful base call with canonical args, output and latency", async (t) => {
  const { td, world } = setup(t);
  const trace = td.startTrace("find ACME");
  const out = await trace.execute("gmail_search", { query: "from:ACME order" });
  assert.equal(out.isError, false);
  assert.deepEqual(JSON.parse(out.content), [{ id: "msg-from-ACME-order", subject: "Order" }]);
  assert.deepEqual(world.log, [{ name: "gmail_search", args: { query: "from:ACME order" } }]);
  const [call] = await sqliteOf(td).getCalls(trace.id);
  assert.ok(call);
  assert.equal(call.tool, "gmail_search");
  assert.equal(call.kind, "base");
  assert.equal(call.status, "ok");
  assert.equal(call.seq, 1);
  assert.equal(call.parentId, null);
  // Defaults from the schema are applied and keys sorted, so replay can match on them.
  assert.deepEqual(call.args, { query: "from:ACME order", since: "7d" });
  assert.deepEqual(call.output, [{ id: "msg-from-ACME-order", subject: "Order" }]);
  assert.equal(typeof call.latencyMs, "number");
  assert.ok((call.latencyMs ?? -1) >= 0);
});

test("an executor that throws becomes an error result, recorded with its message", async (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("find nobody");
  const out = await trace.execute("billing_find_customer", { name: "Nobody" });
  assert.deepEqual(out, { content: "Error: no customer named Nobody", isError: true });
  const [call] = await sqliteOf(td).getCalls(trace.id);
  assert.equal(call?.status, "error");
  assert.equal(call?.error, "no customer named Nobody");
  assert.equal(call?.output, null);
});

test("an unknown tool name is an error result with a did-you-mean, never counted as a base call", async (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("typo");
  const out = await trace.execute("billing_find_customr", { name: "ACME" });
  assert.deepEqual(out, {
    content: "Error: no such tool 'billing_find_customr' (did you mean 'billing_find_customer'?)",
    isError: true,
  });
  assert.equal(trace.baseCallCount(), 0);
  assert.equal((await sqliteOf(td).getCalls(trace.id))[0]?.kind, "other");
});

test("string results pass through; other values are JSON", async (t) => {
  const world = invoiceWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), "s"),
    executor: (name) => (name === "gmail_search" ? "plain text" : undefined),
    tools: world.tools,
  });
  t.after(() => td.close());
  const trace = td.startTrace("x");
  assert.deepEqual(await trace.execute("gmail_search", { query: "q" }), {
    content: "plain text",
    isError: false,
  });
  assert.deepEqual(await trace.execute("gmail_get_message", { id: "1" }), {
    content: "null",
    isError: false,
  });
});

test("recordUsage sums every usage object, cache token fields included, and tolerates nulls", async (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("usage");
  trace.recordUsage({
    input_tokens: 100,
    output_tokens: 20,
    cache_creation_input_tokens: 5,
    cache_read_input_tokens: 7,
  });
  trace.recordUsage({
    input_tokens: 1,
    output_tokens: 2,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: 3,
  });
  trace.recordUsage(undefined);
  assert.deepEqual((await trace.record()).usage, {
    input_tokens: 101,
    output_tokens: 22,
    cache_creation_input_tokens: 5,
    cache_read_input_tokens: 10,
  });
});

test("outcome is null until set", (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("o");
  assert.equal(trace.outcome, null);
  trace.setOutcome({ success: false });
  assert.equal(trace.outcome, false);
  trace.setOutcome({ success: true });
  assert.equal(trace.outcome, true);
});

async function threeCalls(trace: import("../core/trace/trace.ts").Trace) {
  await trace.execute("gmail_search", { query: "from:ACME order" });
  await trace.execute("gmail_get_message", { id: "msg-from-ACME-order" });
  await trace.execute("billing_find_customer", { name: "Nobody" }); // a failed call counts too
}

test("nudge: null without an outcome, with a failed outcome, and below min_calls_to_distill", async (t) => {
  const { td } = setup(t);
  const noOutcome = td.startTrace("a");
  await threeCalls(noOutcome);
  assert.equal(noOutcome.distillNudge(), null);

  const failed = td.startTrace("b");
  await threeCalls(failed);
  failed.setOutcome({ success: false });
  assert.equal(failed.distillNudge(), null);

  const short = td.startTrace("c");
  await short.execute("gmail_search", { query: "q" });
  await short.execute("gmail_search", { query: "q2" });
  short.setOutcome({ success: true });
  assert.equal(short.baseCallCount(), 2);
  assert.equal(short.distillNudge(), null);
});

test("nudge: a successful run at the threshold gets one message, once", async (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("invoice ACME");
  await threeCalls(trace);
  trace.setOutcome({ success: true });
  const nudge = trace.distillNudge();
  assert.ok(nudge);
  assert.match(nudge, /^This task took 3 base tool calls\./);
  assert.match(nudge, /Call propose_distilled_tool with the code of the tool and test inputs\./);
  assert.match(nudge, /import \{ distilledTool, call, notApplicable \} from "tooldistill";/);
  assert.match(nudge, /"test_inputs"/);
  assert.equal(trace.distillNudge(), null, "at most once per trace");
});

test("nudge: null once a proposal was made in the run", async (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("p");
  await threeCalls(trace);
  trace.setOutcome({ success: true });
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code: 42 });
  assert.equal(out.isError, true);
  assert.match(
    out.content,
    /^rejected: invalid proposal: 'code' must be the whole TypeScript module as a string/,
  );
  assert.equal(trace.distillNudge(), null);
});

test("proposal and non-base calls never count toward the base call count", async (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("count");
  await trace.execute("gmail_search", { query: "q" });
  await trace.execute(PROPOSE_TOOL_NAME, {});
  await trace.execute("no_such_tool", {});
  assert.equal(trace.baseCallCount(), 1);
});

test("activeTools is empty on a new store and proposeTool is a valid Anthropic tool", (t) => {
  const { td } = setup(t);
  assert.deepEqual(td.activeTools(), []);
  const p = td.proposeTool();
  assert.equal(p.name, "propose_distilled_tool");
  assert.equal(typeof p.description, "string");
  assert.equal(p.input_schema["type"], "object");
  assert.deepEqual(p.input_schema["required"], ["code", "test_inputs"]);
});

test("finish ends the trace and never throws", async (t) => {
  const { td } = setup(t);
  const trace = td.startTrace("f");
  await trace.finish();
  assert.ok((await trace.record()).endedAt);
  await trace.finish();
});

test("bad options are a CONFIG_INVALID error naming the option", (t) => {
  assert.throws(
    () => new ToolDistill({ store: join(tempDir(t), "x"), minCallReduction: 1.5 }),
    /ToolDistill options: minCallReduction must be a number between 0 and 1, exclusive \(got 1.5\)/,
  );
});

test("a proposal named ../../../x is rejected naming the line before anything is written", async (t) => {
  const dir = tempDir(t);
  const world = invoiceWorld();
  const td = new ToolDistill({
    store: join(dir, "project", ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    fallbackDistiller: false,
  });
  t.after(() => td.close());
  const trace = td.startTrace("escape");
  await trace.execute("gmail_search", { query: "q" });
  const code = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "../../../x",
  description: "Escape the store.",
  inputSchema: { type: "object", properties: {} },
  async run() {
    return call("gmail_search", { query: "q" });
  },
});
`;
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{}] });
  assert.equal(out.isError, true);
  assert.equal(
    out.content,
    "rejected: the tool's name cannot be used, so nothing was stored:\nline 3: tool name '../../../x' must match ^[a-z][a-z0-9_]{2,35}$ (lowercase letters, digits and _, 3 to 36 characters)\nFix it and call propose_distilled_tool again.",
  );
  assert.deepEqual(await sqliteOf(td).listVersions(), [], "no draft is listed");
  assert.deepEqual(readdirSync(join(dir, "project", ".tooldistill", "tools")), []);
  assert.deepEqual(readdirSync(dir), ["project"], "nothing was written outside the store");
  assert.deepEqual(readdirSync(join(dir, "project")), [".tooldistill"]);
});
