/**
 * Recovery that repeats no write (issue 20, item 3), through the public API: a tool that creates accounts fails
 * on a half-done hire (409), and `verify --live --allow-writes` with the source run's input would create the
 * already-onboarded account again. It is refused before anything is sent; a fresh input, or the record of a later
 * run that did the task with the base tools, brings the tool back without a new discovery run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { type AccountsWorld, accountsWorld, ONBOARD_RUN, ONBOARD_TOOL } from "./fakes/accounts-world.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

/** An active onboard_hire (promoted by a person) made suspect by a 409 on a half-done hire (E2). */
async function suspectTool(t: TestContext): Promise<{ td: ToolDistill; world: AccountsWorld }> {
  const world = accountsWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    logger: silentLogger,
    fallbackDistiller: false,
    demotion: { failures: 1, window: 5, probation: 0 },
  });
  t.after(() => td.close());
  const trace = td.startTrace("Onboard E1");
  for (const [name, args] of ONBOARD_RUN) await trace.execute(name, args);
  trace.setOutcome({ success: true });
  const out = await trace.execute(PROPOSE_TOOL_NAME, {
    code: ONBOARD_TOOL,
    test_inputs: [{ employee_id: "E1" }],
  });
  assert.equal(out.isError, false, out.content);
  await td.promote("onboard_hire");
  world.accounts.add("e2@example.com");
  const failed = await td.startTrace("Onboard E2").execute("onboard_hire", { employee_id: "E2" });
  assert.equal(failed.isError, true);
  const v = await sqliteOf(td).getVersion("onboard_hire", 1);
  assert.equal(v?.status, "suspect");
  assert.deepEqual(v?.problems, ["runtime_failure"]);
  world.log.length = 0;
  return { td, world };
}

const creates = (world: AccountsWorld) => world.log.filter((c) => c.name === "accounts_create");

test("verify --live --allow-writes with the source run's input is refused before anything is sent: it would create E1's account again", async (t) => {
  const { td, world } = await suspectTool(t);
  const history = (await sqliteOf(td).getHistory("onboard_hire", 1)).length;
  await assert.rejects(td.verify("onboard_hire", { version: 1, live: true, allowWrites: true }), {
    code: "WRITE_REFUSED",
    message:
      `verify --live refused for onboard_hire v1: call 2 to 'accounts_create' {"email":"e1@example.com","name":"Hire E1"} (the source run already sent these arguments); ` +
      `call 3 to 'groups_add' {"email":"e1@example.com","group":"eng"} (the source run already sent these arguments). ` +
      "A write repeated with the very arguments a recorded run sent acts twice (it creates again, or gets a conflict). Nothing was run. " +
      "Verify against a fresh input whose writes are new: tooldistill verify onboard_hire --version 1 --live --allow-writes --input '<json>'; " +
      "or, without --allow-writes, --trace <id> of a later successful run (tooldistill traces list), whose record answers its writes.",
  });
  assert.deepEqual(world.log, [], "nothing was sent");
  const v = await sqliteOf(td).getVersion("onboard_hire", 1);
  assert.equal(v?.status, "suspect", "still suspect, not deprecated");
  assert.equal((await sqliteOf(td).getHistory("onboard_hire", 1)).length, history, "nothing stored");
  // The dry run shows the same refusal, call by call.
  const plan = await td.planLiveVerification("onboard_hire", { version: 1, allowWrites: true });
  assert.deepEqual(
    plan.steps.map((s) => [s.tool, s.how]),
    [
      ["hr_lookup", "live"],
      ["accounts_create", "repeat"],
      ["groups_add", "repeat"],
    ],
  );
});

test("the input of the run that got the 409 is refused too: that run already sent the create", async (t) => {
  const { td, world } = await suspectTool(t);
  await assert.rejects(
    td.verify("onboard_hire", {
      version: 1,
      live: true,
      allowWrites: true,
      input: { employee_id: "E2" },
    }),
    (err: Error & { code?: string }) => {
      assert.equal(err.code, "WRITE_REFUSED");
      assert.match(
        err.message,
        /call 2 to 'accounts_create' \{"email":"e2@example.com","name":"Hire E2"\} \(a recorded run of onboard_hire \(trace '[^']+'\) already sent these arguments\)/,
      );
      assert.match(err.message, /The refused call was not sent; before, call 1 to 'hr_lookup' ran live\./);
      return true;
    },
  );
  assert.deepEqual(creates(world), [], "the create was checked before it was dispatched");
  assert.equal((await sqliteOf(td).getVersion("onboard_hire", 1))?.status, "suspect");
});

test("verify --live --allow-writes with a fresh input writes only new things, passes, and clears runtime_failure", async (t) => {
  const { td, world } = await suspectTool(t);
  const verdict = await td.verify("onboard_hire", {
    version: 1,
    live: true,
    allowWrites: true,
    input: { employee_id: "E3" },
  });
  assert.equal(verdict.status, "active", JSON.stringify(verdict.checks));
  assert.deepEqual(
    world.log.map((c) => [c.name, c.args["employee_id"] ?? c.args["email"]]),
    [
      ["hr_lookup", "E3"],
      ["accounts_create", "e3@example.com"],
      ["groups_add", "e3@example.com"],
    ],
  );
  assert.deepEqual((await sqliteOf(td).getVersion("onboard_hire", 1))?.problems, []);
});

test("a fresh input whose write fails live says it failed live, not 'as recorded'", async (t) => {
  const { td, world } = await suspectTool(t);
  // E4's account was made by hand meanwhile, where no recorded run could know it.
  world.accounts.add("e4@example.com");
  const verdict = await td.verify("onboard_hire", {
    version: 1,
    live: true,
    allowWrites: true,
    input: { employee_id: "E4" },
  });
  assert.equal(verdict.status, "deprecated");
  const text = verdict.checks.replay.problems.map((p) => p.message).join("\n");
  assert.match(text, /call 2 to 'accounts_create' failed live \(verify --live sent it for real/);
  assert.doesNotMatch(text, /as recorded/);
});

test("verify --live --trace of a later run that did the task with the base tools: reads live, writes from its record, back to active", async (t) => {
  const { td, world } = await suspectTool(t);
  // The agent, refused the suspect tool, onboarded E5 with the base tools.
  const fallback = td.startTrace("Onboard E5");
  await fallback.execute("onboard_hire", { employee_id: "E5" });
  await fallback.execute("hr_lookup", { employee_id: "E5" });
  await fallback.execute("accounts_create", { email: "e5@example.com", name: "Hire E5" });
  await fallback.execute("groups_add", { email: "e5@example.com", group: "eng" });
  fallback.setOutcome({ success: true });
  await fallback.finish();
  world.log.length = 0;
  const verdict = await td.verify("onboard_hire", { version: 1, live: true, trace: fallback.id });
  assert.equal(verdict.status, "active", JSON.stringify(verdict.checks));
  assert.deepEqual(
    world.log.map((c) => c.name),
    ["hr_lookup"],
    "only the read ran live; the writes were answered from the later run's record",
  );
  assert.equal(creates(world).length, 0);
});

test("--trace of a run that is not recorded as successful, or that never called the tool, is refused with the way on", async (t) => {
  const { td } = await suspectTool(t);
  const failed = td.startTrace("Onboard E3");
  await failed.execute("hr_lookup", { employee_id: "E3" });
  failed.setOutcome({ success: false });
  await failed.finish();
  await assert.rejects(td.verify("onboard_hire", { version: 1, live: true, trace: failed.id }), {
    code: "USAGE",
    message: `the run '${failed.id}' is not recorded as successful: verify --live --trace needs a run that did the task (tooldistill traces list)`,
  });
  const other = td.startTrace("Look E3 up");
  await other.execute("hr_lookup", { employee_id: "E3" });
  other.setOutcome({ success: true });
  await other.finish();
  await assert.rejects(td.verify("onboard_hire", { version: 1, live: true, trace: other.id }), {
    code: "USAGE",
    message: `the run '${other.id}' made no call of onboard_hire, so its input is not known: pass it too, --input '<json>'`,
  });
});
