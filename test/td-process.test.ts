/**
 * The `td` server as a real process (server/td.ts, spoken to over stdio as Claude Code does): it never outlives
 * its session and stops the base servers it started, by pid; an oversized or malformed message is answered and
 * logged, never a silent exit. Waits are bounded generously (seconds, against a 30 s start-up timeout the old
 * behaviour would need); nothing here measures speed.
 */
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TD = join(ROOT, "server", "td.ts");
const FIXTURES = join(ROOT, "test", "fixtures");

/** Alive and not a zombie (a killed child whose parent exited may linger unreaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

async function until(what: string, condition: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A project whose tooldistill.yaml starts the given fixture servers; they write their pids into `pids/`. */
function project(
  t: import("node:test").TestContext,
  servers: Record<string, string>,
): { dir: string; pids: () => number[] } {
  const dir = tempDir(t, "td-proc-");
  const pidDir = join(dir, "pids");
  mkdirSync(pidDir);
  const entries = Object.entries(servers)
    .map(
      ([name, file]) =>
        `  ${name}:\n    command: ${process.execPath}\n    args: [${JSON.stringify(join(FIXTURES, "mcp", file))}]\n    env: { FIXTURE_PID_DIR: ${JSON.stringify(pidDir)} }\n`,
    )
    .join("");
  const servers_ = entries === "" ? "" : `mcpServers:\n${entries}`;
  writeFileSync(join(dir, "tooldistill.yaml"), `fallback_distiller: false\n${servers_}`);
  // Every pid seen is remembered: the folder is gone by the time a test's cleanup runs, the processes may not be.
  const seen = new Set<number>();
  const pids = () => {
    const now = existsSync(pidDir) ? readdirSync(pidDir).map(Number) : [];
    for (const pid of now) seen.add(pid);
    return now;
  };
  t.after(() => {
    for (const pid of seen) if (alive(pid)) process.kill(pid, "SIGKILL");
  });
  return { dir, pids };
}

interface Td {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  request(id: number, method: string, params?: unknown): Promise<Record<string, unknown>>;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

function startTd(dir: string): Td {
  const child = spawn(process.execPath, [TD], {
    cwd: dir,
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (c: string) => {
    err += c;
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let buffer = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (c: string) => {
    buffer += c;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const message = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
      buffer = buffer.slice(nl + 1);
      const resolve = waiting.get(message["id"] as number);
      if (resolve) resolve(message);
    }
  });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    stderr: () => err,
    exited,
    request(id, method, params = {}) {
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    },
  };
}

async function initialize(td: Td): Promise<void> {
  const r = await td.request(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "claude-code", version: "2.1.197" },
  });
  assert.ok(r["result"], JSON.stringify(r));
  td.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
}

test("stdin closing (Claude Code went away) stops td, exit 0, and its base server is gone", {
  timeout: 60_000,
}, async (t) => {
  const { dir, pids } = project(t, { base: "stdio-server.ts" });
  const td = startTd(dir);
  t.after(() => td.child.kill("SIGKILL"));
  await initialize(td);
  const tools = await td.request(2, "tools/list");
  assert.deepEqual(
    ((tools["result"] as { tools: Array<{ name: string }> }).tools ?? []).map((x) => x.name),
    ["propose_distilled_tool"],
  );
  await until("the base server started", () => pids().length === 1);
  const [base] = pids();
  td.child.stdin.end();
  const [code, signal] = await td.exited;
  assert.deepEqual([code, signal], [0, null], td.stderr());
  assert.equal(alive(base!), false, "the base server outlived td");
  assert.match(td.stderr(), /tooldistill td: stopping: stdin closed/);
});

test("td lists its tools from the store while a base server is still starting (Claude Code does not wait long)", {
  timeout: 60_000,
}, async (t) => {
  const { dir, pids } = project(t, { stuck: "hang-server.ts" });
  const td = startTd(dir);
  t.after(() => td.child.kill("SIGKILL"));
  await initialize(td);
  await until("the base server started", () => pids().length === 1);
  const [stuck] = pids();
  // The stuck server never answers initialize: a list that waited for it would take its 30 s timeout.
  const listed = await Promise.race([
    td.request(2, "tools/list"),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("tools/list waited for the base server")), 10_000),
    ),
  ]);
  assert.deepEqual(
    ((listed["result"] as { tools: Array<{ name: string }> }).tools ?? []).map((x) => x.name),
    ["propose_distilled_tool"],
  );
  td.child.stdin.end();
  assert.deepEqual(await td.exited, [0, null]);
  await until("the stuck base server stopped with td", () => !alive(stuck!), 5000);
});

test("SIGTERM stops td while a base server hangs at start-up (ignoring SIGTERM): it is killed by pid", {
  timeout: 60_000,
}, async (t) => {
  const { dir, pids } = project(t, { stuck: "hang-server.ts", base: "stdio-server.ts" });
  const td = startTd(dir);
  t.after(() => td.child.kill("SIGKILL"));
  await until("both base servers started", () => pids().length === 2);
  const started = pids();
  // The hanging server is still in its 30 s start-up window: td must not wait for it.
  td.child.kill("SIGTERM");
  const [code] = await Promise.race([
    td.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`td still running 10 s after SIGTERM: ${td.stderr()}`)), 10_000),
    ),
  ]);
  assert.equal(code, 0);
  for (const pid of started) await until(`base server ${pid} gone`, () => !alive(pid), 5000);
  assert.match(td.stderr(), /tooldistill td: stopping: SIGTERM/);
});

test("when the process that started td dies without closing its stdin, td notices and stops with its base servers", {
  timeout: 60_000,
}, async (t) => {
  const { dir, pids } = project(t, { base: "stdio-server.ts" });
  // The parent's stdin, which td inherits, is a FIFO this test also holds open for writing: killing the parent
  // leaves td's stdin open (Node would close a pipe of its own when the child exits).
  const fifo = join(dir, "stdin.fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo failed");
  const held = openSync(fifo, "r+");
  t.after(() => closeSync(held));
  const log = join(dir, "td.log");
  const parent = spawn(process.execPath, [join(FIXTURES, "td-parent.ts"), TD, log], {
    cwd: dir,
    env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
    stdio: [held, "pipe", "ignore"],
  });
  let out = "";
  parent.stdout?.setEncoding("utf8");
  parent.stdout?.on("data", (c: string) => {
    out += c;
  });
  await until("td's pid", () => out.includes("\n"));
  const tdPid = Number(out.trim());
  t.after(() => {
    parent.kill("SIGKILL");
    if (alive(tdPid)) process.kill(tdPid, "SIGKILL");
  });
  await until("the base server started", () => pids().length === 1);
  const [base] = pids();
  parent.kill("SIGKILL");
  await once(parent, "exit");
  await until("td stopped after its parent died", () => !alive(tdPid), 20_000);
  await until("its base server stopped too", () => !alive(base!), 5000);
  // Stopped by noticing its parent, not by its stdin closing (we still hold the pipe open).
  assert.match(
    readFileSync(log, "utf8"),
    /tooldistill td: stopping: the process that started it \(pid \d+\) is gone/,
  );
});

test("a request over the 10 MB message limit gets a JSON-RPC error naming the limit, and td keeps serving", {
  timeout: 60_000,
}, async (t) => {
  const { dir } = project(t, {});
  const td = startTd(dir);
  t.after(() => td.child.kill("SIGKILL"));
  await initialize(td);
  // Claude Code's key order puts "id" last (see test/fixtures/claude-code-payloads/mcp.tools-call.json).
  const huge = JSON.stringify({
    method: "tools/call",
    params: {
      name: "propose_distilled_tool",
      arguments: { code: "x".repeat(11 * 1024 * 1024), test_inputs: [] },
    },
    jsonrpc: "2.0",
    id: 7,
  });
  const answered = new Promise<Record<string, unknown>>((resolve) => {
    const onData = (c: Buffer | string) => {
      for (const line of String(c).split("\n")) {
        if (line.includes('"id":7')) {
          td.child.stdout.off("data", onData);
          resolve(JSON.parse(line));
        }
      }
    };
    td.child.stdout.on("data", onData);
  });
  td.child.stdin.write(`${huge}\n`);
  const reply = await answered;
  assert.deepEqual(reply["error"], {
    code: -32600,
    message:
      "tooldistill td: a request of 11 MB is over the 10 MB limit of one message, so it was not run; send less in one call (a smaller input, or a reference to the data instead of the data)",
  });
  assert.match(td.stderr(), /a request of 11 MB is over the 10 MB limit/);
  const still = await td.request(8, "tools/list");
  assert.ok(still["result"], "td stopped serving after the oversized message");

  // A line that is not JSON is logged and answered too, never fatal.
  td.child.stdin.write('{"jsonrpc":"2.0","id":9,"method":\n');
  await until("the parse error is logged", () => /not valid JSON-RPC/.test(td.stderr()));
  assert.ok((await td.request(10, "tools/list"))["result"]);
  td.child.stdin.end();
  assert.deepEqual(await td.exited, [0, null]);
});
