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

/** Claude Code's tool for waiting until MCP servers have connected (offered while they are still starting). */
const WAIT_TOOL = "WaitForMcpServers";

/** A scripted model wrapped by `searchingModel`: the handler, and every tool name it had to search for. */
export interface SearchingModel {
  handler: (request: FakeRequest) => FakeReply | Promise<FakeReply>;
  /** Names loaded with ToolSearch, in order (a test asserts that a tool was called without searching). */
  searches: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
type Json = any;

function texts(content: Json): string[] {
  if (typeof content === "string") return [content];
  return Array.isArray(content) ? content.map((b: Json) => (typeof b?.text === "string" ? b.text : "")) : [];
}

/**
 * The deferred tool names Claude Code told the model about: the lines of a system text (a `role: "system"` entry
 * of `messages`, or the system prompt) that lists "deferred tools", and the tools sent with `defer_loading`.
 */
export function deferredNames(body: Json): Set<string> {
  const names = new Set<string>();
  const system = [
    ...texts(body?.system),
    ...(body?.messages ?? []).filter((m: Json) => m.role === "system").flatMap((m: Json) => texts(m.content)),
    // Announcements of tools that appeared mid-session come as system reminders inside user turns.
    ...(body?.messages ?? []).filter((m: Json) => m.role === "user").flatMap((m: Json) => texts(m.content)),
  ];
  for (const text of system) {
    if (!/deferred tools/i.test(text)) continue;
    for (const line of text.split("\n")) if (/^[A-Za-z][\w-]*$/.test(line.trim())) names.add(line.trim());
  }
  for (const t of body?.tools ?? []) if (t.defer_loading === true) names.add(t.name);
  return names;
}

/**
 * Tools whose schemas the model has: sent without `defer_loading`, loaded by a ToolSearch `tool_reference`, or
 * announced ready by a `tool_addition`.
 */
export function loadedNames(body: Json): Set<string> {
  const names = new Set<string>();
  for (const t of body?.tools ?? []) if (t.defer_loading !== true) names.add(t.name);
  for (const m of body?.messages ?? [])
    if (Array.isArray(m.content))
      for (const b of m.content)
        if (b?.type === "tool_result" && Array.isArray(b.content))
          for (const c of b.content) if (c?.type === "tool_reference") names.add(c.tool_name);
  // A tool added mid-session with alwaysLoad (2.1.332): "ready to use", announced by a tool_addition block.
  for (const m of body?.messages ?? [])
    if (Array.isArray(m.content))
      for (const b of m.content)
        if (b?.type === "tool_addition" && b.tool?.type === "tool_reference") names.add(b.tool.name);
  return names;
}

/**
 * Makes a scripted model behave as a real one under Claude Code's deferral (2.1.332): when the tool it wants is
 * listed as deferred and not loaded, it first calls `ToolSearch` with `select:<name>`, then, on the search's
 * result, the tool it wanted. A tool offered upfront (or on a release that defers nothing) is called at once. A
 * tool not offered yet while Claude Code offers `WaitForMcpServers` is waited for first.
 */
export function searchingModel(
  handler: (request: FakeRequest) => FakeReply | Promise<FakeReply>,
): SearchingModel {
  const pending = new Map<string, FakeReply>();
  const searches: string[] = [];
  let n = 0;
  return {
    searches,
    async handler(request) {
      const messages: Json[] = request.body?.messages ?? [];
      const last = [...messages].reverse().find((m) => m.role === "user");
      const results = Array.isArray(last?.content)
        ? last.content
            .filter((b: Json) => b?.type === "tool_result")
            .map((b: Json) => b.tool_use_id as string)
        : [];
      const resumed = results.map((id: string) => pending.get(id)).find((r: FakeReply | undefined) => r);
      if (resumed) {
        for (const id of results) pending.delete(id);
        return resumed;
      }
      const reply = await handler(request);
      if ("error" in reply) return reply;
      const loaded = loadedNames(request.body);
      const deferred = deferredNames(request.body);
      const calls = reply.content
        .filter((b) => b.type === "tool_use")
        .map((b) => (b as { name: string }).name);
      // Claude Code 2.1.197 may send the first request while MCP servers still connect, offering a tool to wait.
      if (calls.some((name) => !loaded.has(name) && !deferred.has(name)) && loaded.has(WAIT_TOOL)) {
        const id = `toolu_wait_${++n}`;
        pending.set(id, reply);
        return { content: [{ type: "tool_use", id, name: WAIT_TOOL, input: {} }] };
      }
      const wanted = reply.content
        .filter((b) => b.type === "tool_use")
        .map((b) => (b as { name: string }).name)
        .filter((name) => !loaded.has(name) && deferred.has(name));
      if (wanted.length === 0) return reply;
      const id = `toolu_search_${++n}`;
      pending.set(id, reply);
      searches.push(...wanted);
      return {
        content: [
          {
            type: "tool_use",
            id,
            name: "ToolSearch",
            input: { query: `select:${wanted.join(",")}`, max_results: 5 },
          },
        ],
      };
    },
  };
}
