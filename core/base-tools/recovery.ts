/**
 * Recovery after outages, without repeating writes. A base tool's infrastructure failures are kept in its health
 * record; the health probe says when it answers again. A version made suspect by runtime failures that were all
 * outages (a store demoted by an older tooldistill, where any failure demoted) comes back when every base tool it
 * calls answers the probe and its replay passes: replay answers from the record, so nothing runs for real.
 */

import { errorMessage } from "../errors.ts";
import { recordedFailures } from "../lifecycle/failure-evidence.ts";
import { verifyVersion } from "../lifecycle/versions.ts";
import { type VersionRecord, versionKey } from "../store/records.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import { reportSummary } from "../verify/verdict.ts";
import type { ChangeEntry, HealthReport } from "./types.ts";

/** Suspect versions whose runtime failures were all outages: the ones a healthy probe may bring back. */
async function outageSuspects(ctx: DistillContext): Promise<VersionRecord[]> {
  const out: VersionRecord[] = [];
  for (const v of await ctx.store.listVersions({ status: "suspect" })) {
    if (!v.problems.includes("runtime_failure")) continue;
    const failures = recordedFailures(await ctx.store.getHistory(v.name, v.version));
    if (failures.length > 0 && failures.every((f) => f.cause !== "tool")) out.push(v);
  }
  return out;
}

/**
 * Probes the base tools that may have recovered (avoided ones, ones with outages, the ones outage suspects call),
 * records each answer in the tool's health, tells `recovered` of each avoided tool that answers, and re-verifies
 * the outage suspects whose tools all answer.
 */
export async function probeAndRecover(
  ctx: DistillContext,
  report: HealthReport,
  recovered: (tool: string, how: string) => Promise<void>,
): Promise<void> {
  const probe = ctx.healthProbe;
  if (!probe) return;
  const watched = new Set(
    (await ctx.store.listVersions())
      .filter((v) => v.status === "active" || v.status === "suspect")
      .map(versionKey),
  );
  const deps = await ctx.store.getDependencies();
  const avoided = new Set(deps.filter((d) => d.avoided && watched.has(versionKey(d))).map((d) => d.baseTool));
  const suspects = await outageSuspects(ctx);
  const needed = (v: VersionRecord) =>
    deps.filter((d) => d.name === v.name && d.version === v.version && !d.avoided).map((d) => d.baseTool);
  const tools = new Set([
    ...avoided,
    ...(await ctx.store.baseHealth()).filter((h) => h.consecutive > 0).map((h) => h.tool),
    ...suspects.flatMap(needed),
  ]);
  const healthy = new Set<string>();
  for (const tool of [...tools].sort()) {
    try {
      const ok = Boolean(await probe(tool));
      await ctx.store.recordProbe(tool, ok);
      report.probed.push({ tool, recovered: ok });
      if (ok) healthy.add(tool);
      if (ok && avoided.has(tool)) await recovered(tool, "the health probe reports it reachable again");
    } catch (err) {
      report.probed.push({ tool, recovered: false, error: errorMessage(err) });
    }
  }
  for (const v of suspects) {
    const calls = needed(v);
    if (!calls.every((t) => healthy.has(t))) continue;
    const why = `its runtime failures were outages and ${calls.map((t) => `'${t}'`).join(", ")} answer the probe again`;
    const e: ChangeEntry = {
      name: v.name,
      version: v.version,
      from: v.status,
      to: v.status,
      problems: v.problems,
      reason: why,
      queuedRebuild: v.queuedRebuild,
      change: null,
    };
    try {
      // Under the tool's lock, re-read: another process that saw the same recovery may have re-verified it.
      await ctx.store.withToolLock(v.name, async () => {
        const now = await ctx.store.getVersion(v.name, v.version);
        if (now?.status !== "suspect" || !now.problems.includes("runtime_failure")) {
          e.to = now?.status ?? v.status;
          e.problems = now?.problems ?? v.problems;
          e.reason += "; already re-verified by another process";
          return;
        }
        const verdict = await verifyVersion(ctx, now, {
          clears: ["runtime_failure"],
          why: "re-verification after its base tools recovered",
        });
        const after = (await ctx.store.getVersion(v.name, v.version)) ?? now;
        e.to = after.status;
        e.problems = after.problems;
        e.reason += `; replay: ${reportSummary(verdict)}`;
      });
    } catch (err) {
      e.reason += `; re-verification could not run: ${errorMessage(err)}`;
    }
    report.changes.push(e);
  }
}
