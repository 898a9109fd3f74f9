/**
 * The plugin's `td` MCP server through an in-memory MCP client: the proposal's source trace found through
 * `_meta["claudecode/toolUseId"]`, distilled tools run and recorded on the hook's row, list_changed on every change
 * of the exposed set (its own, and the CLI's in another store handle).
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { spanPrefix, spanTraceId } from "../claude-code/session.ts";
import { PROPOSE_TOOL_NAME, silentLogger, ToolDistill } from "../core/index.ts";
import type { ToolDef } from "../core/types.ts";
import { handleHookInput } from "../hooks/run.ts";
import { createTdServer } from "../server/td-server.ts";
import { REFUND_TOOL, SOURCE_RUN, supportWorld } from "./fakes/support-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const FIXTURES = fileURLToPath(new URL("fixtures/mcp/", import.meta.url));

const SESSION = "11111111-2222-3333-4444-555555555555";
const TOOLS: ToolDef[] = [
  {
    name: "crm__find_contact",
    description: "Find a contact.",
    input_schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
  {
    name: "crm__add_note",
    description: "Add a note.",
    input_schema: {
      type: "object",
      properties: { contact_id: { type: "string" }, text: { type: "string" } },
      required: ["contact_id", "text"],
    },
  },
];
const CONTACTS: Record<string, string> = {
  "Grace Hopper": "c-2",
  "Alan Turing": "c-3",
  "Ada Lovelace": "c-4",
};
let broken = false;
let notes = 0;
/** Every base call the executor ran. */
let executed = 0;
function executor(name: string, args: Record<string, unknown>): unknown {
  executed += 1;
  if (name === "crm__find_contact") {
    const id = CONTACTS[String(args["name"])];
    if (!id) throw new Error(`no contact named ${String(args["name"])}`);
    return { id, name: args["name"] };
  }
  if (broken) throw new Error("add_note refused the note: the contact is archived");
  return { note_id: `n-${++notes}`, contact_id: args["contact_id"], text: args["text"] };
}

const TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "note_for_contact",
  description: "Add a note to a contact found by name.",
  inputSchema: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] },
  async run({ name, text }: { name: string; text: string }) {
    const contact = await call("crm__find_contact", { name });
    return call("crm__add_note", { contact_id: contact.id, text });
  },
});
`;

const P = "mcp__plugin_tooldistill_td__";

test("td: propose via the hook-recorded tool_use_id, list_changed on promote and on a runtime failure", {
  timeout: 60_000,
}, async (t) => {
  const dir = tempDir(t, "td-server-");
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    "min_calls_to_distill: 3\nfallback_distiller: false\nmcpServers:\n  crm: { type: stdio, command: node, args: [crm.js] }\n",
  );
  const rt = { env: { CLAUDE_PROJECT_DIR: dir } };
  const h = (event: Parameters<typeof handleHookInput>[0], input: Record<string, unknown>) =>
    handleHookInput(event, JSON.stringify({ session_id: SESSION, cwd: dir, ...input }), rt);
  const claudeCall = async (id: string, tool: string, input: Record<string, unknown>) => {
    await h("PreToolUse", { tool_name: tool, tool_input: input, tool_use_id: id });
    try {
      const out = executor(tool.replace(/^mcp__/, ""), input);
      await h("PostToolUse", {
        tool_name: tool,
        tool_input: input,
        tool_use_id: id,
        tool_response: [{ type: "text", text: JSON.stringify(out) }],
      });
    } catch (err) {
      await h("PostToolUseFailure", {
        tool_name: tool,
        tool_input: input,
        tool_use_id: id,
        error: (err as Error).message,
      });
    }
  };

  // The server serves in-process tools here (the end-to-end test runs it against real MCP servers).
  const td = createTdServer({
    projectDir: dir,
    logger: { info() {}, warn() {}, error() {} },
    pollMs: 100,
    overrides: { executor, tools: TOOLS },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await td.server.connect(serverSide);
  const client = new Client({ name: "claude-code", version: "2.1.197" });
  const changes: number[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changes.push(Date.now());
  });
  await client.connect(clientSide);
  t.after(async () => {
    await client.close();
    await td.close();
  });
  assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: true });
  assert.deepEqual(
    (await client.listTools()).tools.map((x) => x.name),
    ["propose_distilled_tool"],
  );

  await h("UserPromptSubmit", { prompt: "Add a note 'call back' to Grace Hopper" });
  await claudeCall("u1", "mcp__crm__find_contact", { name: "Grace" });
  await claudeCall("u2", "mcp__crm__find_contact", { name: "Hopper" });
  await claudeCall("u3", "mcp__crm__find_contact", { name: "Grace Hopper" });
  await claudeCall("u4", "mcp__crm__add_note", { contact_id: "c-2", text: "call back" });
  await h("UserPromptSubmit", { prompt: "/tooldistill:distill" });

  const proposal = { code: TOOL, test_inputs: [{ name: "Grace Hopper", text: "call back" }] };
  await h("PreToolUse", { tool_name: `${P}propose_distilled_tool`, tool_input: proposal, tool_use_id: "u5" });
  const verdict = await client.callTool({
    name: "propose_distilled_tool",
    arguments: proposal,
    _meta: { "claudecode/toolUseId": "u5" },
  });
  const verdictText = (verdict.content as Array<{ text: string }>)[0]?.text ?? "";
  assert.equal(verdict.isError, false, verdictText);
  assert.match(verdictText, /^verified: note_for_contact v1\n2 base calls; limit 2\.8 \(baseline 4 × 0\.7\)/);

  const cli = new ToolDistill({ store: join(dir, ".tooldistill"), tools: TOOLS });
  t.after(() => cli.close());
  const span = spanTraceId(SESSION, 1);
  const proposals = (await sqliteOf(cli).getCalls(span)).filter((c) => c.kind === "proposal");
  assert.equal(proposals.length, 1, "the proposal was recorded twice");
  assert.equal(proposals[0]?.status, "ok");
  assert.equal((await sqliteOf(cli).getVersion("note_for_contact", 1))?.sourceTrace, span);

  // `tooldistill promote` in another process: announced within the polling interval (the spec allows 5 s).
  const before = changes.length;
  const promotedAt = Date.now();
  await cli.promote("note_for_contact");
  while (changes.length === before && Date.now() - promotedAt < 5000)
    await new Promise((r) => setTimeout(r, 20));
  assert.ok(changes.length > before, "no list_changed within 5 s of a promote in another process");
  // Distilled tools are loaded upfront where Claude Code defers MCP tools (2.1.332); the proposal tool is not.
  assert.deepEqual(
    (await client.listTools()).tools.map((x) => [x.name, x._meta?.["anthropic/alwaysLoad"] ?? null]),
    [
      ["propose_distilled_tool", null],
      ["note_for_contact", true],
    ],
  );

  // A new span calls the distilled tool: the hook's row is completed, inner calls are recorded under it.
  await h("UserPromptSubmit", { prompt: "Add a note to Alan Turing" });
  const input = { name: "Alan Turing", text: "send slides" };
  await h("PreToolUse", { tool_name: `${P}note_for_contact`, tool_input: input, tool_use_id: "u6" });
  const ok = await client.callTool({
    name: "note_for_contact",
    arguments: input,
    _meta: { "claudecode/toolUseId": "u6" },
  });
  assert.equal(ok.isError, false);
  assert.deepEqual(JSON.parse((ok.content as Array<{ text: string }>)[0]?.text ?? ""), {
    note_id: "n-2",
    contact_id: "c-3",
    text: "send slides",
  });
  const span2 = await sqliteOf(cli).getCalls(spanTraceId(SESSION, 2));
  assert.deepEqual(
    span2.map((c) => [
      c.seq,
      c.tool,
      c.kind,
      c.status,
      c.parentId === null ? null : span2.find((p) => p.id === c.parentId)?.tool,
    ]),
    [
      [1, "note_for_contact", "distilled", "ok", null],
      [2, "crm__find_contact", "base", "ok", "note_for_contact"],
      [3, "crm__add_note", "base", "ok", "note_for_contact"],
    ],
  );

  // A runtime failure: list_changed is sent before the failed result returns, and the tool leaves the list.
  broken = true;
  await h("PreToolUse", { tool_name: `${P}note_for_contact`, tool_input: input, tool_use_id: "u7" });
  const beforeFail = changes.length;
  let announcedFirst = false;
  const failed = await client
    .callTool({ name: "note_for_contact", arguments: input, _meta: { "claudecode/toolUseId": "u7" } })
    .then((r) => {
      announcedFirst = changes.length > beforeFail;
      return r;
    });
  assert.equal(failed.isError, true);
  assert.match(
    (failed.content as Array<{ text: string }>)[0]?.text ?? "",
    /^Distilled tool 'note_for_contact' \(v1\) failed at step 2 of 2\.\nBase tool: crm__add_note\nError: add_note refused the note/,
  );
  assert.ok(announcedFirst, "list_changed did not arrive before the failed result");
  assert.deepEqual(
    (await client.listTools()).tools.map((x) => x.name),
    ["propose_distilled_tool"],
  );
  assert.deepEqual((await sqliteOf(cli).getVersion("note_for_contact", 1))?.problems, ["runtime_failure"]);
  // Claude Code 2.1.332 keeps a tool loaded from the session's start in `tools` after it left the list: a call of
  // the disabled tool gets why, and runs nothing.
  const runsBefore = (await sqliteOf(cli).getCalls(spanTraceId(SESSION, 2))).length;
  const disabled = await client.callTool({ name: "note_for_contact", arguments: input });
  assert.equal(disabled.isError, true);
  assert.match((disabled.content as Array<{ text: string }>)[0]?.text ?? "", /is disabled: v1 is suspect/);
  assert.equal(
    (await sqliteOf(cli).getCalls(spanTraceId(SESSION, 2))).length,
    runsBefore,
    "the disabled tool ran",
  );
  // Claude Code runs the base tools itself: one called through td by name is refused, and runs nothing.
  const executedBefore = executed;
  const base = await client.callTool({ name: "crm__find_contact", arguments: { name: "Grace Hopper" } });
  assert.equal(base.isError, true);
  assert.equal(
    (base.content as Array<{ text: string }>)[0]?.text,
    "Error: there is no distilled tool 'crm__find_contact' in this project; complete the task with the base tools",
  );
  assert.equal(executed, executedBefore, "a base tool ran through td");

  // Another session reuses tool-use id u6 (a fake API numbers per session): the server completes that session's
  // row, never the finished one of the first session.
  broken = false;
  const user = new ToolDistill({ store: join(dir, ".tooldistill"), tools: TOOLS, executor });
  t.after(() => user.close());
  // The failure was at crm__add_note, which may write: a live pass that answers it from the record proves nothing.
  const reads = await user.verify("note_for_contact", { version: 1, live: true });
  assert.equal(reads.status, "suspect", "the failed write did not run live");
  // With consent to writes, on a fresh input: crm__find_contact is not declared read-only, so even a lookup a
  // recorded run made is not sent twice.
  const live = await user.verify("note_for_contact", {
    version: 1,
    live: true,
    allowWrites: true,
    input: { name: "Ada Lovelace", text: "send slides" },
  });
  assert.equal(live.status, "active", "verify --live --allow-writes clears the runtime failure");
  // Claude Code calls only what the server lists: the server hears the other process's change by the change feed.
  const back = Date.now();
  while (
    !(await client.listTools()).tools.some((x) => x.name === "note_for_contact") &&
    Date.now() - back < 15_000
  )
    await new Promise((r) => setTimeout(r, 20));
  const second = "99999999-2222-3333-4444-555555555555";
  const firstSessionBefore = await sqliteOf(cli).getCalls(spanTraceId(SESSION, 2));
  await handleHookInput(
    "UserPromptSubmit",
    JSON.stringify({ session_id: second, cwd: dir, prompt: "Add a note to Grace" }),
    rt,
  );
  await handleHookInput(
    "PreToolUse",
    JSON.stringify({
      session_id: second,
      cwd: dir,
      tool_name: `${P}note_for_contact`,
      tool_input: input,
      tool_use_id: "u6",
    }),
    rt,
  );
  const again = await client.callTool({
    name: "note_for_contact",
    arguments: input,
    _meta: { "claudecode/toolUseId": "u6" },
  });
  assert.equal(again.isError, false, JSON.stringify(again.content));
  const secondCalls = await sqliteOf(cli).getCalls(spanTraceId(second, 1));
  assert.deepEqual(
    secondCalls.map((c) => [c.tool, c.kind, c.status]),
    [
      ["note_for_contact", "distilled", "ok"],
      ["crm__find_contact", "base", "ok"],
      ["crm__add_note", "base", "ok"],
    ],
  );
  assert.deepEqual(
    await sqliteOf(cli).getCalls(spanTraceId(SESSION, 2)),
    firstSessionBefore,
    "the first session's span is untouched",
  );
  broken = true;
  await cli.deprecate("note_for_contact", { version: 1 });
  // Once the server has heard it (Claude Code re-lists on list_changed), a call of it is refused.
  const gone_ = Date.now();
  while (
    (await client.listTools()).tools.some((x) => x.name === "note_for_contact") &&
    Date.now() - gone_ < 15_000
  )
    await new Promise((r) => setTimeout(r, 20));

  // A call of a tool that is no longer exposed is refused without running anything; the hook's row of it is
  // completed as a call that was not made (kind other: never a run of the tool, never a base call).
  await h("PreToolUse", { tool_name: `${P}note_for_contact`, tool_input: input, tool_use_id: "u8" });
  const gone = await client.callTool({
    name: "note_for_contact",
    arguments: input,
    _meta: { "claudecode/toolUseId": "u8" },
  });
  assert.equal(gone.isError, true);
  assert.match(
    (gone.content as Array<{ text: string }>)[0]?.text ?? "",
    /^Error: the distilled tool 'note_for_contact' was taken out of use: v1 is deprecated \(deprecated by the user\)\. Complete the task with the base tools\.$/,
  );
  const refusedRow = await sqliteOf(cli).getCallByExternalId("u8", spanPrefix(SESSION));
  assert.deepEqual(
    [refusedRow?.traceId, refusedRow?.tool, refusedRow?.kind, refusedRow?.status],
    [spanTraceId(SESSION, 2), "note_for_contact", "other", "error"],
  );
  assert.equal(
    (await sqliteOf(cli).getCalls(spanTraceId(SESSION, 2))).filter((c) => c.parentId === refusedRow?.id)
      .length,
    0,
  );
});

test("td lists the store's distilled tools while its base servers are still connecting (the library is not open yet)", {
  timeout: 60_000,
}, async (t) => {
  const dir = tempDir(t, "td-early-");
  const pidDir = join(dir, "pids");
  mkdirSync(pidDir);
  // A base server that never answers initialize: the library cannot open while it starts (30 s).
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    `fallback_distiller: false\nmcpServers:\n  stuck:\n    command: ${process.execPath}\n    args: [${JSON.stringify(join(FIXTURES, "hang-server.ts"))}]\n    env: { FIXTURE_PID_DIR: ${JSON.stringify(pidDir)} }\n`,
  );
  const world = supportWorld();
  const lib = new ToolDistill({
    store: join(dir, ".tooldistill"),
    tools: world.tools,
    executor: world.executor,
    logger: silentLogger,
    fallbackDistiller: false,
  });
  const trace = lib.startTrace("Refund ACME");
  for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
  trace.setOutcome({ success: true });
  const proposed = await trace.execute(PROPOSE_TOOL_NAME, {
    code: REFUND_TOOL,
    test_inputs: [{ customer: "ACME" }],
  });
  assert.equal(proposed.isError, false, proposed.content);
  await lib.promote("refund_ticket");
  await lib.close();

  const td = createTdServer({ projectDir: dir, logger: silentLogger });
  t.after(() => {
    for (const pid of td.pids()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });
  let ready = false;
  void td.ready.then(() => {
    ready = true;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await td.server.connect(serverSide);
  const client = new Client({ name: "claude-code", version: "2.1.332" });
  await client.connect(clientSide);
  const listed = await client.listTools();
  assert.equal(ready, false, "the library opened: this list proves nothing about the early one");
  assert.deepEqual(
    listed.tools.map((x) => [x.name, x._meta?.["anthropic/alwaysLoad"] ?? null]),
    [
      ["propose_distilled_tool", null],
      ["refund_ticket", true],
    ],
  );
  await client.close();
  await td.close();
  assert.equal(ready, true);
});
