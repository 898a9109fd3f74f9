/**
 * Crash windows of the lifecycle: the real CLI runs under a preload (fixtures/sqlite-kill.ts) that SIGKILLs the
 * process right before its n-th write statement, for every n until the command completes. After each kill the
 * store must hold either the state before the command or the state after it, never a mix, and open without a
 * broken invariant. A repair at open that is itself killed is redone by the next open.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { SqliteRegistryStore } from "../core/internal.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { type Logger, silentLogger } from "../core/types.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "bin", "tooldistill.js");
const KILL = join(ROOT, "test", "fixtures", "sqlite-kill.ts");
const WRITES = "^(INSERT|UPDATE|DELETE|REPLACE|COMMIT)";

const TOOLS_MODULE = `
export const TOOLS = [
  { name: "crm_find_contact", description: "Find a contact.", input_schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  { name: "crm_add_note", description: "Add a note.", input_schema: { type: "object", properties: { contact_id: { type: "string" }, text: { type: "string" } }, required: ["contact_id", "text"] } },
];
const CONTACTS = { "Grace Hopper": "c-2" };
export function executeTool(name, args) {
  if (name === "crm_find_contact") {
    const id = CONTACTS[args.name];
    if (!id) throw new Error("no contact named " + args.name);
    return { id, name: args.name };
  }
  return { note_id: "n-1", contact_id: args.contact_id, text: args.text };
}
`;

const TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "note_for_contact",
  description: "Add a note to a contact found by name.",
  inputSchema: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] },
  async run({ name, text }: { name: string; text: string }) {
    const contact = await call("crm_find_contact", { name });
    return call("crm_add_note", { contact_id: contact.id, text });
  },
});
`;

/** A project whose store has a recorded run and note_for_contact v1 active plus v2 in `v2` state. */
async function project(
  t: import("node:test").TestContext,
  v2: "verified" | "draft",
  yaml = "",
): Promise<string> {
  const dir = tempDir(t, "td-crash-");
  writeFileSync(join(dir, "tools.mjs"), TOOLS_MODULE);
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    `executor: ./tools.mjs#executeTool\ntools: ./tools.mjs#TOOLS\nmin_calls_to_distill: 3\nfallback_distiller: false\n${yaml}`,
  );
  const { TOOLS, executeTool } = (await import(join(dir, "tools.mjs"))) as {
    TOOLS: ConstructorParameters<typeof ToolDistill>[0]["tools"];
    executeTool: (name: string, args: Record<string, unknown>) => unknown;
  };
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: executeTool,
    tools: TOOLS ?? [],
    minCallsToDistill: 3,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  try {
    const trace = td.startTrace("Add a note to Grace Hopper");
    await trace.execute("crm_find_contact", { name: "Grace" });
    await trace.execute("crm_find_contact", { name: "Hopper" });
    await trace.execute("crm_find_contact", { name: "Grace Hopper" });
    await trace.execute("crm_add_note", { contact_id: "c-2", text: "call back" });
    trace.setOutcome({ success: true });
    const proposal = { code: TOOL, test_inputs: [{ name: "Grace Hopper", text: "call back" }] };
    assert.equal((await trace.execute("propose_distilled_tool", proposal)).isError, false);
    await td.promote("note_for_contact");
    if (v2 === "verified") {
      // Byte-identical code would be the same version: v2 differs by a comment.
      const v2Proposal = { ...proposal, code: `// the second version\n${TOOL}` };
      assert.equal((await trace.execute("propose_distilled_tool", v2Proposal)).isError, false);
    } else {
      await sqliteOf(td).createVersion({
        name: "note_for_contact",
        code: TOOL,
        description: "Add a note to a contact found by name.",
        inputSchema: { type: "object" },
        testInputs: [{ name: "Grace Hopper", text: "call back" }],
        sourceTrace: trace.id,
        reason: "proposed",
      });
    }
  } finally {
    await td.close();
  }
  return dir;
}

type State = Array<[number, string, boolean, boolean]>;

/** Status, "has a verdict" and "queued" of every version, read with a logger that must stay silent. */
async function state(dir: string): Promise<State> {
  const heard: string[] = [];
  const logger: Logger = { info: () => {}, warn: (m) => heard.push(m), error: (m) => heard.push(m) };
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { logger });
  try {
    await store.checkOnOpen();
    assert.deepEqual(store.lifecycleProblems, [], "a broken invariant after the crash");
    assert.deepEqual(heard, [], "the open check had something to repair or report");
    assert.equal(await store.integrityCheck(), "ok");
    return (await store.listVersions()).map((v) => [
      v.version,
      v.status,
      v.verdict !== null,
      v.queuedRebuild,
    ]);
  } finally {
    await store.close();
  }
}

/** Runs the CLI under the kill preload; returns how it ended. */
function cli(
  dir: string,
  killAt: number,
  args: string[],
): { killed: boolean; status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", KILL, CLI, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, TD_KILL_SQL: WRITES, TD_KILL_AT: String(killAt) },
    timeout: 60_000,
  });
  return { killed: r.signal === "SIGKILL", status: r.status, stderr: r.stderr };
}

/** Kills the command before each of its writes in turn, checking the state after every kill. */
async function everyWindow(dir: string, args: string[], before: State, after: State): Promise<number> {
  const template = join(dir, "template");
  cpSync(join(dir, ".tooldistill"), template, { recursive: true });
  for (let n = 1; ; n++) {
    rmSync(join(dir, ".tooldistill"), { recursive: true, force: true });
    cpSync(template, join(dir, ".tooldistill"), { recursive: true });
    const r = cli(dir, n, args);
    if (!r.killed) {
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(await state(dir), after, "the completed command");
      return n - 1;
    }
    // The command's writes are one transaction; the tool lock's lease is taken before it and given back after it
    // (a lease left by a killed process is taken over): a kill leaves the state before or the state after.
    const found = await state(dir);
    const whole = isDeepStrictEqual(found, before) || isDeepStrictEqual(found, after);
    assert.ok(whole, `killed before write ${n}: neither all nor nothing: ${JSON.stringify(found)}`);
    assert.ok(n < 50, "the command never completed");
  }
}

test("promote killed before any of its writes leaves v1 active and v2 verified; completed, v2 active and v1 deprecated", {
  timeout: 180_000,
}, async (t) => {
  const dir = await project(t, "verified");
  const before = await state(dir);
  assert.deepEqual(before, [
    [1, "active", true, false],
    [2, "verified", true, false],
  ]);
  const windows = await everyWindow(dir, ["promote", "note_for_contact"], before, [
    [1, "deprecated", true, false],
    [2, "active", true, false],
  ]);
  assert.ok(windows >= 4, `only ${windows} write statements: status, history and deprecation were expected`);
});

test("verify with auto_promote (status, verdict, dependencies and the deprecation of v1) is all or nothing", {
  timeout: 180_000,
}, async (t) => {
  const dir = await project(t, "draft", "auto_promote: all\n");
  const before = await state(dir);
  assert.deepEqual(before, [
    [1, "active", true, false],
    [2, "draft", false, false],
  ]);
  const windows = await everyWindow(dir, ["verify", "note_for_contact", "--version", "2"], before, [
    [1, "deprecated", true, false],
    [2, "active", true, false],
  ]);
  assert.ok(windows >= 5, `only ${windows} write statements`);
});

test("a repair at open killed before its commit is redone by the next open", {
  timeout: 60_000,
}, async (t) => {
  const dir = await project(t, "verified");
  // What an older build left: v2 activated, v1 not yet deprecated.
  {
    const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { checkInvariants: false });
    await store.setStatus({
      name: "note_for_contact",
      version: 2,
      expect: "verified",
      to: "active",
      problems: [],
      reason: "promoted (older build, killed before deprecating v1)",
    });
    await store.close();
  }
  const repair = cli(dir, 1, ["promote", "note_for_contact", "--version", "1"]);
  assert.equal(repair.killed, true, "the open check's repair was killed before its first write");
  const heard: string[] = [];
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), {
    logger: { info() {}, warn: (m) => heard.push(m), error: (m) => heard.push(m) },
  });
  t.after(() => store.close());
  await store.checkOnOpen();
  assert.deepEqual(heard, [
    "tooldistill: repaired the store: note_for_contact has 2 active versions (v1, v2); v2, which became active last, stays active; v1 deprecated",
  ]);
  assert.deepEqual(
    (await store.listVersions()).map((v) => [v.version, v.status]),
    [
      [1, "deprecated"],
      [2, "active"],
    ],
  );
  assert.match(readFileSync(store.toolFile("note_for_contact", 2), "utf8"), /note_for_contact/);
});

test("a rebuild never runs against a replaced version without a verdict: it names the verify command", async (t) => {
  const dir = await project(t, "verified");
  {
    const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { checkInvariants: false });
    await store.setQueuedRebuild("note_for_contact", 1, true, "crm_find_contact recovered");
    // An older build's crash between the status and the verdict: active, no verdict.
    const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
    const db = new DatabaseSync(store.dbPath);
    db.exec("UPDATE versions SET verdict = NULL WHERE version = 1");
    db.close();
    await store.close();
  }
  const td = await ToolDistill.fromConfig(join(dir, "tooldistill.yaml"), {
    logger: silentLogger,
    distiller: { distill: async () => ({ code: TOOL, test_inputs: [{ name: "Grace Hopper", text: "x" }] }) },
  });
  t.after(() => td.close());
  assert.deepEqual(
    sqliteOf(td).lifecycleProblems.map((p) => p.command),
    ["run `tooldistill verify note_for_contact --version 1`"],
  );
  await assert.rejects(
    td.rebuild("note_for_contact"),
    /note_for_contact v1 has no stored verdict, so a rebuild has nothing to beat: run tooldistill verify note_for_contact --version 1 first/,
  );
  assert.equal((await sqliteOf(td).listVersions()).length, 2, "no version was added");
});
