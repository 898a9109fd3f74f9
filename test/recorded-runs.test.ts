/**
 * Replay across every recorded run (issue 13), through `propose_distilled_tool`: a version that replaces an active
 * one is replayed against the replaced version's recorded live runs and must reproduce them; the verdict counts the
 * runs and names the ones it could not replay. And at run time, each base call's arguments must fit the base
 * tool's current input schema before the call is made.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { ToolDistill, type ToolDistillOptions } from "../core/tool-distill/tool-distill.ts";
import type { Trace } from "../core/trace/trace.ts";
import { bookingRun, input, PICK, TOOL, travelWorld } from "./fakes/travel-world.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

const NAME = "book_cheapest_flight";

function setup(t: TestContext, options: Partial<ToolDistillOptions> = {}) {
  const world = travelWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    minCallsToDistill: 3,
    fallbackDistiller: false,
    ...options,
  });
  t.after(() => td.close());
  return { td, world };
}

async function propose(trace: Trace, code: string, inputs: Record<string, unknown>[] = [input()]) {
  return trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: inputs });
}

const lines = (out: { content: string }) => out.content.split("\n");

/** v1 distilled, promoted and run live on three routes: returns the trace of each live run, in order. */
async function activeWithRuns(td: ToolDistill): Promise<{ source: Trace; runs: string[] }> {
  const source = await bookingRun(td);
  const out = await propose(source, TOOL);
  assert.equal(lines(out)[0], `verified: ${NAME} v1`, out.content);
  await td.promote(NAME);
  const runs: string[] = [];
  for (const [from, to, traveller] of [
    ["SFO", "JFK", "Dana Reyes"],
    ["LAX", "BOS", "Ari Cole"],
    ["SEA", "ORD", "Kim Park"],
  ] as const) {
    const trace = td.startTrace(`Book the cheapest flight from ${from} to ${to} for ${traveller}`);
    const run = await trace.execute(NAME, input(from, to, traveller));
    assert.equal(run.isError, false, run.content);
    trace.setOutcome({ success: true });
    runs.push(trace.id);
  }
  return { source, runs };
}

test("a replacement that breaks one of the replaced version's recorded runs is rejected naming that run", async (t) => {
  const { td, world } = setup(t);
  const { runs } = await activeWithRuns(td);
  const source = await bookingRun(td);
  const paid = world.payments.length;
  // Books the first flight listed rather than the cheapest: the same on SFO-JFK and SEA-ORD, not on LAX-BOS.
  const first = TOOL.replace(PICK, "    const f: Flight = found.flights[0];");
  const out = await propose(source, first);
  assert.deepEqual(lines(out).slice(0, 2), [
    `rejected: ${NAME} v2: replay check failed`,
    // The run is another trace's (another agent's): host facts only, none of its arguments or answers.
    `- recorded run ${runs[1]} of v1 not reproduced: call 2 to 'flights_book' matches no recorded call; nearest recorded: call 2, differing in flight_id: a version that replaces v1 must do what it did in its recorded runs whose base calls still answer the same way`,
  ]);
  assert.ok(lines(out).includes("reproduces 3 of 4 recorded runs"), out.content);
  assert.ok(
    lines(out).some((l) => l.startsWith(`  not reproduced: ${runs[1]}: call 2 to 'flights_book'`)),
    out.content,
  );
  // Replay made no live call: nothing was booked or paid.
  assert.equal(world.payments.length, paid);
  assert.equal(
    (await sqliteOf(td).getVersion(NAME, 2))?.status,
    "rejected",
    "a draft that fails verification is rejected",
  );
});

test("a rebuild that breaks one of the replaced version's recorded runs is rejected naming that run", async (t) => {
  const first = TOOL.replace(PICK, "    const f: Flight = found.flights[0];");
  const asked: string[] = [];
  const { td } = setup(t, {
    distiller: {
      distill: async (request) => {
        asked.push(request.reason);
        return { code: first, test_inputs: [input()] };
      },
    },
  });
  const { runs } = await activeWithRuns(td);
  const verdict = await td.rebuild(NAME);
  assert.deepEqual(asked, ["rebuild"]);
  assert.equal(verdict.status, "rejected");
  assert.deepEqual(
    verdict.checks.replay.problems.map((p) => p.message.split(": call 2")[0]),
    [`recorded run ${runs[1]} of v1 not reproduced`],
  );
  assert.equal((await sqliteOf(td).getVersion(NAME, 1))?.status, "active");
});

test("a replacement that reproduces the replaced version's runs is verified: reproduces 4 of 4 recorded runs", async (t) => {
  const { td } = setup(t);
  const { runs } = await activeWithRuns(td);
  // The same choice written another way: sort by price and take the first.
  const sorted = TOOL.replace(
    PICK,
    "    const f: Flight = [...found.flights].sort((a: Flight, b: Flight) => a.price - b.price)[0];",
  );
  const out = await propose(await bookingRun(td), sorted);
  assert.equal(lines(out)[0], `verified: ${NAME} v2`, out.content);
  assert.ok(lines(out).includes("reproduces 4 of 4 recorded runs"), out.content);
  const v2 = (await sqliteOf(td).getVersion(NAME, 2))!;
  assert.deepEqual(v2.verdict?.evidence.runs, { reproduced: 4, total: 4, notReproduced: [] });
  // The recorded runs it was replayed against are kept with it: re-verification replays the same ones.
  assert.deepEqual(v2.replayRuns.map((r) => r.trace).sort(), [...runs].sort());
  const again = await td.verify(NAME, { version: 2 });
  assert.deepEqual(again.evidence.runs, { reproduced: 4, total: 4, notReproduced: [] });
});

test("runs whose input no longer fits are listed with why, and do not reject", async (t) => {
  const { td } = setup(t);
  const { runs } = await activeWithRuns(td);
  // v2 needs a cabin the recorded runs never gave.
  const withCabin = TOOL.replace(
    `required: ["from", "to", "date", "traveller"]`,
    `required: ["from", "to", "date", "traveller", "cabin"]`,
  ).replace('traveller: { type: "string" } }', `traveller: { type: "string" }, cabin: { type: "string" } }`);
  assert.notEqual(withCabin, TOOL);
  const out = await propose(await bookingRun(td), withCabin, [{ ...input(), cabin: "economy" }]);
  assert.equal(lines(out)[0], `verified: ${NAME} v2`, out.content);
  const at = lines(out).indexOf("reproduces 1 of 4 recorded runs");
  assert.ok(at > 0, out.content);
  assert.deepEqual(
    lines(out).slice(at + 1, at + 4),
    [...runs].reverse().map(
      // Another agent's run: the schema problems would name its input's keys, so they are left out.
      (r) => `  not reproduced: ${r}: its input does not match this version's inputSchema`,
    ),
  );
});

test("at run time a base call whose arguments no longer fit the tool's current input schema is not made", async (t) => {
  const { td, world } = setup(t);
  await activeWithRuns(td);
  const booked = world.bookings.length;
  // flights_book now takes `passenger`, not `traveller`; nothing told tooldistill yet.
  td.setTools(
    world.tools.map((tool) =>
      tool.name === "flights_book"
        ? {
            ...tool,
            input_schema: {
              type: "object",
              properties: {
                flight_id: { type: "string" },
                passenger: { type: "string" },
                channel: { type: "string" },
              },
              required: ["flight_id", "passenger"],
              additionalProperties: false,
            },
          }
        : tool,
    ),
  );
  const trace = td.startTrace("Book the cheapest flight from SFO to JFK for Dana Reyes");
  const out = await trace.execute(NAME, input());
  assert.equal(out.isError, true);
  assert.match(
    out.content,
    /the arguments do not match the current input schema of 'flights_book', so the call was not made: missing required property 'passenger'; unknown property 'traveller'\n/,
  );
  assert.equal(world.bookings.length, booked, "flights_book was not called");
  const inner = (await sqliteOf(td).getCalls(trace.id)).filter((c) => c.kind === "base");
  assert.deepEqual(
    inner.map((c) => c.tool),
    ["flights_search"],
  );
});
