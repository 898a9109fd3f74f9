/**
 * The session recording of session.ts, tool-calls.ts and session-events.ts, over the async RegistryStore: what
 * the td server does on a PostgreSQL store, where the hooks only spill (they never connect to PostgreSQL) and the
 * server applies the spilled events, in order and exactly once, through `applySpillsToRegistry`. The same rows,
 * spans and trace ids as the hooks' synchronous path on SQLite; every function runs inside the caller's
 * transaction (`tx`), so one event is all or nothing.
 */
import type { CallRecord, RegistryData, ToolDef } from "../core/index.ts";
import { DistillError } from "../core/index.ts";
import { canonicalArgs } from "../core/internal.ts";
import { BASE_TOOLS_META_KEY } from "./base-tools.ts";
import { type HookInput, isHookEvent, type SessionEvent, sessionEvent } from "./hook-events.ts";
import { type CurrentSpan, spanPrefix, spanTraceId } from "./session.ts";
import {
  endOutcome,
  newCall,
  pickCall,
  type ToolContext,
  type ToolEnd,
  type ToolStart,
} from "./tool-calls.ts";
import { recordTranscriptUsageIn } from "./transcript-usage.ts";

/** The base tool definitions the td server cached in the registry (empty before it first listed them). */
export async function cachedBaseToolsIn(tx: RegistryData): Promise<ToolDef[]> {
  const text = await tx.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? (parsed as ToolDef[]) : [];
}

/** Caches the base tool definitions (read by the fallback distiller and by this applier). */
export async function cacheBaseToolsIn(tx: RegistryData, tools: readonly ToolDef[]): Promise<void> {
  const text = JSON.stringify(tools);
  if ((await tx.getMeta(BASE_TOOLS_META_KEY)) !== text) await tx.setMeta(BASE_TOOLS_META_KEY, text);
}

/** The session's current span and its trace (created with an empty task until the span's first prompt). */
export async function currentSpanIn(tx: RegistryData, sessionId: string): Promise<CurrentSpan> {
  const s = await tx.sessionSpan(sessionId);
  const traceId = spanTraceId(sessionId, s.span);
  await tx.createTrace(traceId, "", "claude-code");
  return { traceId, span: s.span, confirmed: s.confirmed };
}

async function userPromptIn(tx: RegistryData, sessionId: string, prompt: string): Promise<void> {
  let cur = await currentSpanIn(tx, sessionId);
  if (cur.confirmed) {
    await tx.advanceSpan(sessionId, cur.span);
    cur = await currentSpanIn(tx, sessionId);
  }
  if ((await tx.getTrace(cur.traceId))?.task === "") await tx.setTask(cur.traceId, prompt);
}

async function confirmSpanIn(tx: RegistryData, sessionId: string): Promise<void> {
  const cur = await currentSpanIn(tx, sessionId);
  await tx.setOutcome(cur.traceId, true);
  await tx.markSpanConfirmed(sessionId, cur.span);
}

async function toolStartIn(tx: RegistryData, call: ToolStart, ctx: ToolContext): Promise<void> {
  if (await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId))) return;
  await tx.startCall(newCall(call, await currentSpanIn(tx, call.sessionId), ctx));
}

async function toolEndIn(tx: RegistryData, call: ToolEnd, ctx: ToolContext): Promise<void> {
  const outcome = endOutcome(call);
  const rec = await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
  if (!rec) {
    await tx.appendCall(
      newCall(call, await currentSpanIn(tx, call.sessionId), ctx),
      outcome,
      call.durationMs,
    );
    return;
  }
  if (rec.status !== "started") return;
  if ("error" in outcome) await tx.failCall(rec.id, outcome.error, call.durationMs);
  else await tx.finishCall(rec.id, outcome.output, call.durationMs);
}

/** Writes one session event through `tx` (as session-events.ts's applySessionEvent does on the SQLite Store). */
export async function applySessionEventIn(
  tx: RegistryData,
  ev: SessionEvent,
  ctx: ToolContext,
): Promise<void> {
  switch (ev.type) {
    case "session-start":
      await currentSpanIn(tx, ev.sessionId);
      return;
    case "prompt":
      // What the model used so far belongs to the span before this prompt (see transcript-usage.ts).
      if (ev.transcriptPath !== null && (await tx.findSessionSpan(ev.sessionId))) {
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

/** One spilled hook event (its hook's name and stdin text), applied through `tx`. */
export async function applySpilledEventIn(
  tx: RegistryData,
  spilled: { event: string; text: string },
  baseServers: readonly string[],
): Promise<void> {
  if (!isHookEvent(spilled.event)) throw new DistillError("USAGE", `unknown hook event '${spilled.event}'`);
  const input = JSON.parse(spilled.text) as HookInput;
  const ctx: ToolContext = { baseServers, baseTools: await cachedBaseToolsIn(tx) };
  await applySessionEventIn(tx, sessionEvent(spilled.event, input), ctx);
}

/** The started call a td `tools/call` answers (see tool-calls.ts's callForToolUse). */
export async function callForToolUseIn(
  tx: RegistryData,
  toolUseId: string,
  tool: string,
  sessionHint: string | undefined,
): Promise<CallRecord | null> {
  return pickCall(await tx.startedCallsByExternalId(toolUseId), tool, sessionHint);
}

/** Re-canonicalises the trace's base call arguments with the tools' schema defaults (see canonicalizeTrace). */
export async function canonicalizeTraceIn(
  tx: RegistryData,
  traceId: string,
  tools: readonly ToolDef[],
): Promise<void> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const c of await tx.getCalls(traceId)) {
    const def = c.kind === "base" ? byName.get(c.tool) : undefined;
    if (!def) continue;
    const args = canonicalArgs(c.args, def.input_schema);
    if (JSON.stringify(args) !== JSON.stringify(c.args)) await tx.setCallArgs(c.id, args);
  }
}
