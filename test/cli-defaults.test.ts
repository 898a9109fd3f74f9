/**
 * CLI defaults that used to dead-end (issue 20, item 4): verify on a suspect tool, verify's exit code while the
 * tool stays suspect, promote of the active version, show of a rejected version, init over an existing config,
 * and a failed replay's coverage.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROPOSE_TOOL_NAME, Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { REFUND_TOOL, SHARED_WORLD, SOURCE_RUN, TOOLS } from "./fakes/support-tools.ts";
import { cli, tempDir } from "./helpers.ts";

const SUPPORT = fileURLToPath(new URL("./fakes/support-tools.ts", import.meta.url));

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

/** A project whose tooldistill.yaml serves the support tools. */
function project(t: TestContext): string {
  const dir = tempDir(t, "td-clidef-");
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    [
      "store: .tooldistill",
      `executor: ${SUPPORT}#executeTool`,
      `tools: ${SUPPORT}#TOOLS`,
      "fallback_distiller: false",
      "",
    ].join("\n"),
  );
  return dir;
}

function library(dir: string): ToolDistill {
  return new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: SHARED_WORLD.executor,
    tools: TOOLS,
    sandbox,
    fallbackDistiller: false,
    logger: silentLogger,
  });
}

/** Records ACME's refund in the project's store and proposes `code`; with `promote`, a person promotes it. */
async function distil(dir: string, options: { code?: string; promote?: boolean } = {}): Promise<string> {
  SHARED_WORLD.refunded.clear();
  const td = library(dir);
  try {
    const trace = td.startTrace("Refund ACME's open ticket");
    for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
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

/** An active refund_ticket demoted by a failure of its own: a second refund of ACME's order, refused (422). */
async function suspectTool(dir: string): Promise<void> {
  await distil(dir, { promote: true });
  const td = library(dir);
  try {
    const out = await td.startTrace("Refund ACME again").execute("refund_ticket", { customer: "ACME" });
    assert.equal(out.isError, true, out.content);
  } finally {
    await td.close();
    SHARED_WORLD.log.length = 0;
  }
}

test("verify on a suspect tool takes its newest suspect version; a pass that leaves it suspect exits 3", async (t) => {
  const dir = project(t);
  await suspectTool(dir);
  // The failure was at refunds_create, a write: --live answers it from the record, so the pass cannot clear it.
  const live = await cli(dir, "verify", "refund_ticket", "--live");
  assert.equal(live.code, 3, live.stderr);
  assert.match(live.stdout, /^verified: refund_ticket v1\n/);
  assert.match(live.stdout, /\nrefund_ticket v1 is still suspect: /);
  assert.equal(live.stderr, "");
  const plan = await cli(dir, "verify", "refund_ticket", "--live", "--dry-run");
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /^plan of tooldistill verify refund_ticket --version 1 --live /);
  const replay = await cli(dir, "verify", "refund_ticket", "--json");
  assert.equal(replay.code, 3, "a replay pass never clears a runtime failure");
  assert.equal(JSON.parse(replay.stdout).status, "suspect");
  // With consent, on a fresh input (another customer's ticket: its writes are new, none repeats a recorded one),
  // the failed write runs for real: the tool is usable again.
  const cleared = await cli(
    dir,
    "verify",
    "refund_ticket",
    "--live",
    "--allow-writes",
    "--input",
    JSON.stringify({ customer: "Globex" }),
  );
  assert.equal(cleared.code, 0, cleared.stderr);
  assert.match(cleared.stdout, /\nrefund_ticket v1 is active: agents can call it\.\n$/);
  // With neither an active nor a suspect version, the message names what there is.
  assert.equal((await cli(dir, "deprecate", "refund_ticket")).code, 0);
  const none = await cli(dir, "verify", "refund_ticket");
  assert.equal(none.code, 1);
  assert.equal(
    none.stderr,
    "tooldistill: refund_ticket has no active or suspect version (v1 deprecated): pass --version N\n",
  );
});

test("promote of the active version changes nothing and exits 0, named or by default", async (t) => {
  const dir = project(t);
  await distil(dir, { promote: true });
  const before = (await cli(dir, "show", "refund_ticket", "--json")).stdout;
  for (const argv of [
    ["promote", "refund_ticket"],
    ["promote", "refund_ticket", "--version", "1"],
  ]) {
    const r = await cli(dir, ...argv);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "refund_ticket v1 is already active: nothing changed\n");
    assert.equal(r.stderr, "");
  }
  const json = JSON.parse((await cli(dir, "promote", "refund_ticket", "--json")).stdout);
  assert.equal(json.status, "active");
  assert.equal(json.already_active, true);
  assert.equal((await cli(dir, "show", "refund_ticket", "--json")).stdout, before, "no history entry");
});

test("show of a rejected version says rejected, and a failed replay's coverage names the sites that ran", async (t) => {
  const dir = project(t);
  // Ten times the order's amount: the source run recorded that refund as refused, so replay fails at call 3.
  const verdict = await distil(dir, {
    code: REFUND_TOOL.replace("amount: order.amount", "amount: order.amount * 10"),
  });
  const coverage = [
    "call sites covered: 0/4",
    "  ran only in a replay that failed: line 8 (tickets_find)",
    "  ran only in a replay that failed: line 10 (orders_get)",
    "  ran only in a replay that failed: line 11 (refunds_create)",
    "  never ran: line 12 (tickets_close)",
  ];
  assert.ok(verdict.includes(`\n${coverage.join("\n")}\n`), verdict);
  const r = await cli(dir, "show", "refund_ticket");
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes("draft:"), r.stdout);
  assert.ok(!r.stdout.includes("stays a draft"), r.stdout);
  assert.match(
    r.stdout,
    /\n {2}refund_ticket v1 is rejected: it is never offered to agents\. An agent proposes a corrected version \(it reuses v1\), or tooldistill rebuild refund_ticket when a rebuild is queued\.\n/,
  );
  assert.ok(r.stdout.includes(`\n${coverage.map((l) => `  ${l}`).join("\n")}\n`), r.stdout);
});

test("init over an existing tooldistill.yaml keeps it and creates the store it names", async (t) => {
  const dir = project(t);
  const config = readFileSync(join(dir, "tooldistill.yaml"), "utf8");
  assert.equal(existsSync(join(dir, ".tooldistill")), false);
  const r = await cli(dir, "init");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      `kept ${join(dir, "tooldistill.yaml")} (it exists; init never overwrites it)`,
      `created the store at ${join(dir, ".tooldistill")}`,
      "",
    ].join("\n"),
  );
  assert.equal(readFileSync(join(dir, "tooldistill.yaml"), "utf8"), config, "the file is unchanged");
  assert.equal(existsSync(join(dir, ".tooldistill")), true);
  const list = await cli(dir, "list", "--json");
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(JSON.parse(list.stdout), []);
  const again = await cli(dir, "init", "--json");
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout), {
    config: join(dir, "tooldistill.yaml"),
    store: join(dir, ".tooldistill"),
    config_created: false,
    store_created: false,
  });
});
