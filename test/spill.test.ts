/**
 * Hooks never stall a session: while another process holds the store's write lock, each hook gives up after its
 * short busy timeout and appends the event to the session's spill file; the next hook, or the plugin's server on
 * its own, applies the spilled events in order and exactly once. Hooks run as processes with Claude Code's
 * payloads; the lock is held by a second SQLite connection, as an sqlite3 shell or a backup would hold it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { spanTraceId } from "../claude-code/session.ts";
import { applySpilledEvents } from "../claude-code/session-events.ts";
import { spillDir } from "../core/store/spill.ts";
import { SqliteRegistryStore } from "../core/store/sqlite/sqlite-registry-store.ts";
import { silentLogger } from "../core/types.ts";
import { createTdServer } from "../server/td-server.ts";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAYLOADS = join(ROOT, "test", "fixtures", "claude-code-payloads");
const KILL = join(ROOT, "test", "fixtures", "sqlite-kill.ts");
const SESSION = "c4f46833-8f37-418c-ab03-42c0dfb3b30d";

function payload(name: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...(JSON.parse(readFileSync(join(PAYLOADS, `hook.${name}.json`), "utf8")) as object), ...patch };
}

function project(t: import("node:test").TestContext): string {
  const dir = tempDir(t, "td-spill-");
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { base: { type: "stdio", command: "node", args: ["base.js"] } } }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\nfallback_distiller: false\n");
  return dir;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** One hook entry as a process, as Claude Code runs it. */
function hook(
  dir: string,
  file: string,
  input: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
  pre: string[] = [],
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...pre, join(ROOT, "hooks", `${file}.ts`)], {
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(JSON.stringify({ ...input, cwd: dir }));
  });
}

/** Holds the store's write lock from another connection until released. */
function lock(dir: string): { db: DatabaseSync; release(): void } {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const db = new DatabaseSync(join(dir, ".tooldistill", "registry.db"));
  db.exec("BEGIN IMMEDIATE");
  return {
    db,
    release() {
      if (!db.isOpen) return;
      if (db.isTransaction) db.exec("COMMIT");
      db.close();
    },
  };
}

function spillLines(dir: string): string[] {
  const folder = spillDir(join(dir, ".tooldistill"));
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((f) =>
    readFileSync(join(folder, f), "utf8")
      .split("\n")
      .filter((l) => l !== ""),
  );
}

async function calls(dir: string) {
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { readOnly: true });
  try {
    return (await store.getCalls(spanTraceId(SESSION, 1))).map((c) => [c.seq, c.tool, c.status, c.output]);
  } finally {
    await store.close();
  }
}

const call = (id: string, text: string) => ({
  tool_name: "mcp__base__base_echo",
  tool_input: { text },
  tool_use_id: id,
});
const done = (id: string, text: string) =>
  payload("PostToolUse.mcp-project", {
    ...call(id, text),
    tool_response: [{ type: "text", text: `echo ${text}` }],
  });

test("a locked store: hooks spill instead of waiting, and the next hook applies the spill in order, then its own event", {
  timeout: 60_000,
}, async (t) => {
  const dir = project(t);
  await hook(dir, "user-prompt-submit", payload("UserPromptSubmit"));
  const held = lock(dir);
  t.after(() => held.release());

  for (const [file, input] of [
    ["pre-tool-use", payload("PreToolUse.mcp-project", call("s1", "one"))],
    ["post-tool-use", done("s1", "one")],
    ["pre-tool-use", payload("PreToolUse.mcp-project", call("s2", "two"))],
  ] as const) {
    const r = await hook(dir, file, input);
    // Exit 0 with nothing on stderr: Claude Code goes on, and the user sees no error for a busy store.
    assert.deepEqual([r.code, r.stderr], [0, ""], file);
  }
  assert.equal(spillLines(dir).length, 3, "three events wait in the session's spill file");
  assert.deepEqual(
    spillLines(dir).map((l) => JSON.parse(l).event),
    ["PreToolUse", "PostToolUse", "PreToolUse"],
  );
  assert.deepEqual(await calls(dir), [], "nothing was written while the lock was held");
  assert.match(
    readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8"),
    /PreToolUse: the store was locked by another process for 200 ms: the event was spilled/,
  );

  held.release();
  const r = await hook(dir, "post-tool-use", done("s2", "two"));
  assert.deepEqual([r.code, r.stderr], [0, ""]);
  assert.deepEqual(await calls(dir), [
    [1, "base__base_echo", "ok", "echo one"],
    [2, "base__base_echo", "ok", "echo two"],
  ]);
  assert.deepEqual(spillLines(dir), [], "applied spill files are removed");
});

test("8 concurrent hooks against a locked store spill 8 events; one later hook applies each exactly once", {
  timeout: 60_000,
}, async (t) => {
  const dir = project(t);
  await hook(dir, "user-prompt-submit", payload("UserPromptSubmit"));
  const held = lock(dir);
  t.after(() => held.release());
  const ids = Array.from({ length: 8 }, (_, i) => `p${i}`);
  const runs = await Promise.all(
    ids.map((id, i) => hook(dir, "pre-tool-use", payload("PreToolUse.mcp-project", call(id, `n${i}`)))),
  );
  for (const r of runs) assert.deepEqual([r.code, r.stderr], [0, ""]);
  const spilled = spillLines(dir).map((l) => JSON.parse(JSON.parse(l).text).tool_use_id);
  assert.deepEqual([...spilled].sort(), ids);
  held.release();
  await hook(dir, "session-start", payload("SessionStart.startup"));
  const recorded = await calls(dir);
  assert.equal(recorded.length, 8);
  // In spill-file order, which is the order the hooks wrote in.
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { readOnly: true });
  t.after(() => store.close());
  assert.deepEqual(
    (await store.getCalls(spanTraceId(SESSION, 1))).map((c) => c.args["text"]),
    spilled.map((id) => `n${ids.indexOf(id)}`),
  );
  // A second pass applies nothing again.
  await hook(dir, "session-start", payload("SessionStart.startup"));
  assert.equal((await calls(dir)).length, 8);
});

test("exactly once across crashes: killed before the commit, the claimed file is applied by the next hook; a file that outlived its commit is skipped", {
  timeout: 60_000,
}, async (t) => {
  const dir = project(t);
  await hook(dir, "user-prompt-submit", payload("UserPromptSubmit"));
  const held = lock(dir);
  await hook(dir, "pre-tool-use", payload("PreToolUse.mcp-project", call("c1", "one")));
  await hook(dir, "post-tool-use", done("c1", "one"));
  held.release();
  const folder = spillDir(join(dir, ".tooldistill"));
  const live = readdirSync(folder)[0] ?? "";
  assert.ok(live.endsWith(".jsonl"));
  const copy = join(dir, "spill-copy");
  copyFileSync(join(folder, live), copy);

  // Killed right before its applying transaction commits (the second commit: the first takes the folder's
  // lock): nothing applied, the claimed file stays, and so does the lock, held by a process that is gone.
  const killed = await hook(
    dir,
    "session-start",
    payload("SessionStart.startup"),
    { TD_KILL_SQL: "^COMMIT", TD_KILL_AT: "2" },
    ["--import", KILL],
  );
  assert.equal(killed.signal, "SIGKILL");
  assert.deepEqual(await calls(dir), []);
  assert.ok(
    readdirSync(folder).some((f) => f.endsWith(".claimed")),
    "the claimed file is left for the next applier",
  );

  await hook(dir, "session-start", payload("SessionStart.startup"));
  assert.deepEqual(await calls(dir), [[1, "base__base_echo", "ok", "echo one"]]);
  assert.deepEqual(readdirSync(folder), []);

  // The state a kill between the commit and the file's removal leaves: the same events, already applied.
  copyFileSync(copy, join(folder, `${SESSION}.000000000000001-1.claimed`));
  const root = join(dir, ".tooldistill");
  const store = SqliteRegistryStore.open(root);
  t.after(() => store.close());
  const report = await applySpilledEvents(store, root, SESSION, ["base"]);
  assert.deepEqual(report, { applied: 0, skipped: 2, failed: [] });
  assert.equal((await store.getCalls(spanTraceId(SESSION, 1))).length, 1);
});

test("the td server applies spilled events by itself when no hook follows", {
  timeout: 60_000,
}, async (t) => {
  const dir = project(t);
  await hook(dir, "user-prompt-submit", payload("UserPromptSubmit"));
  const held = lock(dir);
  await hook(dir, "pre-tool-use", payload("PreToolUse.mcp-project", call("d1", "last")));
  await hook(dir, "post-tool-use", done("d1", "last"));
  held.release();
  assert.equal(spillLines(dir).length, 2);
  const td = createTdServer({
    projectDir: dir,
    logger: silentLogger,
    pollMs: 50,
    overrides: { executor: () => null, tools: [], logger: silentLogger },
  });
  t.after(() => td.close());
  await td.ready;
  while (spillLines(dir).length > 0) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(await calls(dir), [[1, "base__base_echo", "ok", "echo last"]]);
});

test("a store that must be upgraded while another process holds its lock: the hook spills instead of failing", {
  timeout: 60_000,
}, async (t) => {
  const dir = project(t);
  await hook(dir, "user-prompt-submit", payload("UserPromptSubmit"));
  // An older build's schema: opening it needs a write (the upgrade), which the lock forbids.
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const old = new DatabaseSync(join(dir, ".tooldistill", "registry.db"));
  old.exec(
    "ALTER TABLE calls DROP COLUMN failure; ALTER TABLE calls DROP COLUMN raw_args; ALTER TABLE versions DROP COLUMN replay_runs; DROP INDEX calls_parent; DROP INDEX calls_distilled; DROP TABLE runs; DROP TABLE base_health; DROP TABLE verified_definitions; DROP INDEX versions_by_code; DROP TRIGGER versions_status_insert; DROP TRIGGER versions_status_update; DROP TRIGGER history_status_insert; ALTER TABLE run_stats DROP COLUMN not_applicable; ALTER TABLE calls DROP COLUMN note; ALTER TABLE calls DROP COLUMN clipped; DROP TABLE spill_applied; PRAGMA user_version = 2;",
  );
  old.close();
  const held = lock(dir);
  t.after(() => held.release());
  const r = await hook(dir, "pre-tool-use", payload("PreToolUse.mcp-project", call("m1", "upgrade")));
  assert.deepEqual([r.code, r.stderr], [0, ""]);
  assert.equal(spillLines(dir).length, 1);
  held.release();
  await hook(dir, "post-tool-use", done("m1", "upgrade"));
  assert.deepEqual(await calls(dir), [[1, "base__base_echo", "ok", "echo upgrade"]]);
});
