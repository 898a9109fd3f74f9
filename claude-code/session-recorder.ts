/**
 * How the td server records Claude Code sessions, on either store, through the registry: the hooks write a
 * SQLite store themselves and spill only when it is locked; on PostgreSQL they never connect (a hook must start
 * in milliseconds and `pg` stays out of their bundles), so every event waits in the machine's spill folder and
 * the server, which is connected anyway, applies it: continuously, and before each call it answers, so the call
 * the PreToolUse hook spilled is there.
 */
import type { CallRecord, RegistryStore, SpillReport, ToolDef } from "../core/recording.ts";
import { cacheBaseTools } from "./base-tools.ts";
import { currentSpan } from "./session.ts";
import { applySpilledEvents } from "./session-events.ts";
import { callForToolUse, canonicalizeTrace } from "./tool-calls.ts";

/** The session writes of the td server, whichever the store. */
export interface SessionRecorder {
  /** Applies the hooks' spilled events, every session's, in order and exactly once. */
  applySpills(baseServers: readonly string[]): Promise<SpillReport>;
  /** Caches the base tool definitions for the hooks, the spill applier and the fallback distiller. */
  cacheBaseTools(tools: readonly ToolDef[]): Promise<void>;
  /** The started call a `tools/call` answers, recorded by its PreToolUse hook under the tool-use id. */
  callForToolUse(
    toolUseId: string,
    tool: string,
    sessionHint: string | undefined,
  ): Promise<CallRecord | null>;
  /** The trace of the session's current span (created on first sight). */
  currentTrace(sessionId: string): Promise<string>;
  /** Applies the tools' schema defaults to the trace's base call arguments before a proposal is verified. */
  canonicalizeTrace(traceId: string, tools: readonly ToolDef[]): Promise<void>;
}

/** The recorder of `store`; `spillRoot` is the folder whose `spill/` the hooks write (see core's localFolder). */
export function sessionRecorder(store: RegistryStore, spillRoot: string): SessionRecorder {
  return {
    applySpills: (baseServers) => applySpilledEvents(store, spillRoot, null, baseServers),
    cacheBaseTools: (tools) => store.transaction((tx) => cacheBaseTools(tx, tools)),
    callForToolUse: (id, tool, hint) => callForToolUse(store, id, tool, hint),
    currentTrace: (sessionId) => store.transaction(async (tx) => (await currentSpan(tx, sessionId)).traceId),
    canonicalizeTrace: (traceId, tools) => store.transaction((tx) => canonicalizeTrace(tx, traceId, tools)),
  };
}
