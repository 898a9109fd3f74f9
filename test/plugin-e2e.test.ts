/**
 * End to end with the real Claude Code binaries, the newest supported release (the devDependency) and the oldest
 * (`claude-code-oldest`), headless and offline: a fake Messages API on 127.0.0.1 scripts the model's turns, and
 * searches for a tool with ToolSearch first when the release lists it as deferred, as a real model does. The
 * plugin is installed from this repository's marketplace into a temporary HOME, and the project serves a fake CRM
 * over MCP stdio. Session 1 wanders over the base tools (12 calls), the user runs /tooldistill:distill, the model
 * proposes (once wrong, then right) and the library verifies; after `tooldistill promote`, session 2 is offered
 * the distilled tool upfront and calls it without searching; session 3 breaks a base tool, falls back, and a call
 * of the demoted tool never runs. The CRM's tools declare an outputSchema and return structuredContent, so Claude
 * Code hands the hooks the JSON text of each result: replay must still see objects. A second test runs
 * plugin-dev/ (the checkout's sources) with `claude --plugin-dir`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { SqliteRegistryStore } from "../core/internal.ts";
import {
  deferredNames,
  type FakeReply,
  type FakeRequest,
  loadedNames,
  searchingModel,
  startFakeAnthropic,
} from "./fakes/anthropic-server.ts";
import { cli, tempDir } from "./helpers.ts";
import {
  CLAUDE_RELEASES,
  claude,
  claudeEnv,
  type Json,
  lastUser,
  offered,
  requestsAfterResult,
  resultOf,
  session,
  toolUsesSent,
  upfront,
} from "./support/claude-code.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
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

const use = (id: string, name: string, input: unknown): FakeReply => ({
  content: [{ type: "tool_use", id, name, input }],
});
const say = (text: string): FakeReply => ({ content: [{ type: "text", text }] });

/** Session 1's wandering: 12 base calls (three failures) before the note is added. */
const SESSION_1: Array<[string, Record<string, unknown>]> = [
  ["find_contact", { name: "Grace" }],
  ["find_contact", { name: "Hopper" }],
  ["list_contacts", {}],
  ["list_contacts", { page: 2 }],
  ["find_contact", { name: "Ada Lovelace" }],
  ["find_contact", { name: "Alan Turing" }],
  ["list_contacts", { page: 1 }],
  ["find_contact", { name: "grace hopper" }],
  ["list_contacts", { page: 2 }],
  ["find_contact", { name: "Grace Hopper" }],
  ["find_contact", { name: "Grace Hopper" }],
  ["add_note", { contact_id: "c-2", text: "call back" }],
];
const SESSION_1_CALLS = SESSION_1.map(([tool, args]) => [
  `crm__${tool}`,
  tool === "find_contact" && !["Ada Lovelace", "Alan Turing", "Grace Hopper"].includes(args["name"] as string)
    ? "error"
    : "ok",
]);

/** The scripted model: each reply follows from the last user turn (a prompt, or the result of a known tool use). */
function model(request: FakeRequest): FakeReply {
  const tools: Json[] = request.body?.tools ?? [];
  // Claude Code's side requests (titles, summaries) carry no tools of the session.
  if (
    !tools.some((t) => typeof t.name === "string" && (t.name.startsWith("mcp__") || t.name === "ToolSearch"))
  )
    return say("ok");
  const { text, toolResults } = lastUser(request.body);
  const after = toolResults.at(-1)?.id;
  const steps: Record<string, FakeReply> = {
    p_1: use("p_2", `${PREFIX}propose_distilled_tool`, {
      code: TOOL,
      test_inputs: [{ name: "Grace Hopper", text: "call back" }],
    }),
    p_2: say("The tool note_for_contact is verified."),
    s2_1: say("Added the note to Alan Turing."),
    s3_1: use("s3_2", "mcp__crm__find_contact", { name: "Ada Lovelace" }),
    s3_2: use("s3_3", `${PREFIX}note_for_contact`, { name: "Ada Lovelace", text: "ping" }),
    s3_3: say("The notes service is down; I found the contact but could not add the note."),
  };
  SESSION_1.forEach((_, i) => {
    const next = SESSION_1[i + 1];
    steps[`s1_${i}`] = next ? use(`s1_${i + 1}`, `mcp__crm__${next[0]}`, next[1]) : say("Added the note.");
  });
  // Waiting for a tool promoted mid-session: a short Bash sleep until the tool is in the request, upfront or
  // deferred (at most 40 times; the test then fails on the missing tool).
  const waiting =
    after?.startsWith("w_") === true || (after === undefined && text.includes("Wait for the new tool"));
  if (waiting) {
    const arrived =
      offered(request.body).includes(`${PREFIX}note_for_contact`) ||
      deferredNames(request.body).has(`${PREFIX}note_for_contact`);
    const n = after === undefined ? 0 : Number(after.slice(2)) + 1;
    if (arrived || n >= 40) return say(arrived ? "The new tool arrived." : "The new tool never arrived.");
    return use(`w_${n}`, "Bash", { command: "sleep 0.5", description: "wait" });
  }
  if (after !== undefined) return steps[after] ?? say("unexpected tool result");
  if (text.includes("/tooldistill:distill")) {
    return use("p_1", `${PREFIX}propose_distilled_tool`, {
      code: WRONG_TOOL,
      test_inputs: [{ name: "Grace Hopper", text: "call back" }],
    });
  }
  const [tool, args] = SESSION_1[0] as [string, Record<string, unknown>];
  if (text.includes("to Grace Hopper")) return use("s1_0", `mcp__crm__${tool}`, args);
  if (text.includes("to Alan Turing"))
    return use("s2_1", `${PREFIX}note_for_contact`, { name: "Alan Turing", text: "send slides" });
  if (text.includes("to Ada Lovelace"))
    return use("s3_1", `${PREFIX}note_for_contact`, { name: "Ada Lovelace", text: "ping" });
  return say("nothing scripted for this prompt");
}

/** A project with the CRM as its MCP server and tooldistill.yaml, and a HOME that trusts project servers. */
function setUp(t: import("node:test").TestContext, name: string): { home: string; project: string } {
  const home = tempDir(t, `td-e2e-${name}-home-`);
  const project = tempDir(t, `td-e2e-${name}-project-`);
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
  return { home, project };
}

for (const release of CLAUDE_RELEASES) {
  test(`Claude Code ${release.version} (${release.label}): recorded, distilled on /tooldistill:distill, the verified tool reused in one call`, {
    timeout: 300_000,
  }, async (t) => {
    const { home, project } = setUp(t, release.label);
    const fake = searchingModel(model);
    const api = await startFakeAnthropic(fake.handler);
    t.after(() => api.close());
    const env = claudeEnv(home, api);
    const CLAUDE = release.bin;

    claude(CLAUDE, ["plugin", "marketplace", "add", ROOT], env, project);
    claude(CLAUDE, ["plugin", "install", "tooldistill@tooldistill"], env, project);

    // Session 1: trial and error over the base tools, then the user's confirmation and the proposal exchange.
    const s1 = await session(CLAUDE, project, env, [
      "Add a note 'call back' to Grace Hopper",
      "/tooldistill:distill looks good",
    ]);
    const init1 = s1.find((e) => e.type === "system" && e.subtype === "init");
    assert.ok(init1, "no init event");
    assert.ok(init1.tools.includes(`${PREFIX}propose_distilled_tool`), `tools: ${init1.tools}`);
    const sessionId1: string = init1.session_id;
    const hookErrors = s1.filter((e) => e.subtype === "hook_response" && (e.exit_code !== 0 || e.stderr));
    assert.deepEqual(hookErrors, [], "hooks reported errors");
    // The base tools are deferred on the newest release: the model searched for them (and for the proposal tool).
    if (release.defers) {
      const first = api.received.find((r) => lastUser(r.body).text.includes("to Grace Hopper"));
      assert.ok(!upfront(first?.body).some((n) => n.startsWith("mcp__")), `upfront: ${upfront(first?.body)}`);
      assert.ok(fake.searches.includes("mcp__crm__find_contact"), `searches: ${fake.searches}`);
      assert.ok(fake.searches.includes(`${PREFIX}propose_distilled_tool`), `searches: ${fake.searches}`);
    } else {
      assert.deepEqual(fake.searches, []);
    }

    // The model was told what to distill: the recorded base calls in library names, and the proposal tool.
    const distillRequest = api.received.find((r) =>
      JSON.stringify(r.body).includes("the user ran /tooldistill:distill"),
    );
    assert.ok(distillRequest, "the distill context never reached the model");
    const seen = JSON.stringify(distillRequest.body);
    assert.match(seen, /crm__find_contact \{\\"name\\":\\"Grace\\"\} → error: no contact named Grace/);
    assert.match(seen, /This task took 12 base tool calls/);
    // The first proposal is rejected with the static check's message, the second verified.
    const rejected = resultOf(api, "p_1");
    assert.equal(rejected?.isError, true);
    assert.match(rejected?.text ?? "", /^rejected: note_for_contact v1: static check failed/);
    assert.match(
      rejected?.text ?? "",
      /crm__find_contct' — no such base tool \(did you mean 'crm__find_contact'\?\)/,
    );
    const verified = resultOf(api, "p_2");
    assert.equal(verified?.isError, false);
    // The rejected attempt used up no version number.
    assert.match(verified?.text ?? "", /^verified: note_for_contact v1/);

    const storeDir = join(project, ".tooldistill");
    {
      const store = SqliteRegistryStore.open(storeDir);
      t.after(() => store.close());
      const trace = await store.getTrace(`${sessionId1}.1`);
      assert.ok(trace, "no trace for session 1, span 1");
      assert.equal(trace.task, "Add a note 'call back' to Grace Hopper");
      assert.equal(trace.outcome, true);
      assert.equal(trace.source, "claude-code");
      const calls = await store.getCalls(trace.id);
      // Every base call once, in order; ToolSearch is no step of the task and is not recorded.
      assert.deepEqual(
        calls.map((c) => [c.tool, c.kind, c.status]),
        [
          ...SESSION_1_CALLS.map(([tool, status]) => [tool, "base", status]),
          ["propose_distilled_tool", "proposal", "ok"],
          ["propose_distilled_tool", "proposal", "ok"],
        ],
      );
      // Schema defaults are applied to recorded arguments (list_contacts has page: default 1).
      assert.deepEqual(calls[2]?.args, { page: 1 });
      // Claude Code sent structuredContent as JSON text; the recorded value is the object a live call returns.
      assert.deepEqual(calls[9]?.output, { id: "c-2", name: "Grace Hopper", company: "Navy" });
      assert.equal((calls[2]?.output as { next_page?: number } | undefined)?.next_page, 2);
      assert.equal(await store.countTopLevelBaseCalls(trace.id), 12);
      assert.deepEqual(
        (await store.listVersions({ name: "note_for_contact" })).map((v) => [
          v.version,
          v.status,
          v.sourceTrace,
          v.baseline,
        ]),
        [[1, "verified", trace.id, 12]],
      );
    }

    // The user promotes it from a terminal while a session runs: the td server announces list_changed, and the
    // tool reaches a later request of that session.
    let promoted: ReturnType<typeof spawnSync> | undefined;
    await session(CLAUDE, project, env, ["Hello", "Wait for the new tool"], {
      onResult: (n) => {
        if (n === 1)
          promoted = spawnSync(
            process.execPath,
            [join(ROOT, "bin", "tooldistill.js"), "promote", "note_for_contact"],
            { cwd: project, encoding: "utf8" },
          );
      },
    });
    assert.equal(promoted?.status, 0, String(promoted?.stderr));
    const waited = api.received.filter((r) =>
      JSON.stringify(r.body?.messages ?? []).includes("Wait for the new tool"),
    );
    const arrival = waited.find(
      (r) =>
        offered(r.body).includes(`${PREFIX}note_for_contact`) ||
        deferredNames(r.body).has(`${PREFIX}note_for_contact`),
    );
    assert.ok(arrival, "the tool promoted mid-session never reached the model");
    // Measured: 2.1.197 sends the tool in `tools`; 2.1.332 sends it with `defer_loading` and, because of its
    // alwaysLoad, a `tool_addition` block ("just became available and are ready to use"): no search needed.
    const arrivedAs = upfront(arrival.body).includes(`${PREFIX}note_for_contact`)
      ? "upfront"
      : loadedNames(arrival.body).has(`${PREFIX}note_for_contact`)
        ? "ready"
        : "deferred";
    assert.equal(arrivedAs, release.defers ? "ready" : "upfront", `after list_changed on ${release.version}`);
    if (release.defers)
      assert.match(JSON.stringify(arrival.body.messages), /just became available and are ready to use/);

    // Session 2 is offered the tool upfront and calls it without searching.
    const searchesBefore = fake.searches.length;
    const s2 = await session(CLAUDE, project, env, ["Add a note 'send slides' to Alan Turing"]);
    const init2 = s2.find((e) => e.type === "system" && e.subtype === "init");
    const sessionId2: string = init2.session_id;
    // The newest release: in the session's first request, not deferred (alwaysLoad). The oldest may send its first
    // request before the plugin's server connected (the model then waits): the request that called it had it.
    const session2 = api.received.filter((r) =>
      JSON.stringify(r.body?.messages ?? []).includes("to Alan Turing"),
    );
    const firstOf2 = release.defers
      ? session2.find((r) => offered(r.body).length > 0)
      : session2.find((r) => offered(r.body).includes(`${PREFIX}propose_distilled_tool`));
    assert.ok(
      upfront(firstOf2?.body).includes(`${PREFIX}note_for_contact`),
      `session 2's first request did not carry the distilled tool upfront: ${offered(firstOf2?.body)}; MCP servers at init: ${JSON.stringify(init2?.mcp_servers)}; td tools per request: ${JSON.stringify(session2.map((r) => offered(r.body).filter((n) => n.startsWith(PREFIX))))}`,
    );
    assert.deepEqual(fake.searches.slice(searchesBefore), [], "the model had to search in session 2");
    const reuse = resultOf(api, "s2_1");
    assert.equal(reuse?.isError, false, reuse?.text);
    assert.deepEqual(JSON.parse(reuse?.text ?? "null"), {
      note_id: "n-1",
      contact_id: "c-3",
      text: "send slides",
    });
    {
      const store = SqliteRegistryStore.open(storeDir);
      t.after(() => store.close());
      const calls = await store.getCalls(`${sessionId2}.1`);
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
      assert.equal((await store.getRunStats("note_for_contact", 1)).successes, 1);
    }

    // Session 3: the notes service refuses every note (a refusal, not an outage). The structured error comes back,
    // the version (one successful run, under demotion.probation) is demoted; the model falls back to the base
    // tools, then tries the demoted tool once more: that call never runs it.
    const s3 = await session(CLAUDE, project, claudeEnv(home, api, { CRM_BREAK_ADD_NOTE: "1" }), [
      "Add a note 'ping' to Ada Lovelace",
    ]);
    const sessionId3: string = s3.find((e) => e.type === "system" && e.subtype === "init").session_id;
    const failure = resultOf(api, "s3_1");
    assert.equal(failure?.isError, true);
    assert.match(
      failure?.text ?? "",
      /^Distilled tool 'note_for_contact' \(v1\) failed at step 2 of 2\.\nBase tool: crm__add_note\nError: add_note refused the note/,
    );
    const afterFallback = requestsAfterResult(api, "s3_2");
    assert.ok(afterFallback.length > 0);
    // Measured: 2.1.197 drops the demoted tool from the next request; 2.1.332 keeps a tool that was upfront
    // from the session's start in `tools` after the server removed it (and announces nothing).
    assert.equal(
      offered(afterFallback.at(-1)).includes(`${PREFIX}note_for_contact`),
      release.defers,
      `tools after the demotion: ${offered(afterFallback.at(-1))}`,
    );
    const again = resultOf(api, "s3_3");
    assert.equal(again?.isError, true, again?.text);
    {
      const store = SqliteRegistryStore.open(storeDir);
      t.after(() => store.close());
      const v = await store.getVersion("note_for_contact", 1);
      assert.deepEqual([v?.status, v?.problems], ["suspect", ["runtime_failure"]]);
      const calls = await store.getCalls(`${sessionId3}.1`);
      assert.deepEqual(
        calls
          // Later calls of the demoted tool are left out: refused by Claude Code, or by td (a call not made, kind other).
          .filter(
            (c) =>
              c.tool !== "note_for_contact" || c.status !== "error" || c.parentId !== null || c.seq === 1,
          )
          .map((c) => [c.tool, c.kind, c.status, c.parentId === null ? "top" : "inner"]),
        [
          ["note_for_contact", "distilled", "error", "top"],
          ["crm__find_contact", "base", "ok", "inner"],
          ["crm__add_note", "base", "error", "inner"],
          ["crm__find_contact", "base", "ok", "top"],
        ],
      );
      // The second call of the demoted tool ran nothing: no base call under it, one distilled run in the stats.
      assert.equal(calls.filter((c) => c.parentId !== null).length, 2);
      assert.equal((await store.getRunStats("note_for_contact", 1)).failures, 1);
    }
    assert.ok(toolUsesSent(api).length > 0);

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
}

/**
 * A copy of plugin/ whose tool hooks match only Bash: Claude Code never reports an MCP call to them, as on the
 * releases where hooks did not fire for MCP tools. The trace must come from the transcript alone.
 */
function pluginWithoutMcpHooks(t: import("node:test").TestContext): string {
  const dir = join(tempDir(t, "td-e2e-nohooks-plugin-"), "plugin");
  cpSync(join(ROOT, "plugin"), dir, { recursive: true });
  const file = join(dir, "hooks", "hooks.json");
  const hooks = JSON.parse(readFileSync(file, "utf8")) as {
    hooks: Record<string, Array<{ matcher?: string }>>;
  };
  for (const entries of Object.values(hooks.hooks))
    for (const entry of entries) if (entry.matcher !== undefined) entry.matcher = "Bash";
  writeFileSync(file, JSON.stringify(hooks, null, 2));
  return dir;
}

for (const release of CLAUDE_RELEASES) {
  test(`Claude Code ${release.version} (${release.label}): with no tool hook firing for MCP tools, the transcript yields the complete trace`, {
    timeout: 240_000,
  }, async (t) => {
    const { home, project } = setUp(t, `nohooks-${release.label}`);
    const fake = searchingModel(model);
    const api = await startFakeAnthropic(fake.handler);
    t.after(() => api.close());
    const events = await session(
      release.bin,
      project,
      claudeEnv(home, api),
      ["Add a note 'call back' to Grace Hopper", "/tooldistill:distill looks good"],
      { args: ["--plugin-dir", pluginWithoutMcpHooks(t)] },
    );
    const init = events.find((e) => e.type === "system" && e.subtype === "init");
    assert.ok(init, "no init event");
    const ran = new Set(
      events.filter((e) => e.subtype === "hook_response").map((e) => e.hook_event as string),
    );
    assert.ok(!ran.has("PreToolUse") && !ran.has("PostToolUse"), `tool hooks ran: ${[...ran]}`);
    assert.ok(ran.has("Stop") && ran.has("UserPromptSubmit"), `hooks that ran: ${[...ran]}`);
    const hookErrors = events.filter((e) => e.subtype === "hook_response" && (e.exit_code !== 0 || e.stderr));
    assert.deepEqual(hookErrors, [], "hooks reported errors");
    // /tooldistill:distill read the trace filled in from the transcript: all 12 calls, in order.
    const seen = JSON.stringify(
      api.received.find((r) => JSON.stringify(r.body).includes("the user ran /tooldistill:distill"))?.body,
    );
    assert.match(seen, /This task took 12 base tool calls/);
    assert.match(seen, /1\. crm__find_contact \{\\"name\\":\\"Grace\\"\} → error: no contact named Grace/);
    const verified = resultOf(api, "p_2");
    assert.match(verified?.text ?? "", /^verified: note_for_contact v1/, verified?.text);
    const store = SqliteRegistryStore.open(join(project, ".tooldistill"), { readOnly: true });
    t.after(() => store.close());
    const calls = await store.getCalls(`${init.session_id}.1`);
    assert.deepEqual(
      calls.filter((c) => c.kind === "base").map((c) => [c.tool, c.status]),
      SESSION_1_CALLS,
    );
    assert.deepEqual(calls[9]?.output, { id: "c-2", name: "Grace Hopper", company: "Navy" });
    assert.deepEqual(calls[2]?.args, { page: 1 });
    // The proposals (recorded by the plugin's server) come after the base calls, each once.
    assert.deepEqual(
      calls.slice(12).map((c) => [c.tool, c.kind]),
      [
        ["propose_distilled_tool", "proposal"],
        ["propose_distilled_tool", "proposal"],
      ],
    );
  });
}

test("plugin-dev/ (this checkout's sources) records, distils and verifies in a real Claude Code session", {
  timeout: 240_000,
}, async (t) => {
  const { home, project } = setUp(t, "dev");
  const fake = searchingModel(model);
  const api = await startFakeAnthropic(fake.handler);
  t.after(() => api.close());
  const [newest] = CLAUDE_RELEASES;
  const events = await session(
    newest!.bin,
    project,
    claudeEnv(home, api),
    ["Add a note 'call back' to Grace Hopper", "/tooldistill:distill looks good"],
    { args: ["--plugin-dir", join(ROOT, "plugin-dev")], timeoutMs: 200_000 },
  );
  const init = events.find((e) => e.type === "system" && e.subtype === "init");
  assert.ok(init, "no init event");
  assert.deepEqual(
    // 2.1.332 also lists its built-in plugins (path "builtin").
    (init.plugins as Array<{ name: string; path: string }>)
      .filter((p) => p.path !== "builtin")
      .map((p) => [p.name, p.path]),
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
    "Stop",
  ]) {
    assert.ok(
      ran.includes(hook),
      `the ${hook} hook of plugin-dev did not run (ran: ${[...new Set(ran)].join(", ")})`,
    );
  }
  const hookErrors = events.filter((e) => e.subtype === "hook_response" && (e.exit_code !== 0 || e.stderr));
  assert.deepEqual(hookErrors, [], "hooks reported errors");
  const verified = resultOf(api, "p_2");
  assert.equal(verified?.isError, false, verified?.text);
  assert.match(verified?.text ?? "", /^verified: note_for_contact v1/);
  const store = SqliteRegistryStore.open(join(project, ".tooldistill"), { readOnly: true });
  t.after(() => store.close());
  const trace = await store.getTrace(`${init.session_id}.1`);
  assert.equal(trace?.outcome, true);
  // The span's tokens come from the session transcript: the fake API answers every response with 100 in, 50 out.
  // SessionEnd's hook may still be writing when the claude process has exited: wait for it.
  let tokens = trace!.usage;
  for (let i = 0; i < 150 && tokens.input_tokens === 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    tokens = (await store.getTrace(trace!.id))!.usage;
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
  const calls = await store.getCalls(trace!.id);
  assert.deepEqual(
    calls.filter((c) => c.kind === "base").map((c) => [c.tool, c.status]),
    SESSION_1_CALLS,
  );
  assert.deepEqual(calls[9]?.output, { id: "c-2", name: "Grace Hopper", company: "Navy" });
  assert.deepEqual(
    (await store.listVersions({ name: "note_for_contact" })).map((v) => [v.version, v.status]),
    [[1, "verified"]],
  );
});
