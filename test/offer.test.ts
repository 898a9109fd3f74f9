/**
 * What a client that runs the base tools itself (the plugin's td server) is offered and may run, decided by the
 * library: `ToolDistill.offer()`, `execute`'s `distilledOnly` (a base tool's name and a tool not offered are refused
 * with why, recorded as calls not made), and `OfferReader`, the list before a ToolDistill is open.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { loadConfig, PROPOSE_TOOL_NAME, Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { OfferReader } from "../core/internal.ts";
import type { Logger } from "../core/types.ts";
import { REFUND_TOOL, SOURCE_RUN, type SupportWorld, supportWorld } from "./fakes/support-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

const ONLY = { distilledOnly: true } as const;

function library(t: TestContext, dir = tempDir(t)): { td: ToolDistill; world: SupportWorld; dir: string } {
  const world = supportWorld();
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    logger: silentLogger,
    fallbackDistiller: false,
  });
  t.after(() => td.close());
  return { td, world, dir };
}

/** Records the ACME session, proposes the refund tool from it (through `distilledOnly`) and promotes it. */
async function activeRefundTool(td: ToolDistill): Promise<void> {
  const trace = td.startTrace("Refund ACME");
  for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
  trace.setOutcome({ success: true });
  const proposed = await trace.execute(
    PROPOSE_TOOL_NAME,
    { code: REFUND_TOOL, test_inputs: [{ customer: "ACME" }] },
    ONLY,
  );
  assert.equal(proposed.isError, false, proposed.content);
  assert.equal((await td.promote("refund_ticket")).status, "active");
}

/** A logger that keeps every line. */
function heard(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (m: string) => {
    lines.push(m);
  };
  return { lines, info: keep, warn: keep, error: keep };
}

test("distilledOnly: a base tool's name is refused with why, recorded as a call not made, and runs nothing", async (t) => {
  const { td, world } = library(t);
  const trace = td.startTrace("through td");
  const refused = await trace.execute("tickets_find", { customer: "ACME" }, ONLY);
  assert.deepEqual(refused, {
    content:
      "Error: there is no distilled tool 'tickets_find' in this project; complete the task with the base tools",
    isError: true,
  });
  assert.equal(world.log.length, 0, "the base tool ran");
  assert.deepEqual(
    (await sqliteOf(td).getCalls(trace.id)).map((c) => [c.tool, c.kind, c.status, c.error]),
    [
      [
        "tickets_find",
        "other",
        "error",
        "there is no distilled tool 'tickets_find' in this project; complete the task with the base tools",
      ],
    ],
  );
  assert.equal(trace.baseCallCount(), 0);
  // The same call without the option is the SDK's: the base tool runs.
  const ran = await trace.execute("tickets_find", { customer: "ACME" });
  assert.equal(ran.isError, false, ran.content);
  assert.deepEqual(
    world.log.map((c) => c.name),
    ["tickets_find"],
  );
  // A name nothing has: the same refusal, not the SDK's "no such tool" with base tool suggestions.
  const unknown = await trace.execute("tickets_fnd", {}, ONLY);
  assert.equal(
    unknown.content,
    "Error: there is no distilled tool 'tickets_fnd' in this project; complete the task with the base tools",
  );
});

test("distilledOnly runs the offered distilled tool and refuses it, with why, once it is not offered", async (t) => {
  const { td, world } = library(t);
  assert.deepEqual(td.offer(), { propose: td.proposeTool(), distilled: [] });
  await activeRefundTool(td);
  assert.deepEqual(td.offer(), { propose: td.proposeTool(), distilled: td.activeTools() });
  assert.deepEqual(
    td.offer().distilled.map((x) => x.name),
    ["refund_ticket"],
  );
  const ok = await td.startTrace("Refund Hooli").execute("refund_ticket", { customer: "Hooli" }, ONLY);
  assert.equal(ok.isError, false, ok.content);
  assert.ok(world.refunded.has("O-Hooli"));

  // Deprecated by another process: refused from the store's answer, whatever this process holds in memory.
  const other = new ToolDistill({ store: td.store.location, logger: silentLogger });
  await other.deprecate("refund_ticket");
  await other.close();
  const before = world.log.length;
  const trace = td.startTrace("Refund Initech");
  const gone = await trace.execute("refund_ticket", { customer: "Initech" }, ONLY);
  assert.deepEqual(gone, {
    content:
      "Error: the distilled tool 'refund_ticket' was taken out of use: v1 is deprecated (deprecated by the user). Complete the task with the base tools.",
    isError: true,
  });
  assert.equal(world.log.length, before, "the deprecated tool ran");
  assert.deepEqual(
    (await sqliteOf(td).getCalls(trace.id)).map((c) => [c.tool, c.kind, c.status]),
    [["refund_ticket", "other", "error"]],
  );
});

test("distilledOnly completes a call row recorded elsewhere as refused (the plugin's PreToolUse hook)", async (t) => {
  const { td, world } = library(t);
  const trace = td.startTrace("hooked");
  await trace.flush();
  const callId = await td.store.startCall({
    traceId: trace.id,
    tool: "refund_ticket",
    kind: "distilled",
    args: { customer: "ACME" },
  });
  const refused = await trace.execute("refund_ticket", { customer: "ACME" }, { ...ONLY, callId });
  assert.equal(refused.isError, true);
  assert.deepEqual(
    (await sqliteOf(td).getCalls(trace.id)).map((c) => [c.id, c.kind, c.status, c.error]),
    [
      [
        callId,
        "other",
        "error",
        "there is no distilled tool 'refund_ticket' in this project; complete the task with the base tools",
      ],
    ],
  );
  assert.deepEqual(world.log, []);
});

test("OfferReader: the offer from the store before a ToolDistill is open; the proposal alone when there is none", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "tooldistill.yaml"), "fallback_distiller: false\n");
  const config = await loadConfig(join(dir, "tooldistill.yaml"));
  const log = heard();

  // Nothing recorded yet: the proposal tool alone, and nothing to warn about.
  const empty = await OfferReader.open(config, log);
  const propose = (await empty.read()).propose;
  assert.equal(propose.name, PROPOSE_TOOL_NAME);
  assert.deepEqual(await empty.read(), { propose, distilled: [] });
  await empty.close();
  assert.deepEqual(log.lines, []);

  const { td } = library(t, dir);
  await activeRefundTool(td);
  const reader = await OfferReader.open(config, log);
  const offer = await reader.read();
  assert.deepEqual(offer, td.offer());
  // Read at each call: a change made after the open is in the next read.
  await td.deprecate("refund_ticket");
  assert.deepEqual(await reader.read(), { propose, distilled: [] });
  await td.promote("refund_ticket", { version: 1 });
  assert.deepEqual(await reader.read(), offer);
  await reader.close();
  assert.deepEqual(await reader.read(), { propose, distilled: [] }, "a closed reader read the store");
  assert.deepEqual(log.lines, []);
});

test("OfferReader does not connect to a PostgreSQL registry (the ToolDistill does, behind the first list)", async (t) => {
  const dir = tempDir(t);
  // Nothing listens on port 1: a reader that connected would fail and warn.
  writeFileSync(join(dir, "tooldistill.yaml"), "store: postgres://td:td@127.0.0.1:1/td\n");
  const log = heard();
  const reader = await OfferReader.open(await loadConfig(join(dir, "tooldistill.yaml")), log);
  assert.deepEqual((await reader.read()).distilled, []);
  await reader.close();
  assert.deepEqual(log.lines, []);
});

test("OfferReader: a store that cannot be opened is warned, and the proposal tool alone is offered", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "not-a-folder"), "");
  writeFileSync(join(dir, "tooldistill.yaml"), "store: not-a-folder\n");
  const log = heard();
  const reader = await OfferReader.open(await loadConfig(join(dir, "tooldistill.yaml")), log);
  assert.deepEqual((await reader.read()).distilled, []);
  await reader.close();
  assert.equal(log.lines.length, 1, log.lines.join("\n"));
  assert.match(
    log.lines[0] ?? "",
    /^tooldistill: cannot read the store yet: cannot open the store at .*not-a-folder: it is a file/,
  );
});
