/**
 * Issue 20 items 1, 6 and 9: the executor's error contract (base-failure.ts) read from out-of-band signals in the
 * shapes common clients throw, never from text; the attacks that kept a failing tool active by steering that text
 * or the answer's size; retries of base calls at run time (only what may be repeated); a recorded outage that
 * the agent retried is a transient replay does not ask the tool to reproduce.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { backoffMs, callWithRetries } from "../core/base-tools/base-retry.ts";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import {
  classifyBaseFailure,
  DistillError,
  Sandbox,
  ToolDistill,
  type ToolDistillOptions,
} from "../core/index.ts";
import type { CallRecord, Executor, ToolDef } from "../core/types.ts";
import { fixturesFromCalls } from "../core/verify/replay/replay.ts";
import { onboardingWorld } from "./fakes/onboarding-world.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

const kind = (err: unknown) => classifyBaseFailure(err).kind;
const withProps = (message: string, props: Record<string, unknown>) =>
  Object.assign(new Error(message), props);

test("the contract: statuses in the common client shapes, transport codes, MCP codes, causes; never the text", () => {
  assert.equal(kind(withProps("x", { status: 503 })), "infrastructure");
  assert.equal(kind(withProps("x", { statusCode: 429 })), "infrastructure");
  assert.equal(kind(withProps("Request failed", { response: { status: 409 } })), "conflict", "axios");
  assert.equal(kind(withProps("x", { response: { statusCode: 404 } })), "not_found", "got");
  assert.equal(kind(new Response("gone", { status: 410 })), "gone", "a thrown fetch Response");
  assert.equal(kind(withProps("x", { status: 422 })), "unprocessable");
  assert.equal(kind(withProps("x", { status: 400 })), "rejected");
  assert.equal(
    kind(withProps("x", { code: 502 })),
    "infrastructure",
    "the MCP SDK's HTTP errors carry it as code",
  );
  assert.equal(kind(new McpError(ErrorCode.ConnectionClosed, "closed")), "infrastructure");
  assert.equal(kind(new McpError(ErrorCode.RequestTimeout, "timeout")), "infrastructure");
  assert.equal(kind(new McpError(ErrorCode.InvalidParams, "bad")), "rejected");
  assert.equal(kind(withProps("read ECONNRESET", { code: "ECONNRESET", errno: -104 })), "infrastructure");
  assert.equal(kind(withProps("x", { code: "ERR_NETWORK" })), "infrastructure", "axios without a response");
  const refused = new AggregateError([withProps("a", { code: "ECONNREFUSED" })], "connect failed");
  assert.equal(kind(refused), "infrastructure");
  assert.equal(
    kind(new TypeError("fetch failed", { cause: withProps("x", { code: "UND_ERR_SOCKET" }) })),
    "infrastructure",
  );
  assert.equal(kind(new DOMException("timed out", "TimeoutError")), "infrastructure");
  assert.equal(
    kind(new DistillError("MCP", "'x' failed: not connected")),
    "infrastructure",
    "the toolkit's transport",
  );
  const wrapped = (cause: unknown) => new DistillError("MCP", "'x' failed", { cause });
  assert.equal(
    kind(wrapped(new McpError(ErrorCode.InvalidParams, "bad"))),
    "rejected",
    "the server refused the call",
  );
  assert.equal(
    kind(wrapped(withProps("x", { code: 404 }))),
    "infrastructure",
    "the transport's 404: a lost session",
  );
  // Text alone says nothing: a message the tool may have steered.
  for (const text of [
    "503 Service Unavailable",
    "service unavailable",
    "ECONNRESET",
    "timed out",
    "409 conflict",
  ]) {
    assert.equal(kind(new Error(text)), "rejected", text);
    assert.equal(kind(text), "rejected", text);
  }
  // An MCP tool's own isError result is the tool answering, unless its structured content says more.
  assert.equal(kind(new DistillError("MCP_TOOL", "upstream 503 unavailable")), "rejected");
  assert.equal(kind(new DistillError("MCP_TOOL", "busy", { cause: { status: 503 } })), "infrastructure");
  // The host's own timeout is an outage, but the call may still be running: never retried.
  const timeout = classifyBaseFailure(new DistillError("TIMEOUT", "did not answer"));
  assert.deepEqual([timeout.kind, timeout.retryable], ["infrastructure", false]);
  assert.equal(classifyBaseFailure(withProps("x", { status: 503 })).retryable, true);
  assert.equal(classifyBaseFailure(withProps("x", { status: 409 })).retryable, false);
});

test("backoff doubles from the setting's first wait and stops at its cap", () => {
  const rule = { attempts: 5, backoff: 200, cap: 700 };
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => backoffMs(rule, n)),
    [200, 400, 700, 700],
  );
});

test("replay: an outage followed by the identical call that succeeded is a transient; other failures stay", () => {
  let id = 0;
  const row = (tool: string, args: Record<string, unknown>, failure: CallRecord["failure"]): CallRecord => ({
    id: ++id,
    traceId: "t",
    seq: id,
    parentId: null,
    tool,
    kind: "base",
    args,
    status: failure === null ? "ok" : "error",
    output: failure === null ? { ok: id } : null,
    error: failure === null ? null : "503",
    latencyMs: 1,
    version: null,
    note: null,
    clipped: false,
    failure,
  });
  const fixtures = fixturesFromCalls([
    row("mail", { to: "a" }, "infrastructure"),
    row("mail", { to: "a" }, "infrastructure"),
    row("mail", { to: "a" }, null),
    row("mail", { to: "b" }, "infrastructure"),
    row("mail", { to: "c" }, null),
    row("create", { x: 1 }, "conflict"),
    row("create", { x: 1 }, null),
    row("old", {}, null),
  ]);
  // Rows 1 and 2 were retried to success; row 4's retry never came (other arguments); a conflict is an answer.
  assert.deepEqual(
    fixtures.map((f) => [f.index, f.ok, f.failure]),
    [
      [3, true, null],
      [4, false, "infrastructure"],
      [5, true, null],
      [6, false, "conflict"],
      [7, true, null],
      [8, true, null],
    ],
  );
});

/** A read-only lookup whose errors echo the id it was given, and which answers 20 KB for ids ending in "big". */
function echoingWorld() {
  const tools: ToolDef[] = [
    {
      name: "records_get",
      description: "Read a record by id.",
      input_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      annotations: { readOnlyHint: true },
    },
  ];
  const executor: Executor = async (_name, args) => {
    const recordId = String(args["id"]);
    if (recordId === "rec-A1") return { id: recordId, owner: "ops" };
    if (recordId.endsWith("big")) return { id: recordId, blob: "x".repeat(20_000) };
    if (recordId === "rec-nope") throw Object.assign(new Error("no such record"), { status: 404 });
    // No status, no code: only the text, which echoes what the caller sent.
    throw new Error(`no record '${recordId}'`);
  };
  return { tools, executor };
}

const LOOKUP = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "record_owner",
  description: "Read who owns a record.",
  inputSchema: { type: "object", properties: { ref: { type: "string" } }, required: ["ref"] },
  async run({ ref }) {
    const found = await call("records_get", { id: "rec-" + ref });
    return { owner: found.owner };
  },
});
`;

async function activeLookup(t: TestContext, options: Partial<ToolDistillOptions> = {}) {
  const world = echoingWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    fallbackDistiller: false,
    autoPromote: true,
    minCallsToDistill: 1,
    demotion: { failures: 5, window: 5, probation: 0 },
    baseCallRetries: { attempts: 3, backoff: 0, cap: 0 },
    ...options,
  });
  t.after(() => td.close());
  const trace = td.startTrace("Who owns record A1?");
  await trace.execute("records_get", { id: "rec-nope" });
  await trace.execute("records_get", { id: "rec-A1" });
  trace.setOutcome({ success: true });
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code: LOOKUP, test_inputs: [{ ref: "A1" }] });
  assert.equal(out.isError, false, out.content);
  assert.equal((await sqliteOf(td).getVersion("record_owner", 1))?.status, "active");
  return td;
}

test("five failures whose text the tool steered ('unavailable' in an id the base tool echoes) demote it", async (t) => {
  const td = await activeLookup(t);
  for (let i = 0; i < 5; i++) {
    const out = await td.startTrace(`run ${i}`).execute("record_owner", { ref: `unavailable-${i}` });
    assert.equal(out.isError, true);
  }
  const v = await sqliteOf(td).getVersion("record_owner", 1);
  assert.equal(v?.status, "suspect", "its own failures, five in a row");
  assert.deepEqual(v?.problems, ["runtime_failure"]);
  assert.deepEqual(
    (await sqliteOf(td).recentRuns("record_owner", 1, 5)).map((r) => r.outcome),
    ["tool", "tool", "tool", "tool", "tool"],
  );
  assert.deepEqual(await sqliteOf(td).baseHealth(), [], "nor is the base tool marked down by the text");
});

test("five answers over the size limit to arguments the tool made demote it", async (t) => {
  const small = new Sandbox({ poolSize: 1, limits: { maxMessageBytes: 4096 } });
  t.after(() => small.close());
  const td = await activeLookup(t, { sandbox: small });
  for (let i = 0; i < 5; i++) {
    const out = await td.startTrace(`run ${i}`).execute("record_owner", { ref: `${i}-big` });
    assert.equal(out.isError, true);
    assert.match(out.content, /more than the 4096-byte limit/);
  }
  assert.equal((await sqliteOf(td).getVersion("record_owner", 1))?.status, "suspect");
});

test("the host retries outages of calls that may be repeated, never a write that does not say so", async () => {
  const rule = { attempts: 3, backoff: 0, cap: 0 };
  const def = (name: string, annotations?: ToolDef["annotations"]): ToolDef => ({
    name,
    description: name,
    input_schema: { type: "object" },
    ...(annotations ? { annotations } : {}),
  });
  const attempts = async (tool: ToolDef, status: number) => {
    let n = 0;
    const out = await callWithRetries(tool, rule, async () => {
      n++;
      const thrown = Object.assign(new Error("x"), { status });
      return { ok: false, error: "x", thrown, failure: classifyBaseFailure(thrown) };
    });
    assert.equal(out.ok, false);
    return n;
  };
  assert.equal(await attempts(def("orders_get", { readOnlyHint: true }), 503), 3, "read-only");
  assert.equal(await attempts(def("mail_send", { idempotentHint: true }), 503), 3, "declared idempotent");
  assert.equal(await attempts(def("laptops_order"), 503), 1, "a write that does not declare it");
  assert.equal(await attempts(def("laptops_order", { idempotentHint: false }), 503), 1);
  assert.equal(await attempts(def("orders_get", { readOnlyHint: true }), 409), 1, "an answer is not retried");
  let n = 0;
  const recovered = await callWithRetries(def("orders_get", { readOnlyHint: true }), rule, async () => {
    n++;
    if (n < 2) {
      const thrown = Object.assign(new Error("x"), { code: "ECONNRESET" });
      return { ok: false, error: "x", thrown, failure: classifyBaseFailure(thrown) };
    }
    return { ok: true, output: 1 };
  });
  assert.deepEqual([recovered, n], [{ ok: true, output: 1 }, 2]);
});

test("a base call the agent makes itself is not retried by the library: the agent decides", async (t) => {
  const world = onboardingWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    fallbackDistiller: false,
    baseCallRetries: { attempts: 3, backoff: 0, cap: 0 },
  });
  t.after(() => td.close());
  world.mailFailures = 1;
  const direct = await td.startTrace("send").execute("mail_send", { to: "a@x", subject: "s", body: "b" });
  assert.equal(direct.isError, true);
  assert.deepEqual(
    world.log.map((c) => [c.name, c.ok]),
    [["mail_send", false]],
  );
});
