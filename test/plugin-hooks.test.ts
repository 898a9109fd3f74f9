/**
 * The plugin's hooks fed the real payloads Claude Code 2.1.197 sent (../shared/spec/claude-code-payloads, copied
 * here as they were measured, with the session and project adapted): spans, names, concurrency, fail-open.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BASE_TOOLS_META_KEY } from "../claude-code/base-tools.ts";
import { spanPrefix, spanTraceId } from "../claude-code/session.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { MCPToolkit } from "../core/mcp/mcp-toolkit.ts";
import { type HookEvent, handleHookInput, setupHint } from "../hooks/run.ts";
import { tempDir } from "./helpers.ts";

const PAYLOADS = fileURLToPath(new URL("./fixtures/claude-code-payloads/", import.meta.url));
const HOOKS = fileURLToPath(new URL("../hooks/", import.meta.url));
const SESSION = "c4f46833-8f37-418c-ab03-42c0dfb3b30d";

// biome-ignore lint/suspicious/noExplicitAny: payloads are arbitrary JSON
type Payload = Record<string, any>;

function payload(name: string, patch: Payload = {}): Payload {
  return { ...(JSON.parse(readFileSync(join(PAYLOADS, `hook.${name}.json`), "utf8")) as Payload), ...patch };
}

/** A project whose .mcp.json has the server `base` the payloads' mcp__base__* tools come from. */
function project(
  t: import("node:test").TestContext,
  yaml = "mcp_config: .mcp.json\nmin_calls_to_distill: 2\n",
): string {
  const dir = tempDir(t, "td-hooks-");
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { base: { type: "stdio", command: "node", args: ["base.js"] } } }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), yaml);
  return dir;
}

async function hook(dir: string, event: HookEvent, input: Payload) {
  return handleHookInput(event, JSON.stringify({ ...input, cwd: dir }), { env: { CLAUDE_PROJECT_DIR: dir } });
}

function openStore(t: import("node:test").TestContext, dir: string): SqliteRegistryStore {
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  t.after(() => store.close());
  return store;
}

const FILES: Record<HookEvent, string> = {
  SessionStart: "session-start",
  UserPromptSubmit: "user-prompt-submit",
  UserPromptExpansion: "user-prompt-expansion",
  PreToolUse: "pre-tool-use",
  PostToolUse: "post-tool-use",
  PostToolUseFailure: "post-tool-use-failure",
  Stop: "stop",
  SessionEnd: "session-end",
};

/** Runs a hook entry as Claude Code does: a process with the payload on stdin. */
function runEntry(
  dir: string,
  event: HookEvent,
  input: Payload,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(HOOKS, `${FILES[event]}.ts`)], {
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
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

test("the real payloads record a span: task, base and other tools by their library names, results as values", async (t) => {
  const dir = project(t);
  assert.equal(await hook(dir, "SessionStart", payload("SessionStart.startup")), null);
  assert.equal(await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit")), null);
  for (const name of [
    "PreToolUse.Bash",
    "PostToolUse.Bash",
    "PreToolUse.mcp-project",
    "PostToolUse.mcp-project",
  ]) {
    await hook(dir, name.startsWith("Pre") ? "PreToolUse" : "PostToolUse", payload(name));
  }
  // A project tool that fails (PostToolUseFailure fires instead of PostToolUse for MCP isError results).
  const failing = {
    tool_name: "mcp__base__base_search",
    tool_input: { query: "q" },
    tool_use_id: "toolu_fail",
    session_id: SESSION,
  };
  await hook(dir, "PreToolUse", payload("PreToolUse.mcp-project", failing));
  await hook(dir, "PostToolUseFailure", payload("PostToolUseFailure.mcp-plugin", failing));
  // Read was blocked or denied: no Post event ever comes, and the call stays started (it never counts).
  await hook(dir, "PreToolUse", payload("PreToolUse.Read", { session_id: SESSION }));

  const store = openStore(t, dir);
  const trace = await store.getTrace(spanTraceId(SESSION, 1));
  assert.equal(trace?.task, "Please run the three tools.");
  assert.equal(trace?.source, "claude-code");
  assert.equal(trace?.outcome, null);
  assert.deepEqual(
    (await store.getCalls(trace!.id)).map((c) => [c.seq, c.tool, c.kind, c.status, c.output ?? c.error]),
    [
      [
        1,
        "Bash",
        "other",
        "ok",
        { stdout: "hi", stderr: "", interrupted: false, isImage: false, noOutputExpected: false },
      ],
      [2, "base__base_echo", "base", "ok", "base_echo: from the project server"],
      [3, "base__base_search", "base", "error", "deliberate failure"],
      [4, "Read", "other", "started", null],
    ],
  );
  assert.equal((await store.getCalls(trace!.id))[1]?.latencyMs, 25);
  assert.equal(await store.countTopLevelBaseCalls(trace!.id), 2);
});

test("recorded and live values are the same value for every tool_response shape Claude Code sends", {
  timeout: 60_000,
}, async (t) => {
  // The project's server `crm` is the fixture server; the toolkit calls it live as a distilled tool would.
  const server = fileURLToPath(new URL("./fixtures/mcp/stdio-server.ts", import.meta.url));
  const dir = tempDir(t, "td-hooks-shapes-");
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { type: "stdio", command: process.execPath, args: [server] } } }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\n");
  const toolkit = await MCPToolkit.connect({
    servers: { crm: { type: "stdio", command: process.execPath, args: [server], env: {} } },
    cwd: dir,
  });
  t.after(() => toolkit.close());
  // The raw results, for the shape Claude Code sends when there is no structuredContent: the content blocks.
  const raw = new Client({ name: "raw", version: "1.0.0" });
  await raw.connect(
    new StdioClientTransport({ command: process.execPath, args: [server], stderr: "ignore" }),
  );
  t.after(() => raw.close());
  const blocks = async (tool: string, args: Record<string, unknown>) =>
    ((await raw.callTool({ name: tool, arguments: args })) as { content: unknown[] }).content;

  const cases: Array<{ label: string; tool: string; args: Record<string, unknown>; response: unknown }> = [
    // Measured: a result with structuredContent arrives as the JSON text of structuredContent.
    {
      label: "string (structuredContent, JSON text beside it)",
      tool: "list_contacts",
      args: { page: 1 },
      response: payload("PostToolUse.mcp-structured")["tool_response"],
    },
    {
      label: "string (structuredContent, a human sentence beside it)",
      tool: "count_summary",
      args: {},
      response: payload("PostToolUse.mcp-structured-text")["tool_response"],
    },
    {
      label: "object (the stream's tool_use_result)",
      tool: "list_contacts",
      args: { page: 1 },
      response: JSON.parse(readFileSync(join(PAYLOADS, "stream.user-tool_result.structured.json"), "utf8"))
        .tool_use_result,
    },
    // Measured: a result without structuredContent arrives as its content blocks.
    {
      label: "blocks (JSON text)",
      tool: "get_customer",
      args: { name: "Acme" },
      response: await blocks("get_customer", { name: "Acme" }),
    },
    {
      label: "blocks (plain text)",
      tool: "greet",
      args: { name: "Ada" },
      response: await blocks("greet", { name: "Ada" }),
    },
    { label: "blocks (two)", tool: "two_lines", args: {}, response: await blocks("two_lines", {}) },
  ];
  const store = openStore(t, dir);
  for (const [i, c] of cases.entries()) {
    const id = `toolu_shape_${i}`;
    const call = { tool_name: `mcp__crm__${c.tool}`, tool_input: c.args, tool_use_id: id };
    await hook(dir, "PreToolUse", payload("PreToolUse.mcp-project", call));
    await hook(
      dir,
      "PostToolUse",
      payload("PostToolUse.mcp-project", { ...call, tool_response: c.response }),
    );
    const recorded = (await store.getCalls(spanTraceId(SESSION, 1))).find((x) => x.seq === i + 1);
    assert.equal(recorded?.status, "ok", c.label);
    assert.deepEqual(recorded?.output, await toolkit.executor(`crm__${c.tool}`, c.args), c.label);
  }
  // The replayed value is an object, so `first.next_page` means the same thing in replay and live.
  const first = (await store.getCalls(spanTraceId(SESSION, 1)))[0]?.output as
    | { next_page?: number }
    | undefined;
  assert.equal(first?.next_page, 2);
});

test("a tool-use id repeated in another session neither attaches to nor suppresses this session's call", async (t) => {
  const dir = project(t);
  const other = "c92704b2-8764-4ca1-8798-dc68160bc805";
  // A fake or replayed API numbers its tool uses per session: both sessions send toolu_fake_0002.
  for (const session of [SESSION, other]) {
    await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit", { session_id: session }));
    await hook(dir, "PreToolUse", payload("PreToolUse.mcp-project", { session_id: session }));
  }
  await hook(
    dir,
    "PostToolUse",
    payload("PostToolUse.mcp-project", {
      session_id: other,
      tool_response: [{ type: "text", text: "from the other session" }],
    }),
  );
  await hook(dir, "PostToolUse", payload("PostToolUse.mcp-project", { session_id: SESSION }));
  const store = openStore(t, dir);
  const outcome = async (session: string) =>
    (await store.getCalls(spanTraceId(session, 1))).map((c) => [c.tool, c.status, c.output]);
  assert.deepEqual(await outcome(SESSION), [["base__base_echo", "ok", "base_echo: from the project server"]]);
  assert.deepEqual(await outcome(other), [["base__base_echo", "ok", "from the other session"]]);
});

test("/tooldistill:distill confirms the span, tells the model what to distill, and the next prompt starts a new span", async (t) => {
  const dir = project(t);
  const store = openStore(t, dir);
  await store.setMeta(
    BASE_TOOLS_META_KEY,
    JSON.stringify([
      {
        name: "base__base_search",
        description: "",
        input_schema: { type: "object", properties: { limit: { type: "number", default: 10 } } },
      },
    ]),
  );
  await hook(dir, "SessionStart", payload("SessionStart.startup"));
  await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit"));
  for (const [id, query] of [
    ["t1", "a"],
    ["t2", "b"],
  ] as const) {
    const call = { tool_name: "mcp__base__base_search", tool_input: { query }, tool_use_id: id };
    await hook(dir, "PreToolUse", payload("PreToolUse.mcp-project", call));
    await hook(
      dir,
      "PostToolUse",
      payload("PostToolUse.mcp-project", {
        ...call,
        tool_response: [{ type: "text", text: `{"hits":["${query}"]}` }],
      }),
    );
  }
  const distill = {
    session_id: SESSION,
    prompt: "/tooldistill:distill keep the limit",
    prompt_id: "p-distill",
  };
  const out = await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit", distill));
  await hook(
    dir,
    "UserPromptExpansion",
    payload("UserPromptExpansion.slash_command", {
      ...distill,
      session_id: SESSION,
      command_name: "tooldistill:distill",
    }),
  );
  assert.equal(out?.hookSpecificOutput?.hookEventName, "UserPromptSubmit");
  const context = out?.hookSpecificOutput?.additionalContext ?? "";
  assert.match(context, /^tooldistill: the user ran \/tooldistill:distill/);
  assert.match(context, /The user's notes: keep the limit/);
  assert.match(context, /This task took 2 base tool calls/);
  // Cached schema defaults were applied when recording, and JSON text results became values.
  assert.match(context, /1\. base__base_search \{"limit":10,"query":"a"\} → \{"hits":\["a"\]\}/);
  assert.match(context, /mcp__plugin_tooldistill_td__propose_distilled_tool/);
  assert.match(context, /Rules \(checked before anything runs\)/);

  // The proposal exchange stays in the confirmed span and its base calls never count toward the baseline.
  const during = { tool_name: "mcp__base__base_search", tool_input: { query: "c" }, tool_use_id: "t3" };
  await hook(dir, "PreToolUse", payload("PreToolUse.mcp-project", during));
  const propose = {
    tool_name: "mcp__plugin_tooldistill_td__propose_distilled_tool",
    tool_input: { code: "x", test_inputs: [] },
    tool_use_id: "t4",
  };
  await hook(dir, "PreToolUse", payload("PreToolUse.mcp-plugin", propose));
  const span1 = spanTraceId(SESSION, 1);
  assert.equal((await store.getTrace(span1))?.outcome, true);
  assert.deepEqual(
    (await store.getCalls(span1)).map((c) => [c.tool, c.kind]),
    [
      ["base__base_search", "base"],
      ["base__base_search", "base"],
      ["base__base_search", "other"],
      ["propose_distilled_tool", "proposal"],
    ],
  );
  assert.equal(await store.countTopLevelBaseCalls(span1), 2);

  // The next ordinary prompt starts span 2, whose task it is.
  await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit", { prompt: "Now something else" }));
  await hook(dir, "PreToolUse", payload("PreToolUse.mcp-project", { tool_use_id: "t5" }));
  const span2 = spanTraceId(SESSION, 2);
  assert.equal((await store.getTrace(span2))?.task, "Now something else");
  assert.equal((await store.getTrace(span2))?.outcome, null);
  assert.deepEqual(
    (await store.getCalls(span2)).map((c) => [c.tool, c.kind]),
    [["base__base_echo", "base"]],
  );

  // /clear: the old session ends, the new session id is a new span 1.
  await hook(dir, "SessionEnd", payload("SessionEnd.clear", { session_id: SESSION }));
  assert.ok((await store.getTrace(span2))?.endedAt);
  await hook(dir, "SessionStart", payload("SessionStart.clear"));
  assert.ok(await store.getTrace(spanTraceId("c92704b2-8764-4ca1-8798-dc68160bc805", 1)));
});

test("a span without base calls gets told there is nothing to distill", async (t) => {
  const dir = project(t);
  await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit"));
  const out = await hook(
    dir,
    "UserPromptSubmit",
    payload("UserPromptSubmit", { prompt: "/tooldistill:distill" }),
  );
  assert.match(out?.hookSpecificOutput?.additionalContext ?? "", /nothing to distill/);
});

test("without tooldistill.yaml: one hint at session start and nothing else, nothing written", async (t) => {
  const dir = tempDir(t, "td-hooks-none-");
  assert.deepEqual(await hook(dir, "SessionStart", payload("SessionStart.startup")), {
    systemMessage: setupHint(dir),
  });
  for (const [event, name] of [
    ["UserPromptSubmit", "UserPromptSubmit"],
    ["PreToolUse", "PreToolUse.Bash"],
    ["PostToolUse", "PostToolUse.Bash"],
    ["SessionEnd", "SessionEnd.other"],
  ] as const) {
    assert.equal(await hook(dir, event, payload(name)), null);
  }
  assert.equal(existsSync(join(dir, ".tooldistill")), false);
});

test("hooks fail open: a broken config is logged to the store's hooks.log and stderr, exit 0", async (t) => {
  const dir = project(t, "min_call_reduction: 7\n");
  const r = await runEntry(dir, "PreToolUse", payload("PreToolUse.Bash"));
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^tooldistill PreToolUse hook: .*min_call_reduction/m);
  assert.match(
    readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8"),
    /PreToolUse: .*min_call_reduction/,
  );
});

/** Runs a hook entry with raw stdin text (not a payload object). */
function runRaw(
  dir: string,
  event: HookEvent,
  text: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(HOOKS, `${FILES[event]}.ts`)], {
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
    child.stdin.end(text);
  });
}

test("a missing mcp_config file is one line in hooks.log and stderr, naming the key", async (t) => {
  const dir = project(t, "mcp_config: missing.json\n");
  const r = await runEntry(dir, "PreToolUse", payload("PreToolUse.mcp-project"));
  assert.equal(r.code, 0);
  const line = `mcp_config: ${join(dir, "missing.json")} does not exist; create it or correct the mcp_config path`;
  assert.equal(r.stderr, `tooldistill PreToolUse hook: ${line}\n`);
  assert.match(
    readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8"),
    new RegExp(`PreToolUse: ${line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
  );
});

test("empty or non-JSON stdin is logged to hooks.log and stderr, and the hook exits 0", async (t) => {
  const dir = project(t);
  const empty = await runRaw(dir, "PreToolUse", "");
  const garbage = await runRaw(dir, "PostToolUse", "{not json");
  const list = await runRaw(dir, "PostToolUse", "[1, 2]");
  for (const r of [empty, garbage, list]) assert.equal(r.code, 0);
  assert.match(
    empty.stderr,
    /^tooldistill PreToolUse hook: stdin was empty: Claude Code sends the event as JSON on stdin/,
  );
  assert.match(garbage.stderr, /^tooldistill PostToolUse hook: stdin is not JSON \(/);
  const log = readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8");
  assert.match(
    log,
    /PreToolUse: stdin was empty: Claude Code sends the event as JSON on stdin, so nothing was recorded\n/,
  );
  assert.match(log, /PostToolUse: stdin is not JSON \(.*\), so nothing was recorded; it began: \{not json\n/);
  assert.match(log, /PostToolUse: stdin is JSON but not an object \(\[1, 2\]\)/);
});

test("hooks.log is bounded: past 1 MB it moves to hooks.log.1 and a new log starts", async (t) => {
  const dir = project(t);
  const logFile = join(dir, ".tooldistill", "hooks.log");
  mkdirSync(join(dir, ".tooldistill"), { recursive: true });
  const old = `${"x".repeat(99)}\n`.repeat(10_485);
  writeFileSync(logFile, old);
  for (let i = 0; i < 3; i++) await runRaw(dir, "PreToolUse", "");
  assert.equal(readFileSync(`${logFile}.1`, "utf8"), old, "the full log was rotated whole");
  const fresh = readFileSync(logFile, "utf8");
  assert.equal(fresh.split("\n").filter((l) => l.includes("stdin was empty")).length, 3);
  assert.ok(statSync(logFile).size + statSync(`${logFile}.1`).size <= 2 * 1024 * 1024);
});

test("the config is cached in CLAUDE_PLUGIN_DATA and reloaded when tooldistill.yaml or .mcp.json changes", async (t) => {
  const dir = project(t);
  const data = tempDir(t, "td-plugin-data-");
  const rt = { env: { CLAUDE_PROJECT_DIR: dir, CLAUDE_PLUGIN_DATA: data } };
  const pre = (tool: string, id: string, env = rt) =>
    handleHookInput(
      "PreToolUse",
      JSON.stringify({ session_id: SESSION, cwd: dir, tool_name: tool, tool_input: {}, tool_use_id: id }),
      env,
    );
  const recorded = async (store: string, id: string) => {
    const s = SqliteRegistryStore.open(store);
    try {
      const c = await s.getCallByExternalId(id, spanPrefix(SESSION));
      return c && [c.tool, c.kind];
    } finally {
      await s.close();
    }
  };
  const store = join(dir, ".tooldistill");
  await pre("mcp__base__a", "u1");
  assert.deepEqual(await recorded(store, "u1"), ["base__a", "base"]);
  const cache = join(data, "config-cache");
  assert.equal(readdirSync(cache).length, 1, "one cache entry for the project");

  // A cached entry is what the hooks read: a forged one (same stamps) shows it is used.
  const file = join(cache, readdirSync(cache)[0]!);
  const entry = JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(file, JSON.stringify({ ...entry, config: { ...entry.config, baseServers: ["forged"] } }));
  await pre("mcp__forged__b", "u2");
  assert.deepEqual(await recorded(store, "u2"), ["forged__b", "base"]);

  // .mcp.json changes: the next hook reloads it.
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { type: "stdio", command: "node", args: ["crm.js"] } } }),
  );
  await pre("mcp__crm__c", "u3");
  await pre("mcp__base__d", "u4");
  assert.deepEqual(await recorded(store, "u3"), ["crm__c", "base"]);
  assert.deepEqual(await recorded(store, "u4"), ["mcp__base__d", "other"]);

  // tooldistill.yaml changes: a new store path takes effect at once.
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\nstore: elsewhere\n");
  await pre("mcp__crm__e", "u5");
  assert.deepEqual(await recorded(join(dir, "elsewhere"), "u5"), ["crm__e", "base"]);

  // A broken edit is reported, not masked by the cache.
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\nmin_call_reduction: 7\n");
  await pre("mcp__crm__f", "u6");
  assert.match(readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8"), /min_call_reduction/);
  assert.equal(await recorded(store, "u6"), null);
});

test("8 parallel tool calls run 8 concurrent hook processes each way: nothing lost, seq unique", async (t) => {
  const dir = project(t);
  await runEntry(dir, "UserPromptSubmit", payload("UserPromptSubmit"));
  const ids = Array.from({ length: 8 }, (_, i) => `toolu_par_${i}`);
  const call = (id: string, i: number) => ({
    tool_name: "mcp__base__base_echo",
    tool_input: { text: `n${i}` },
    tool_use_id: id,
  });
  const pre = await Promise.all(
    ids.map((id, i) => runEntry(dir, "PreToolUse", payload("PreToolUse.mcp-project", call(id, i)))),
  );
  const post = await Promise.all(
    ids.map((id, i) =>
      runEntry(
        dir,
        "PostToolUse",
        payload("PostToolUse.mcp-project", {
          ...call(id, i),
          tool_response: [{ type: "text", text: `echo n${i}` }],
        }),
      ),
    ),
  );
  for (const r of [...pre, ...post]) assert.deepEqual([r.code, r.stderr], [0, ""]);
  const store = openStore(t, dir);
  const calls = await store.getCalls(spanTraceId(SESSION, 1));
  assert.equal(calls.length, 8);
  assert.deepEqual(
    calls.map((c) => c.seq),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  for (const c of calls) {
    assert.equal(c.status, "ok");
    assert.equal(c.output, `echo ${c.args["text"]}`);
  }
  assert.equal(await store.integrityCheck(), "ok");
});

test("SessionEnd hands a confirmed span without a proposal to the detached fallback distiller, only with an API key", async (t) => {
  const dir = project(t);
  const started: Array<[string, string]> = [];
  const rt = (key: string | undefined) => ({
    env: { CLAUDE_PROJECT_DIR: dir, ...(key ? { ANTHROPIC_API_KEY: key } : {}) },
    startFallback: (config: string, trace: string) => started.push([config, trace]),
  });
  const h = (event: HookEvent, input: Payload, key?: string) =>
    handleHookInput(event, JSON.stringify({ ...input, cwd: dir }), rt(key));
  await h("UserPromptSubmit", payload("UserPromptSubmit"));
  for (const id of ["f1", "f2"]) {
    await h("PreToolUse", payload("PreToolUse.mcp-project", { tool_use_id: id }));
    await h("PostToolUse", payload("PostToolUse.mcp-project", { tool_use_id: id }));
  }
  await h("SessionEnd", payload("SessionEnd.other"), "sk-test");
  assert.deepEqual(started, [], "not confirmed by the user: no fallback");
  await h("UserPromptSubmit", payload("UserPromptSubmit", { prompt: "/tooldistill:distill" }));
  await h("SessionEnd", payload("SessionEnd.other"));
  assert.deepEqual(started, [], "no API key: no fallback");
  await h("SessionEnd", payload("SessionEnd.other"), "sk-test");
  assert.deepEqual(started, [[join(dir, "tooldistill.yaml"), spanTraceId(SESSION, 1)]]);
});

test("the detached fallback worker distils the span with the configured distiller and cached base tools", {
  timeout: 30_000,
}, async (t) => {
  const dir = project(
    t,
    "mcp_config: .mcp.json\nmin_calls_to_distill: 2\ndistiller: ./distiller.ts#DISTILLER\n",
  );
  const code = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "echo_once",
  description: "Echo a text once.",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  async run({ text }: { text: string }) {
    return call("base__base_echo", { text });
  },
});
`;
  writeFileSync(
    join(dir, "distiller.ts"),
    `export const DISTILLER = { async distill() { return { code: ${JSON.stringify(code)}, test_inputs: [{ text: "from the project server" }] }; } };\n`,
  );
  const store = openStore(t, dir);
  await store.setMeta(
    BASE_TOOLS_META_KEY,
    JSON.stringify([
      {
        name: "base__base_echo",
        description: "Echo.",
        input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
    ]),
  );
  await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit"));
  for (const id of ["e1", "e2"]) {
    await hook(dir, "PreToolUse", payload("PreToolUse.mcp-project", { tool_use_id: id }));
    await hook(dir, "PostToolUse", payload("PostToolUse.mcp-project", { tool_use_id: id }));
  }
  await hook(dir, "UserPromptSubmit", payload("UserPromptSubmit", { prompt: "/tooldistill:distill" }));
  const r = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      [join(HOOKS, "fallback.ts"), join(dir, "tooldistill.yaml"), spanTraceId(SESSION, 1)],
      { stdio: "inherit" },
    );
    child.on("close", resolve);
  });
  assert.equal(r, 0);
  const v = await store.getVersion("echo_once", 1);
  assert.deepEqual([v?.status, v?.sourceTrace, v?.baseline], ["verified", spanTraceId(SESSION, 1), 2]);
});
