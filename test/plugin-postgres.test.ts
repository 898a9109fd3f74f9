/**
 * The plugin with a team's shared PostgreSQL registry, every part real: hook processes fed Claude Code's payloads
 * spill every event to the project's .tooldistill/spill and never touch the database; the td server (a process
 * over stdio, spoken to by the MCP SDK's client as Claude Code does) applies them, in order and exactly once,
 * and verifies a proposal against the recorded span; a promotion by the CLI, another process, reaches the tool
 * lists of two td servers of two projects (two developers' machines) by list_changed. The same session on a
 * folder store (SQLite), where the hooks write it themselves, for comparison. Delays are measured
 * (t.diagnostic), never asserted.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { spanTraceId } from "../claude-code/session.ts";
import type { RegistryStore } from "../core/store/registry-store.ts";
import { tempDir } from "./helpers.ts";
import { eventually, freshLocation, KINDS, openStore } from "./registry-helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAYLOADS = join(ROOT, "test", "fixtures", "claude-code-payloads");
const BASE_SERVER = join(ROOT, "test", "fixtures", "mcp", "stdio-server.ts");
const SESSION = "c4f46833-8f37-418c-ab03-42c0dfb3b30d";
const P = "mcp__plugin_tooldistill_td__";

// biome-ignore lint/suspicious/noExplicitAny: payloads are arbitrary JSON
type Payload = Record<string, any>;

function payload(name: string, patch: Payload = {}): Payload {
  return { ...(JSON.parse(readFileSync(join(PAYLOADS, `hook.${name}.json`), "utf8")) as Payload), ...patch };
}

const HOOK_FILES = {
  SessionStart: "session-start",
  UserPromptSubmit: "user-prompt-submit",
  PreToolUse: "pre-tool-use",
  PostToolUse: "post-tool-use",
  SessionEnd: "session-end",
} as const;

/** A project (one developer's checkout) whose registry is the database `${TD_TEST_STORE}` names. */
function project(t: TestContext, label: string): string {
  const dir = tempDir(t, `td-pg-${label}-`);
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    [
      "store: ${TD_TEST_STORE}",
      "fallback_distiller: false",
      "min_calls_to_distill: 2",
      "mcpServers:",
      "  crm:",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(BASE_SERVER)}]`,
      "",
    ].join("\n"),
  );
  return dir;
}

/** Runs a hook entry as Claude Code does: a process with the payload on stdin. */
function runHook(
  dir: string,
  env: NodeJS.ProcessEnv,
  event: keyof typeof HOOK_FILES,
  input: Payload,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "hooks", `${HOOK_FILES[event]}.ts`)], {
      env: { ...env, CLAUDE_PROJECT_DIR: dir },
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
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify({ ...input, cwd: dir }));
  });
}

/** A td server process for the project, with a client that counts list_changed (and when each arrived). */
async function tdServer(t: TestContext, dir: string, env: NodeJS.ProcessEnv) {
  const client = new Client({ name: "claude-code", version: "2.1.197" });
  const changes: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changes.push(Date.now());
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, "server", "td.ts")],
    cwd: dir,
    env: { ...(env as Record<string, string>), CLAUDE_PROJECT_DIR: dir, CLAUDE_CODE_SESSION_ID: SESSION },
    stderr: "ignore",
  });
  await client.connect(transport);
  t.after(() => client.close());
  const names = async () => (await client.listTools()).tools.map((x) => x.name).sort();
  return { client, changes, names };
}

const TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "greet_customer",
  description: "Greet a customer found by name.",
  inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  async run({ name }: { name: string }) {
    const customer = await call("crm__get_customer", { name });
    return call("crm__greet", { name: customer.name });
  },
});
`;

/** The base calls of the session: a wrong guess, the right customer, the greeting. */
const CALLS: Array<{ id: string; tool: string; input: Payload; response: unknown }> = [
  {
    id: "toolu_pg_1",
    tool: "get_customer",
    input: { name: "Ad" },
    response: [{ type: "text", text: JSON.stringify({ id: "cust_ad", name: "Ad" }) }],
  },
  {
    id: "toolu_pg_2",
    tool: "get_customer",
    input: { name: "Ada" },
    response: [{ type: "text", text: JSON.stringify({ id: "cust_ada", name: "Ada" }) }],
  },
  {
    id: "toolu_pg_3",
    tool: "greet",
    input: { name: "Ada" },
    response: [{ type: "text", text: "hello Ada" }],
  },
];

async function callsOf(store: RegistryStore, traceId: string) {
  return (await store.getCalls(traceId)).map((c) => [c.seq, c.tool, c.status]);
}

for (const kind of KINDS) {
  test(`a session on ${kind}: hooks record (on PostgreSQL: spill, applied by the td server once and in order), the proposal verifies, a CLI promotion reaches two td servers`, {
    timeout: 240_000,
  }, async (t) => {
    const url = await freshLocation(t, kind);
    const env: NodeJS.ProcessEnv = { ...process.env, TD_TEST_STORE: url };
    for (const k of Object.keys(env)) if (/^(CLAUDE|ANTHROPIC)/.test(k)) delete env[k];
    const mine = project(t, "a");
    const theirs = project(t, "b");
    const store = await openStore(t, url);

    // Another developer's td server is up first: it lists only the proposal tool.
    const other = await tdServer(t, theirs, env);
    assert.deepEqual(await other.names(), ["propose_distilled_tool"]);

    // The session's hooks run before this machine's td server starts: everything waits in the spill file.
    const hook = (event: keyof typeof HOOK_FILES, input: Payload) => runHook(mine, env, event, input);
    const prompt = "Greet the customer Ada";
    for (const r of [
      await hook("SessionStart", payload("SessionStart.startup")),
      await hook("UserPromptSubmit", payload("UserPromptSubmit", { prompt })),
    ])
      assert.equal(r.code, 0, r.stderr);
    for (const c of CALLS) {
      const call = { tool_name: `mcp__crm__${c.tool}`, tool_input: c.input, tool_use_id: c.id };
      assert.equal((await hook("PreToolUse", payload("PreToolUse.mcp-project", call))).code, 0);
      const post = payload("PostToolUse.mcp-project", { ...call, tool_response: c.response });
      assert.equal((await hook("PostToolUse", post)).code, 0);
    }
    const spill = join(mine, ".tooldistill", "spill");
    if (kind === "postgres") {
      const spilled = readdirSync(spill).map((f) => readFileSync(join(spill, f), "utf8").trim().split("\n"));
      assert.deepEqual(
        spilled.map((lines) => lines.length),
        [2 + 2 * CALLS.length],
        "one spill file, every event in it",
      );
      assert.equal(existsSync(join(mine, ".tooldistill", "registry.db")), false, "no SQLite store beside it");
      assert.equal(
        await store.getTrace(spanTraceId(SESSION, 1)),
        null,
        "the hooks wrote nothing to the database",
      );
    } else {
      // SQLite: the hooks write the store themselves, nothing spilled.
      assert.equal((await store.getCalls(spanTraceId(SESSION, 1))).length, CALLS.length);
      assert.equal(existsSync(spill), false);
    }

    // This machine's td server applies them: once, in order, the span's task and calls as the hooks saw them.
    const started = Date.now();
    const td = await tdServer(t, mine, env);
    const traceId = spanTraceId(SESSION, 1);
    const expected = CALLS.map((c, i) => [i + 1, `crm__${c.tool}`, "ok"]);
    const until = Date.now() + 30_000;
    while (JSON.stringify(await callsOf(store, traceId)) !== JSON.stringify(expected)) {
      assert.ok(
        Date.now() < until,
        `the session never reached the database: ${JSON.stringify(await callsOf(store, traceId))}`,
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    t.diagnostic(`${kind}: the session in the store ${Date.now() - started} ms after the td server started`);
    assert.equal((await store.getTrace(traceId))?.task, prompt);

    // /tooldistill:distill: the hook answers without the database; the confirmation and the proposal's call follow.
    const distill = await hook(
      "UserPromptSubmit",
      payload("UserPromptSubmit", { prompt: "/tooldistill:distill" }),
    );
    assert.equal(distill.code, 0, distill.stderr);
    const context = JSON.parse(distill.stdout).hookSpecificOutput.additionalContext as string;
    assert.match(context, new RegExp(`${P}propose_distilled_tool`));
    const proposal = { code: TOOL, test_inputs: [{ name: "Ada" }] };
    const proposeCall = {
      tool_name: `${P}propose_distilled_tool`,
      tool_input: proposal,
      tool_use_id: "toolu_pg_4",
    };
    assert.equal((await hook("PreToolUse", payload("PreToolUse.mcp-plugin", proposeCall))).code, 0);
    const verdict = await td.client.callTool({
      name: "propose_distilled_tool",
      arguments: proposal,
      _meta: { "claudecode/toolUseId": "toolu_pg_4" },
    });
    const verdictText = (verdict.content as Array<{ text: string }>)[0]?.text ?? "";
    assert.equal(verdict.isError, false, verdictText);
    assert.match(verdictText, /^verified: greet_customer v1/);
    // The proposal answered the row its PreToolUse hook spilled: one row, no duplicate, after the base calls.
    const rows = await store.getCalls(traceId);
    assert.deepEqual(
      rows.map((c) => [c.seq, c.tool]),
      [...expected.map(([seq, tool]) => [seq, tool]), [4, "propose_distilled_tool"]],
    );
    assert.equal((await store.getTrace(traceId))?.outcome, true, "the span is confirmed");
    assert.equal((await store.getVersion("greet_customer", 1))?.sourceTrace, traceId);

    // A person promotes it with the CLI of the other project: both td servers hear it and list it.
    const before = { mine: td.changes.length, theirs: other.changes.length };
    // Spawned without blocking, so the notifications are timed as they arrive, not after the CLI exits.
    const cli = await new Promise<{ status: number | null; stderr: string; exitAt: number }>(
      (resolve, reject) => {
        const child = spawn(
          process.execPath,
          [join(ROOT, "bin", "tooldistill.js"), "promote", "greet_customer"],
          {
            cwd: theirs,
            env,
          },
        );
        let stderr = "";
        child.stderr.on("data", (c) => {
          stderr += c;
        });
        child.on("error", reject);
        child.on("close", (status) => resolve({ status, stderr, exitAt: Date.now() }));
      },
    );
    assert.equal(cli.status, 0, cli.stderr);
    const promotedAt = Date.parse(
      (await store.getHistory("greet_customer", 1)).find((h) => h.to === "active")?.at ?? "",
    );
    for (const [label, server, count] of [
      ["this machine's", td, before.mine],
      ["the other machine's", other, before.theirs],
    ] as const) {
      const heard = await eventually(`list_changed at ${label} td server`, () => server.changes[count]);
      // The history row's time is its transaction's start (an upper bound of the delay after the commit); the
      // CLI's exit comes after the commit (a negative figure: heard before the CLI process had ended).
      t.diagnostic(
        `${kind}, ${label} td server: list_changed ${heard - promotedAt} ms after the promotion's transaction began, ${heard - cli.exitAt} ms from the CLI's exit`,
      );
      assert.deepEqual(await server.names(), ["greet_customer", "propose_distilled_tool"]);
    }
    // The other developer's session uses it: one call, through its own base server.
    const used = await other.client.callTool({ name: "greet_customer", arguments: { name: "Ada" } });
    assert.equal(used.isError, false, JSON.stringify(used.content));
    assert.match((used.content as Array<{ text: string }>)[0]?.text ?? "", /hello Ada/);

    // The session ends; the spill folder is empty once applied.
    assert.equal((await hook("SessionEnd", payload("SessionEnd.other"))).code, 0);
    const deadline = Date.now() + 30_000;
    while ((await store.getTrace(traceId))?.endedAt == null) {
      assert.ok(Date.now() < deadline, "SessionEnd never reached the database");
      await new Promise((r) => setTimeout(r, 50));
    }
    if (kind === "postgres") assert.deepEqual(readdirSync(spill), [], "every spill file applied and removed");
  });
}
