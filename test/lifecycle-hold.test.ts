/**
 * Demotion evasion (issue 20, item 11), through `trace.execute("propose_distilled_tool", …)`: a version demoted for
 * a runtime failure cannot come back as "v2", the same code with a comment and other formatting, by replay alone.
 * Equivalent code is the held-back version (its state and evidence); a real replacement waits for a live pass or
 * a person, even under auto_promote: all.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { REFUND_TOOL, SOURCE_RUN, type SupportWorld, supportWorld } from "./fakes/support-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

/** refund_ticket v1, auto-promoted (auto_promote: all), then demoted by one failure at run time. */
async function demoted(t: TestContext): Promise<{ td: ToolDistill; world: SupportWorld }> {
  const world = supportWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    logger: silentLogger,
    fallbackDistiller: false,
    autoPromote: "all",
    demotion: { failures: 1, window: 5, probation: 0 },
  });
  t.after(() => td.close());
  const out = await propose(td, world, REFUND_TOOL);
  assert.equal(out.isError, false, out.content);
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "active");
  // ACME's order was refunded by the source run: the payment API refuses a second refund (422).
  const failed = await td.startTrace("Refund ACME again").execute("refund_ticket", { customer: "ACME" });
  assert.equal(failed.isError, true);
  assert.deepEqual((await sqliteOf(td).getVersion("refund_ticket", 1))?.problems, ["runtime_failure"]);
  return { td, world };
}

/** A new recorded session that refunds ACME, and a proposal of `code` from it. */
async function propose(td: ToolDistill, world: SupportWorld, code: string) {
  world.refunded.delete("O-ACME");
  const trace = td.startTrace("Refund ACME's open ticket");
  for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
  trace.setOutcome({ success: true });
  return trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{ customer: "ACME" }] });
}

/** The same program as REFUND_TOOL: a comment, other quotes, other line breaks and indentation. */
const REFORMATTED = `// v2: the same tool, tidied up
${REFUND_TOOL.replace('from "tooldistill";', "from 'tooldistill';")
  .replace("    const order = await call(", "    // look the order up\n      const order = await call(")
  .replace("{ order_id: order.id, amount: order.amount }", "{order_id: order.id,\n amount: order.amount}")}`;

test("the demoted code with a comment and other formatting is the held-back version: no v2, still suspect, its evidence kept", async (t) => {
  const { td } = await demoted(t);
  const before = await sqliteOf(td).getVersion("refund_ticket", 1);
  const out = await propose(td, supportWorld(), REFORMATTED);
  assert.equal(out.isError, true);
  assert.match(
    out.content,
    /the code is refund_ticket v1 again \(the same syntax tree; only comments or formatting differ\), which is suspect after a runtime failure: replay cannot clear that, so nothing new was stored\. Fix what failed at run time, or have a person run tooldistill verify refund_ticket --version 1 --live/,
  );
  assert.equal(await sqliteOf(td).getVersion("refund_ticket", 2), null, "no v2");
  const v1 = await sqliteOf(td).getVersion("refund_ticket", 1);
  assert.equal(v1?.status, "suspect");
  assert.deepEqual(v1?.problems, ["runtime_failure"]);
  assert.deepEqual(v1?.verdict, before?.verdict, "its evidence is unchanged");
  assert.deepEqual(td.activeTools(), [], "nothing is offered");
});

test("a replacement with other code passes replay but waits for a live pass or a person; the live pass activates it", async (t) => {
  const { td, world } = await demoted(t);
  const changed = REFUND_TOOL.replace("and close the ticket.", "then close the ticket.");
  const out = await propose(td, world, changed);
  assert.equal(out.isError, false, out.content);
  const v2 = await sqliteOf(td).getVersion("refund_ticket", 2);
  assert.equal(v2?.status, "verified", "not auto-promoted by replay alone");
  assert.equal(
    v2?.verdict?.evidence.promotion,
    "waits for tooldistill verify refund_ticket --version 2 --live or tooldistill promote refund_ticket: it replaces v1, held back for runtime_failure, which only a live pass or a person clears",
  );
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "suspect");
  const live = await td.verify("refund_ticket", {
    version: 2,
    live: true,
    allowWrites: true,
    input: { customer: "Globex" },
  });
  assert.equal(live.status, "active", JSON.stringify(live.checks));
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 1))?.status, "deprecated");
});

test("a person's promote of the replacement is the other way back", async (t) => {
  const { td, world } = await demoted(t);
  const changed = REFUND_TOOL.replace("and close the ticket.", "then close the ticket.");
  assert.equal((await propose(td, world, changed)).isError, false);
  assert.equal((await td.promote("refund_ticket")).version, 2);
  assert.equal((await sqliteOf(td).getVersion("refund_ticket", 2))?.status, "active");
});
