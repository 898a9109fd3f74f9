/**
 * The lifecycle for agents that write, through the CLI a person uses: verify --live with its plan, refusal and
 * consent; prune; list --status of every status; promote's code and diff; show's failure evidence; and two
 * processes of a rolling deploy with different definitions of one base tool.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { REFUND_TOOL, SHARED_WORLD, SOURCE_RUN, TOOLS } from "./fakes/support-tools.ts";
import { cli, tempDir } from "./helpers.ts";

const SUPPORT = fileURLToPath(new URL("./fakes/support-tools.ts", import.meta.url));
const CLI = fileURLToPath(new URL("../bin/tooldistill.js", import.meta.url));

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

/** The base tools the shared world was called with, in order. */
const called = (): string[] => SHARED_WORLD.log.map((c) => c.name);

/** A project whose tooldistill.yaml serves the support tools (`tools` names the export). */
function project(t: TestContext, tools = "TOOLS"): string {
  const dir = tempDir(t, "td-cli12-");
  writeConfig(dir, "tooldistill.yaml", tools);
  return dir;
}

function writeConfig(dir: string, file: string, tools: string): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      "store: .tooldistill",
      `executor: ${SUPPORT}#executeTool`,
      `tools: ${SUPPORT}#${tools}`,
      "fallback_distiller: false",
      "",
    ].join("\n"),
  );
  return path;
}

/**
 * Records ACME's trial and error in the project's store and proposes `code`; with `promote`, a person promotes
 * it. `skipClose` leaves tickets_close out of the source run (so the record has no answer for it).
 */
async function distil(
  dir: string,
  options: { code?: string; promote?: boolean; skipClose?: boolean } = {},
): Promise<string> {
  SHARED_WORLD.refunded.clear();
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: SHARED_WORLD.executor,
    tools: TOOLS,
    sandbox,
    fallbackDistiller: false,
    allowLiveVerification: options.skipClose ?? false,
    logger: silentLogger,
  });
  try {
    const trace = td.startTrace("Refund ACME's open ticket");
    const run = options.skipClose ? SOURCE_RUN.filter(([n]) => n !== "tickets_close") : SOURCE_RUN;
    for (const [name, args] of run) await trace.execute(name, args);
    trace.setOutcome({ success: true });
    const out = await trace.execute(PROPOSE_TOOL_NAME, {
      code: options.code ?? REFUND_TOOL,
      test_inputs: [{ customer: "ACME" }],
    });
    if (options.promote) await td.promote("refund_ticket");
    return out.content;
  } finally {
    await td.close();
    SHARED_WORLD.log.length = 0;
  }
}

test("verify --live --dry-run prints the plan call by call and calls no base tool", async (t) => {
  const dir = project(t);
  await distil(dir, { promote: true });
  const r = await cli(dir, "verify", "refund_ticket", "--live", "--dry-run");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      "plan of tooldistill verify refund_ticket --version 1 --live (nothing was run):",
      '   1. tickets_find {"customer":"ACME"}: live (read-only (annotations.readOnlyHint))',
      '   2. orders_get {"order_id":"O-ACME"}: live (read-only (annotations.readOnlyHint))',
      '   3. refunds_create {"amount":40,"order_id":"O-ACME"}: from the record (may write: answered from the record of the source run)',
      '   4. tickets_close {"note":"refunded R-O-ACME","ticket_id":"T-ACME"}: from the record (may write: answered from the record of the source run)',
      "verify --live would run the live calls above for real and answer the others from the record",
      "",
    ].join("\n"),
  );
  assert.deepEqual(called(), [], "a dry run calls nothing");
  const json = JSON.parse(
    (await cli(dir, "verify", "refund_ticket", "--live", "--dry-run", "--json")).stdout,
  );
  assert.deepEqual(
    json.steps.map((s: { step: number; tool: string; how: string }) => [s.step, s.tool, s.how]),
    [
      [1, "tickets_find", "live"],
      [2, "orders_get", "live"],
      [3, "refunds_create", "record"],
      [4, "tickets_close", "record"],
    ],
  );
  assert.deepEqual(json.refused, []);
  // The live verification itself runs the reads and answers the writes from the record: no second refund.
  const live = await cli(dir, "verify", "refund_ticket", "--live");
  assert.equal(live.code, 0, live.stderr);
  assert.deepEqual(called(), ["tickets_find", "orders_get"]);
});

test("verify --live refuses a write the record cannot answer unless --allow-writes; the plan names it", async (t) => {
  const dir = project(t);
  // The source run never closed the ticket, so a note in the tool's own words would be a constant it never
  // passed to tickets_close (rejected for a tool that may write): the note is the refund's id, from its result.
  const code = REFUND_TOOL.replace("note: `refunded ${refund.refund_id}`", "note: refund.refund_id");
  await distil(dir, { code, promote: true, skipClose: true });
  const plan = await cli(dir, "verify", "refund_ticket", "--live", "--dry-run");
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(
    plan.stdout,
    /\n {3}4\. tickets_close \{"note":"R-O-ACME","ticket_id":"T-ACME"\}: REFUSED \(may write and has no recorded answer: needs --allow-writes\)\n/,
  );
  assert.match(
    plan.stdout,
    /\nverify --live would be refused: 1 call may write with no recorded answer; --allow-writes runs them for real\n$/,
  );
  const refused = await cli(dir, "verify", "refund_ticket", "--live");
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr,
    "tooldistill: verify --live refused for refund_ticket v1: call 4 to 'tickets_close' may write and the source run recorded no answer, so it would run for real. Nothing was run. See the plan with tooldistill verify refund_ticket --version 1 --live --dry-run, or pass --allow-writes to let those calls write.\n",
  );
  assert.deepEqual(called(), [], "refused before anything ran");
  const withPlan = await cli(dir, "verify", "refund_ticket", "--live", "--allow-writes", "--dry-run");
  assert.match(
    withPlan.stdout,
    /3\. refunds_create .*: REFUSED \(may write: the source run already sent these arguments\)\n.*4\. tickets_close .*: live \(writes\) \(may write: runs live \(--allow-writes\)\)/s,
  );
  assert.deepEqual(called(), []);
  // Consent to writes does not repeat the source run's refund: the command says to give a fresh input.
  const repeat = await cli(dir, "verify", "refund_ticket", "--live", "--allow-writes");
  assert.equal(repeat.code, 1);
  assert.match(
    repeat.stderr,
    /^tooldistill: verify --live refused for refund_ticket v1: call 3 to 'refunds_create' \{"amount":40,"order_id":"O-ACME"\} \(the source run already sent these arguments\)\. .* Nothing was run\. Verify against a fresh input whose writes are new: tooldistill verify refund_ticket --version 1 --live --allow-writes --input '<json>'/,
  );
  assert.deepEqual(called(), [], "refused before anything ran");
  // A fresh input: every call runs for real, and each write is new.
  const allowed = await cli(
    dir,
    "verify",
    "refund_ticket",
    "--live",
    "--allow-writes",
    "--input",
    '{"customer":"Globex"}',
  );
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.deepEqual(called(), ["tickets_find", "orders_get", "refunds_create", "tickets_close"]);
  const noLive = await cli(dir, "verify", "refund_ticket", "--input", '{"customer":"Globex"}');
  assert.equal(noLive.code, 2, noLive.stderr);
  assert.match(noLive.stderr, /^tooldistill: --input only goes with --live\n/);
  const notJson = await cli(dir, "verify", "refund_ticket", "--live", "--input", "Globex");
  assert.equal(notJson.code, 1, "a running command's usage error exits 1");
  assert.match(notJson.stderr, /--input must be a JSON object, the tool's input/);
  const usage = await cli(dir, "verify", "refund_ticket", "--allow-writes");
  assert.equal(usage.code, 2);
  assert.equal((await cli(dir, "verify", "refund_ticket", "--dry-run")).code, 2);
  assert.match(
    usage.stderr,
    /^tooldistill: --allow-writes only goes with --live\n\nUsage: tooldistill verify /,
  );
});

test("list --status takes every status; prune removes rejected and superseded versions and keeps their traces", async (t) => {
  const dir = project(t);
  const bad = await distil(dir, { code: REFUND_TOOL.replace("tickets_close", "tickets_closed") });
  assert.match(bad, /^rejected: refund_ticket v1: static check failed/);
  for (const status of ["draft", "verified", "active", "suspect", "deprecated", "rejected", "superseded"]) {
    const r = await cli(dir, "list", "--status", status, "--json");
    assert.equal(r.code, 0, `${status}: ${r.stderr}`);
  }
  const rejected = JSON.parse((await cli(dir, "list", "--status", "rejected", "--json")).stdout);
  assert.deepEqual(
    rejected.map((v: { name: string; version: number; status: string }) => [v.name, v.version, v.status]),
    [["refund_ticket", 1, "rejected"]],
  );
  await distil(dir);
  await distil(dir, {
    code: REFUND_TOOL.replace("close the ticket.", "close the ticket (v2)."),
    promote: true,
  });
  const superseded = await cli(dir, "list", "--status", "superseded");
  assert.match(superseded.stdout, /^refund_ticket +v1 +superseded /m);
  await distil(dir, { code: REFUND_TOOL.replace("orders_get", "orders_gett") });
  const young = await cli(dir, "prune", "--older-than", "1");
  assert.equal(young.code, 0, young.stderr);
  assert.equal(young.stdout, "nothing to prune older than 1 days\n");
  const pruned = await cli(dir, "prune");
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.match(
    pruned.stdout,
    /^removed refund_ticket v1 \(superseded since \d{4}-.*\)\nremoved refund_ticket v3 \(rejected since .*\)\n2 versions removed; the traces they came from are kept\n$/,
  );
  const left = JSON.parse((await cli(dir, "list", "--json")).stdout);
  assert.deepEqual(
    left.map((v: { version: number; status: string }) => [v.version, v.status]),
    [[2, "active"]],
  );
  const traces = JSON.parse((await cli(dir, "traces", "list", "--json")).stdout);
  assert.equal(traces.length, 4, "every source trace is kept");
  assert.deepEqual(JSON.parse((await cli(dir, "prune", "--json")).stdout), []);
});

test("promote prints the code and, for a replacement, its diff against the active version", async (t) => {
  const dir = project(t);
  await distil(dir, { promote: true });
  await distil(dir, { code: REFUND_TOOL.replace("and close the ticket.", "and then close the ticket.") });
  const r = await cli(dir, "promote", "refund_ticket");
  assert.equal(r.code, 0, r.stderr);
  const [code, diff] = r.stdout.split("\nchanges from v1, the version it replaces:\n");
  assert.ok(
    code?.startsWith("code of refund_ticket v2:\nimport { distilledTool, call, notApplicable }"),
    code,
  );
  assert.match(
    code ?? "",
    /description: "Refund the order of a customer's open ticket and then close the ticket\.",/,
  );
  assert.ok(diff?.includes("--- refund_ticket v1 (active)\n+++ refund_ticket v2\n"), diff);
  assert.match(
    diff ?? "",
    /\n- {2}description: "Refund the order of a customer's open ticket and close the ticket\.",\n/,
  );
  assert.match(
    diff ?? "",
    /\n\+ {2}description: "Refund the order of a customer's open ticket and then close the ticket\.",\n/,
  );
  assert.ok(diff?.endsWith("\nrefund_ticket v2: active\n"), diff);
  const json = JSON.parse((await cli(dir, "list", "--json")).stdout);
  assert.deepEqual(
    json.map((v: { version: number; status: string }) => [v.version, v.status]),
    [
      [1, "deprecated"],
      [2, "active"],
    ],
  );
});

test("show lists the runs with each failure's evidence and the demotion's reason", async (t) => {
  const dir = project(t);
  await distil(dir, { promote: true });
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: SHARED_WORLD.executor,
    tools: TOOLS,
    sandbox,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());
  const run = (customer: string) =>
    td.startTrace(`Refund ${customer}`).execute("refund_ticket", { customer });
  for (const c of ["Globex", "Initech", "Umbrella"]) await run(c);
  SHARED_WORLD.tickets.delete("Hooli");
  await run("Hooli");
  SHARED_WORLD.outage = true;
  await run("Hooli");
  SHARED_WORLD.outage = false;
  await run("ACME");
  await run("Globex");
  const r = await cli(dir, "show", "refund_ticket");
  assert.equal(r.code, 0, r.stderr);
  const runs = r.stdout.slice(r.stdout.indexOf("\nruns:\n"), r.stdout.indexOf("\nsavings:\n"));
  const lines = runs.split("\n").slice(2, -1);
  assert.match(lines[0] ?? "", /^ {2}7 \(3 successful, 3 failed, 1 not applicable\), last /);
  assert.deepEqual(
    lines.slice(1).map((l) => l.replace(/^ {2}\S+ \S+ {2}/, "").replace(/ \(trace [^)]+\)$/, "")),
    [
      "failed (the tool's own): call_failed at refunds_create: 422 order O-Globex was already refunded",
      "failed (the tool's own): call_failed at refunds_create: 422 order O-ACME was already refunded",
      "failed (infrastructure: not counted against it): call_failed at tickets_find: 503 Service Unavailable",
      "not applicable: no open ticket for Hooli",
      "ok, 4 inner calls",
      "ok, 4 inner calls",
      "ok, 4 inner calls",
    ],
  );
  assert.match(
    r.stdout,
    /active → suspect +runtime failure: 422 order O-Globex was already refunded; demoted: 2 failures of its own in its last 5 runs \(demotion: 2 in 5\)/,
  );
  const json = JSON.parse((await cli(dir, "show", "refund_ticket", "--json")).stdout);
  assert.deepEqual(
    json.recent_runs.map((x: { outcome: string }) => x.outcome),
    ["tool", "tool", "infrastructure", "not_applicable", "ok", "ok", "ok"],
  );
  assert.deepEqual(
    { ...json.recent_runs[2].evidence, trace: null, call: null },
    {
      trace: null,
      call: null,
      kind: "call_failed",
      cause: "infrastructure",
      message: "503 Service Unavailable",
      step: 1,
      tool: "tickets_find",
    },
  );
  assert.equal(json.run_stats.not_applicable, 1);
  const health = await cli(dir, "health", "--no-probe");
  // The read-only tickets_find was tried three times (base_call_retries): each attempt is an outage recorded.
  assert.match(
    health.stdout,
    /\nbase tools \(outages count here, never against a distilled tool\):\n {2}tickets_find: healthy \(3 outages recorded, answering again since /,
  );
  SHARED_WORLD.tickets.set("Hooli", { id: "T-Hooli", order_id: "O-Hooli" });
});

test("two processes with different definitions of a base tool, started alternately 10 times, leave the status unchanged", async (t) => {
  const dir = project(t);
  await distil(dir, { promote: true });
  const older = join(dir, "tooldistill.yaml");
  const newer = writeConfig(dir, "newer.yaml", "TOOLS_NEXT");
  const history = () => JSON.parse(readFileSync(join(dir, "history.json"), "utf8"));
  const statuses: string[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < 10; i++) {
    const config = i % 2 === 0 ? older : newer;
    const r = spawnSync(process.execPath, [CLI, "health", "--no-probe", "--config", config, "--json"], {
      cwd: dir,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    warnings.push(...r.stderr.split("\n").filter(Boolean));
    const show = await cli(dir, "show", "refund_ticket", "--json");
    const shown = JSON.parse(show.stdout);
    statuses.push(shown.status);
    writeFileSync(join(dir, "history.json"), JSON.stringify(shown.history));
  }
  assert.deepEqual(statuses, Array(10).fill("active"));
  assert.deepEqual(
    history().map((h: { from: string | null; to: string }) => [h.from, h.to]),
    [
      [null, "draft"],
      ["draft", "verified"],
      ["verified", "active"],
    ],
    "no status change recorded",
  );
  // One re-verification, by the first process with the new definition; every later start knows both.
  assert.deepEqual(warnings, [
    "tooldistill: at start-up, refund_ticket v1 stays active: base tool 'tickets_find' changed (compatible): include_closed was added (optional); re-verified: passed",
  ]);
  const shown = JSON.parse((await cli(dir, "show", "refund_ticket", "--json")).stdout);
  assert.equal(
    shown.verified_definitions.filter((d: { base_tool: string }) => d.base_tool === "tickets_find").length,
    2,
  );
});
