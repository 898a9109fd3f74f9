/**
 * Issue 20's onboarding story through the public API (`ToolDistill`, `trace.execute`, `propose_distilled_tool`)
 * on an in-process IT-onboarding world: a discovery run with a flaky call the agent retried and a 409, a verified
 * tool that declares the 409, a second hire in one call (the host retrying the flaky mail), a half-done hire
 * handled by the declared branch (not a failure, not demoted), a live re-verification against a fresh input that
 * repeats no write, and a schema rollback that changes nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox, ToolDistill } from "../core/index.ts";
import {
  DISCOVERY,
  ONBOARD_HIRE,
  type OnboardingWorld,
  onboardingWorld,
  WRITES,
} from "./fakes/onboarding-world.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

function library(t: TestContext, world: OnboardingWorld) {
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    fallbackDistiller: false,
    // Retries without waiting: the test asserts what was retried, not how long it took.
    baseCallRetries: { attempts: 3, backoff: 0, cap: 0 },
  });
  t.after(() => td.close());
  return td;
}

/** The discovery run for H-1 (its account made by an earlier attempt), the proposal, and the promotion. */
async function discoverAndPromote(t: TestContext) {
  const world = onboardingWorld(["ana@corp.example"]);
  const td = library(t, world);
  const trace = td.startTrace("Onboard new hire H-1 (Ana Lima): account, eng group, laptop, welcome mail");
  world.mailFailures = 1;
  const seen = [];
  for (const [name, args] of DISCOVERY) seen.push((await trace.execute(name, args)).isError);
  // The trial and error: a wrong email, the 409, a wrong group, a wrong model, then the 503 the agent retried.
  assert.deepEqual(seen, [false, true, true, false, true, false, true, false, false, true, false]);
  trace.setOutcome({ success: true });
  const out = await trace.execute(PROPOSE_TOOL_NAME, {
    code: ONBOARD_HIRE,
    test_inputs: [{ hire_id: "H-1" }],
  });
  assert.equal(out.isError, false, out.content);
  assert.match(out.content, /^verified: onboard_hire v1/);
  // 7 calls: the 409 and its lookup are replayed as the run had them; the 503 the agent retried is not.
  assert.match(out.content, /7 base calls; limit 7\.7 \(baseline 11 × 0\.7\)/);
  await td.promote("onboard_hire");
  assert.equal((await sqliteOf(td).getVersion("onboard_hire", 1))?.status, "active");
  world.log.length = 0;
  return { td, world, sourceTrace: trace.id };
}

test("discovery with a retried 503 and a 409 distils; a second hire takes one call; a half-done hire takes the declared branch", async (t) => {
  const { td, world } = await discoverAndPromote(t);

  // A second hire in one call; the relay is busy once and the host retries the send (idempotentHint).
  world.mailFailures = 1;
  const trace = td.startTrace("Onboard H-2");
  const second = await trace.execute("onboard_hire", { hire_id: "H-2" });
  assert.equal(second.isError, false, second.content);
  assert.deepEqual(JSON.parse(second.content), { account_id: "acct-2", order_id: "ORD-2" });
  assert.deepEqual(
    world.mails.map((m) => m.to),
    ["ana@corp.example", "ben@corp.example"],
    "one mail to Ben, though the first try failed",
  );
  await trace.flush();
  const inner = (await sqliteOf(td).getCalls(trace.id)).filter((c) => c.tool === "mail_send");
  assert.deepEqual(
    inner.map((c) => [c.status, c.failure]),
    [
      ["error", "infrastructure"],
      ["ok", null],
    ],
    "each attempt is its own call in the trace",
  );

  // A half-done hire: the account exists, the create answers 409, the declared branch looks it up.
  world.accounts.set("cleo@corp.example", { id: "acct-old", email: "cleo@corp.example", name: "Cleo Park" });
  const half = await td.startTrace("Onboard H-3").execute("onboard_hire", { hire_id: "H-3" });
  assert.equal(half.isError, false, half.content);
  assert.deepEqual(JSON.parse(half.content), { account_id: "acct-old", order_id: "ORD-3" });
  assert.equal(world.groups.get("sales")?.has("acct-old"), true);
  const v = await sqliteOf(td).getVersion("onboard_hire", 1);
  assert.equal(v?.status, "active", "a declared outcome is not a failure of the tool");
  assert.deepEqual(v?.problems, []);
  const runs = await sqliteOf(td).recentRuns("onboard_hire", 1, 5);
  assert.deepEqual(
    runs.map((r) => r.outcome),
    ["declared", "ok"],
  );
  assert.deepEqual(runs[0]?.evidence, {
    declared: [
      {
        step: 2,
        tool: "directory_create_account",
        outcome: "conflict",
        error: "account cleo@corp.example already exists",
      },
    ],
  });
  const stats = await sqliteOf(td).getRunStats("onboard_hire", 1);
  assert.deepEqual([stats.runs, stats.successes, stats.failures], [2, 2, 0]);
});

/** `td.verify` with a fresh input (writers-lifecycle's `verify --live --input`), typed here until it is merged. */
type LiveVerify = (
  name: string,
  options: { live: true; input: Record<string, unknown>; allowWrites?: boolean },
) => Promise<{ status: string; checks: { replay: { ok: boolean; problems: unknown[] } } }>;

test("a live re-verification against a fresh input passes and repeats no write of the source run", async (t) => {
  const { td, world } = await discoverAndPromote(t);
  const sourceWrites = DISCOVERY.filter(([name]) => WRITES.has(name)).map(([name, args]) =>
    JSON.stringify([name, args]),
  );
  const verify = td.verify.bind(td) as unknown as LiveVerify;
  const verdict = await verify("onboard_hire", { live: true, input: { hire_id: "H-4" }, allowWrites: true });
  assert.equal(verdict.checks.replay.ok, true, JSON.stringify(verdict.checks.replay.problems));
  const repeated = world.log.filter(
    (c) =>
      WRITES.has(c.name) &&
      sourceWrites.some((w) => {
        const [name, args] = JSON.parse(w) as [string, Record<string, unknown>];
        return name === c.name && Object.entries(args).every(([k, x]) => c.args[k] === x);
      }),
  );
  assert.deepEqual(repeated, [], "no write of the source run was sent again");
  assert.equal(world.accounts.has("dev@corp.example"), true, "the fresh input's writes ran");
  assert.equal((await sqliteOf(td).getVersion("onboard_hire", 1))?.status, "active");
});

test("a schema rollback that drops an optional property the tool never passes changes nothing", async (t) => {
  const { td, world } = await discoverAndPromote(t);
  const rolledBack = world.tools.map((tool) => {
    if (tool.name !== "laptops_order") return tool;
    const { priority: _dropped, ...properties } = tool.input_schema["properties"] as Record<string, unknown>;
    return { ...tool, input_schema: { ...tool.input_schema, properties } };
  });
  td.setTools(rolledBack);
  await td.onToolUpdated("laptops_order");
  const v = await sqliteOf(td).getVersion("onboard_hire", 1);
  assert.equal(v?.status, "active");
  assert.deepEqual(v?.problems, []);
  const out = await td.startTrace("Onboard H-5").execute("onboard_hire", { hire_id: "H-5" });
  assert.equal(out.isError, false, out.content);
});
