/**
 * Claude Code sessions' tokens: read from the transcript by the real hook runner, attributed to the span that was
 * current when each assistant message was written, each message once however many lines it spans.
 */
import assert from "node:assert/strict";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import { sessionEvent } from "../claude-code/hook-events.ts";
import { applySessionEvent } from "../claude-code/session-events.ts";
import { readTranscriptUsage } from "../claude-code/transcript-usage.ts";
import { runTokens } from "../core/index.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { handleHookInput } from "../hooks/run.ts";
import { cli, tempDir } from "./helpers.ts";
import { freshStore, KINDS } from "./registry-helpers.ts";

const SESSION = "5b0c1c7e-0f5e-4a39-9d5e-7d3f2b0f4c11";

/** One transcript line of an assistant message (Claude Code writes one per content block, same id and usage). */
function assistant(id: string, input: number, output: number, cacheRead = 0, cacheWrite = 0): string {
  return `${JSON.stringify({
    type: "assistant",
    sessionId: SESSION,
    message: {
      id,
      role: "assistant",
      content: [{ type: "text", text: "…" }],
      usage: {
        input_tokens: input,
        output_tokens: output,
        cache_read_input_tokens: cacheRead,
        cache_creation_input_tokens: cacheWrite,
      },
    },
  })}\n`;
}

const user = (text: string) =>
  `${JSON.stringify({ type: "user", message: { role: "user", content: text }, usage: "not an assistant" })}\n`;

test("a session's tokens go to the span each message was written in, each message once", async (t) => {
  const dir = tempDir(t, "td-transcript-");
  writeFileSync(join(dir, "tooldistill.yaml"), "min_calls_to_distill: 2\n");
  const transcript = join(dir, "session.jsonl");
  writeFileSync(transcript, "");
  const hook = (
    event: "SessionStart" | "UserPromptSubmit" | "SessionEnd",
    extra: Record<string, unknown> = {},
  ) =>
    handleHookInput(
      event,
      JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: dir, ...extra }),
      { env: { CLAUDE_PROJECT_DIR: dir } },
    );

  await hook("SessionStart");
  await hook("UserPromptSubmit", { prompt: "first task" });
  // Span 1: msg_a in two lines (thinking + tool_use), msg_b once; a line that is not JSON is skipped.
  appendFileSync(
    transcript,
    user("first task") + assistant("msg_a", 10, 5, 100, 7) + assistant("msg_a", 10, 5, 100, 7),
  );
  appendFileSync(transcript, "{not json\n" + assistant("msg_b", 20, 8));
  await hook("UserPromptSubmit", { prompt: "/tooldistill:distill" });
  // The proposal exchange belongs to span 1 too; the next ordinary prompt starts span 2.
  appendFileSync(transcript, assistant("msg_c", 3, 2));
  await hook("UserPromptSubmit", { prompt: "second task" });
  appendFileSync(transcript, assistant("msg_d", 40, 9, 50, 0));
  // A line still being written when the session ends is not counted (it has no newline yet).
  appendFileSync(transcript, assistant("msg_e", 1000, 1000).trimEnd());
  await hook("SessionEnd", { reason: "exit" });

  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  const span1 = (await store.getTrace(`${SESSION}.1`))!;
  const span2 = (await store.getTrace(`${SESSION}.2`))!;
  assert.deepEqual(span1.usage, {
    input_tokens: 33,
    output_tokens: 15,
    cache_read_input_tokens: 100,
    cache_creation_input_tokens: 7,
  });
  assert.deepEqual(span2.usage, {
    input_tokens: 40,
    output_tokens: 9,
    cache_read_input_tokens: 50,
    cache_creation_input_tokens: 0,
  });
  await store.close();

  // One definition everywhere: `traces list` and `traces show` give the same total for the same span.
  const list = await cli(dir, "traces", "list", "--json");
  const rows = JSON.parse(list.stdout) as { id: string; usage: Parameters<typeof runTokens>[0] }[];
  const row = rows.find((r) => r.id === `${SESSION}.1`)!;
  assert.equal(runTokens(row.usage), 155);
  const shown = await cli(dir, "traces", "show", `${SESSION}.1`);
  assert.match(shown.stdout, /33 input, 15 output, 7 cache write, 100 cache read/);
});

test("a message whose lines straddle two reads counts once", (t) => {
  const dir = tempDir(t, "td-transcript-");
  const path = join(dir, "t.jsonl");
  writeFileSync(path, assistant("m1", 5, 1));
  const first = readTranscriptUsage(path, null);
  assert.equal(first.usage.input_tokens, 5);
  appendFileSync(path, assistant("m1", 5, 1) + assistant("m2", 7, 1));
  const second = readTranscriptUsage(path, first.cursor);
  assert.equal(second.messages, 1);
  assert.equal(second.usage.input_tokens, 7);
  // A missing transcript (the session was never written) reads as nothing new.
  assert.equal(readTranscriptUsage(join(dir, "none.jsonl"), null).messages, 0);
});

for (const kind of KINDS) {
  test(`spilled events applied through the registry read the transcript the same way, on ${kind}`, async (t) => {
    const { store } = await freshStore(t, kind);
    const dir = tempDir(t, "td-transcript-");
    const transcript = join(dir, "session.jsonl");
    writeFileSync(transcript, "");
    const apply = (
      event: "SessionStart" | "UserPromptSubmit" | "SessionEnd",
      extra: Record<string, unknown> = {},
    ) =>
      store.transaction((tx) =>
        applySessionEvent(
          tx,
          sessionEvent(event, { session_id: SESSION, transcript_path: transcript, ...extra }),
          { baseServers: [], baseTools: [] },
        ),
      );
    await apply("SessionStart");
    await apply("UserPromptSubmit", { prompt: "first task" });
    appendFileSync(transcript, assistant("m1", 10, 2) + assistant("m1", 10, 2) + assistant("m2", 5, 1, 30));
    await apply("UserPromptSubmit", { prompt: "/tooldistill:distill" });
    await apply("UserPromptSubmit", { prompt: "second task" });
    appendFileSync(transcript, assistant("m3", 7, 3));
    await apply("SessionEnd", { reason: "other" });
    assert.deepEqual((await store.getTrace(`${SESSION}.1`))?.usage, {
      input_tokens: 15,
      output_tokens: 3,
      cache_read_input_tokens: 30,
      cache_creation_input_tokens: 0,
    });
    assert.equal((await store.getTrace(`${SESSION}.2`))?.usage.input_tokens, 7);
  });
}
