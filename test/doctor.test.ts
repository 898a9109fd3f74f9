/**
 * `tooldistill doctor [--fix]` through the CLI: what it finds in a damaged store, that without --fix it changes
 * nothing and says what --fix would do, and that --fix repairs what loses nothing and leaves the rest with the
 * command that fixes it.
 */
import assert from "node:assert/strict";
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SqliteRegistryStore } from "../core/internal.ts";
import { spillEvent } from "../core/store/spill.ts";
import type { Verdict } from "../core/types.ts";
import { cli, tempDir } from "./helpers.ts";

const SESSION = "c4f46833-8f37-418c-ab03-42c0dfb3b30d";

const verdict = (version: number): Verdict => ({
  name: "make_invoice",
  version,
  status: "active",
  checks: {
    static: { ok: true, problems: [] },
    replay: { ok: true, problems: [] },
    efficiency: { ok: true, problems: [] },
  },
  calls: 1,
  baseline: 3,
  limit: 2.1,
  liveCalls: [],
  evidence: { callSites: null, literals: null, runs: null, writes: [], promotion: null },
});

/** A project (tooldistill.yaml with an MCP server `base`) and a store with three versions of make_invoice. */
async function project(t: import("node:test").TestContext): Promise<{ dir: string; root: string }> {
  const dir = tempDir(t, "td-doctor-");
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { base: { command: "node", args: ["x.js"] } } }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\n");
  const root = join(dir, ".tooldistill");
  const store = SqliteRegistryStore.open(root, { checkInvariants: false });
  for (const v of [1, 2, 3]) {
    await store.createVersion({
      name: "make_invoice",
      code: `export default ${v};\n`,
      description: "d",
      inputSchema: { type: "object" },
      testInputs: [],
      sourceTrace: null,
      reason: "proposed",
    });
    await store.setStatus({
      name: "make_invoice",
      version: v,
      expect: "draft",
      to: "verified",
      problems: [],
      reason: "ok",
    });
    await store.setVerification("make_invoice", v, verdict(v), null);
  }
  await store.close();
  return { dir, root };
}

test("a healthy store: no problem found, exit 0", async (t) => {
  const { dir } = await project(t);
  const r = await cli(dir, "doctor");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `store: ${join(dir, ".tooldistill")}\nno problem found\n`);
});

test("doctor finds every kind of problem without changing anything, and --fix repairs what loses nothing", async (t) => {
  const { dir, root } = await project(t);
  {
    const store = SqliteRegistryStore.open(root, { checkInvariants: false });
    // Two active versions (an older build killed between activating v2 and deprecating v1).
    for (const v of [1, 2]) {
      await store.setStatus({
        name: "make_invoice",
        version: v,
        expect: "verified",
        to: "active",
        problems: [],
        reason: "x",
      });
    }
    await store.createTrace(`${SESSION}.1`, "task", "claude-code");
    await store.close();
  }
  // A file with no version (an interrupted proposal), an edited file, a hook event waiting in a spill file.
  mkdirSync(join(root, "tools", "stray_tool"), { recursive: true });
  writeFileSync(join(root, "tools", "stray_tool", "v1.ts"), "orphan\n");
  appendFileSync(join(root, "tools", "make_invoice", "v3.ts"), "// edited by hand\n");
  spillEvent(
    root,
    SESSION,
    "PreToolUse",
    JSON.stringify({
      session_id: SESSION,
      tool_name: "mcp__base__echo",
      tool_input: { a: 1 },
      tool_use_id: "u1",
    }),
  );
  const dbBefore = readFileSync(join(root, "registry.db"));

  const check = await cli(dir, "doctor");
  assert.equal(check.code, 1);
  assert.equal(
    check.stdout,
    [
      `store: ${root}`,
      "- make_invoice has 2 active versions (v1, v2)",
      "  tooldistill doctor --fix v2, which became active last, stays active; v1 deprecated",
      `- ${join(root, "tools", "stray_tool", "v1.ts")} belongs to no version (left by an interrupted proposal or a lost registry)`,
      "  tooldistill doctor --fix moves it to orphaned/",
      "- make_invoice v3's file was edited after it was verified, so it is refused at run time",
      "  to fix: restore the file, or propose the edited code as a new version",
      "- 1 spill file of 1 session hold hook events recorded while the store was locked",
      "  tooldistill doctor --fix applies them in order (the next hook or the td server would too)",
      "4 problems left; run tooldistill doctor --fix for the ones it can repair",
      "",
    ].join("\n"),
  );
  assert.ok(
    readFileSync(join(root, "registry.db")).equals(dbBefore),
    "doctor without --fix changed the database",
  );
  assert.ok(existsSync(join(root, "tools", "stray_tool", "v1.ts")));

  const fix = await cli(dir, "doctor", "--fix");
  assert.equal(fix.code, 1, "the edited file is left to a person");
  assert.match(
    fix.stdout,
    /done: make_invoice has 2 active versions \(v1, v2\): v2, which became active last, stays active; v1 deprecated\n/,
  );
  assert.match(fix.stdout, /done: moved 1 orphaned file to .*orphaned\/[^/]+\n/);
  assert.match(fix.stdout, /done: applied 1 spilled hook event\n/);
  assert.match(fix.stdout, /1 problem left\n$/);
  const orphaned = join(root, "orphaned");
  const [batch] = readdirSync(orphaned);
  assert.equal(readFileSync(join(orphaned, batch!, "stray_tool", "v1.ts"), "utf8"), "orphan\n");
  const store = SqliteRegistryStore.open(root, { readOnly: true });
  t.after(() => store.close());
  assert.deepEqual(
    (await store.listVersions()).map((v) => [v.version, v.status]),
    [
      [1, "deprecated"],
      [2, "active"],
      [3, "verified"],
    ],
  );
  assert.deepEqual(
    (await store.getCalls(`${SESSION}.1`)).map((c) => [c.tool, c.kind, c.status]),
    [["base__echo", "base", "started"]],
  );

  writeFileSync(join(root, "tools", "make_invoice", "v3.ts"), "export default 3;\n");
  assert.equal((await cli(dir, "doctor")).code, 0);
});

test("a 0-byte registry over tool files: every verb refuses; doctor --fix moves the files aside and starts over", async (t) => {
  const { dir, root } = await project(t);
  writeFileSync(join(root, "registry.db"), "");
  for (const f of readdirSync(root)) if (f.startsWith("registry.db-")) rmSync(join(root, f));
  const list = await cli(dir, "list");
  assert.equal(list.code, 1);
  assert.match(
    list.stderr,
    /^tooldistill: .*registry\.db is empty \(0 bytes\) while .*tools holds 3 tool files: the registry .*Restore registry\.db from a backup .*tooldistill doctor --fix/,
  );
  const check = await cli(dir, "doctor");
  assert.equal(check.code, 1);
  assert.match(
    check.stdout,
    /- .*registry\.db is empty \(0 bytes\) while .*tools holds 3 tool files\n {2}tooldistill doctor --fix moves the tool files to orphaned\//,
  );
  assert.equal(readFileSync(join(root, "registry.db")).length, 0, "doctor without --fix changed nothing");
  const fix = await cli(dir, "doctor", "--fix");
  assert.equal(fix.code, 0, fix.stdout);
  assert.match(fix.stdout, /done: moved 3 tool files to .*orphaned/);
  const after = await cli(dir, "list", "--json");
  assert.deepEqual([after.code, JSON.parse(after.stdout)], [0, []]);
});

test("damaged pages: doctor names the file and the recovery, and --fix does not pretend to repair it", async (t) => {
  const { dir, root } = await project(t);
  const store = SqliteRegistryStore.open(root);
  await store.createTrace("t1", "task", "sdk");
  for (let i = 0; i < 300; i++) {
    await store.appendCall(
      { traceId: "t1", tool: "x", kind: "base", args: { pad: "y".repeat(1000) } },
      { output: i },
      1,
    );
  }
  await store.close();
  const fd = openSync(join(root, "registry.db"), "r+");
  writeSync(fd, Buffer.alloc(4096 * 4, 0xab), 0, 4096 * 4, 4096 * 3);
  closeSync(fd);
  for (const argv of [["doctor"], ["doctor", "--fix"]]) {
    const r = await cli(dir, ...argv);
    assert.equal(r.code, 1, argv.join(" "));
    assert.match(r.stdout, /(damaged|integrity check)/);
    assert.match(r.stdout, /\.recover/);
    assert.doesNotMatch(r.stdout + r.stderr, /internal error/);
  }
});
