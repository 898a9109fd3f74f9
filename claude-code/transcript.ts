/**
 * Claude Code's session transcript (`transcript_path` in every hook payload): one JSON object a line, the
 * conversation's `user` and `assistant` entries among many bookkeeping ones (attachments, queue operations,
 * request shapes, costs). The reader returns every entry parsed and leaves meaning to its callers: the tool calls
 * the hooks may have missed are read here; token `usage` sits on the assistant entries (`message.usage`) for
 * whoever reads it. Same shape on 2.1.197 and 2.1.332 (see test/fixtures/claude-code-payloads/2.1.332/).
 */
import { readFileSync } from "node:fs";
import { isPlainObject } from "../core/recording.ts";

/** One line of a transcript, parsed: `type` is what it is (`user`, `assistant`, `attachment`, …). */
export interface TranscriptEntry {
  type: string;
  [field: string]: unknown;
}

/** A transcript read: its entries in order, and how many lines were not JSON objects (a line being written). */
export interface Transcript {
  entries: TranscriptEntry[];
  skipped: number;
}

/**
 * Reads a transcript file. A line that is not a JSON object is counted and skipped: Claude Code appends while
 * hooks read, so the last line may be half written. A missing file throws (the caller logs it).
 */
export function readTranscript(path: string): Transcript {
  return parseTranscript(readFileSync(path, "utf8"));
}

/** Parses a transcript's text (see readTranscript). */
export function parseTranscript(text: string): Transcript {
  const entries: TranscriptEntry[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isPlainObject(value) && typeof value["type"] === "string") entries.push(value as TranscriptEntry);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { entries, skipped };
}

/** A tool call as the transcript shows it: the assistant's `tool_use` block and, once it came, its result. */
export interface TranscriptToolCall {
  toolUseId: string;
  toolName: string;
  input: unknown;
  /**
   * The user entry's `tool_result`: its content (a string or content blocks), whether it is an error, and the MCP
   * result's `structuredContent` when Claude Code kept it (`mcpMeta`). Null while the call has no result yet.
   */
  result: { content: unknown; isError: boolean; structuredContent?: unknown } | null;
}

function blocks(entry: TranscriptEntry): Record<string, unknown>[] {
  const message = entry["message"];
  if (!isPlainObject(message) || !Array.isArray(message["content"])) return [];
  return message["content"].filter(isPlainObject);
}

/**
 * The tool calls of the main conversation, in the order the model made them. Subagent (sidechain) entries are
 * left out: their calls are the subagent's, not the session's. A tool_use id seen twice (a resumed session
 * repeats history) counts once.
 */
export function transcriptToolCalls(entries: readonly TranscriptEntry[]): TranscriptToolCall[] {
  const calls = new Map<string, TranscriptToolCall>();
  for (const entry of entries) {
    if (entry["isSidechain"] === true) continue;
    if (entry.type === "assistant") {
      for (const b of blocks(entry)) {
        if (b["type"] !== "tool_use" || typeof b["id"] !== "string" || typeof b["name"] !== "string")
          continue;
        if (!calls.has(b["id"]))
          calls.set(b["id"], { toolUseId: b["id"], toolName: b["name"], input: b["input"], result: null });
      }
    } else if (entry.type === "user") {
      const meta = entry["mcpMeta"];
      for (const b of blocks(entry)) {
        if (b["type"] !== "tool_result" || typeof b["tool_use_id"] !== "string") continue;
        const call = calls.get(b["tool_use_id"]);
        if (!call || call.result !== null) continue;
        call.result = {
          content: b["content"] ?? null,
          isError: b["is_error"] === true,
          ...(isPlainObject(meta) && meta["structuredContent"] !== undefined
            ? { structuredContent: meta["structuredContent"] }
            : {}),
        };
      }
    }
  }
  return [...calls.values()];
}
