/**
 * Proposals: a `propose_distilled_tool` call of an agent (recorded on its trace, answered with the verdict's text)
 * and the ingestion every proposal goes through, the agent's, a rebuild's or the fallback distiller's: read the
 * code's name, store it as the tool's next version (or find the version that already has this code), verify it.
 * A malformed proposal is an answer too, never a throw.
 */

import { DistillError, errorMessage } from "../errors.ts";
import { equivalentHeld, heldVerdict } from "../lifecycle/runtime-hold.ts";
import { runningVerification, type VerifyVersionOptions, verifyVersion } from "../lifecycle/versions.ts";
import type { VersionRecord } from "../store/records.ts";
import { hashSource } from "../store/tool-files.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import type { ExecuteOptions, ExecuteResult } from "../trace/trace.ts";
import type { Problem, Verdict } from "../types.ts";
import { toolNameProblem } from "../util/tool-names.ts";
import { boundedText } from "../verify/proposal-limits.ts";
import { runOwnership, withheldVerdict } from "../verify/run-access.ts";
import { checkedSource } from "../verify/static/static-check.ts";
import { formatProblem, parseProposal, rejectedVerdict, verdictText } from "../verify/verdict.ts";
import type { Proposal } from "./distiller.ts";
import { PROPOSE_TOOL_NAME } from "./prompts.ts";

/** Handles one proposal made in trace `traceId`; `options.callId` completes a call row a hook recorded. */
export async function handleProposal(
  ctx: DistillContext,
  traceId: string,
  input: Record<string, unknown>,
  options: ExecuteOptions = {},
): Promise<ExecuteResult> {
  await ctx.store.markProposed(traceId);
  // The plugin's PreToolUse hook may already have recorded this call: complete that row instead of a second one.
  const id =
    options.callId ??
    (await ctx.store.startCall({
      traceId,
      tool: PROPOSE_TOOL_NAME,
      kind: "proposal",
      args: { code: "(see tool file)" },
    }));
  try {
    const verdict = await ingestProposal(ctx, traceId, parseProposal(input));
    await ctx.store.finishCall(
      id,
      { name: verdict.name, version: verdict.version, status: verdict.status },
      null,
    );
    const failed = !(verdict.checks.static.ok && verdict.checks.replay.ok && verdict.checks.efficiency.ok);
    return { content: verdictText(verdict), isError: failed };
  } catch (err) {
    try {
      await ctx.store.failCall(id, errorMessage(err), null);
    } catch {
      // The store itself failing is what the caller reports.
    }
    if (!(err instanceof DistillError && err.code === "PROPOSAL_INVALID")) throw err;
    return {
      content: boundedText(`rejected: ${err.message}`, `Fix it and call ${PROPOSE_TOOL_NAME} again.`),
      isError: true,
    };
  }
}

/**
 * Stores a proposal as the next version of its tool and verifies it. The name, description and schema are read
 * from the code; a name that cannot be read is refused before anything is stored. Code byte-identical to a version
 * of the same tool that is not rejected is that version: the proposal gets its verdict, and the lookup and the
 * insert are one transaction, so concurrent identical proposals, from any number of processes, store one version.
 */
export async function ingestProposal(
  ctx: DistillContext,
  sourceTrace: string | null,
  proposal: Proposal,
  options: VerifyVersionOptions & { reason?: string } = {},
): Promise<Verdict> {
  // Checked once: the verification below reuses this check (and its parse) when the stored code is this code.
  const statics = checkedSource(proposal.code, ctx.tools(), options.checked);
  const listed = (problems: readonly Problem[]) => problems.map(formatProblem).join("\n");
  if (!statics.meta) {
    throw new DistillError(
      "PROPOSAL_INVALID",
      `the tool's name, description and inputSchema could not be read, so nothing was stored:\n${listed(statics.problems)}`,
    );
  }
  const meta = statics.meta;
  // The name becomes a folder under tools/: one that is not a valid name is refused before anything is written.
  if (toolNameProblem(meta.name) !== null) {
    const named = statics.problems.filter((p) => p.token === meta.name);
    throw new DistillError(
      "PROPOSAL_INVALID",
      `the tool's name cannot be used, so nothing was stored:\n${listed(named.length ? named : [{ rule: "tool-name", message: toolNameProblem(meta.name)! }])}`,
    );
  }
  const found = await ctx.store.transaction(async (tx) => {
    const same = await tx.versionWithCode(meta.name, hashSource(proposal.code));
    if (same) return { v: same, existing: true };
    // The code of a version held back for a runtime failure, with a comment or formatting changed, is that version.
    const held = await equivalentHeld(tx, meta.name, proposal.code);
    if (held) return { v: held, existing: true, held: true };
    const created = await tx.createVersion({
      name: meta.name,
      code: proposal.code,
      description: meta.description,
      inputSchema: meta.inputSchema,
      testInputs: proposal.test_inputs,
      sourceTrace,
      reason: options.reason ?? "proposed",
    });
    return { v: created, existing: false };
  });
  if (!found.existing) return verifyVersion(ctx, found.v, { ...options, checked: statics });
  if ("held" in found) return heldVerdict(found.v);
  if (options.mustBeat) {
    // A rebuild must beat the version it replaces; the same code cannot.
    return rejectedVerdict(
      meta.name,
      `the code is identical to ${meta.name} v${found.v.version}: a rebuild must change it to use fewer base calls`,
    );
  }
  const verdict = await sameCodeVerdict(ctx, found.v);
  // That version's verdict speaks of its own source run: another agent's, unless this proposer owns it.
  const owner = found.v.sourceTrace;
  const mine =
    sourceTrace === null || (owner !== null && (await runOwnership(ctx.store, sourceTrace)(owner)));
  return mine ? verdict : withheldVerdict(verdict);
}

/**
 * The verdict of a version an identical proposal found: the one its verification gave, once it has one. A
 * verification still running in this process is waited for; one that is not (another process verifies it, or one
 * was interrupted) is run here, and when the other process commits first its verdict is the answer.
 */
async function sameCodeVerdict(ctx: DistillContext, v: VersionRecord): Promise<Verdict> {
  await runningVerification(ctx.store, v)?.catch(() => {});
  const stored = async () => {
    const now = await ctx.store.getVersion(v.name, v.version);
    return now?.verdict ? { ...now.verdict, status: now.status } : null;
  };
  const known = await stored();
  if (known) return known;
  try {
    return await verifyVersion(ctx, (await ctx.store.getVersion(v.name, v.version)) ?? v);
  } catch (err) {
    const after = err instanceof DistillError && err.code === "TRANSITION" ? await stored() : null;
    if (after) return after;
    throw err;
  }
}
