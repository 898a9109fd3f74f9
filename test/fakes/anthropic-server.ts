/**
 * A fake Anthropic Messages API on 127.0.0.1: the real SDK (and Claude Code, which streams) talk to it through
 * `baseURL`, and every request lands in `received` so tests can assert what was sent.
 */

import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One content block the fake model answers with; a tool_use without `id` gets a generated one. */
export type FakeBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id?: string; name: string; input: unknown };

/** A fake model's answer. `stop_reason` defaults to `tool_use` when a tool is called, else `end_turn`. */
export interface FakeMessage {
  content: FakeBlock[];
  stop_reason?: string;
  usage?: Partial<Record<string, number>>;
}

/** An API error answer, sent as `{ type: "error", error }` with the given HTTP status. */
export interface FakeError {
  status: number;
  error: { type: string; message: string };
}

/** What a handler returns for one request. */
export type FakeReply = FakeMessage | FakeError;

/** A request as the handler sees it; `path` tells /v1/messages from anything else. */
export interface FakeRequest {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary request fields
  body: any;
  headers: IncomingHttpHeaders;
  path: string;
}

/** A running fake: its base URL (pass as `baseURL`), the requests it got, and a way to stop it. */
export interface FakeAnthropic {
  url: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary request fields
  received: Array<{ body: any; headers: any; path: string }>;
  close(): Promise<void>;
}

/**
 * Starts the fake on a random port. `POST …/messages` goes to `handler` (JSON, or SSE when the body has
 * `stream: true`); `POST …/count_tokens` answers a rough count; `HEAD /` answers 200 for reachability probes.
 */
export async function startFakeAnthropic(
  handler: (request: FakeRequest) => FakeReply | Promise<FakeReply>,
): Promise<FakeAnthropic> {
  const received: FakeAnthropic["received"] = [];
  let counter = 0;

  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "HEAD" || (req.method === "GET" && path === "/")) {
      res.writeHead(200).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      sendError(res, { status: 400, error: { type: "invalid_request_error", message: "body is not JSON" } });
      return;
    }
    received.push({ body, headers: req.headers, path });

    if (req.method !== "POST") {
      sendError(res, { status: 404, error: { type: "not_found_error", message: `${req.method} ${path}` } });
      return;
    }
    if (path.endsWith("/count_tokens")) {
      sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
      return;
    }
    if (!path.endsWith("/messages")) {
      sendError(res, { status: 404, error: { type: "not_found_error", message: `no route ${path}` } });
      return;
    }

    let reply: FakeReply;
    try {
      reply = await handler({ body, headers: req.headers, path });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      sendError(res, {
        status: 500,
        error: { type: "api_error", message: `fake handler threw: ${message}` },
      });
      return;
    }
    if ("error" in reply) {
      sendError(res, reply);
      return;
    }
    counter++;
    const message = toMessage(reply, counter, typeof body?.model === "string" ? body.model : "fake-model");
    if (body?.stream === true) sendStream(res, message);
    else sendJson(res, 200, message);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The SDK's fetch keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

interface WireMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: Array<
    { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown }
  >;
  stop_reason: string;
  stop_sequence: null;
  usage: Record<string, number>;
}

function toMessage(reply: FakeMessage, n: number, model: string): WireMessage {
  let tools = 0;
  const content = reply.content.map((b) =>
    b.type === "tool_use"
      ? { type: "tool_use" as const, id: b.id ?? `toolu_fake_${n}_${++tools}`, name: b.name, input: b.input }
      : { type: "text" as const, text: b.text },
  );
  const usage: Record<string, number> = {
    input_tokens: 100,
    output_tokens: 50,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  for (const [k, v] of Object.entries(reply.usage ?? {})) if (typeof v === "number") usage[k] = v;
  return {
    id: `msg_fake_${n}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: reply.stop_reason ?? (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn"),
    stop_sequence: null,
    usage,
  };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${Date.now()}` });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, reply: FakeError): void {
  sendJson(res, reply.status, { type: "error", error: reply.error });
}

/** The event sequence of the real streaming API, with text and tool input split over several deltas. */
function sendStream(res: ServerResponse, message: WireMessage): void {
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
