/**
 * Distilling with a distiller (a model) rather than the agent: `rebuild` of a version whose avoided tool
 * recovered, and the fallback distiller of `trace.finish()` for a run worth distilling without a proposal.
 */

import { DistillError, errorMessage } from "../errors.ts";
import type { VersionRecord } from "../store/records.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import type { Verdict } from "../types.ts";
import { withTimeout } from "../util/timeout.ts";
import { checkSource } from "../verify/static/static-check.ts";
import { parseProposal, rejectedVerdict } from "../verify/verdict.ts";
import type { Proposal } from "./distiller.ts";
import { ingestProposal } from "./proposal.ts";

/** The version a rebuild replaces: the queued one, else the exposed or suspect one. */
async function rebuildTarget(ctx: DistillContext, name: string): Promise<VersionRecord> {
  const versions = await ctx.store.listVersions({ name });
  if (versions.length === 0) throw new DistillError("NOT_FOUND", `no distilled tool named '${name}'`);
  const target =
    versions.filter((v) => v.queuedRebuild && v.status !== "deprecated").at(-1) ??
    versions.filter((v) => v.status === "active" || v.status === "suspect").at(-1);
  if (!target) {
    throw new DistillError(
      "NOT_FOUND",
      `${name} has no active or suspect version to rebuild (${versions.map((v) => `v${v.version} ${v.status}`).join(", ")})`,
    );
  }
  if (!target.sourceTrace)
    throw new DistillError("NOT_FOUND", `${name} v${target.version} has no source run to rebuild from`);
  return target;
}

/**
 * `rebuild <name>`: hands the source run and a note about the recovered tool to the distiller and ingests the
 * result as a new version, verified like any other; it must also beat the version it replaces. The distiller may
 * retry twice with the verdict of a rejected attempt.
 */
export async function rebuild(ctx: DistillContext, name: string): Promise<Verdict> {
  // One rebuild of a tool at a time across processes; the target is read under the lock, so a rebuild another
  // process finished meanwhile (its queue flag cleared) is seen.
  return ctx.store.withToolLock(name, () => rebuildLocked(ctx, name));
}

async function rebuildLocked(ctx: DistillContext, name: string): Promise<Verdict> {
  const target = await rebuildTarget(ctx, name);
  if (target.verdict?.calls == null) {
    // Without the replaced version's call count a rebuild could accept a longer version than the one it replaces.
    throw new DistillError(
      "TRANSITION",
      `${name} v${target.version} has no stored verdict, so a rebuild has nothing to beat: run tooldistill verify ${name} --version ${target.version} first`,
    );
  }
  const mustBeat = { version: target.version, calls: target.verdict.calls };
  const trace = (await ctx.store.getTrace(target.sourceTrace!))!;
  const recovered = (await ctx.store.getDependencies(target.name, target.version))
    .filter((d) => d.avoided)
    .map((d) => d.baseTool);
  const distiller = await ctx.distiller();
  let last: Verdict | null = null;
  const verify = async (proposal: Proposal): Promise<Verdict> => {
    const parsed = parseProposal(proposal);
    // The one check of this proposal: ingestion and verification reuse it.
    const checked = checkSource(parsed.code, ctx.tools());
    const meta = checked.meta;
    if (meta && meta.name !== name) {
      throw new DistillError(
        "PROPOSAL_INVALID",
        `the rebuild must keep the name '${name}' (the code names '${meta.name}')`,
      );
    }
    last = await ingestProposal(ctx, target.sourceTrace, parsed, {
      recovered,
      mustBeat,
      reason: `rebuild of v${target.version}`,
      clearQueueOf: { name: target.name, version: target.version },
      checked,
    });
    return last;
  };
  const proposal = await distiller.distill(
    {
      trace,
      calls: await ctx.store.getCalls(trace.id),
      tools: [...ctx.tools()],
      reason: "rebuild",
      note: target.rebuildNote ?? `a base tool that v${target.version} avoided has recovered`,
      replacing: {
        name: target.name,
        version: target.version,
        code: await ctx.store.readCode(target.name, target.version),
      },
    },
    async (p) => {
      try {
        return await verify(p);
      } catch (err) {
        if (!(err instanceof DistillError && err.code === "PROPOSAL_INVALID")) throw err;
        return rejectedVerdict(name, err.message);
      }
    },
  );
  if (!proposal)
    throw new DistillError("DISTILLER", `the distiller declined to propose a rebuild of '${name}'`);
  // A distiller that did not use `verify` (a custom one) still gets its result verified here.
  // The target's queue flag was cleared with the passing verdict, in the same transaction.
  return last ?? (await verify(proposal));
}

/** How long the fallback distiller may take before `finish()` gives up on it. */
export const FALLBACK_TIMEOUT_MS = 120_000;

/**
 * The fallback distiller of `trace.finish()`: one distiller call for a worth-distilling run without a
 * proposal, bounded in time; the result is ingested and verified. Never throws: failures are logged and kept
 * as the trace's note.
 */
export async function fallbackDistill(
  ctx: DistillContext,
  traceId: string,
  timeoutMs = FALLBACK_TIMEOUT_MS,
): Promise<void> {
  const store = ctx.store;
  try {
    const trace = await store.getTrace(traceId);
    if (!trace) return;
    const flags = await store.getTraceFlags(traceId);
    let replacing: { name: string; version: number; code: string } | undefined;
    if (flags.replaceName) {
      const failed = (await store.listVersions({ name: flags.replaceName })).at(-1);
      if (failed)
        replacing = {
          name: failed.name,
          version: failed.version,
          code: await store.readCode(failed.name, failed.version),
        };
    }
    const distiller = await ctx.distiller();
    const proposal = await withTimeout(
      distiller.distill({
        trace,
        calls: await store.getCalls(traceId),
        tools: [...ctx.tools()],
        reason: replacing ? "replacement" : "fallback",
        ...(replacing
          ? { replacing, note: `'${replacing.name}' v${replacing.version} failed at run time in this run` }
          : {}),
      }),
      timeoutMs,
      () => new DistillError("DISTILLER", `the fallback distiller took longer than ${timeoutMs / 1000} s`),
    );
    await store.markProposed(traceId);
    if (!proposal) {
      await store.setTraceNote(traceId, "fallback distiller: declined to propose a tool");
      return;
    }
    const verdict = await ingestProposal(ctx, traceId, parseProposal(proposal), {
      reason: "fallback distiller",
    });
    await store.setTraceNote(
      traceId,
      `fallback distiller: ${verdict.name} v${verdict.version} ${verdict.status}`,
    );
    ctx.logger.info(
      `tooldistill: fallback distiller proposed ${verdict.name} v${verdict.version}: ${verdict.status}`,
    );
  } catch (err) {
    const message = `fallback distiller failed: ${errorMessage(err)}`;
    ctx.logger.error(`tooldistill: ${message}`);
    try {
      await store.setTraceNote(traceId, message);
    } catch {
      // The store itself failing is already reported by the line above.
    }
  }
}
