/**
 * Applying session events to the store: live, in a hook's one transaction, or later from the spill files the
 * hooks wrote while the store was locked (in order and exactly once, see core/store/spill.ts).
 */

import type { Store } from "../core/index.ts";
import { DistillError } from "../core/index.ts";
import { applySpills, type SpillReport } from "../core/internal.ts";
import { cachedBaseTools } from "./base-tools.ts";
import { type HookInput, isHookEvent, type SessionEvent, sessionEvent } from "./hook-events.ts";
import { confirmSpan, currentSpan, userPrompt } from "./session.ts";
import { findSessionSpan } from "./session-store.ts";
import { recordToolEnd, recordToolStart, type ToolContext } from "./tool-calls.ts";
import { recordTranscriptUsage } from "./transcript-usage.ts";

/** Writes one session event (in the caller's transaction when there is one). */
export function applySessionEvent(store: Store, ev: SessionEvent, ctx: ToolContext): void {
  switch (ev.type) {
    case "session-start":
      currentSpan(store, ev.sessionId);
      return;
    case "prompt":
      // What the model used so far belongs to the span before this prompt, which may start the next one.
      if (ev.transcriptPath !== null && findSessionSpan(store, ev.sessionId)) {
        recordTranscriptUsage(
          store,
          ev.sessionId,
          currentSpan(store, ev.sessionId).traceId,
          ev.transcriptPath,
        );
      }
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
      if (ev.transcriptPath !== null) {
        recordTranscriptUsage(
          store,
          ev.sessionId,
          currentSpan(store, ev.sessionId).traceId,
          ev.transcriptPath,
        );
      }
      return;
    case "session-end":
      if (findSessionSpan(store, ev.sessionId)) {
        const { traceId } = currentSpan(store, ev.sessionId);
        if (ev.transcriptPath !== null)
          recordTranscriptUsage(store, ev.sessionId, traceId, ev.transcriptPath);
        store.endTrace(traceId);
      }
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
    if (!isHookEvent(spilled.event)) throw new DistillError("USAGE", `unknown hook event '${spilled.event}'`);
    const input = JSON.parse(spilled.text) as HookInput;
    const ctx: ToolContext = { baseServers, baseTools: cachedBaseTools(store) };
    applySessionEvent(store, sessionEvent(spilled.event, input), ctx);
  });
}
