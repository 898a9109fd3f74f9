/**
 * Exposure cannot be decided by what a proposer manufactures (issue 20, item 12), through the public API: twenty
 * auto-promoted one-lookup tools from one session fill max_exposed_tools, yet a refund tool a person promoted is
 * offered and runs, a new tool of another session gets a slot, and one session takes no more than its share.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox, silentLogger, ToolDistill, type Trace } from "../core/index.ts";
import { REFUND_TOOL, SOURCE_RUN, type SupportWorld, supportWorld } from "./fakes/support-tools.ts";
import { tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

/** A one-lookup tool named `name`: finds a customer's ticket (read-only, so auto_promote activates it). */
const lookup = (name: string) => `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "${name}",
  description: "Find the open ticket of a customer (${name}).",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer }: { customer: string }) {
    return call("tickets_find", { customer });
  },
});
`;

function library(t: TestContext, maxExposedTools: number) {
  const world = supportWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    logger: silentLogger,
    fallbackDistiller: false,
    autoPromote: true,
    maxExposedTools,
  });
  t.after(() => td.close());
  return { td, world };
}

/** A recorded session that refunded ACME: what every proposal of the test is verified against. */
async function session(td: ToolDistill, task: string, world: SupportWorld): Promise<Trace> {
  world.refunded.delete("O-ACME");
  const trace = td.startTrace(task);
  for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
  trace.setOutcome({ success: true });
  return trace;
}

async function propose(trace: Trace, code: string) {
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{ customer: "ACME" }] });
  assert.equal(out.isError, false, out.content);
}

test("twenty auto-promoted lookups cannot crowd out a tool a person promoted: it is offered and its calls run", async (t) => {
  const { td, world } = library(t, 8);
  const flood = await session(td, "make lookups", world);
  for (let i = 1; i <= 20; i++) await propose(flood, lookup(`lookup_${String(i).padStart(2, "0")}`));
  for (let i = 1; i <= 20; i++) {
    await td.startTrace("use").execute(`lookup_${String(i).padStart(2, "0")}`, { customer: "Globex" });
  }
  await propose(await session(td, "Refund ACME", world), REFUND_TOOL);
  assert.equal((await td.promote("refund_ticket")).status, "active");
  const offered = td.activeTools().map((x) => x.name);
  assert.ok(offered.includes("refund_ticket"), `offered: ${offered.join(", ")}`);
  assert.ok(offered.length <= 8 + 1, "a person-promoted tool is offered on top of nothing more than max");
  world.refunded.clear();
  const out = await td.startTrace("Refund Hooli").execute("refund_ticket", { customer: "Hooli" });
  assert.equal(out.isError, false, out.content);
});

test("one proposing session takes at most its share while another's new tool waits; the new tool gets a slot", async (t) => {
  const { td, world } = library(t, 8);
  const flood = await session(td, "make lookups", world);
  for (let i = 1; i <= 20; i++) await propose(flood, lookup(`lookup_${String(i).padStart(2, "0")}`));
  // Their own runs make them look used: 3 runs each for the first twelve.
  for (let i = 1; i <= 12; i++) {
    for (let r = 0; r < 3; r++) {
      await td.startTrace("use").execute(`lookup_${String(i).padStart(2, "0")}`, { customer: "Globex" });
    }
  }
  const other = await session(td, "another session", world);
  await propose(other, lookup("ticket_of_customer"));
  const offered = td.activeTools().map((x) => x.name);
  assert.equal(offered.length, 8, "every slot is used");
  assert.ok(
    offered.includes("ticket_of_customer"),
    `the other session's new tool is offered: ${offered.join(", ")}`,
  );
  // The flood's tools take the remaining slots only after the other session's tool is placed.
  assert.equal(offered.filter((n) => n.startsWith("lookup_")).length, 7);
});

test("with nothing else waiting, one session's tools fill every slot: the oldest new one, then the most used", async (t) => {
  const { td, world } = library(t, 3);
  const trace = await session(td, "make lookups", world);
  for (const name of ["lookup_a", "lookup_b", "lookup_c", "lookup_d"]) await propose(trace, lookup(name));
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["lookup_a", "lookup_b", "lookup_c"],
  );
  for (let r = 0; r < 4; r++) await td.startTrace("use").execute("lookup_c", { customer: "Globex" });
  // lookup_c is used now; the slot kept for new tools goes to the oldest new one, lookup_a.
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["lookup_c", "lookup_a", "lookup_b"],
  );
});
