/**
 * The wire side of a fake Anthropic Messages API: the scripted demo model and the tests' fake server answer with
 * the same JSON and the same streaming event sequence, so both exercise clients (the SDK, Claude Code) alike.
 */

import type { ServerResponse } from "node:http";

/** One content block of an assistant message. */
export type WireBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/** An assistant message as the API returns it. */
export interface WireMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: WireBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: Record<string, number>;
}

/** A JSON answer with a request id, as the API sends. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${Date.now()}` });
  res.end(JSON.stringify(value));
}

/** An error answer in the API's shape. */
export function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: "error", error: { type, message } });
}

/** The event sequence of the real streaming API, with text and tool input split over several deltas. */
export function sendStream(res: ServerResponse, message: WireMessage): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const event = (type: string, data: Record<string, unknown>) => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  event("message_start", {
    message: {
      ...message,
      content: [],
      stop_reason: null,
      usage: { ...message.usage, output_tokens: 1 },
    },
  });
  event("ping", {});
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      event("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of split(block.text)) {
        event("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
      }
    } else {
      event("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      for (const piece of split(JSON.stringify(block.input ?? {}))) {
        event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
      }
    }
    event("content_block_stop", { index });
  });
  event("message_delta", {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage["output_tokens"] ?? 0 },
  });
  event("message_stop", {});
  res.end();
}

/** Three roughly equal pieces, so clients must really concatenate deltas. */
function split(text: string): string[] {
  if (text.length < 3) return [text];
  const size = Math.ceil(text.length / 3);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
