/**
 * End to end with the real Claude Code binary (the pinned devDependency), headless and offline: a fake Messages
 * API on 127.0.0.1 scripts the model's turns, the plugin is installed from this repository's marketplace into a
 * temporary HOME, and the project serves a fake CRM over MCP stdio. Session 1 wanders over the base tools, the user
 * runs /tooldistill:distill, the model proposes (once wrong, then right) and the library verifies; after
 * `tooldistill promote`, session 2 is offered the distilled tool and calls it; session 3 breaks a base tool.
 * The CRM's tools declare an outputSchema and return structuredContent, so Claude Code hands the hooks the JSON
 * text of each result: replay must still see objects. A second test runs plugin-dev/ (the checkout's sources)
 * with `claude --plugin-dir`.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Store } from "../core/store.ts";
import {
  type FakeAnthropic,
  type FakeReply,
  type FakeRequest,
  startFakeAnthropic,
} from "./fakes/anthropic-server.ts";
import { cli, tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLAUDE = join(ROOT, "node_modules", ".bin", "claude");
const CRM = join(ROOT, "test", "fixtures", "mcp", "crm-server.ts");
const PREFIX = "mcp__plugin_tooldistill_td__";

const WRONG_TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "note_for_contact",
  description: "Add a note to a CRM contact found by exact name.",
  inputSchema: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] },
  async run({ name, text }: { name: string; text: string }) {
    const contact = await call("crm__find_contct", { name });
    return call("crm__add_note", { contact_id: contact.id, text });
  },
});
`;
const TOOL = WRONG_TOOL.replace("crm__find_contct", "crm__find_contact");

// biome-ignore lint/suspicious/noExplicitAny: API request bodies are arbitrary JSON
type Body = any;

function lastUser(body: Body): {
  text: string;
  toolResults: Array<{ id: string; isError: boolean; text: string }>;
} {
  const messages: Body[] = body?.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  const content =
    typeof last?.content === "string" ? [{ type: "text", text: last.content }] : (last?.content ?? []);
  const toolResults = content
    .filter((b: Body) => b.type === "tool_result")
    .map((b: Body) => ({
      id: b.tool_use_id as string,
      isError: b.is_error === true,
      text:
        typeof b.content === "string" ? b.content : (b.content ?? []).map((c: Body) => c.text ?? "").join(""),
    }));
  const text = content
    .filter((b: Body) => b.type === "text")
    .map((b: Body) => b.text as string)
    .join("\n");
  return { text, toolResults };
}

const use = (id: string, name: string, input: unknown): FakeReply => ({
  content: [{ type: "tool_use", id, name, input }],
});
const say = (text: string): FakeReply => ({ content: [{ type: "text", text }] });

/** The scripted model: each reply follows from the last user turn (a prompt, or the result of a known tool use). */
function model(request: FakeRequest): FakeReply {
  const tools: Body[] = request.body?.tools ?? [];
  if (!tools.some((t) => typeof t.name === "string" && t.name.startsWith("mcp__"))) return say("ok");
  const { text, toolResults } = lastUser(request.body);
  const after = toolResults.at(-1)?.id;
  const steps: Record<string, FakeReply> = {
    s1_1: use("s1_2", "mcp__crm__list_contacts", {}),
    s1_2: use("s1_3", "mcp__crm__list_contacts", { page: 2 }),
    s1_3: use("s1_4", "mcp__crm__find_contact", { name: "Grace Hopper" }),
    s1_4: use("s1_5", "mcp__crm__add_note", { contact_id: "c-2", text: "call back" }),
    s1_5: say("Added the note to Grace Hopper."),
    p_1: use("p_2", `${PREFIX}propose_distilled_tool`, {
      code: TOOL,
      test_inputs: [{ name: "Grace Hopper", text: "call back" }],
    }),
    p_2: say("The tool note_for_contact is verified."),
    s2_1: say("Added the note to Alan Turing."),
    s3_1: use("s3_2", "mcp__crm__find_contact", { name: "Ada Lovelace" }),
    s3_2: say("The notes service is down; I found the contact but could not add the note."),
  };
  if (after !== undefined) return steps[after] ?? say("unexpected tool result");
  if (text.includes("/tooldistill:distill")) {
    return use("p_1", `${PREFIX}propose_distilled_tool`, {
      code: WRONG_TOOL,
      test_inputs: [{ name: "Grace Hopper", text: "call back" }],
    });
  }
  if (text.includes("to Grace Hopper")) return use("s1_1", "mcp__crm__find_contact", { name: "Grace" });
  if (text.includes("to Alan Turing"))
    return use("s2_1", `${PREFIX}note_for_contact`, { name: "Alan Turing", text: "send slides" });
  if (text.includes("to Ada Lovelace"))
    return use("s3_1", `${PREFIX}note_for_contact`, { name: "Ada Lovelace", text: "ping" });
  return say("nothing scripted for this prompt");
}

/** The environment Claude Code runs in: no inherited CLAUDE or ANTHROPIC variables, the fake API, Node 24 first on PATH. */
function claudeEnv(home: string, api: FakeAnthropic, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(CLAUDE|ANTHROPIC)/.test(k) || k.startsWith("NODE_TEST") || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return {
    ...env,
    HOME: home,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-ant-fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}),
    ...extra,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: stream-json events are arbitrary JSON
type Event = any;

/** One headless session: the prompts go in one by one on stdin (stream-json), each after the previous result. */
function session(
  cwd: string,
  env: NodeJS.ProcessEnv,
  prompts: string[],
  timeoutMs = 90_000,
  extraArgs: string[] = [],
): Promise<Event[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      CLAUDE,
      [
        "-p",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--verbose",
        "--include-hook-events",
        "--dangerously-skip-permissions",
        ...extraArgs,
      ],
      { cwd, env, stdio: ["pipe", "pipe", "pipe"] },
    );
    const events: Event[] = [];
    let buffer = "";
    let stderr = "";
    let next = 0;
    const send = () => {
      const prompt = prompts[next++];
      if (prompt === undefined) {
        child.stdin.end();
        return;
      }
      child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n`);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `claude timed out after ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}; last events: ${JSON.stringify(events.slice(-5))}`,
        ),
      );
    }, timeoutMs);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf("\n");
        if (!line) continue;
        const event = JSON.parse(line) as Event;
        events.push(event);
        if (event.type === "result") send();
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`claude exited ${code}; stderr: ${stderr.slice(-2000)}`));
      else resolve(events);
    });
    send();
  });
}

function claude(args: string[], env: NodeJS.ProcessEnv, cwd: string): string {
  const r = spawnSync(CLAUDE, args, { cwd, env, encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, `claude ${args.join(" ")}: ${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function offered(body: Body): string[] {
  return ((body?.tools ?? []) as Body[]).map((t) => t.name as string);
}

function requestsAfterResult(api: FakeAnthropic, toolUseId: string): Body[] {
  return api.received
    .filter((r) => lastUser(r.body).toolResults.some((t) => t.id === toolUseId))
    .map((r) => r.body);
}

test("a real Claude Code session is recorded, distilled on /tooldistill:distill, and reuses the verified tool", {
  timeout: 240_000,
}, async (t) => {
  const home = tempDir(t, "td-e2e-home-");
  const project = tempDir(t, "td-e2e-project-");
  const api = await startFakeAnthropic(model);
  t.after(() => api.close());
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { type: "stdio", command: process.execPath, args: [CRM] } } }),
  );
  writeFileSync(
    join(project, "tooldistill.yaml"),
    "mcp_config: .mcp.json\nmin_calls_to_distill: 4\nfallback_distiller: false\n",
  );
  const env = claudeEnv(home, api);

  claude(["plugin", "marketplace", "add", ROOT], env, project);
  claude(["plugin", "install", "tooldistill@tooldistill"], env, project);

  // Session 1: trial and error over the base tools, then the user's confirmation and the proposal exchange.
  const s1 = await session(project, env, [
    "Add a note 'call back' to Grace Hopper",
    "/tooldistill:distill looks good",
  ]);
  const init1 = s1.find((e) => e.type === "system" && e.subtype === "init");
  assert.ok(init1, "no init event");
  assert.ok(init1.tools.includes(`${PREFIX}propose_distilled_tool`), `tools: ${init1.tools}`);
  const sessionId1: string = init1.session_id;
  const hookErrors = s1.filter((e) => e.subtype === "hook_response" && (e.exit_code !== 0 || e.stderr));
  assert.deepEqual(hookErrors, [], "hooks reported errors");

  // The model was told what to distill: the recorded base calls in library names, and the proposal tool.
  const distillRequest = api.received.find((r) =>
    JSON.stringify(r.body).includes("the user ran /tooldistill:distill"),
  );
  assert.ok(distillRequest, "the distill context never reached the model");
  const seen = JSON.stringify(distillRequest.body);
  assert.match(seen, /crm__find_contact \{\\"name\\":\\"Grace\\"\} → error: no contact named Grace/);
  assert.match(seen, /This task took 5 base tool calls/);
  // The first proposal is rejected with the static check's message, the second verified.
  const [rejected] = requestsAfterResult(api, "p_1").map((b) =>
    lastUser(b).toolResults.find((x) => x.id === "p_1"),
  );
  assert.equal(rejected?.isError, true);
  assert.match(rejected?.text ?? "", /^rejected: note_for_contact v1: static check failed/);
  assert.match(
    rejected?.text ?? "",
    /crm__find_contct' — no such base tool \(did you mean 'crm__find_contact'\?\)/,
  );
  const [verified] = requestsAfterResult(api, "p_2").map((b) =>
    lastUser(b).toolResults.find((x) => x.id === "p_2"),
  );
  assert.equal(verified?.isError, false);
  // The rejected attempt used up no version number.
  assert.match(verified?.text ?? "", /^verified: note_for_contact v1/);

  const storeDir = join(project, ".tooldistill");
  {
    const store = new Store(storeDir);
    t.after(() => store.close());
    const trace = store.getTrace(`${sessionId1}.1`);
    assert.ok(trace, "no trace for session 1, span 1");
    assert.equal(trace.task, "Add a note 'call back' to Grace Hopper");
    assert.equal(trace.outcome, true);
    assert.equal(trace.source, "claude-code");
    const calls = store.getCalls(trace.id);
    assert.deepEqual(
      calls.map((c) => [c.tool, c.kind, c.status]),
      [
        ["crm__find_contact", "base", "error"],
        ["crm__list_contacts", "base", "ok"],
        ["crm__list_contacts", "base", "ok"],
        ["crm__find_contact", "base", "ok"],
        ["crm__add_note", "base", "ok"],
        ["propose_distilled_tool", "proposal", "ok"],
        ["propose_distilled_tool", "proposal", "ok"],
      ],
    );
    // Schema defaults are applied to recorded arguments (list_contacts has page: default 1).
    assert.deepEqual(calls[1]?.args, { page: 1 });
    // Claude Code sent structuredContent as JSON text; the recorded value is the object a live call returns.
    assert.deepEqual(calls[3]?.output, { id: "c-2", name: "Grace Hopper", company: "Navy" });
    assert.equal((calls[1]?.output as { next_page?: number } | undefined)?.next_page, 2);
    assert.equal(store.countTopLevelBaseCalls(trace.id), 5);
    assert.deepEqual(
      store
        .listVersions({ name: "note_for_contact" })
        .map((v) => [v.version, v.status, v.sourceTrace, v.baseline]),
      [[1, "verified", trace.id, 5]],
    );
  }

  // The user promotes it from a terminal; session 2 is offered the tool and calls it.
  const promoted = spawnSync(
    process.execPath,
    [join(ROOT, "bin", "tooldistill.js"), "promote", "note_for_contact"],
    {
      cwd: project,
      encoding: "utf8",
    },
  );
  assert.equal(promoted.status, 0, promoted.stderr);
  const s2 = await session(project, env, ["Add a note 'send slides' to Alan Turing"]);
  const init2 = s2.find((e) => e.type === "system" && e.subtype === "init");
  const sessionId2: string = init2.session_id;
  const firstOf2 = api.received.find(
    (r) => lastUser(r.body).text.includes("to Alan Turing") && offered(r.body).length > 0,
  );
  assert.ok(
    offered(firstOf2?.body).includes(`${PREFIX}note_for_contact`),
    "session 2 was not offered the distilled tool",
  );
  const [reuse] = requestsAfterResult(api, "s2_1").map((b) =>
    lastUser(b).toolResults.find((x) => x.id === "s2_1"),
  );
  assert.equal(reuse?.isError, false, reuse?.text);
  assert.deepEqual(JSON.parse(reuse?.text ?? "null"), {
    note_id: "n-1",
    contact_id: "c-3",
    text: "send slides",
  });
  {
    const store = new Store(storeDir);
    t.after(() => store.close());
    const calls = store.getCalls(`${sessionId2}.1`);
    const distilled = calls.find((c) => c.kind === "distilled");
    assert.ok(distilled, JSON.stringify(calls));
    assert.deepEqual([distilled.tool, distilled.version, distilled.status], ["note_for_contact", 1, "ok"]);
    assert.deepEqual(
      calls.filter((c) => c.parentId === distilled.id).map((c) => [c.tool, c.kind, c.status]),
      [
        ["crm__find_contact", "base", "ok"],
        ["crm__add_note", "base", "ok"],
      ],
    );
    assert.equal(calls.length, 3, "the distilled call was recorded twice");
    assert.equal(store.getRunStats("note_for_contact", 1).successes, 1);
  }

  // Session 3: the notes service refuses every note (a refusal, not an outage). The structured error comes back,
  // the version (one successful run, under demotion.probation) is demoted, and the tool is no longer offered in the
  // next request.
  const s3 = await session(project, claudeEnv(home, api, { CRM_BREAK_ADD_NOTE: "1" }), [
    "Add a note 'ping' to Ada Lovelace",
  ]);
  const sessionId3: string = s3.find((e) => e.type === "system" && e.subtype === "init").session_id;
  const [failure] = requestsAfterResult(api, "s3_1").map((b) =>
    lastUser(b).toolResults.find((x) => x.id === "s3_1"),
  );
  assert.equal(failure?.isError, true);
  assert.match(
    failure?.text ?? "",
    /^Distilled tool 'note_for_contact' \(v1\) failed at step 2 of 2\.\nBase tool: crm__add_note\nError: add_note refused the note/,
  );
  const afterFallback = requestsAfterResult(api, "s3_2");
  assert.ok(afterFallback.length > 0);
  assert.ok(
    !offered(afterFallback.at(-1)).includes(`${PREFIX}note_for_contact`),
    "the demoted tool is still offered",
  );
  {
    const store = new Store(storeDir);
    t.after(() => store.close());
    const v = store.getVersion("note_for_contact", 1);
    assert.deepEqual([v?.status, v?.problems], ["suspect", ["runtime_failure"]]);
    const calls = store.getCalls(`${sessionId3}.1`);
    assert.deepEqual(
      calls.map((c) => [c.tool, c.kind, c.status, c.parentId === null ? "top" : "inner"]),
      [
        ["note_for_contact", "distilled", "error", "top"],
        ["crm__find_contact", "base", "ok", "inner"],
        ["crm__add_note", "base", "error", "inner"],
        ["crm__find_contact", "base", "ok", "top"],
      ],
    );
  }

  // Every session is over: no td server (nor a base server it started) of this project is left running.
  const leftovers = () =>
    readdirSync("/proc")
      .filter((pid) => /^\d+$/.test(pid))
      .filter((pid) => {
        try {
          const env = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          return (
            env.includes(`CLAUDE_PROJECT_DIR=${project}`) &&
            !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")
          );
        } catch {
          return false;
        }
      });
  const deadline = Date.now() + 10_000;
  while (leftovers().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(leftovers(), [], "processes of the project outlived their session");
});

test("plugin-dev/ (this checkout's sources) records, distils and verifies in a real Claude Code session", {
  timeout: 240_000,
}, async (t) => {
  const home = tempDir(t, "td-e2e-dev-home-");
  const project = tempDir(t, "td-e2e-dev-project-");
  const api = await startFakeAnthropic(model);
  t.after(() => api.close());
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { type: "stdio", command: process.execPath, args: [CRM] } } }),
  );
  writeFileSync(
    join(project, "tooldistill.yaml"),
    "mcp_config: .mcp.json\nmin_calls_to_distill: 4\nfallback_distiller: false\n",
  );
  const events = await session(
    project,
    claudeEnv(home, api),
    ["Add a note 'call back' to Grace Hopper", "/tooldistill:distill looks good"],
    120_000,
    ["--plugin-dir", join(ROOT, "plugin-dev")],
  );
  const init = events.find((e) => e.type === "system" && e.subtype === "init");
  assert.ok(init, "no init event");
  assert.deepEqual(
    (init.plugins as Array<{ name: string; path: string }>).map((p) => [p.name, p.path]),
    [["tooldistill", join(ROOT, "plugin-dev")]],
  );
  assert.ok(init.tools.includes(`${PREFIX}propose_distilled_tool`), `tools: ${init.tools}`);
  const ran = events.filter((e) => e.subtype === "hook_response").map((e) => e.hook_event as string);
  for (const hook of [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
  ]) {
    assert.ok(
      ran.includes(hook),
      `the ${hook} hook of plugin-dev did not run (ran: ${[...new Set(ran)].join(", ")})`,
    );
  }
  const hookErrors = events.filter((e) => e.subtype === "hook_response" && (e.exit_code !== 0 || e.stderr));
  assert.deepEqual(hookErrors, [], "hooks reported errors");
  const [verified] = requestsAfterResult(api, "p_2").map((b) =>
    lastUser(b).toolResults.find((x) => x.id === "p_2"),
  );
  assert.equal(verified?.isError, false, verified?.text);
  // The rejected attempt used up no version number.
  assert.match(verified?.text ?? "", /^verified: note_for_contact v1/);
  const store = new Store(join(project, ".tooldistill"), { readOnly: true });
  t.after(() => store.close());
  const trace = store.getTrace(`${init.session_id}.1`);
  assert.equal(trace?.outcome, true);
  // The span's tokens come from the session transcript: the fake API answers every response with 100 in, 50 out.
  // SessionEnd's hook may still be writing when the claude process has exited: wait for it.
  let tokens = trace!.usage;
  for (let i = 0; i < 150 && tokens.input_tokens === 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    tokens = store.getTrace(trace!.id)!.usage;
  }
  assert.ok(
    tokens.input_tokens >= 100 && tokens.input_tokens % 100 === 0,
    `input tokens: ${tokens.input_tokens}`,
  );
  assert.equal(tokens.output_tokens * 2, tokens.input_tokens);
  const listed = JSON.parse((await cli(project, "traces", "list", "--json")).stdout) as {
    id: string;
    tokens: number;
  }[];
  const report = JSON.parse((await cli(project, "report", "--json")).stdout) as {
    overall: { tokens: { total: number } };
  };
  const total = tokens.input_tokens + tokens.output_tokens;
  assert.equal(listed.find((x) => x.id === trace!.id)?.tokens, total, "traces list counts the same tokens");
  assert.equal(
    report.overall.tokens.total,
    listed.reduce((n, x) => n + x.tokens, 0),
    "and so does the report",
  );
  const calls = store.getCalls(trace!.id);
  assert.deepEqual(
    calls.filter((c) => c.kind === "base").map((c) => [c.tool, c.status]),
    [
      ["crm__find_contact", "error"],
      ["crm__list_contacts", "ok"],
      ["crm__list_contacts", "ok"],
      ["crm__find_contact", "ok"],
      ["crm__add_note", "ok"],
    ],
  );
  // structuredContent arrived as JSON text and was recorded as the object the live call returns.
  assert.deepEqual(calls[3]?.output, { id: "c-2", name: "Grace Hopper", company: "Navy" });
  assert.deepEqual(
    store.listVersions({ name: "note_for_contact" }).map((v) => [v.version, v.status]),
    [[1, "verified"]],
  );
});
