/**
 * Claude Code sessions as traces: which span of a session a hook or an MCP call belongs to, how a tool name
 * Claude Code reports maps onto the library's names, and what `/tooldistill:distill` tells the model.
 * Functions over the store only: no MCP SDK, no config, so the bundled hooks stay small.
 */

import type { CallKind, CallRecord, Store, ToolDef } from "../core/internal.ts";
import {
  applySpills,
  type Clipped,
  canonicalArgs,
  clipDepth,
  isPlainObject,
  mcpHookResponseToValue,
  nudgeText,
  PROPOSE_TOOL_NAME,
  resultContent,
  type SpillReport,
} from "../core/internal.ts";
import { advanceSpan, findSessionSpan, markSpanConfirmed, sessionSpan } from "./session-store.ts";

/** The plugin's MCP server is `td` in plugin `tooldistill`: Claude Code names its tools with this prefix. */
export const PLUGIN_TOOL_PREFIX = "mcp__plugin_tooldistill_td__";

/** The slash command (as the hooks see its name) by which the user confirms a task and asks for a tool. */
export const DISTILL_COMMAND = "tooldistill:distill";

/** Store meta key of the base tool definitions the plugin's MCP server last listed (hooks never start servers). */
export const BASE_TOOLS_META_KEY = "claude-code.base-tools";

/** A span's trace id: derived from the session id and the span number, so every process computes the same. */
export function spanTraceId(sessionId: string, span: number): string {
  return `${spanPrefix(sessionId)}${span}`;
}

/** What every trace id of a session's spans starts with: tool-use ids are looked up within it. */
export function spanPrefix(sessionId: string): string {
  return `${sessionId}.`;
}

/** The trace of a session's current span, created on first sight. */
export interface CurrentSpan {
  traceId: string;
  span: number;
  /** The user ran /tooldistill:distill in this span: what follows is the proposal exchange. */
  confirmed: boolean;
}

/** The session's current span and its trace (created with an empty task until the span's first prompt). */
export function currentSpan(store: Store, sessionId: string): CurrentSpan {
  return store.transaction(() => {
    const s = sessionSpan(store, sessionId);
    const traceId = spanTraceId(sessionId, s.span);
    store.createTrace(traceId, "", "claude-code");
    return { traceId, span: s.span, confirmed: s.confirmed };
  });
}

/** True for `/tooldistill:distill` with or without notes, as UserPromptSubmit reports it (not expanded). */
export function isDistillPrompt(prompt: string): boolean {
  return /^\s*\/tooldistill:distill(\s|$)/.test(prompt);
}

/**
 * An ordinary user prompt: the first one after a confirmed span starts the next span; the first prompt of a
 * span becomes its task.
 */
export function userPrompt(store: Store, sessionId: string, prompt: string): CurrentSpan {
  return store.transaction(() => {
    let cur = currentSpan(store, sessionId);
    if (cur.confirmed) {
      advanceSpan(store, sessionId, cur.span);
      cur = currentSpan(store, sessionId);
    }
    if (store.getTrace(cur.traceId)?.task === "") store.setTask(cur.traceId, prompt);
    return cur;
  });
}

/** `/tooldistill:distill`: the user's confirmation that the span's task succeeded. Idempotent. */
export function confirmSpan(store: Store, sessionId: string): CurrentSpan {
  return store.transaction(() => {
    const cur = currentSpan(store, sessionId);
    store.setOutcome(cur.traceId, true);
    markSpanConfirmed(store, sessionId, cur.span);
    return { ...cur, confirmed: true };
  });
}

/** How a tool Claude Code reports is recorded: the library's name and what the call counts as. */
export interface ToolIdentity {
  tool: string;
  kind: CallKind;
}

/** Claude Code's name for an MCP server in tool names: characters other than letters, digits, _ and - become _. */
function normalizedServer(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/**
 * `mcp__<server>__<tool>` of a configured server is the base tool `<server>__<tool>`; the plugin's own tools
 * are the proposal tool and distilled tools; everything else (Bash, Read, other MCP servers) is `other`.
 */
export function identifyTool(name: string, baseServers: readonly string[]): ToolIdentity {
  if (name.startsWith(PLUGIN_TOOL_PREFIX)) {
    const tool = name.slice(PLUGIN_TOOL_PREFIX.length);
    return { tool, kind: tool === PROPOSE_TOOL_NAME ? "proposal" : "distilled" };
  }
  if (name.startsWith("mcp__")) {
    const rest = name.slice("mcp__".length);
    for (const server of baseServers) {
      const prefix = `${normalizedServer(server)}__`;
      if (rest.startsWith(prefix) && rest.length > prefix.length) {
        return { tool: `${server}__${rest.slice(prefix.length)}`, kind: "base" };
      }
    }
  }
  return { tool: name, kind: "other" };
}

/** What the tool hooks know about the project: its base servers and the cached base tool definitions. */
export interface ToolContext {
  baseServers: readonly string[];
  /** Base tool definitions for schema defaults; may be empty before the plugin's server first listed them. */
  baseTools: readonly ToolDef[];
}

/** The base tool definitions the plugin's MCP server cached in the store (empty when it has not yet run). */
export function cachedBaseTools(store: Store): ToolDef[] {
  const text = store.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? (parsed as ToolDef[]) : [];
}

/** Caches the base tool definitions for the hooks and the fallback distiller. */
export function cacheBaseTools(store: Store, tools: readonly ToolDef[]): void {
  const text = JSON.stringify(tools);
  if (store.getMeta(BASE_TOOLS_META_KEY) !== text) store.setMeta(BASE_TOOLS_META_KEY, text);
}

/**
 * A hook's `tool_input` as recordable arguments: a non-object is wrapped, nesting beyond what the canonical form
 * can walk is clipped, and the schema's defaults are applied. `note` says what was clipped.
 */
function recordedArgs(
  input: unknown,
  schema: ToolDef["input_schema"] | undefined,
): Clipped<Record<string, unknown>> {
  const args = isPlainObject(input) ? input : input === undefined ? {} : { value: input };
  const safe = clipDepth(args);
  return {
    value: canonicalArgs(safe.value, schema),
    note: safe.note === null ? null : `arguments: ${safe.note}`,
  };
}

/** A tool call as PreToolUse reports it. */
export interface ToolStart {
  sessionId: string;
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
}

/**
 * PreToolUse: records the call as started, in the session's current span (its seq is taken at start, so
 * parallel calls keep the order in which they began). Base calls after the user's confirmation belong to the
 * proposal exchange and are recorded as `other`, so they never count toward the span's baseline.
 */
export function recordToolStart(store: Store, call: ToolStart, ctx: ToolContext): number {
  // One write transaction for the span, the trace and the row: a hook process pays for one commit, not three.
  return store.transaction(() => {
    const existing = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (existing) return existing.id;
    const cur = currentSpan(store, call.sessionId);
    const id = identifyTool(call.toolName, ctx.baseServers);
    const kind: CallKind = id.kind === "base" && cur.confirmed ? "other" : id.kind;
    const schema =
      id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : undefined;
    const args = recordedArgs(call.toolInput, schema);
    return store.startCall({
      traceId: cur.traceId,
      tool: id.tool,
      kind,
      args: args.value,
      externalId: call.toolUseId,
      note: args.note,
    });
  });
}

/** A finished tool call as PostToolUse / PostToolUseFailure report it. */
export interface ToolEnd extends ToolStart {
  durationMs: number | null;
  outcome: { response: unknown } | { error: string };
}

/**
 * The value of a hook's `tool_response`. For MCP tools it is the value the toolkit gets live for the same
 * result, whichever shape Claude Code sent (content blocks, the JSON text of structuredContent, an object);
 * other tools' responses (Bash's `{stdout, stderr, …}`) are kept as they are.
 */
export function responseValue(toolName: string, response: unknown): unknown {
  if (toolName.startsWith("mcp__")) return mcpHookResponseToValue(response);
  return response ?? null;
}

/**
 * PostToolUse / PostToolUseFailure: completes the started call. A call the plugin's server already completed
 * (a distilled run or a proposal, with richer data) is left alone; a call whose PreToolUse record is missing
 * is recorded now rather than lost.
 */
export function recordToolEnd(store: Store, call: ToolEnd, ctx: ToolContext): void {
  const outcome =
    "error" in call.outcome
      ? { error: call.outcome.error }
      : { output: responseValue(call.toolName, call.outcome.response) };
  store.transaction(() => {
    const rec = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (!rec) {
      const cur = currentSpan(store, call.sessionId);
      const id = identifyTool(call.toolName, ctx.baseServers);
      const schema =
        id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : undefined;
      const args = recordedArgs(call.toolInput, schema);
      store.appendCall(
        {
          traceId: cur.traceId,
          tool: id.tool,
          kind: id.kind === "base" && cur.confirmed ? "other" : id.kind,
          args: args.value,
          externalId: call.toolUseId,
          note: args.note,
        },
        outcome,
        call.durationMs,
      );
      return;
    }
    if (rec.status !== "started") return;
    if ("error" in outcome) store.failCall(rec.id, outcome.error, call.durationMs);
    else store.finishCall(rec.id, outcome.output, call.durationMs);
  });
}

/** The Claude Code events the plugin hooks. */
export const HookEvents = [
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SessionEnd",
] as const;
export type HookEvent = (typeof HookEvents)[number];

/** The fields of a hook's stdin JSON the plugin reads (see claude-code-facts.md). */
export interface HookInput {
  session_id?: string;
  cwd?: string;
  prompt?: string;
  command_name?: string;
  command_args?: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  tool_response?: unknown;
  error?: string;
  duration_ms?: number;
  reason?: string;
}

/** What one hook event writes to the store, whether a hook applies it live or from a spill file later. */
export type SessionEvent =
  | { type: "session-start"; sessionId: string }
  | { type: "prompt"; sessionId: string; prompt: string }
  | { type: "confirm"; sessionId: string }
  | { type: "tool-start"; sessionId: string; call: ToolStart }
  | { type: "tool-end"; sessionId: string; call: ToolEnd }
  | { type: "session-end"; sessionId: string }
  | { type: "none"; sessionId: string };

function need<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new Error(`the hook input has no ${field}`);
  return value;
}

/** Reads a hook's input as the store change it stands for; throws naming a missing field. */
export function sessionEvent(event: HookEvent, input: HookInput): SessionEvent {
  const sessionId = need(input.session_id, "session_id");
  switch (event) {
    case "SessionStart":
      return { type: "session-start", sessionId };
    case "UserPromptSubmit": {
      const prompt = input.prompt ?? "";
      return isDistillPrompt(prompt) ? { type: "confirm", sessionId } : { type: "prompt", sessionId, prompt };
    }
    case "UserPromptExpansion":
      // UserPromptSubmit sends the context; confirming here too keeps the outcome if only one of them fires.
      return input.command_name === DISTILL_COMMAND
        ? { type: "confirm", sessionId }
        : { type: "none", sessionId };
    case "PreToolUse":
      return {
        type: "tool-start",
        sessionId,
        call: {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id"),
        },
      };
    case "PostToolUse":
    case "PostToolUseFailure":
      return {
        type: "tool-end",
        sessionId,
        call: {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id"),
          durationMs: input.duration_ms ?? null,
          outcome:
            event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" },
        },
      };
    case "SessionEnd":
      return { type: "session-end", sessionId };
  }
}

/** Writes one session event (in the caller's transaction when there is one). */
export function applySessionEvent(store: Store, ev: SessionEvent, ctx: ToolContext): void {
  switch (ev.type) {
    case "session-start":
      currentSpan(store, ev.sessionId);
      return;
    case "prompt":
      userPrompt(store, ev.sessionId, ev.prompt);
      return;
    case "confirm":
      confirmSpan(store, ev.sessionId);
      return;
    case "tool-start":
      recordToolStart(store, ev.call, ctx);
      return;
    case "tool-end":
      recordToolEnd(store, ev.call, ctx);
      return;
    case "session-end":
      if (findSessionSpan(store, ev.sessionId)) store.endTrace(currentSpan(store, ev.sessionId).traceId);
      return;
    case "none":
      return;
  }
}

/**
 * Applies the hook events spilled while the store was busy, for one session (or all when null), in order and
 * exactly once (see spill.ts). Call it where the store is writable: the next hook, the plugin's server, the
 * fallback distiller, `tooldistill doctor --fix`.
 */
export function applySpilledEvents(
  store: Store,
  sessionId: string | null,
  baseServers: readonly string[],
): SpillReport {
  return applySpills(store, sessionId, (spilled) => {
    if (!(HookEvents as readonly string[]).includes(spilled.event)) {
      throw new Error(`unknown hook event '${spilled.event}'`);
    }
    const input = JSON.parse(spilled.text) as HookInput;
    const ctx: ToolContext = { baseServers, baseTools: cachedBaseTools(store) };
    applySessionEvent(store, sessionEvent(spilled.event as HookEvent, input), ctx);
  });
}

/** The session a span's trace id belongs to (`<session>.<span>`). */
export function sessionOfTrace(traceId: string): string {
  const dot = traceId.lastIndexOf(".");
  return dot > 0 ? traceId.slice(0, dot) : traceId;
}

/**
 * The call a `tools/call` of the plugin's server answers: the row the PreToolUse hook recorded under its
 * tool-use id (Claude Code sends the same id in `_meta`). Only a row still `started` for this very tool counts,
 * so another session's call that reused the id can never be completed twice; when several match (two sessions
 * calling at once), the server's own session wins, else the newest. The server's session id goes stale after
 * /clear, which is why it is only a preference.
 */
export function callForToolUse(
  store: Store,
  toolUseId: string,
  tool: string,
  sessionHint: string | undefined,
): CallRecord | null {
  const candidates = store.startedCallsByExternalId(toolUseId).filter((c) => c.tool === tool);
  const own = sessionHint ? candidates.find((c) => c.traceId.startsWith(spanPrefix(sessionHint))) : undefined;
  return own ?? candidates[0] ?? null;
}

/**
 * Re-canonicalises the trace's base call arguments with the tools' schema defaults. Hooks record before the
 * plugin's server may have cached the schemas; replay matches on canonical arguments, so this runs before a
 * proposal is verified against the trace. Applying defaults twice changes nothing.
 */
export function canonicalizeTrace(store: Store, traceId: string, tools: readonly ToolDef[]): void {
  const byName = new Map(tools.map((t) => [t.name, t]));
  store.transaction(() => {
    for (const c of store.getCalls(traceId)) {
      const def = c.kind === "base" ? byName.get(c.tool) : undefined;
      if (!def) continue;
      const args = canonicalArgs(c.args, def.input_schema);
      if (JSON.stringify(args) !== JSON.stringify(c.args)) store.setCallArgs(c.id, args);
    }
  });
}

const SUMMARY_CHARS = 200;

function short(value: unknown): string {
  const s = resultContent(value);
  return s.length > SUMMARY_CHARS ? `${s.slice(0, SUMMARY_CHARS)}…` : s;
}

/**
 * What `/tooldistill:distill` tells the model: the core nudge (or the replacement request after a failed
 * distilled tool), the base calls of the span in order, the user's notes, and the plugin's tool name.
 */
export function distillContext(store: Store, traceId: string, notes: string): string {
  const calls = store
    .getCalls(traceId)
    .filter((c) => c.kind === "base" && c.parentId === null && c.status !== "started");
  const flags = store.getTraceFlags(traceId);
  const head = `tooldistill: the user ran /tooldistill:distill, confirming that the task of this session went well (trace ${traceId}).`;
  const lines = [head];
  if (notes.trim()) lines.push(`The user's notes: ${notes.trim()}`);
  if (calls.length === 0 && !flags.replaceName) {
    lines.push(
      "No base tool calls (tools of the project's MCP servers) were recorded for this task, so there is nothing to distill: tell the user so in one sentence.",
    );
    return lines.join("\n");
  }
  lines.push("", nudgeText({ baseCalls: calls.length, replaceName: flags.replaceName }), "");
  lines.push(
    "The base tool calls of this task, in order. In the code, call base tools by these library names " +
      "(`<server>__<tool>`, e.g. `crm__find_contact`), never by Claude Code's `mcp__<server>__<tool>` names:",
  );
  calls.forEach((c, i) => {
    const result = c.status === "ok" ? short(c.output) : `error: ${short(c.error)}`;
    lines.push(`${i + 1}. ${c.tool} ${JSON.stringify(c.args)} → ${result}`);
  });
  lines.push(
    "",
    `The proposal tool is ${PLUGIN_TOOL_PREFIX}${PROPOSE_TOOL_NAME}. Keep calling it with the corrected code until the verdict starts with "verified:", then tell the user the tool's name and that \`tooldistill promote <name>\` makes it available.`,
  );
  return lines.join("\n");
}
