/**
 * Model tokens of a Claude Code session, read from its transcript (`transcript_path`, given to every hook): JSONL,
 * one line per entry, each assistant entry with the API's `message.usage`. A span's tokens are the usage of the
 * assistant messages written while it was the session's current span, so the hooks read the lines added since the
 * last read just before the span can change (an ordinary prompt), after each tool call, and at the session's end
 * (which Claude Code may cut short as it exits), and add them to the current span's trace. Where the last read
 * stopped is kept in the store, so every line counts once.
 *
 * Claude Code writes one line per content block of a response (thinking, text, each tool_use), every one with the
 * same `message.id` and the response's usage: a message counts once, with the usage of its last line.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { isPlainObject, type RegistryData, type UsageTotals } from "../core/recording.ts";
import { parseTranscript, type TranscriptEntry } from "./transcript.ts";

/** Where the last read of a session's transcript stopped: a byte offset after a whole line, and the last message. */
export interface TranscriptCursor {
  path: string;
  offset: number;
  lastMessage: string | null;
}

/** What one read of the transcript found: the usage of the messages after the cursor, and the cursor after them. */
export interface TranscriptUsageRead {
  usage: UsageTotals;
  messages: number;
  cursor: TranscriptCursor;
}

/** The meta key of a session's transcript cursor. */
export function cursorKey(sessionId: string): string {
  return `tooldistill.transcript:${sessionId}`;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * Reads the whole lines of the transcript after `cursor` (from the start when the cursor is for another file) and
 * sums the usage of their assistant messages. A line still being written (no newline yet) is left for the next
 * read; a line that is not JSON is skipped. A missing file reads as nothing new.
 */
export function readTranscriptUsage(path: string, cursor: TranscriptCursor | null): TranscriptUsageRead {
  const from = cursor && cursor.path === path ? cursor.offset : 0;
  const last = cursor && cursor.path === path ? cursor.lastMessage : null;
  const usage: UsageTotals = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return { usage, messages: 0, cursor: { path, offset: from, lastMessage: last } };
  }
  // A transcript that shrank was replaced: read the new one from its start.
  const start = size < from ? 0 : from;
  const buf = Buffer.alloc(size - start);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buf, 0, buf.length, start);
  } finally {
    closeSync(fd);
  }
  const end = buf.lastIndexOf(0x0a) + 1;
  const byMessage = new Map<string, UsageTotals>();
  let lastMessage = size < from ? null : last;
  let anonymous = 0;
  // Only whole lines: one still being written is read next time. Lines that are not JSON are skipped there.
  for (const value of parseTranscript(buf.subarray(0, end).toString("utf8")).entries) {
    const entry = usageOf(value);
    if (!entry) continue;
    const key = entry.id ?? `#${start}:${anonymous++}`;
    // The read before this one counted that message already (its lines straddled the two reads).
    if (key === last && !byMessage.has(key)) continue;
    byMessage.set(key, entry.usage);
    lastMessage = key;
  }
  for (const u of byMessage.values()) {
    usage.input_tokens += u.input_tokens;
    usage.output_tokens += u.output_tokens;
    usage.cache_creation_input_tokens += u.cache_creation_input_tokens;
    usage.cache_read_input_tokens += u.cache_read_input_tokens;
  }
  return { usage, messages: byMessage.size, cursor: { path, offset: start + end, lastMessage } };
}

/** An assistant entry's message id and usage, or null for any other entry. */
function usageOf(value: TranscriptEntry): { id: string | null; usage: UsageTotals } | null {
  if (value["type"] !== "assistant" || !isPlainObject(value["message"])) return null;
  const message = value["message"];
  const u = message["usage"];
  if (!isPlainObject(u)) return null;
  const id = typeof message["id"] === "string" ? message["id"] : null;
  return {
    id,
    usage: {
      input_tokens: num(u["input_tokens"]),
      output_tokens: num(u["output_tokens"]),
      cache_creation_input_tokens: num(u["cache_creation_input_tokens"]),
      cache_read_input_tokens: num(u["cache_read_input_tokens"]),
    },
  };
}

/**
 * Adds the transcript's usage since the last read to `traceId` and moves the session's cursor, in the caller's
 * transaction (so a hook that fails leaves both as they were). Returns the usage added.
 */
export async function recordTranscriptUsage(
  tx: RegistryData,
  sessionId: string,
  traceId: string,
  path: string,
): Promise<UsageTotals> {
  const key = cursorKey(sessionId);
  const stored = await tx.getMeta(key);
  const read = readTranscriptUsage(path, stored === null ? null : (JSON.parse(stored) as TranscriptCursor));
  if (read.messages > 0) await tx.addUsage(traceId, read.usage);
  await tx.setMeta(key, JSON.stringify(read.cursor));
  return read.usage;
}
