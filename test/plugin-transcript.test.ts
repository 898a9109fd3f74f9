/**
 * The transcript reader and the reconciliation of a trace with it, fed the payloads and the transcript Claude Code
 * 2.1.332 wrote (test/fixtures/claude-code-payloads/2.1.332/): calls the tool hooks missed are filled in at
 * their place, exactly once; calls both saw are not recorded twice; ToolSearch is no call of the task; both
 * releases' hook payload shapes (with and without `mcp_server`) record the same rows.
 */
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseTranscript, readTranscript, transcriptToolCalls } from "../claude-code/transcript.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { type HookEvent, handleHookInput } from "../hooks/run.ts";
import { tempDir } from "./helpers.ts";

const NEW = fileURLToPath(new URL("./fixtures/claude-code-payloads/2.1.332/", import.meta.url));
const SESSION = "392d96bd-6d42-42f9-b3d2-1a93320b2045";

// biome-ignore lint/suspicious/noExplicitAny: payloads are arbitrary JSON
type Payload = Record<string, any>;

function payload(name: string, patch: Payload = {}): Payload {
  return { ...(JSON.parse(readFileSync(join(NEW, `hook.${name}.json`), "utf8")) as Payload), ...patch };
}

/** A project whose .mcp.json has the server `crm` of the fixtures, with the fixture transcript copied in. */
function project(t: import("node:test").TestContext): { dir: string; transcript: string } {
  const dir = tempDir(t, "td-transcript-");
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { type: "stdio", command: "node", args: ["crm.js"] } } }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\nmin_calls_to_distill: 2\n");
  const transcript = join(dir, "transcript.jsonl");
  copyFileSync(join(NEW, "transcript.jsonl"), transcript);
  return { dir, transcript };
}

async function hook(dir: string, transcript: string, event: HookEvent, input: Payload) {
  return handleHookInput(event, JSON.stringify({ ...input, cwd: dir, transcript_path: transcript }), {
    env: { CLAUDE_PROJECT_DIR: dir },
  });
}

async function baseRows(t: import("node:test").TestContext, dir: string) {
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { readOnly: true });
  t.after(() => store.close());
  return (await store.getCalls(`${SESSION}.1`)).map((c) => [c.tool, c.kind, c.status, c.output ?? c.error]);
}

const FULL_TRACE = [
  ["crm__find_contact", "base", "error", "no contact named Grace"],
  ["crm__find_contact", "base", "ok", { id: "c-2", name: "Grace Hopper", company: "Navy" }],
  ["crm__add_note", "base", "ok", { note_id: "n-1", contact_id: "c-2", text: "x" }],
];

test("the reader returns every entry parsed; tool calls in order with their results; usage is on assistant entries", () => {
  const { entries, skipped } = readTranscript(join(NEW, "transcript.jsonl"));
  assert.equal(skipped, 0);
  assert.ok(entries.every((e) => typeof e.type === "string"));
  const calls = transcriptToolCalls(entries);
  assert.deepEqual(
    calls.map((c) => [c.toolUseId, c.toolName, c.result?.isError]),
    [
      ["toolu_fake_1_1", "ToolSearch", false],
      ["toolu_fake_2_1", "mcp__crm__find_contact", true],
      ["toolu_fake_3_1", "mcp__crm__find_contact", false],
      ["toolu_fake_4_1", "mcp__crm__add_note", false],
      ["toolu_fake_6_1", "ToolSearch", false],
      ["toolu_fake_7_1", "mcp__plugin_tooldistill_td__propose_distilled_tool", true],
      ["toolu_fake_8_1", "mcp__plugin_tooldistill_td__propose_distilled_tool", false],
    ],
  );
  assert.deepEqual(calls[2]?.result?.structuredContent, { id: "c-2", name: "Grace Hopper", company: "Navy" });
  // The same entries carry token usage, for whoever reports it.
  const usage = entries
    .filter((e) => e.type === "assistant")
    .map((e) => (e["message"] as { usage?: { input_tokens?: number } }).usage?.input_tokens);
  assert.ok(usage.length > 0 && usage.every((n) => typeof n === "number"), JSON.stringify(usage));
  // A half-written last line (Claude Code appends while hooks read) is skipped, not fatal.
  const text = readFileSync(join(NEW, "transcript.jsonl"), "utf8");
  const half = parseTranscript(`${text}{"type":"assistant","message":{"content":[{"type":"tool_u`);
  assert.deepEqual([half.entries.length, half.skipped], [entries.length, 1]);
});

test("with no tool hook firing, /tooldistill:distill reads the span's base calls filled in from the transcript", async (t) => {
  const { dir, transcript } = project(t);
  await hook(dir, transcript, "SessionStart", payload("SessionStart.startup"));
  await hook(dir, transcript, "UserPromptSubmit", payload("UserPromptSubmit"));
  const out = await hook(dir, transcript, "UserPromptSubmit", payload("UserPromptSubmit.slash_command"));
  const context = out?.hookSpecificOutput?.additionalContext ?? "";
  assert.match(context, /This task took 3 base tool calls/);
  assert.match(context, /1\. crm__find_contact \{"name":"Grace"\} → error: no contact named Grace/);
  assert.match(context, /3\. crm__add_note/);
  assert.match(
    context,
    /load it first with ToolSearch, query "select:mcp__plugin_tooldistill_td__propose_distilled_tool"/,
  );
  assert.deepEqual(await baseRows(t, dir), FULL_TRACE);
});

test("calls the hooks saw are kept, missed ones go in at their place, exactly once, and ToolSearch is never recorded", async (t) => {
  const { dir, transcript } = project(t);
  // The transcript grows as the session goes: empty at the first prompt, the whole conversation at Stop.
  writeFileSync(transcript, "");
  await hook(dir, transcript, "SessionStart", payload("SessionStart.startup"));
  await hook(dir, transcript, "UserPromptSubmit", payload("UserPromptSubmit"));
  // The hooks saw ToolSearch and, with 2.1.332's payloads (mcp_server), the last call.
  await hook(dir, transcript, "PreToolUse", payload("PreToolUse.ToolSearch"));
  await hook(dir, transcript, "PostToolUse", payload("PostToolUse.ToolSearch"));
  // The second find_contact: PreToolUse fired (2.1.197's shape, no mcp_server), its PostToolUse never came.
  const { mcp_server: _, ...old } = payload("PreToolUse.mcp-project", {
    tool_use_id: "toolu_fake_3_1",
    tool_input: { name: "Grace Hopper" },
  });
  await hook(dir, transcript, "PreToolUse", old);
  const addNote = {
    tool_name: "mcp__crm__add_note",
    tool_use_id: "toolu_fake_4_1",
    tool_input: { contact_id: "c-2", text: "x" },
  };
  await hook(dir, transcript, "PreToolUse", payload("PreToolUse.mcp-project", addNote));
  await hook(
    dir,
    transcript,
    "PostToolUse",
    payload("PostToolUse.mcp-structured", {
      ...addNote,
      tool_response: '{"note_id":"n-1","contact_id":"c-2","text":"x"}',
    }),
  );
  copyFileSync(join(NEW, "transcript.jsonl"), transcript);
  await hook(dir, transcript, "Stop", payload("Stop"));
  assert.deepEqual(await baseRows(t, dir), FULL_TRACE);
  // Again at the distill command and at SessionEnd: nothing changes.
  await hook(dir, transcript, "UserPromptSubmit", payload("UserPromptSubmit.slash_command"));
  await hook(dir, transcript, "Stop", payload("Stop"));
  await hook(dir, transcript, "SessionEnd", payload("SessionEnd.other"));
  assert.deepEqual(await baseRows(t, dir), FULL_TRACE);
  const log = readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8");
  assert.match(log, /Stop: from the transcript: 1 base call\(s\) the hooks missed added, 1 completed/);
});

test("an unreadable transcript is logged and the hooks' own records stand", async (t) => {
  const { dir } = project(t);
  const missing = join(dir, "no-such-transcript.jsonl");
  await hook(dir, missing, "SessionStart", payload("SessionStart.startup"));
  await hook(dir, missing, "UserPromptSubmit", payload("UserPromptSubmit"));
  await hook(dir, missing, "PreToolUse", payload("PreToolUse.mcp-project"));
  await hook(dir, missing, "PostToolUseFailure", payload("PostToolUseFailure.mcp-project"));
  await hook(dir, missing, "Stop", payload("Stop"));
  assert.deepEqual(await baseRows(t, dir), [FULL_TRACE[0]]);
  assert.match(
    readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8"),
    /the transcript .*no-such-transcript\.jsonl could not be read/,
  );
});

test("every 2.1.332 hook payload is accepted as 2.1.197's are: nothing logged as a problem", async (t) => {
  const { dir, transcript } = project(t);
  const order = [
    "SessionStart.startup",
    "UserPromptSubmit",
    "PreToolUse.ToolSearch",
    "PostToolUse.ToolSearch",
    "PreToolUse.mcp-project",
    "PostToolUseFailure.mcp-project",
    "PostToolUse.mcp-structured",
    "Stop",
    "UserPromptSubmit.slash_command",
    "UserPromptExpansion.slash_command",
    "PreToolUse.mcp-plugin",
    "PostToolUseFailure.mcp-plugin",
    "PostToolUse.mcp-plugin",
    "SessionEnd.other",
  ];
  for (const name of order) {
    const event = name.split(".")[0] as HookEvent;
    const out = await hook(dir, transcript, event, payload(name));
    if (name === "UserPromptSubmit.slash_command")
      assert.match(out?.hookSpecificOutput?.additionalContext ?? "", /the user ran \/tooldistill:distill/);
  }
  const log = readFileSync(join(dir, ".tooldistill", "hooks.log"), "utf8");
  assert.doesNotMatch(log, /could not|no tool_name|no session_id|not JSON/, log);
  assert.deepEqual((await baseRows(t, dir)).slice(0, 3), FULL_TRACE);
});
