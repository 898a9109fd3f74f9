/**
 * Claude Code sessions as traces. A session is cut into spans: each span is one task, recorded as one trace whose
 * id every process can compute (`<session>.<span>`); `/tooldistill:distill` confirms the current span, and the
 * next ordinary prompt starts the next one. Functions over the registry only: no MCP SDK, no config, so the
 * bundled hooks stay small. Each runs in the caller's transaction (`tx`), so one event is all or nothing.
 */
import type { RegistryData } from "../core/recording.ts";

/** A span's trace id: derived from the session id and the span number, so every process computes the same. */
export function spanTraceId(sessionId: string, span: number): string {
  return `${spanPrefix(sessionId)}${span}`;
}

/** What every trace id of a session's spans starts with: tool-use ids are looked up within it. */
export function spanPrefix(sessionId: string): string {
  return `${sessionId}.`;
}

/** The session a span's trace id belongs to (`<session>.<span>`). */
export function sessionOfTrace(traceId: string): string {
  const dot = traceId.lastIndexOf(".");
  return dot > 0 ? traceId.slice(0, dot) : traceId;
}

/** The trace of a session's current span, created on first sight. */
export interface CurrentSpan {
  traceId: string;
  span: number;
  /** The user ran /tooldistill:distill in this span: what follows is the proposal exchange. */
  confirmed: boolean;
}

/** The session's current span and its trace (created with an empty task until the span's first prompt). */
export async function currentSpan(tx: RegistryData, sessionId: string): Promise<CurrentSpan> {
  const s = await tx.sessionSpan(sessionId);
  const traceId = spanTraceId(sessionId, s.span);
  await tx.createTrace(traceId, "", "claude-code");
  return { traceId, span: s.span, confirmed: s.confirmed };
}

/**
 * An ordinary user prompt: the first one after a confirmed span starts the next span; the first prompt of a
 * span becomes its task.
 */
export async function userPrompt(tx: RegistryData, sessionId: string, prompt: string): Promise<CurrentSpan> {
  let cur = await currentSpan(tx, sessionId);
  if (cur.confirmed) {
    await tx.advanceSpan(sessionId, cur.span);
    cur = await currentSpan(tx, sessionId);
  }
  if ((await tx.getTrace(cur.traceId))?.task === "") await tx.setTask(cur.traceId, prompt);
  return cur;
}

/** `/tooldistill:distill`: the user's confirmation that the span's task succeeded. Idempotent. */
export async function confirmSpan(tx: RegistryData, sessionId: string): Promise<CurrentSpan> {
  const cur = await currentSpan(tx, sessionId);
  await tx.setOutcome(cur.traceId, true);
  await tx.markSpanConfirmed(sessionId, cur.span);
  return { ...cur, confirmed: true };
}
