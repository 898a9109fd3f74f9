/**
 * Demotion by input (issue 20, item 10): a base tool's refusal of what a distilled tool passed straight through
 * from its own input is evidence about the caller. It goes back to the caller, saying which base tool refused
 * which argument, and never counts toward demotion; a refusal of something the tool computed still counts. An
 * input so large that passing it on exceeds the message limit is the caller's too.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROPOSE_TOOL_NAME, Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { callerAttribution } from "../core/lifecycle/input-attribution.ts";
import { CHARGE_TOOL, SHARED_CRM, TOOLS } from "./fakes/crm-world.ts";
import { cli, sqliteOf, tempDir } from "./helpers.ts";

const CRM = fileURLToPath(new URL("./fakes/crm-world.ts", import.meta.url));
const LIMIT = 4096;
const sandbox = new Sandbox({ poolSize: 1, limits: { maxMessageBytes: LIMIT } });
after(() => sandbox.close());

/** A project whose charge_customer v1 a person promoted: verified, active, with no successful live run yet. */
async function promoted(t: TestContext): Promise<{ dir: string; td: ToolDistill }> {
  const dir = tempDir(t, "td-caller-");
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    `store: .tooldistill\nexecutor: ${CRM}#executeTool\ntools: ${CRM}#TOOLS\nfallback_distiller: false\n`,
  );
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: SHARED_CRM.executor,
    tools: TOOLS,
    sandbox,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());
  const trace = td.startTrace("Charge C-1 25 EUR for invoice 7");
  await trace.execute("crm_find_customer", { id: "c-1" });
  await trace.execute("crm_find_customer", { id: "C-1" });
  await trace.execute("payments_charge", { customer_id: "C-1", amount_cents: 2500, note: "invoice 7" });
  trace.setOutcome({ success: true });
  const out = await trace.execute(PROPOSE_TOOL_NAME, {
    code: CHARGE_TOOL,
    test_inputs: [{ customer_id: "C-1", units: 1, unit_price_cents: 2500, note: "invoice 7" }],
  });
  assert.match(out.content, /^verified: charge_customer v1\n/, out.content);
  await td.promote("charge_customer");
  return { dir, td };
}

const status = async (td: ToolDistill) => (await sqliteOf(td).getVersion("charge_customer", 1))?.status;

test("ids the CRM refuses, passed straight through from the input, go back to the caller and never demote", async (t) => {
  const { dir, td } = await promoted(t);
  // Another agent calls the proven tool with ids the CRM does not know. With no successful run yet (probation),
  // one failure of the tool's own would demote it.
  for (const id of ["C-404", "cust-77"]) {
    const out = await td.startTrace(`charge ${id}`).execute("charge_customer", {
      customer_id: id,
      units: 1,
      unit_price_cents: 1000,
      note: "x",
    });
    assert.equal(out.isError, true);
    assert.match(out.content, new RegExp(`\\nError: 404 no customer ${id}\\n`));
    assert.match(
      out.content,
      /\nThis failure is about the input, not the distilled tool, so the tool stays available: the input was refused by base tool 'crm_find_customer' for argument 'id' \(passed straight through from this call's input\): check the input and call the tool again with one the base tool accepts\.\n/,
    );
  }
  assert.equal(await status(td), "active");
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["charge_customer"],
  );
  const good = await td.startTrace("charge C-2").execute("charge_customer", {
    customer_id: "C-2",
    units: 1,
    unit_price_cents: 1200,
    note: "y",
  });
  assert.equal(good.isError, false, good.content);
  await td.close();
  // show explains the runs: the caller's, not counted against the tool.
  const shown = await cli(dir, "show", "charge_customer");
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(
    shown.stdout,
    /\n {2}\S+ \S+ {2}failed \(the caller's input: not counted against it\): call_failed at crm_find_customer: 404 no customer cust-77 \(trace /,
  );
  const json = JSON.parse((await cli(dir, "show", "charge_customer", "--json")).stdout);
  assert.deepEqual(
    json.recent_runs.map((r: { outcome: string }) => r.outcome),
    ["ok", "caller", "caller"],
  );
  assert.deepEqual(json.recent_runs[1].evidence.caller.arguments, ["id"]);
});

test("a refusal of an argument the tool computed from its input still counts against the tool", async (t) => {
  const { td } = await promoted(t);
  // 2 units at 100000 cents become 200000 cents, made by the tool's own arithmetic: the payments API refuses it.
  const out = await td.startTrace("charge C-3 2000").execute("charge_customer", {
    customer_id: "C-3",
    units: 2,
    unit_price_cents: 100_000,
    note: "z",
  });
  assert.equal(out.isError, true);
  assert.match(out.content, /\nError: 422 200000 cents is over the 100000 limit\n/);
  assert.match(out.content, /\nThis distilled tool has been disabled\./);
  assert.equal(await status(td), "suspect");
});

test("an input larger than the message limit, passed on to a base call, is the caller's", async (t) => {
  const { td } = await promoted(t);
  const input = { customer_id: "C-1", units: 1, unit_price_cents: 500, note: "n".repeat(LIMIT + 100) };
  const out = await td.startTrace("charge C-1 a long note").execute("charge_customer", input);
  assert.equal(out.isError, true);
  assert.match(
    out.content,
    new RegExp(
      `the input is ${Buffer.byteLength(JSON.stringify(input))} bytes, more than the ${LIMIT}-byte limit of one call's arguments, so the call to base tool 'payments_charge' could not be made: call the tool with a smaller input\\.`,
    ),
  );
  assert.equal(await status(td), "active");
});

test("callerAttribution: every argument must come from the input; a host refusal or a small input is not the caller's", () => {
  const input = { customer: { id: "C-9", tags: ["vip"] }, amount: 5 };
  const refused = (args: Record<string, unknown>, extra: Partial<{ errorCode: "SCHEMA" }> = {}) =>
    callerAttribution(
      input,
      { kind: "call_failed", cause: "tool", message: "404", step: 1, tool: "crm", ...extra },
      [{ tool: "crm", args, ok: false }],
      LIMIT,
    );
  assert.deepEqual(refused({ id: "C-9", filter: { tags: ["vip"], n: 5 } })?.arguments, ["id", "filter"]);
  assert.equal(refused({ id: "C-9", limit: 50 }), null, "a value the tool made");
  assert.equal(refused({ id: "c-9" }), null, "a transformed value");
  assert.equal(refused({}), null, "no argument at all");
  assert.equal(refused({ id: "C-9" }, { errorCode: "SCHEMA" }), null, "the host's own refusal");
  const infrastructure = callerAttribution(
    input,
    { kind: "call_failed", cause: "infrastructure", message: "503", step: 1, tool: "crm" },
    [{ tool: "crm", args: { id: "C-9" }, ok: false }],
    LIMIT,
  );
  assert.equal(infrastructure, null);
  const tooBig = callerAttribution(
    input,
    { kind: "message_limit", cause: "tool", message: "too big", step: 1, tool: "crm" },
    [{ tool: "crm", args: {}, ok: false }],
    LIMIT,
  );
  assert.equal(tooBig, null, "the input fits: the tool made the arguments that large");
});
