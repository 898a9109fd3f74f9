import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpillsToRegistry
} from "./chunk-6XGZWFWT.js";
import {
  clipDepth
} from "./chunk-VPKFMVD7.js";
import {
  mcpHookResponseToValue
} from "./chunk-FCTBTAFV.js";
import {
  baseToolName
} from "./chunk-7GUC6VD2.js";
import {
  PROPOSE_TOOL_NAME,
  canonicalArgs,
  isPlainObject
} from "./chunk-6YXHXBUL.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// claude-code/base-tools.ts
var BASE_TOOLS_META_KEY = "claude-code.base-tools";
async function cachedBaseTools(data) {
  const text = await data.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [];
}
async function cacheBaseTools(data, tools) {
  const text = JSON.stringify(tools);
  if (await data.getMeta(BASE_TOOLS_META_KEY) !== text) await data.setMeta(BASE_TOOLS_META_KEY, text);
}

// claude-code/session.ts
function spanTraceId(sessionId, span) {
  return `${spanPrefix(sessionId)}${span}`;
}
function spanPrefix(sessionId) {
  return `${sessionId}.`;
}
function sessionOfTrace(traceId) {
  const dot = traceId.lastIndexOf(".");
  return dot > 0 ? traceId.slice(0, dot) : traceId;
}
async function currentSpan(tx, sessionId) {
  const s = await tx.sessionSpan(sessionId);
  const traceId = spanTraceId(sessionId, s.span);
  await tx.createTrace(traceId, "", "claude-code");
  return { traceId, span: s.span, confirmed: s.confirmed };
}
async function userPrompt(tx, sessionId, prompt) {
  let cur = await currentSpan(tx, sessionId);
  if (cur.confirmed) {
    await tx.advanceSpan(sessionId, cur.span);
    cur = await currentSpan(tx, sessionId);
  }
  if ((await tx.getTrace(cur.traceId))?.task === "") await tx.setTask(cur.traceId, prompt);
  return cur;
}
async function confirmSpan(tx, sessionId) {
  const cur = await currentSpan(tx, sessionId);
  await tx.setOutcome(cur.traceId, true);
  await tx.markSpanConfirmed(sessionId, cur.span);
  return { ...cur, confirmed: true };
}

// claude-code/plugin-names.ts
var PLUGIN_TOOL_PREFIX = "mcp__plugin_tooldistill_td__";
var DISTILL_COMMAND = "tooldistill:distill";
function isDistillPrompt(prompt) {
  return /^\s*\/tooldistill:distill(\s|$)/.test(prompt);
}

// claude-code/tool-identity.ts
var MCP_PREFIX = "mcp__";
function normalizedServer(name) {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}
var TOOL_SEARCH = "ToolSearch";
function isToolSearch(name) {
  return name === TOOL_SEARCH;
}
function isMcpToolName(name) {
  return name.startsWith(MCP_PREFIX);
}
function identifyTool(name, baseServers) {
  if (name.startsWith(PLUGIN_TOOL_PREFIX)) {
    const tool = name.slice(PLUGIN_TOOL_PREFIX.length);
    return { tool, kind: tool === PROPOSE_TOOL_NAME ? "proposal" : "distilled" };
  }
  if (isMcpToolName(name)) {
    const rest = name.slice(MCP_PREFIX.length);
    for (const server of baseServers) {
      const prefix = baseToolName(normalizedServer(server), "");
      if (rest.startsWith(prefix) && rest.length > prefix.length) {
        return { tool: baseToolName(server, rest.slice(prefix.length)), kind: "base" };
      }
    }
  }
  return { tool: name, kind: "other" };
}

// claude-code/hook-events.ts
var HookEvents = [
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SessionEnd"
];
function isHookEvent(name) {
  return HookEvents.includes(name);
}
function need(value, field) {
  if (value === void 0) throw new DistillError("USAGE", `the hook input has no ${field}`);
  return value;
}
function toolStart(sessionId, input) {
  return {
    sessionId,
    toolName: need(input.tool_name, "tool_name"),
    toolInput: input.tool_input,
    toolUseId: need(input.tool_use_id, "tool_use_id")
  };
}
function sessionEvent(event, input) {
  const sessionId = need(input.session_id, "session_id");
  const transcriptPath = typeof input.transcript_path === "string" ? input.transcript_path : null;
  switch (event) {
    case "SessionStart":
      return { type: "session-start", sessionId };
    case "UserPromptSubmit": {
      const prompt = input.prompt ?? "";
      return isDistillPrompt(prompt) ? { type: "confirm", sessionId } : { type: "prompt", sessionId, prompt, transcriptPath };
    }
    case "UserPromptExpansion":
      return input.command_name === DISTILL_COMMAND ? { type: "confirm", sessionId } : { type: "none", sessionId };
    case "PreToolUse":
      if (isToolSearch(input.tool_name)) return { type: "none", sessionId };
      return { type: "tool-start", sessionId, call: toolStart(sessionId, input) };
    case "PostToolUse":
    case "PostToolUseFailure":
      if (isToolSearch(input.tool_name)) return { type: "none", sessionId };
      return {
        type: "tool-end",
        sessionId,
        transcriptPath,
        call: {
          ...toolStart(sessionId, input),
          durationMs: input.duration_ms ?? null,
          outcome: event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" }
        }
      };
    case "Stop":
      return { type: "none", sessionId };
    case "SessionEnd":
      return { type: "session-end", sessionId, transcriptPath };
  }
}

// claude-code/tool-calls.ts
function recordedArgs(input, schema) {
  const args = isPlainObject(input) ? input : input === void 0 ? {} : { value: input };
  const safe = clipDepth(args);
  return {
    value: canonicalArgs(safe.value, schema),
    note: safe.note === null ? null : `arguments: ${safe.note}`
  };
}
function newCall(call, cur, ctx) {
  const id = identifyTool(call.toolName, ctx.baseServers);
  const kind = id.kind === "base" && cur.confirmed ? "other" : id.kind;
  const schema = id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : void 0;
  const args = recordedArgs(call.toolInput, schema);
  return {
    traceId: cur.traceId,
    tool: id.tool,
    kind,
    args: args.value,
    externalId: call.toolUseId,
    note: args.note
  };
}
async function recordToolStart(tx, call, ctx) {
  const existing = await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
  if (existing) return existing.id;
  return tx.startCall(newCall(call, await currentSpan(tx, call.sessionId), ctx));
}
function responseValue(toolName, response) {
  if (isMcpToolName(toolName)) return mcpHookResponseToValue(response);
  return response ?? null;
}
async function recordToolEnd(tx, call, ctx) {
  const outcome = endOutcome(call);
  const rec = await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
  if (!rec) {
    await tx.appendCall(newCall(call, await currentSpan(tx, call.sessionId), ctx), outcome, call.durationMs);
    return;
  }
  if (rec.status !== "started") return;
  if ("error" in outcome) await tx.failCall(rec.id, outcome.error, call.durationMs);
  else await tx.finishCall(rec.id, outcome.output, call.durationMs);
}
function endOutcome(call) {
  return "error" in call.outcome ? { error: call.outcome.error } : { output: responseValue(call.toolName, call.outcome.response) };
}
async function callForToolUse(data, toolUseId, tool, sessionHint) {
  return pickCall(await data.startedCallsByExternalId(toolUseId), tool, sessionHint);
}
function pickCall(started, tool, sessionHint) {
  const candidates = started.filter((c) => c.tool === tool);
  const own = sessionHint ? candidates.find((c) => c.traceId.startsWith(spanPrefix(sessionHint))) : void 0;
  return own ?? candidates[0] ?? null;
}
async function canonicalizeTrace(tx, traceId, tools) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const c of await tx.getCalls(traceId)) {
    const def = c.kind === "base" ? byName.get(c.tool) : void 0;
    if (!def) continue;
    const args = canonicalArgs(c.args, def.input_schema);
    if (JSON.stringify(args) !== JSON.stringify(c.args)) await tx.setCallArgs(c.id, args);
  }
}

// claude-code/transcript-usage.ts
import { closeSync, openSync, readSync, statSync } from "node:fs";

// claude-code/transcript.ts
function parseTranscript(text) {
  const entries = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line);
      if (isPlainObject(value) && typeof value["type"] === "string") entries.push(value);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { entries, skipped };
}

// claude-code/transcript-usage.ts
function cursorKey(sessionId) {
  return `tooldistill.transcript:${sessionId}`;
}
var num = (v) => typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0;
function readTranscriptUsage(path, cursor) {
  const from = cursor && cursor.path === path ? cursor.offset : 0;
  const last = cursor && cursor.path === path ? cursor.lastMessage : null;
  const usage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0
  };
  let size;
  try {
    size = statSync(path).size;
  } catch {
    return { usage, messages: 0, cursor: { path, offset: from, lastMessage: last } };
  }
  const start = size < from ? 0 : from;
  const buf = Buffer.alloc(size - start);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buf, 0, buf.length, start);
  } finally {
    closeSync(fd);
  }
  const end = buf.lastIndexOf(10) + 1;
  const byMessage = /* @__PURE__ */ new Map();
  let lastMessage = size < from ? null : last;
  let anonymous = 0;
  for (const value of parseTranscript(buf.subarray(0, end).toString("utf8")).entries) {
    const entry = usageOf(value);
    if (!entry) continue;
    const key = entry.id ?? `#${start}:${anonymous++}`;
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
function usageOf(value) {
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
      cache_read_input_tokens: num(u["cache_read_input_tokens"])
    }
  };
}
async function recordTranscriptUsage(tx, sessionId, traceId, path) {
  const key = cursorKey(sessionId);
  const stored = await tx.getMeta(key);
  const read = readTranscriptUsage(path, stored === null ? null : JSON.parse(stored));
  if (read.messages > 0) await tx.addUsage(traceId, read.usage);
  await tx.setMeta(key, JSON.stringify(read.cursor));
  return read.usage;
}

// claude-code/session-events.ts
async function applySessionEvent(tx, ev, ctx) {
  switch (ev.type) {
    case "session-start":
      await currentSpan(tx, ev.sessionId);
      return;
    case "prompt":
      if (ev.transcriptPath !== null && await tx.findSessionSpan(ev.sessionId)) {
        const { traceId } = await currentSpan(tx, ev.sessionId);
        await recordTranscriptUsage(tx, ev.sessionId, traceId, ev.transcriptPath);
      }
      await userPrompt(tx, ev.sessionId, ev.prompt);
      return;
    case "confirm":
      await confirmSpan(tx, ev.sessionId);
      return;
    case "tool-start":
      await recordToolStart(tx, ev.call, ctx);
      return;
    case "tool-end":
      await recordToolEnd(tx, ev.call, ctx);
      if (ev.transcriptPath !== null) {
        const { traceId } = await currentSpan(tx, ev.sessionId);
        await recordTranscriptUsage(tx, ev.sessionId, traceId, ev.transcriptPath);
      }
      return;
    case "session-end":
      if (await tx.findSessionSpan(ev.sessionId)) {
        const { traceId } = await currentSpan(tx, ev.sessionId);
        if (ev.transcriptPath !== null)
          await recordTranscriptUsage(tx, ev.sessionId, traceId, ev.transcriptPath);
        await tx.endTrace(traceId);
      }
      return;
    case "none":
      return;
  }
}
async function applySpilledEvent(tx, spilled, baseServers) {
  if (!isHookEvent(spilled.event)) throw new DistillError("USAGE", `unknown hook event '${spilled.event}'`);
  const input = JSON.parse(spilled.text);
  const ctx = { baseServers, baseTools: await cachedBaseTools(tx) };
  await applySessionEvent(tx, sessionEvent(spilled.event, input), ctx);
}
function applySpilledEvents(store, spillRoot, sessionId, baseServers) {
  return applySpillsToRegistry(
    store,
    spillRoot,
    sessionId,
    (event, tx) => applySpilledEvent(tx, event, baseServers)
  );
}

export {
  cachedBaseTools,
  cacheBaseTools,
  sessionOfTrace,
  currentSpan,
  callForToolUse,
  canonicalizeTrace,
  applySpilledEvents
};
