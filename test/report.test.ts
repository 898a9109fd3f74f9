/**
 * `tooldistill report` and `td.report()` on either store: the numbers recomputed here from the stored runs
 * (base calls, tokens, savings against the baseline with its basis), the status timeline with reasons, failures
 * by cause, base tool health and next actions; the CLI's --json is the library's report; tokens agree with
 * `traces list` and `show`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { type Report, runTokens, silentLogger, ToolDistill, type Trace } from "../core/index.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { bookingRun, input, TOOL, travelWorld } from "./fakes/travel-world.ts";
import { cli, tempDir } from "./helpers.ts";
import { freshLocation, KINDS } from "./registry-helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

const NAME = "book_cheapest_flight";

/** A travel world whose tools can be switched off (an outage: the executor throws a 503). */
async function open(t: TestContext, location: string) {
  const world = travelWorld();
  const state = { down: false };
  const td = await ToolDistill.open({
    store: location,
    executor: (name, args) => {
      if (state.down && name === "flights_book")
        throw Object.assign(new Error("503 service unavailable"), { status: 503 });
      return world.executor(name, args);
    },
    tools: world.tools,
    sandbox,
    minCallsToDistill: 3,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());
  return { td, state };
}

function usage(trace: Trace, input: number, output: number, cacheRead = 0) {
  trace.recordUsage({ input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead });
}

/** Every finished base call of a trace, inner calls included: the report's definition, recomputed here. */
async function baseCalls(td: ToolDistill, id: string): Promise<number> {
  return (await td.store.getCalls(id)).filter((c) => c.kind === "base" && c.status !== "started").length;
}

for (const kind of KINDS) {
  test(`report on ${kind}: savings measured from stored runs, timeline, failures, actions; the CLI's --json is td.report()`, async (t) => {
    const location = await freshLocation(t, kind);
    const { td, state } = await open(t, location);

    // Baseline: an earlier run of the task, then the source run that proposes the tool.
    const earlier = await bookingRun(td);
    usage(earlier, 9000, 800, 1000);
    await earlier.finish();
    const source = await bookingRun(td);
    usage(source, 7000, 600);
    const verdict = await source.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [input()] });
    assert.match(verdict.content, /^verified: /);
    usage(source, 500, 100); // the run goes on after the proposal: its tokens grow past the verification's copy
    await source.finish();
    await td.promote(NAME);

    // Two runs that use the tool, and one in which its base tool is down (an infrastructure failure).
    const uses: Trace[] = [];
    for (const [from, to, who] of [
      ["LAX", "BOS", "Ari Cole"],
      ["SEA", "ORD", "Kim Li"],
    ] as const) {
      const run = td.startTrace(`Book the cheapest flight from ${from} to ${to} for ${who}`);
      const out = await run.execute(NAME, input(from, to, who));
      assert.equal(out.isError, false, out.content);
      usage(run, 1200, 150);
      run.setOutcome({ success: true });
      await run.finish();
      uses.push(run);
    }
    state.down = true;
    const outage = td.startTrace("Book the cheapest flight from SFO to JFK for Dana Reyes");
    const failed = await outage.execute(NAME, input());
    assert.equal(failed.isError, true);
    usage(outage, 2000, 200);
    outage.setOutcome({ success: false });
    await outage.finish();

    const r = await td.report();
    const tool = r.tools.find((x) => x.name === NAME)!;

    // Runs and outcomes of the tool, failures by cause.
    assert.equal(tool.runs, 3);
    assert.equal(tool.successes, 2);
    assert.deepEqual(tool.failures, { infrastructure: 1 });
    assert.equal(tool.successRate, 2 / 3);
    assert.deepEqual(r.failures.byCause, { infrastructure: 1 });
    assert.equal(r.failures.recent[0]?.trace, outage.id);

    // Savings recomputed from the stored rows: baseline = the earlier and the source run; with the tool = the three
    // runs it ran in (the failed one too: what a failure costs counts against the tool).
    const cost = async (tr: Trace) => ({
      calls: await baseCalls(td, tr.id),
      tokens: runTokens((await td.store.getTrace(tr.id))!.usage),
    });
    const base = await Promise.all([earlier, source].map(cost));
    const used = await Promise.all([...uses, outage].map(cost));
    const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
    const perRunCalls =
      Math.round((mean(base.map((b) => b.calls)) - mean(used.map((u) => u.calls))) * 10) / 10;
    const perRunTokens =
      Math.round((mean(base.map((b) => b.tokens)) - mean(used.map((u) => u.tokens))) * 10) / 10;
    assert.deepEqual([...tool.savings.baseline.traces].sort(), [earlier.id, source.id].sort());
    assert.equal(tool.savings.withTool.runs, 3);
    assert.equal(tool.savings.perRun.baseCalls, perRunCalls);
    assert.equal(tool.savings.perRun.tokens, perRunTokens);
    assert.equal(tool.savings.total.baseCalls, Math.round(perRunCalls * 3));
    assert.equal(tool.savings.total.tokens, Math.round(perRunTokens * 3));
    assert.equal(tool.savings.basis, "3 runs with the tool against 2 baseline runs");
    assert.ok(perRunCalls > 0 && perRunTokens > 0, "the tool saves calls and tokens");
    assert.equal(r.overall.saved.baseCalls, tool.savings.total.baseCalls);

    // The status timeline, with the reason at each change.
    assert.deepEqual(
      tool.timeline.map((h) => `${h.from ?? "-"}→${h.to}`),
      ["-→draft", "draft→verified", "verified→active"],
    );
    assert.ok(tool.timeline.every((h) => h.reason.length > 0));

    // Base tool health: the outage is recorded, and is the next action.
    const book = r.baseTools.find((b) => b.tool === "flights_book")!;
    assert.equal(book.consecutiveFailures, 1);
    assert.match(book.lastError ?? "", /503/);
    assert.deepEqual(
      r.actions.map((a) => [a.kind, a.tool]),
      [["base-tool", "flights_book"]],
    );

    // Overall: every trace, its tokens as traces list counts them.
    assert.equal(r.overall.runs, 5);
    assert.equal(r.overall.succeeded, 4);
    assert.equal(r.overall.failed, 1);
    assert.equal(r.overall.runsWithDistilled, 3);
    const all = [...base, ...used];
    assert.equal(
      r.overall.tokens.total,
      all.reduce((n, x) => n + x.tokens, 0),
    );
    assert.equal(
      r.overall.baseCalls,
      all.reduce((n, x) => n + x.calls, 0),
    );
    await td.close();

    // The CLI on the same store: --json is the library's report; traces list and show agree on the source's tokens.
    const dir = tempDir(t, "td-report-cli-");
    writeFileSync(join(dir, "tooldistill.yaml"), `store: ${JSON.stringify(location)}\n`);
    const json = await cli(dir, "report", "--json");
    assert.equal(json.code, 0, json.stderr);
    const fromCli = JSON.parse(json.stdout) as Report;
    assert.deepEqual({ ...fromCli, generatedAt: "" }, { ...JSON.parse(JSON.stringify(r)), generatedAt: "" });
    const list = JSON.parse((await cli(dir, "traces", "list", "--json")).stdout) as {
      id: string;
      tokens: number;
    }[];
    const sourceTokens = base[1]!.tokens;
    assert.equal(list.find((x) => x.id === source.id)?.tokens, sourceTokens);
    const shown = JSON.parse((await cli(dir, "show", NAME, "--json")).stdout) as {
      savings: { baseline_tokens: number };
    };
    assert.equal(
      shown.savings.baseline_tokens,
      sourceTokens,
      "show reads the source run as stored, not at verification",
    );

    // --since: a later date leaves nothing; a date that is none is refused with what to write.
    const later = JSON.parse((await cli(dir, "report", "--json", "--since", "2999-01-01")).stdout) as Report;
    assert.equal(later.overall.runs, 0);
    assert.equal(later.tools[0]?.runs, 0);
    const bad = await cli(dir, "report", "--since", "last tuesday");
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--since: 'last tuesday' is not a date; give one like 2026-01-31/);

    // The text for people, and the HTML page written beside it.
    const text = await cli(dir, "report", "--html", "out.html");
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`${NAME} v1 active: 3 calls, 67% succeeded`));
    assert.match(text.stdout, /wrote .*out\.html/);
  });
}

test("the plugin's bundled report entry (/tooldistill:report) writes the page from the project's store", async (t) => {
  const dir = tempDir(t, "td-report-plugin-");
  writeFileSync(join(dir, "tooldistill.yaml"), "min_calls_to_distill: 2\n");
  const { td } = await open(t, join(dir, ".tooldistill"));
  const run = await bookingRun(td);
  usage(run, 100, 20);
  await run.finish();
  await td.close();
  const entry = fileURLToPath(new URL("../plugin/dist/report.js", import.meta.url));
  const r = spawnSync(process.execPath, [entry, "out.html"], {
    env: { PATH: process.env["PATH"] ?? "", CLAUDE_PROJECT_DIR: dir },
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    new RegExp(`tooldistill report written to ${join(dir, "out.html")}\\n1 runs, 0 distilled calls`),
  );
  const html = readFileSync(join(dir, "out.html"), "utf8");
  assert.match(html, /var uPlot=function/, "the chart library is inlined from the bundle's copy");
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href="http/, "nothing is loaded from elsewhere");
});
