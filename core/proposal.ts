/**
 * A `propose_distilled_tool` call of an agent: recorded on its trace, parsed, stored as the tool's next version,
 * verified, and answered with the verdict's text. A malformed proposal is an answer too, never a throw.
 */
import type { DistillContext } from "./context.ts";
import { DistillError, errorMessage } from "./errors.ts";
import { PROPOSE_TOOL_NAME } from "./prompts.ts";
import type { ExecuteOptions, ExecuteResult } from "./trace.ts";
import { parseProposal, verdictText } from "./verdict.ts";
import { ingestProposal } from "./versions.ts";

/** Handles one proposal made in trace `traceId`; `options.callId` completes a call row a hook recorded. */
export async function handleProposal(
  ctx: DistillContext,
  traceId: string,
  input: Record<string, unknown>,
  options: ExecuteOptions = {},
): Promise<ExecuteResult> {
  ctx.store.markProposed(traceId);
  // The plugin's PreToolUse hook may already have recorded this call: complete that row instead of a second one.
  const id =
    options.callId ??
    ctx.store.startCall({
      traceId,
      tool: PROPOSE_TOOL_NAME,
      kind: "proposal",
      args: { code: "(see tool file)" },
    });
  try {
    const verdict = await ingestProposal(ctx, traceId, parseProposal(input));
    ctx.store.finishCall(id, { name: verdict.name, version: verdict.version, status: verdict.status }, null);
    return { content: verdictText(verdict), isError: verdict.status === "draft" };
  } catch (err) {
    try {
      ctx.store.failCall(id, errorMessage(err), null);
    } catch {
      // The store itself failing is what the caller reports.
    }
    if (!(err instanceof DistillError && err.code === "PROPOSAL_INVALID")) throw err;
    return {
      content: `rejected: ${err.message}\nFix it and call ${PROPOSE_TOOL_NAME} again.`,
      isError: true,
    };
  }
}
