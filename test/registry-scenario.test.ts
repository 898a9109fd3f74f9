/**
 * The library on either store, through the public API only (issue 15): the travel scenario — a source run, a
 * proposal through propose_distilled_tool, verification, promotion, reuse through activeTools() and execute, a
 * change of a base tool's schema re-verified by the library — on SQLite and on PostgreSQL; and two ToolDistill
 * instances on one registry that see each other's promotion through the store's change feed, without a restart.
 */
import assert from "node:assert/strict";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { ToolDistill, type ToolDistillOptions } from "../core/tool-distill/tool-distill.ts";
import { silentLogger, type ToolDef } from "../core/types.ts";
import { bookingRun, input, TOOL, travelWorld } from "./fakes/travel-world.ts";
import { freshLocation, KINDS } from "./registry-helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

const NAME = "book_cheapest_flight";

async function open(t: TestContext, location: string, options: Partial<ToolDistillOptions> = {}) {
  const world = travelWorld();
  const td = await ToolDistill.open({
    store: location,
    executor: world.executor,
    tools: world.tools,
    sandbox,
    minCallsToDistill: 3,
    fallbackDistiller: false,
    logger: silentLogger,
    ...options,
  });
  t.after(() => td.close());
  return { td, world };
}

/** flights_search with an optional `cabin` added: a compatible change (every call that was valid stays valid). */
function withCabin(tools: readonly ToolDef[]): ToolDef[] {
  return tools.map((tool) =>
    tool.name === "flights_search"
      ? {
          ...tool,
          input_schema: {
            ...tool.input_schema,
            properties: { ...(tool.input_schema.properties as object), cabin: { type: "string" } },
          },
        }
      : tool,
  );
}

for (const kind of KINDS) {
  test(`travel scenario on ${kind}: propose, verify, promote, reuse, and a schema change re-verified`, async (t) => {
    const location = await freshLocation(t, kind);
    const { td, world } = await open(t, location);

    // The source run: five base calls, a success, worth distilling; the nudge is given once.
    const source = await bookingRun(td);
    assert.equal(source.baseCallCount(), 5);
    assert.equal(source.worthDistilling(), true);
    assert.ok(source.distillNudge());
    assert.equal(source.distillNudge(), null, "at most one nudge per trace");

    // The agent proposes; the library verifies.
    const out = await source.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [input()] });
    assert.equal(out.content.split("\n")[0], `verified: ${NAME} v1`, out.content);
    assert.equal(source.worthDistilling(), false, "a proposal was made in the run");
    assert.deepEqual(
      td.activeTools().map((x) => x.name),
      [],
      "verified, not promoted",
    );

    // A person promotes; the tool is offered at once.
    const promoted = await td.promote(NAME);
    assert.equal(promoted.status, "active");
    assert.deepEqual(
      td.activeTools().map((x) => x.name),
      [NAME],
    );

    // Reuse: one call instead of five, the cheapest flight of another route booked and paid.
    const reuse = td.startTrace("Book the cheapest flight from LAX to BOS for Ari Cole");
    const run = await reuse.execute(NAME, input("LAX", "BOS", "Ari Cole"));
    assert.equal(run.isError, false, run.content);
    assert.deepEqual(world.payments.at(-1), { to: "acct-5310", amount: 310, memo: "BK-2" });
    assert.equal(reuse.baseCallCount(), 0, "the distilled call's inner calls are not top-level base calls");
    reuse.setOutcome({ success: true });
    await reuse.finish();
    const stats = await td.store.getRunStats(NAME, 1);
    assert.equal(stats.successes, 1);

    // A reopened trace reads its state back from the store.
    const again = await td.openTrace(source.id);
    assert.equal(again.outcome, true);
    assert.equal(again.baseCallCount(), 5);
    assert.equal(again.worthDistilling(), false);
    assert.equal(again.distillNudge(), null);
    await td.close();

    // flights_search gains an optional property: the next start re-verifies v1 by itself, and it stays active.
    const changed = await open(t, location, { tools: withCabin(travelWorld().tools) });
    const report = await changed.td.ready();
    assert.deepEqual(
      report?.changes.map((c) => [c.name, c.version, c.change, c.from, c.to]),
      [[NAME, 1, "compatible", "active", "active"]],
    );
    assert.match(report?.changes[0]?.reason ?? "", /re-verified: passed$/);
    assert.deepEqual(
      changed.td.activeTools().map((x) => x.name),
      [NAME],
    );
    const known = await changed.td.store.verifiedDefinitions(NAME, 1);
    assert.ok(
      known.some((d) => d.baseTool === "flights_search" && JSON.stringify(d.definition).includes("cabin")),
      "the new definition joined the ones v1 was verified against",
    );
    await changed.td.close();

    // A third start with the same tools finds nothing to re-verify.
    const calm = await open(t, location, { tools: withCabin(travelWorld().tools) });
    assert.deepEqual((await calm.td.ready())?.changes, []);
  });

  test(`two ToolDistill instances on one ${kind} registry see each other's promotion without a restart`, async (t) => {
    const location = await freshLocation(t, kind);
    let heard!: () => void;
    const changed = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const one = await open(t, location);
    const two = await open(t, location, { onExposureChange: () => heard() });
    assert.deepEqual(two.td.activeTools(), []);

    const source = await bookingRun(one.td);
    const out = await source.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [input()] });
    assert.equal(out.content.split("\n")[0], `verified: ${NAME} v1`, out.content);
    await one.td.promote(NAME);

    // The other instance learns it from the change feed (PostgreSQL: NOTIFY; SQLite: its poll of the history).
    await changed;
    assert.deepEqual(
      two.td.activeTools().map((x) => x.name),
      [NAME],
    );
    const trace = two.td.startTrace("Book the cheapest flight from SEA to ORD for Kim Park");
    const run = await trace.execute(NAME, input("SEA", "ORD", "Kim Park"));
    assert.equal(run.isError, false, run.content);
  });
}
