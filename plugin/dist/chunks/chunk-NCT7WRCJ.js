import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  BASE_TOOLS_META_KEY,
  applySpilledEvents,
  cacheBaseTools,
  callForToolUse,
  canonicalizeTrace,
  currentSpan,
  endOutcome,
  isHookEvent,
  newCall,
  pickCall,
  recordTranscriptUsageIn,
  sessionEvent,
  spanPrefix,
  spanTraceId
} from "./chunk-ZSJA2ZHR.js";
import {
  applySpillsToRegistry
} from "./chunk-IYMYVRKQ.js";
import {
  embeddedStore
} from "./chunk-UMZBALXE.js";
import {
  canonicalArgs
} from "./chunk-VH3A3DZF.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// claude-code/session-registry.ts
async function cachedBaseToolsIn(tx) {
  const text = await tx.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [];
}
async function cacheBaseToolsIn(tx, tools) {
  const text = JSON.stringify(tools);
  if (await tx.getMeta(BASE_TOOLS_META_KEY) !== text) await tx.setMeta(BASE_TOOLS_META_KEY, text);
}
async function currentSpanIn(tx, sessionId) {
  const s = await tx.sessionSpan(sessionId);
  const traceId = spanTraceId(sessionId, s.span);
  await tx.createTrace(traceId, "", "claude-code");
  return { traceId, span: s.span, confirmed: s.confirmed };
}
async function userPromptIn(tx, sessionId, prompt) {
  let cur = await currentSpanIn(tx, sessionId);
  if (cur.confirmed) {
    await tx.advanceSpan(sessionId, cur.span);
    cur = await currentSpanIn(tx, sessionId);
  }
  if ((await tx.getTrace(cur.traceId))?.task === "") await tx.setTask(cur.traceId, prompt);
}
async function confirmSpanIn(tx, sessionId) {
  const cur = await currentSpanIn(tx, sessionId);
  await tx.setOutcome(cur.traceId, true);
  await tx.markSpanConfirmed(sessionId, cur.span);
}
async function toolStartIn(tx, call, ctx) {
  if (await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId))) return;
  await tx.startCall(newCall(call, await currentSpanIn(tx, call.sessionId), ctx));
}
async function toolEndIn(tx, call, ctx) {
  const outcome = endOutcome(call);
  const rec = await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
  if (!rec) {
    await tx.appendCall(
      newCall(call, await currentSpanIn(tx, call.sessionId), ctx),
      outcome,
      call.durationMs
    );
    return;
  }
  if (rec.status !== "started") return;
  if ("error" in outcome) await tx.failCall(rec.id, outcome.error, call.durationMs);
  else await tx.finishCall(rec.id, outcome.output, call.durationMs);
}
async function applySessionEventIn(tx, ev, ctx) {
  switch (ev.type) {
    case "session-start":
      await currentSpanIn(tx, ev.sessionId);
      return;
    case "prompt":
      if (ev.transcriptPath !== null && await tx.findSessionSpan(ev.sessionId)) {
        const { traceId } = await currentSpanIn(tx, ev.sessionId);
        await recordTranscriptUsageIn(tx, ev.sessionId, traceId, ev.transcriptPath);
      }
      await userPromptIn(tx, ev.sessionId, ev.prompt);
      return;
    case "confirm":
      await confirmSpanIn(tx, ev.sessionId);
      return;
    case "tool-start":
      await toolStartIn(tx, ev.call, ctx);
      return;
    case "tool-end":
      await toolEndIn(tx, ev.call, ctx);
      if (ev.transcriptPath !== null) {
        const { traceId } = await currentSpanIn(tx, ev.sessionId);
        await recordTranscriptUsageIn(tx, ev.sessionId, traceId, ev.transcriptPath);
      }
      return;
    case "session-end":
      if (await tx.findSessionSpan(ev.sessionId)) {
        const { traceId } = await currentSpanIn(tx, ev.sessionId);
        if (ev.transcriptPath !== null)
          await recordTranscriptUsageIn(tx, ev.sessionId, traceId, ev.transcriptPath);
        await tx.endTrace(traceId);
      }
      return;
    case "none":
      return;
  }
}
async function applySpilledEventIn(tx, spilled, baseServers) {
  if (!isHookEvent(spilled.event)) throw new DistillError("USAGE", `unknown hook event '${spilled.event}'`);
  const input = JSON.parse(spilled.text);
  const ctx = { baseServers, baseTools: await cachedBaseToolsIn(tx) };
  await applySessionEventIn(tx, sessionEvent(spilled.event, input), ctx);
}
async function callForToolUseIn(tx, toolUseId, tool, sessionHint) {
  return pickCall(await tx.startedCallsByExternalId(toolUseId), tool, sessionHint);
}
async function canonicalizeTraceIn(tx, traceId, tools) {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const c of await tx.getCalls(traceId)) {
    const def = c.kind === "base" ? byName.get(c.tool) : void 0;
    if (!def) continue;
    const args = canonicalArgs(c.args, def.input_schema);
    if (JSON.stringify(args) !== JSON.stringify(c.args)) await tx.setCallArgs(c.id, args);
  }
}

// claude-code/session-recorder.ts
function sessionRecorder(store, spillRoot) {
  if (store.kind === "sqlite") {
    const sqlite = embeddedStore(store, "the plugin");
    return {
      applySpills: (baseServers) => sqlite.exclusive((s) => applySpilledEvents(s, null, baseServers)),
      cacheBaseTools: (tools) => sqlite.exclusive((s) => cacheBaseTools(s, tools)),
      callForToolUse: (id, tool, hint) => sqlite.exclusive((s) => callForToolUse(s, id, tool, hint)),
      currentTrace: (sessionId) => sqlite.exclusive((s) => currentSpan(s, sessionId).traceId),
      canonicalizeTrace: (traceId, tools) => sqlite.exclusive((s) => canonicalizeTrace(s, traceId, tools))
    };
  }
  return {
    applySpills: (baseServers) => applySpillsToRegistry(
      store,
      spillRoot,
      null,
      (event, tx) => applySpilledEventIn(tx, event, baseServers)
    ),
    cacheBaseTools: (tools) => store.transaction((tx) => cacheBaseToolsIn(tx, tools)),
    callForToolUse: (id, tool, hint) => callForToolUseIn(store, id, tool, hint),
    currentTrace: (sessionId) => store.transaction(async (tx) => (await currentSpanIn(tx, sessionId)).traceId),
    canonicalizeTrace: (traceId, tools) => store.transaction((tx) => canonicalizeTraceIn(tx, traceId, tools))
  };
}

export {
  sessionRecorder
};
