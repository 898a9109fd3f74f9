/**
 * The trace checked against Claude Code's transcript: base calls the tool hooks never reported (a release where
 * hooks do not fire for MCP tools, a hook that timed out, a user's settings that turn them off) are filled in from
 * the transcript's `tool_use` / `tool_result` blocks, at the place they ran, exactly once: the tool_use id is
 * the key, so a call both saw is never recorded twice. Runs at Stop, at SessionEnd and before every user prompt
 * (so `/tooldistill:distill` reads a complete trace, and a span is complete before the next one starts).
 */
import { type CallRecord, mcpHookResponseToValue, type RegistryStore } from "../core/recording.ts";
import { currentSpan, spanPrefix } from "./session.ts";
import { newCall, type ToolContext } from "./tool-calls.ts";
import { identifyTool } from "./tool-identity.ts";
import type { TranscriptToolCall } from "./transcript.ts";

/** What a reconciliation changed: calls added from the transcript, started calls completed from it. */
export interface ReconcileReport {
  added: number;
  completed: number;
}

/** The outcome of a transcript call as the hooks would have recorded it (the value the toolkit gets live). */
function transcriptOutcome(
  result: NonNullable<TranscriptToolCall["result"]>,
): { error: string } | { output: unknown } {
  if (result.isError) {
    const text = mcpHookResponseToValue(result.content);
    return { error: typeof text === "string" ? text : JSON.stringify(text) };
  }
  if (result.structuredContent !== undefined) return { output: result.structuredContent };
  return { output: mcpHookResponseToValue(result.content) };
}

/**
 * Fills the session's current span with the base calls of `calls` (the transcript's, in order) that no hook
 * recorded, each at its place among the recorded ones, and completes base calls left `started` whose result
 * the transcript holds. Calls up to the last one recorded in an earlier span belong to that span and are left
 * alone; a call still without a result is in flight and left to its hooks.
 */
export function reconcileTranscript(
  store: RegistryStore,
  sessionId: string,
  calls: readonly TranscriptToolCall[],
  ctx: ToolContext,
): Promise<ReconcileReport> {
  const report: ReconcileReport = { added: 0, completed: 0 };
  const prefix = spanPrefix(sessionId);
  return store.transaction(async (tx) => {
    const cur = await currentSpan(tx, sessionId);
    const recorded: (CallRecord | null)[] = [];
    for (const c of calls) recorded.push(await tx.getCallByExternalId(c.toolUseId, prefix));
    let from = 0;
    recorded.forEach((r, i) => {
      if (r !== null && r.traceId !== cur.traceId) from = i + 1;
    });
    for (let i = from; i < calls.length; i++) {
      const call = calls[i] as TranscriptToolCall;
      if (call.result === null || identifyTool(call.toolName, ctx.baseServers).kind !== "base") continue;
      const outcome = transcriptOutcome(call.result);
      const rec = recorded[i];
      if (rec) {
        if (rec.status !== "started") continue;
        if ("error" in outcome) await tx.failCall(rec.id, outcome.error, null);
        else await tx.finishCall(rec.id, outcome.output, null);
        report.completed++;
        continue;
      }
      const row = newCall(
        { sessionId, toolName: call.toolName, toolInput: call.input, toolUseId: call.toolUseId },
        cur,
        ctx,
      );
      // Before the first later call the trace holds; seqs move as calls go in, so they are read afresh.
      let at: number | undefined;
      for (const later of calls.slice(i + 1)) {
        const r = await tx.getCallByExternalId(later.toolUseId, prefix);
        if (r !== null && r.traceId === cur.traceId && r.parentId === null) {
          at = r.seq;
          break;
        }
      }
      if (at === undefined) await tx.appendCall(row, outcome, null);
      else await tx.insertCallAt(row, outcome, null, at);
      report.added++;
    }
    return report;
  });
}
