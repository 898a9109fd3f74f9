/**
 * A fake Anthropic Messages API on 127.0.0.1: the real SDK (and Claude Code, which streams) talk to it through
 * `baseURL`, and every request lands in `received` so tests can assert what was sent.
 */

import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sendError, sendJson, sendStream, type WireMessage } from "../../examples/shared/messages-wire.ts";

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
      sendError(res, 400, "invalid_request_error", "body is not JSON");
      return;
    }
    received.push({ body, headers: req.headers, path });

    if (req.method !== "POST") {
      sendError(res, 404, "not_found_error", `${req.method} ${path}`);
      return;
    }
    if (path.endsWith("/count_tokens")) {
      sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
      return;
    }
    if (!path.endsWith("/messages")) {
      sendError(res, 404, "not_found_error", `no route ${path}`);
      return;
    }

    let reply: FakeReply;
    try {
      reply = await handler({ body, headers: req.headers, path });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      sendError(res, 500, "api_error", `fake handler threw: ${message}`);
      return;
    }
    if ("error" in reply) {
      sendFakeError(res, reply);
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

function sendFakeError(res: ServerResponse, reply: FakeError): void {
  sendError(res, reply.status, reply.error.type, reply.error.message);
}
