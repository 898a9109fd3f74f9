import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpills,
  clipDepth
} from "./chunk-TQHDXEGD.js";
import {
  PROPOSE_TOOL_NAME,
  canonicalArgs,
  isPlainObject
} from "./chunk-UYYRGLGJ.js";
import {
  mcpHookResponseToValue
} from "./chunk-32EDCCXV.js";

// claude-code/session.ts
var PLUGIN_TOOL_PREFIX = "mcp__plugin_tooldistill_td__";
var DISTILL_COMMAND = "tooldistill:distill";
var BASE_TOOLS_META_KEY = "claude-code.base-tools";
function spanTraceId(sessionId, span) {
  return `${spanPrefix(sessionId)}${span}`;
}
function spanPrefix(sessionId) {
  return `${sessionId}.`;
}
function currentSpan(store, sessionId) {
  return store.transaction(() => {
    const s = store.sessionSpan(sessionId);
    const traceId = spanTraceId(sessionId, s.span);
    store.createTrace(traceId, "", "claude-code");
    return { traceId, span: s.span, confirmed: s.confirmed };
  });
}
function isDistillPrompt(prompt) {
  return /^\s*\/tooldistill:distill(\s|$)/.test(prompt);
}
function userPrompt(store, sessionId, prompt) {
  return store.transaction(() => {
    let cur = currentSpan(store, sessionId);
    if (cur.confirmed) {
      store.advanceSpan(sessionId, cur.span);
      cur = currentSpan(store, sessionId);
    }
    if (store.getTrace(cur.traceId)?.task === "") store.setTask(cur.traceId, prompt);
    return cur;
  });
}
function confirmSpan(store, sessionId) {
  return store.transaction(() => {
    const cur = currentSpan(store, sessionId);
    store.setOutcome(cur.traceId, true);
    store.confirmSpan(sessionId, cur.span);
    return { ...cur, confirmed: true };
  });
}
function normalizedServer(name) {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}
function identifyTool(name, baseServers) {
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
function cachedBaseTools(store) {
  const text = store.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [];
}
function cacheBaseTools(store, tools) {
  const text = JSON.stringify(tools);
  if (store.getMeta(BASE_TOOLS_META_KEY) !== text) store.setMeta(BASE_TOOLS_META_KEY, text);
}
function recordedArgs(input, schema) {
  const args = isPlainObject(input) ? input : input === void 0 ? {} : { value: input };
  const safe = clipDepth(args);
  return {
    value: canonicalArgs(safe.value, schema),
    note: safe.note === null ? null : `arguments: ${safe.note}`
  };
}
function recordToolStart(store, call, ctx) {
  return store.transaction(() => {
    const existing = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (existing) return existing.id;
    const cur = currentSpan(store, call.sessionId);
    const id = identifyTool(call.toolName, ctx.baseServers);
    const kind = id.kind === "base" && cur.confirmed ? "other" : id.kind;
    const schema = id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : void 0;
    const args = recordedArgs(call.toolInput, schema);
    return store.startCall({
      traceId: cur.traceId,
      tool: id.tool,
      kind,
      args: args.value,
      externalId: call.toolUseId,
      note: args.note
    });
  });
}
function responseValue(toolName, response) {
  if (toolName.startsWith("mcp__")) return mcpHookResponseToValue(response);
  return response ?? null;
}
function recordToolEnd(store, call, ctx) {
  const outcome = "error" in call.outcome ? { error: call.outcome.error } : { output: responseValue(call.toolName, call.outcome.response) };
  store.transaction(() => {
    const rec = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (!rec) {
      const cur = currentSpan(store, call.sessionId);
      const id = identifyTool(call.toolName, ctx.baseServers);
      const schema = id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : void 0;
      const args = recordedArgs(call.toolInput, schema);
      store.appendCall(
        {
          traceId: cur.traceId,
          tool: id.tool,
          kind: id.kind === "base" && cur.confirmed ? "other" : id.kind,
          args: args.value,
          externalId: call.toolUseId,
          note: args.note
        },
        outcome,
        call.durationMs
      );
      return;
    }
    if (rec.status !== "started") return;
    if ("error" in outcome) store.failCall(rec.id, outcome.error, call.durationMs);
    else store.finishCall(rec.id, outcome.output, call.durationMs);
  });
}
var HookEvents = [
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SessionEnd"
];
function need(value, field) {
  if (value === void 0) throw new Error(`the hook input has no ${field}`);
  return value;
}
function sessionEvent(event, input) {
  const sessionId = need(input.session_id, "session_id");
  switch (event) {
    case "SessionStart":
      return { type: "session-start", sessionId };
    case "UserPromptSubmit": {
      const prompt = input.prompt ?? "";
      return isDistillPrompt(prompt) ? { type: "confirm", sessionId } : { type: "prompt", sessionId, prompt };
    }
    case "UserPromptExpansion":
      return input.command_name === DISTILL_COMMAND ? { type: "confirm", sessionId } : { type: "none", sessionId };
    case "PreToolUse":
      return {
        type: "tool-start",
        sessionId,
        call: {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id")
        }
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
          outcome: event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" }
        }
      };
    case "SessionEnd":
      return { type: "session-end", sessionId };
  }
}
function applySessionEvent(store, ev, ctx) {
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
      if (store.findSessionSpan(ev.sessionId)) store.endTrace(currentSpan(store, ev.sessionId).traceId);
      return;
    case "none":
      return;
  }
}
function applySpilledEvents(store, sessionId, baseServers) {
  return applySpills(store, sessionId, (spilled) => {
    if (!HookEvents.includes(spilled.event)) {
      throw new Error(`unknown hook event '${spilled.event}'`);
    }
    const input = JSON.parse(spilled.text);
    const ctx = { baseServers, baseTools: cachedBaseTools(store) };
    applySessionEvent(store, sessionEvent(spilled.event, input), ctx);
  });
}
function sessionOfTrace(traceId) {
  const dot = traceId.lastIndexOf(".");
  return dot > 0 ? traceId.slice(0, dot) : traceId;
}
function callForToolUse(store, toolUseId, tool, sessionHint) {
  const candidates = store.startedCallsByExternalId(toolUseId).filter((c) => c.tool === tool);
  const own = sessionHint ? candidates.find((c) => c.traceId.startsWith(spanPrefix(sessionHint))) : void 0;
  return own ?? candidates[0] ?? null;
}
function canonicalizeTrace(store, traceId, tools) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  store.transaction(() => {
    for (const c of store.getCalls(traceId)) {
      const def = c.kind === "base" ? byName.get(c.tool) : void 0;
      if (!def) continue;
      const args = canonicalArgs(c.args, def.input_schema);
      if (JSON.stringify(args) !== JSON.stringify(c.args)) store.setCallArgs(c.id, args);
    }
  });
}

export {
  currentSpan,
  cachedBaseTools,
  cacheBaseTools,
  applySpilledEvents,
  sessionOfTrace,
  callForToolUse,
  canonicalizeTrace
};
