/**
 * The scripted model: a Messages API server on 127.0.0.1 that plays an example's turns offline. The runner
 * reaches it with the real `@anthropic-ai/sdk` client through `baseURL`, so the code path is the one a real
 * model takes. Each turn is decided by a policy from the request it receives (the conversation so far and the
 * tools offered), and its usage is estimated from the size of that request and of the answer.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { sendError, sendJson, sendStream, type WireBlock, type WireMessage } from "./messages-wire.ts";

/** One content block of a request message, as the SDK sends it. */
export interface RequestBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

/** One message of the conversation the model receives. */
export interface RequestMessage {
  role: "user" | "assistant";
  content: string | RequestBlock[];
}

/** A tool offered to the model. */
export interface OfferedTool {
  name: string;
  description?: string;
  input_schema?: Record<string, unknown>;
}

/** What the scripted model sees of one request. */
export interface ModelRequest {
  model: string;
  system?: unknown;
  messages: RequestMessage[];
  tools: OfferedTool[];
  tool_choice?: { type: string; name?: string };
}

/** One turn the policy plays: some text, then tool calls (none ends the turn). */
export interface ScriptedTurn {
  text: string;
  calls?: { name: string; input: Record<string, unknown> }[];
}

/** Decides the next turn from the request; the same policy serves the agent loop and the distiller. */
export type ScriptPolicy = (request: ModelRequest) => ScriptedTurn;

/** A running scripted model. */
export interface ScriptedModel {
  /** Pass as `baseURL` to the Anthropic client. */
  url: string;
  /** How many Messages requests it answered. */
  readonly requests: number;
  close(): Promise<void>;
}

/** What the first line of the first answer says, so nobody mistakes the offline stand-in for Claude. */
export const SCRIPTED_BANNER =
  "[scripted model] This is an offline stand-in for Claude that plays the demo's turns; set ANTHROPIC_API_KEY for a real model.";

/** Starts the scripted model on a random port of 127.0.0.1. */
export async function startScriptedModel(policy: ScriptPolicy): Promise<ScriptedModel> {
  let requests = 0;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method !== "POST") {
      res.writeHead(req.method === "HEAD" ? 200 : 404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: ModelRequest & { stream?: boolean };
    try {
      body = JSON.parse(raw);
    } catch {
      sendError(res, 400, "invalid_request_error", "body is not JSON");
      return;
    }
    if (path.endsWith("/count_tokens")) {
      sendJson(res, 200, { input_tokens: estimateTokens(raw) });
      return;
    }
    if (!path.endsWith("/messages")) {
      sendError(res, 404, "not_found_error", `no route ${path}`);
      return;
    }
    let turn: ScriptedTurn;
    try {
      turn = policy({ ...body, messages: body.messages ?? [], tools: body.tools ?? [] });
    } catch (err) {
      sendError(res, 500, "api_error", `scripted model: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    requests++;
    const text = requests === 1 ? `${SCRIPTED_BANNER}\n${turn.text}` : turn.text;
    const content: WireBlock[] = [{ type: "text", text }];
    (turn.calls ?? []).forEach((c, i) => {
      content.push({
        type: "tool_use",
        id: `toolu_scripted_${requests}_${i + 1}`,
        name: c.name,
        input: c.input,
      });
    });
    const message: WireMessage = {
      id: `msg_scripted_${requests}`,
      type: "message",
      role: "assistant",
      model: body.model ?? "scripted",
      content,
      stop_reason: turn.calls?.length ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: estimateTokens(raw),
        // A real model writes more than it shows (reasoning about the results); roughly 60 tokens a turn.
        output_tokens: estimateTokens(JSON.stringify(content)) + 60,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    };
    if (body.stream === true) sendStream(res, message);
    else sendJson(res, 200, message);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The SDK keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** About four characters a token, as for English text and JSON. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

// ---- helpers for policies ---------------------------------------------------------------------------

/** One tool call of the conversation with its result. */
export interface Step {
  name: string;
  input: Record<string, unknown>;
  /** The tool_result text; null while unanswered. */
  result: string | null;
  isError: boolean;
}

/** The conversation as a policy reads it: the task, the tool calls with their results, the last user text. */
export interface Conversation {
  task: string;
  steps: Step[];
  /** The text of the last user message when it is text (a nudge), else null (tool results). */
  lastUserText: string | null;
  offered: Map<string, OfferedTool>;
}

/** Reads a request into the shape policies reason about. */
export function readConversation(request: ModelRequest): Conversation {
  const steps: Step[] = [];
  const byId = new Map<string, Step>();
  let task = "";
  let lastUserText: string | null = null;
  request.messages.forEach((m, i) => {
    const blocks: RequestBlock[] =
      typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    const text = blocks
      .filter((b) => b.type === "text")
      .map((b) => b.text ?? "")
      .join("\n");
    if (i === 0) task = text;
    if (m.role === "assistant") {
      for (const b of blocks) {
        if (b.type !== "tool_use" || !b.name) continue;
        const step: Step = {
          name: b.name,
          input: (b.input ?? {}) as Record<string, unknown>,
          result: null,
          isError: false,
        };
        steps.push(step);
        if (b.id) byId.set(b.id, step);
      }
    } else {
      for (const b of blocks) {
        if (b.type !== "tool_result" || !b.tool_use_id) continue;
        const step = byId.get(b.tool_use_id);
        if (!step) continue;
        step.result = resultText(b.content);
        step.isError = b.is_error === true;
      }
      lastUserText = blocks.some((b) => b.type === "tool_result") ? null : text;
    }
  });
  return { task, steps, lastUserText, offered: new Map(request.tools.map((t) => [t.name, t])) };
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((c) => (typeof c?.text === "string" ? c.text : JSON.stringify(c))).join("\n");
  return JSON.stringify(content ?? null);
}

/** The parsed JSON of a successful step's result, or null. */
export function okValue<T = unknown>(step: Step | undefined): T | null {
  if (!step || step.isError || step.result === null) return null;
  try {
    return JSON.parse(step.result) as T;
  } catch {
    return null;
  }
}

/** The `input_schema` of a base tool as the distiller prompt lists it ("- name: …\n  input_schema: {…}"). */
export function schemaInPrompt(prompt: string, tool: string): Record<string, unknown> | null {
  const at = prompt.indexOf(`\n- ${tool}: `);
  if (at < 0) return null;
  const line = prompt
    .slice(at)
    .split("\n")
    .find((l) => l.trimStart().startsWith("input_schema: "));
  if (!line) return null;
  try {
    return JSON.parse(line.trim().slice("input_schema: ".length));
  } catch {
    return null;
  }
}

/** True when a schema lists `property` as required. */
export function requires(schema: Record<string, unknown> | null | undefined, property: string): boolean {
  const required = schema?.["required"];
  return Array.isArray(required) && required.includes(property);
}
