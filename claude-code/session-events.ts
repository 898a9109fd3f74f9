/**
 * Applying session events to the registry: live, in a hook's one transaction, or later from the spill files the
 * hooks wrote while the store was locked (every event on a PostgreSQL store, which hooks never connect to), in
 * order and exactly once (see core/store/spill-registry.ts). One applier for both, on either engine.
 */
import {
  applySpillsToRegistry,
  DistillError,
  type RegistryData,
  type RegistryStore,
  type SpillReport,
} from "../core/recording.ts";
import { cachedBaseTools } from "./base-tools.ts";
import { type HookInput, isHookEvent, type SessionEvent, sessionEvent } from "./hook-events.ts";
import { confirmSpan, currentSpan, userPrompt } from "./session.ts";
import { recordToolEnd, recordToolStart, type ToolContext } from "./tool-calls.ts";
import { recordTranscriptUsage } from "./transcript-usage.ts";

/** Writes one session event through `tx`, the caller's transaction. */
export async function applySessionEvent(tx: RegistryData, ev: SessionEvent, ctx: ToolContext): Promise<void> {
  switch (ev.type) {
    case "session-start":
      await currentSpan(tx, ev.sessionId);
      return;
    case "prompt":
      // What the model used so far belongs to the span before this prompt, which may start the next one.
      if (ev.transcriptPath !== null && (await tx.findSessionSpan(ev.sessionId))) {
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

/** One spilled hook event (its hook's name and stdin text), applied through `tx`. */
export async function applySpilledEvent(
  tx: RegistryData,
  spilled: { event: string; text: string },
  baseServers: readonly string[],
): Promise<void> {
  if (!isHookEvent(spilled.event)) throw new DistillError("USAGE", `unknown hook event '${spilled.event}'`);
  const input = JSON.parse(spilled.text) as HookInput;
  const ctx: ToolContext = { baseServers, baseTools: await cachedBaseTools(tx) };
  await applySessionEvent(tx, sessionEvent(spilled.event, input), ctx);
}

/**
 * Applies the hook events spilled under `<spillRoot>/spill` for one session (or all when null), in order and
 * exactly once. Call it where the store is writable: the next hook, the plugin's server, the fallback distiller,
 * `tooldistill doctor --fix`. Throws STORE_BUSY when the store stays locked (the files wait for the next applier).
 */
export function applySpilledEvents(
  store: RegistryStore,
  spillRoot: string,
  sessionId: string | null,
  baseServers: readonly string[],
): Promise<SpillReport> {
  return applySpillsToRegistry(store, spillRoot, sessionId, (event, tx) =>
    applySpilledEvent(tx, event, baseServers),
  );
}
