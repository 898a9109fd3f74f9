/**
 * `trace.execute` never throws, and what it returns says what to do: a proposal Babel's scope tracker chokes on, a
 * disabled distilled tool, a store whose tools/ or registry.db this user may not write (the agent runs as another
 * user in a subprocess, so permissions apply even when the tests run as root). The default logger puts warnings
 * on stderr.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { silentLogger } from "../core/types.ts";
import { invoiceWorld } from "./fakes/invoice-tools.ts";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const FIND_ONCE = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "find_customer_once",
  description: "Find a customer by name.",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  async run({ name }: { name: string }) {
    return call("billing_find_customer", { name });
  },
});
`;

/** A store with find_customer_once active, distilled from a three-call run. */
async function seeded(root: string): Promise<void> {
  const world = invoiceWorld();
  const td = new ToolDistill({
    store: root,
    executor: world.executor,
    tools: world.tools,
    autoPromote: "all",
    minCallsToDistill: 1,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  const trace = td.startTrace("find ACME");
  await trace.execute("billing_find_customer", { name: "Nobody" });
  await trace.execute("billing_find_customer", { name: "AC" });
  await trace.execute("billing_find_customer", { name: "ACME" });
  trace.setOutcome({ success: true });
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code: FIND_ONCE, test_inputs: [{ name: "ACME" }] });
  assert.match(out.content, /^verified: find_customer_once v1/);
  await td.close();
}

test("a proposal that redeclares an import gets a rejected verdict naming the line; execute does not throw", async (t) => {
  const world = invoiceWorld();
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());
  const trace = td.startTrace("redeclare");
  await trace.execute("billing_find_customer", { name: "ACME" });
  const code = FIND_ONCE.replace("export default", "const distilledTool = 1;\nexport default");
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{ name: "ACME" }] });
  assert.equal(out.isError, true);
  assert.match(out.content, /^rejected: find_customer_once v1: static check failed\n/);
  assert.match(
    out.content,
    /- line 2: 'distilledTool' is declared twice in the same scope: it is imported from "tooldistill" and cannot be declared again/,
  );
});

test("a disabled distilled tool answers with why it is disabled, not 'no such tool'", async (t) => {
  const root = join(tempDir(t), ".tooldistill");
  await seeded(root);
  const world = invoiceWorld();
  // A refusal of the name the caller gave would be the caller's (it passes straight through): an answer too large
  // for the sandbox is the tool's, since the tool chose the call that got it.
  const td = new ToolDistill({
    store: root,
    executor: (name, args) =>
      args["name"] === "Everyone" ? { customers: "x".repeat(1_100_000) } : world.executor(name, args),
    tools: world.tools,
    logger: silentLogger,
  });
  t.after(() => td.close());
  world.outage = false;
  const trace = td.startTrace("find Everyone with the tool");
  const failed = await trace.execute("find_customer_once", { name: "Everyone" });
  assert.match(failed.content, /^Distilled tool 'find_customer_once' \(v1\) failed after step 0 of 1\./);
  const again = await trace.execute("find_customer_once", { name: "ACME" });
  assert.deepEqual(again, {
    content:
      "Error: the distilled tool 'find_customer_once' is disabled: v1 is suspect (runtime_failure: runtime failure: the result of call 1 to 'billing_find_customer' is 1100016 bytes, more than the 1048576-byte limit; demoted: it failed with only 0 successful runs (fewer than the 3 of demotion.probation)) until it passes verification again. Complete the task with the base tools.",
    isError: true,
  });
  await td.deprecate("find_customer_once", { version: 1 });
  assert.equal(
    (await trace.execute("find_customer_once", { name: "ACME" })).content,
    "Error: the distilled tool 'find_customer_once' was taken out of use: v1 is deprecated (deprecated by the user). Complete the task with the base tools.",
  );
  assert.match((await trace.execute("no_such_thing", {})).content, /^Error: no such tool 'no_such_thing'/);
});

const FIXTURE = join(ROOT, "test", "fixtures", "store-problems.ts");

/** Runs the store-problems fixture as another user (nobody) when we are root, so file permissions apply. */
function runAsAgent(store: string): {
  results: Record<string, { content: string; isError: boolean }>;
  nudge: unknown;
  warnings: string[];
} {
  const r = spawnSync(process.execPath, [FIXTURE, store], {
    encoding: "utf8",
    timeout: 60_000,
    ...(process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}),
  });
  assert.equal(r.status, 0, `the agent crashed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/**
 * Why the agent's user cannot run these tests here, or null when it can: as root the agent runs as nobody, who must
 * be able to read this checkout (a clone inside a 0700 folder, such as `mktemp -d`'s, is out of its reach).
 */
function agentCannotRun(): string | null {
  if (process.getuid?.() !== 0) return null;
  const r = spawnSync(process.execPath, ["-e", "require('node:fs').accessSync(process.argv[1])", FIXTURE], {
    uid: 65534,
    gid: 65534,
  });
  return r.status === 0
    ? null
    : `the agent's user (nobody) cannot read ${FIXTURE}: clone into a folder it can enter`;
}

/** Hands the store to the agent's user (when root), then applies `modes` (path relative to the store → mode). */
function restrict(root: string, dir: string, modes: Record<string, number>): void {
  chmodSync(dir, 0o755);
  if (process.getuid?.() === 0) {
    for (const entry of ["", ...readdirSync(root, { recursive: true, encoding: "utf8" })]) {
      chownSync(join(root, entry), 65534, 65534);
    }
  }
  for (const [path, mode] of Object.entries(modes)) chmodSync(join(root, path), mode);
}

test("tools/ that cannot be written (EACCES): the proposal is an error result with a warning, everything else runs", {
  timeout: 60_000,
  skip: agentCannotRun() ?? false,
}, async (t) => {
  const dir = tempDir(t);
  const root = join(dir, ".tooldistill");
  await seeded(root);
  restrict(root, dir, { tools: 0o555 });
  const { results, warnings } = runAsAgent(root);
  assert.deepEqual(results["base"], { content: '{"id":"cus_acme","name":"ACME"}', isError: false });
  assert.equal(results["propose"]?.isError, true);
  assert.match(
    results["propose"]?.content ?? "",
    /^rejected: tooldistill could not handle the proposal: cannot write the tool file .*find_customer_twice\/v1\.ts: EACCES: permission denied.*Check that .*tools is writable by this user\.$/,
  );
  assert.deepEqual(results["distilled"], { content: '{"id":"cus_acme","name":"ACME"}', isError: false });
  assert.ok(
    warnings.some((w) =>
      /the call of 'propose_distilled_tool' in trace .* failed: cannot write the tool file/.test(w),
    ),
    warnings.join("\n"),
  );
});

test("a read-only registry.db: calls still run, nothing throws, and each unrecorded step is warned", {
  timeout: 60_000,
  skip: agentCannotRun() ?? false,
}, async (t) => {
  const dir = tempDir(t);
  const root = join(dir, ".tooldistill");
  await seeded(root);
  restrict(root, dir, { "registry.db": 0o444 });
  const { results, nudge, warnings } = runAsAgent(root);
  // The base call happened: the model gets its result, and the missing record is warned.
  assert.deepEqual(results["base"], { content: '{"id":"cus_acme","name":"ACME"}', isError: false });
  assert.equal(results["propose"]?.isError, true);
  assert.match(
    results["propose"]?.content ?? "",
    /^rejected: tooldistill could not handle the proposal: cannot write to .*registry\.db \(attempt to write a readonly database\)/,
  );
  assert.equal(results["distilled"]?.isError, true);
  assert.match(
    results["distilled"]?.content ?? "",
    /^Error: tooldistill could not run 'find_customer_once': cannot write to .*registry\.db/,
  );
  assert.equal(nudge, null);
  for (const expected of [
    /the run 'find ACME' is not recorded: cannot write to/,
    /recording the call of 'billing_find_customer' \(it ran; it is missing from the trace\) in trace .* failed: cannot write to/,
    /recording the outcome in trace .* failed/,
    /recording usage in trace .* failed/,
  ]) {
    assert.ok(
      warnings.some((w) => expected.test(w)),
      `no warning matching ${expected}:\n${warnings.join("\n")}`,
    );
  }
  assert.equal(statSync(join(root, "registry.db")).mode & 0o777, 0o444);
});

test("the default logger writes start-up changes to stderr", { timeout: 30_000 }, async (t) => {
  const root = join(tempDir(t), ".tooldistill");
  await seeded(root);
  // billing_find_customer changes its description: the start-up review finds it cosmetic, changes nothing, says so.
  const script = `
import { ToolDistill } from ${JSON.stringify(join(ROOT, "core", "index.ts"))};
import { invoiceWorld } from ${JSON.stringify(join(ROOT, "test", "fakes", "invoice-tools.ts"))};
const world = invoiceWorld();
const tools = world.tools.map((x) => x.name === "billing_find_customer" ? { ...x, description: "Changed." } : x);
const td = new ToolDistill({ store: ${JSON.stringify(root)}, executor: world.executor, tools });
await td.close();
`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(
    r.stderr,
    /^tooldistill: at start-up, find_customer_once v1 stays active: base tool 'billing_find_customer' changed \(cosmetic\): the tool's description changed: nothing to re-verify$/m,
  );
});
