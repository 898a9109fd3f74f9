/**
 * OpenTelemetry spans, captured with the SDK's in-memory exporter: a run with its usage, `execute_tool` spans for
 * base calls (error.type on a failure), a distilled call's `invoke_workflow` span parenting one `execute_tool` per
 * inner call, a verification span with the checks, and the base call's trace context arriving at a real MCP server
 * over stdio as `_meta.traceparent`.
 */
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { MCPToolkit, silentLogger, ToolDistill } from "../core/index.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { bookingRun, input, TOOL, travelWorld } from "./fakes/travel-world.ts";
import { tempDir } from "./helpers.ts";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
const sandbox = new Sandbox({ poolSize: 2 });
after(async () => {
  await sandbox.close();
  await provider.shutdown();
});

const NAME = "book_cheapest_flight";
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const idOf = (s: ReadableSpan) => s.spanContext().spanId;

test("spans: the run with its usage, base calls, a distilled call with its inner calls, a verification", async (t) => {
  exporter.reset();
  const world = travelWorld();
  let down = false;
  const td = await ToolDistill.open({
    store: `${tempDir(t)}/store`,
    executor: (name, args) => {
      if (down) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      return world.executor(name, args);
    },
    tools: world.tools,
    sandbox,
    minCallsToDistill: 3,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());

  const source = await bookingRun(td);
  down = true;
  const failed = await source.execute("flights_search", {
    from: "SFO",
    to: "JFK",
    date: "2025-03-01",
    channel: "api",
  });
  assert.equal(failed.isError, true);
  down = false;
  source.recordUsage({
    input_tokens: 1200,
    output_tokens: 300,
    cache_read_input_tokens: 5000,
    cache_creation_input_tokens: 40,
  });
  const verdict = await source.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [input()] });
  assert.match(verdict.content, /^verified: /);
  await source.finish();
  await td.promote(NAME);
  const reuse = td.startTrace("Book the cheapest flight from LAX to BOS for Ari Cole");
  const out = await reuse.execute(NAME, input("LAX", "BOS", "Ari Cole"));
  assert.equal(out.isError, false, out.content);
  reuse.setOutcome({ success: true });
  await reuse.finish();

  const spans = exporter.getFinishedSpans();
  const runs = spans.filter((s) => s.name === "invoke_agent tooldistill");
  const sourceRun = runs.find((s) => s.attributes["tooldistill.trace.id"] === source.id)!;
  const reuseRun = runs.find((s) => s.attributes["tooldistill.trace.id"] === reuse.id)!;
  assert.ok(sourceRun && reuseRun, "one span per run");
  assert.deepEqual(
    {
      input: sourceRun.attributes["gen_ai.usage.input_tokens"],
      output: sourceRun.attributes["gen_ai.usage.output_tokens"],
      read: sourceRun.attributes["gen_ai.usage.cache_read.input_tokens"],
      write: sourceRun.attributes["gen_ai.usage.cache_creation.input_tokens"],
    },
    { input: 1200, output: 300, read: 5000, write: 40 },
  );

  // The source run's six base calls: execute_tool spans under the run; the failed one with its error.type.
  const sourceCalls = spans.filter(
    (s) => s.name.startsWith("execute_tool ") && parentOf(s) === idOf(sourceRun),
  );
  assert.equal(sourceCalls.length, 6);
  assert.ok(sourceCalls.every((s) => s.attributes["gen_ai.operation.name"] === "execute_tool"));
  assert.deepEqual(
    sourceCalls.map((s) => s.attributes["gen_ai.tool.name"]),
    ["flights_search", "flights_search", "flights_book", "payments_send", "flights_search", "flights_search"],
  );
  assert.deepEqual(
    sourceCalls.map((s) => s.attributes["error.type"] ?? null),
    [null, null, null, null, null, "ECONNREFUSED"],
  );

  // The distilled call: invoke_workflow under the reuse run, one execute_tool child per inner call.
  const wf = spans.find((s) => s.name === `invoke_workflow ${NAME}`)!;
  assert.equal(parentOf(wf), idOf(reuseRun));
  assert.equal(wf.attributes["gen_ai.operation.name"], "invoke_workflow");
  assert.equal(wf.attributes["tooldistill.tool.version"], 1);
  assert.equal(wf.spanContext().traceId, reuseRun.spanContext().traceId);
  const inner = spans.filter((s) => parentOf(s) === idOf(wf));
  assert.deepEqual(
    inner.map((s) => s.name),
    ["execute_tool flights_search", "execute_tool flights_book", "execute_tool payments_send"],
  );

  // The verification of the proposal: its checks as attributes.
  const v = spans.find((s) => s.name === `verify_distilled_tool ${NAME}`)!;
  assert.equal(v.attributes["tooldistill.verdict.passed"], true);
  for (const check of ["static", "replay", "efficiency"]) {
    assert.equal(v.attributes[`tooldistill.check.${check}.ok`], true, check);
    assert.equal(v.attributes[`tooldistill.check.${check}.problems`], 0, check);
  }
  assert.equal(v.attributes["tooldistill.verdict.baseline"], 6, "the six top-level base calls");
});

test("a base call's trace context reaches a real MCP server over stdio as _meta.traceparent", async (t) => {
  exporter.reset();
  const server = fileURLToPath(new URL("./fixtures/mcp/trace-server.ts", import.meta.url));
  const toolkit = await MCPToolkit.connect({
    servers: { traced: { type: "stdio", command: process.execPath, args: [server], env: {} } },
    cwd: tempDir(t),
  });
  t.after(() => toolkit.close());
  const td = await ToolDistill.open({
    store: `${tempDir(t)}/store`,
    executor: toolkit.executor,
    tools: toolkit.tools,
    sandbox,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());
  const run = td.startTrace("echo the meta");
  const out = await run.execute("traced__echo_meta", { note: "hi" });
  assert.equal(out.isError, false, out.content);
  await run.finish();
  const meta = JSON.parse(out.content) as { traceparent?: string };
  const span = exporter.getFinishedSpans().find((s) => s.name === "execute_tool traced__echo_meta")!;
  const { traceId, spanId } = span.spanContext();
  assert.equal(meta.traceparent, `00-${traceId}-${spanId}-01`);
});
