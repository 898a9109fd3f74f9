/**
 * Reacting to base tool changes: the start-up review of definitions, `tool-updated` and `health`. A changed
 * definition is classified against the ones each version was verified with: cosmetic (text only) changes nothing;
 * compatible is re-verified with the status unchanged; breaking makes the version suspect at once and is
 * re-verified (active on pass, deprecated on fail); a tool that is gone makes it suspect(dependency_missing).
 */

import { DistillError, errorMessage } from "../errors.ts";
import { addProblem, verifyVersion } from "../lifecycle/versions.ts";
import {
  type DependencyRecord,
  type NewDefinition,
  type VerifiedDefinition,
  type VersionRecord,
  versionKey,
} from "../store/records.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import type { Status, ToolDef } from "../types.ts";
import { reportSummary } from "../verify/verdict.ts";
import { fingerprint, fingerprintOnce } from "./fingerprint.ts";
import { type PassedProperties, passedProperties } from "./passed-properties.ts";
import { probeAndRecover } from "./recovery.ts";
import type { ChangeEntry, ChangeReport, HealthReport } from "./types.ts";
import { checkDefinition, type DefinitionStatus, worse } from "./verified-definitions.ts";

/** A version to re-verify after a definition change, and the entry of the report that says so. */
export interface Reverification {
  v: VersionRecord;
  entry: ChangeEntry;
  tools: string[];
}

/** Versions whose dependencies are watched: the ones agents use or may use again without a new proposal. */
async function watched(ctx: DistillContext, statuses: readonly Status[]): Promise<VersionRecord[]> {
  return (await ctx.store.listVersions()).filter((v) => statuses.includes(v.status));
}

/**
 * What the start-up's first look (the embedded store's seed of the exposed set, lifecycle/exposure-cache.ts) read
 * and judged, a moment before the review runs: the review takes it instead of reading and judging it all again.
 * Rows by version (`versionKey`); `judged`, the versions it already classified against the current definitions.
 */
export interface StartupSnapshot {
  /** Every watched (active or suspect) version the first look saw, judged against the current definitions. */
  judged: Map<string, DefinitionStatus>;
}

/** The statuses whose versions a review watches unless told otherwise (the start-up's seed judges these too). */
export const WATCHED_STATUSES: readonly Status[] = ["active", "suspect"];

/** How a version's dependencies stand against the current base tool definitions. */
export interface VersionReview {
  status: DefinitionStatus;
  /** The base tools whose definition is not one the version was verified with. */
  changed: string[];
  why: string;
}

/**
 * Classifies `v`'s dependencies (only `onlyTool`'s, when given) against the current definitions and the ones it
 * was verified with (pure: `deps` and `known` may hold other versions' rows too). `passed` is what its calls pass
 * to each base tool (read from its code); without it every change counts as if a call passed everything.
 */
export function classifyVersion(
  v: VersionRecord,
  deps: readonly DependencyRecord[],
  known: readonly VerifiedDefinition[],
  baseTool: DistillContext["baseTool"],
  onlyTool?: string,
  fingerprintOf: (tool: ToolDef) => string | null = fingerprint,
  passed: PassedProperties | null = null,
): VersionReview {
  let status: DefinitionStatus = "known";
  const reasons: string[] = [];
  const changed: string[] = [];
  for (const d of deps) {
    if (d.name !== v.name || d.version !== v.version || d.avoided) continue;
    if (onlyTool !== undefined && d.baseTool !== onlyTool) continue;
    const mine = known.filter(
      (k) => k.name === v.name && k.version === v.version && k.baseTool === d.baseTool,
    );
    const check = checkDefinition(mine, baseTool(d.baseTool), fingerprintOf, passed?.get(d.baseTool) ?? null);
    if (check.status === "known") continue;
    status = worse(status, check.status);
    changed.push(d.baseTool);
    reasons.push(
      `base tool '${d.baseTool}' ${check.status === "missing" ? "" : `changed (${check.status}): `}${check.reasons.join("; ")}`,
    );
  }
  return { status, changed, why: reasons.join("; ") };
}

function entry(
  before: VersionRecord,
  after: VersionRecord,
  reason: string,
  change: ChangeEntry["change"],
): ChangeEntry {
  return {
    name: before.name,
    version: before.version,
    from: before.status,
    to: after.status,
    problems: after.problems,
    reason,
    queuedRebuild: after.queuedRebuild,
    change,
  };
}

/**
 * The first half of a review (start-up, `health`, `tool-updated`): every watched version's dependencies (only
 * `onlyTool`'s, when given) against the current definitions. A gone tool or a breaking change makes the version
 * suspect now; compatible and breaking changes are returned for re-verification; cosmetic ones are reported and
 * change nothing; definitions the version was verified with are not touched at all. A version found changed is
 * looked at again under its tool's lock, so of several processes noticing one change only the first acts on it.
 */
export async function reviewDefinitions(
  ctx: DistillContext,
  options: {
    statuses?: readonly Status[];
    onlyTool?: string;
    /** The pass's fingerprints of current definitions, when the caller already hashed some (the start-up). */
    fingerprintOf?: (tool: ToolDef) => string | null;
    /** The start-up's first look, judged with the same `fingerprintOf`. */
    snapshot?: StartupSnapshot;
  } = {},
): Promise<{ report: ChangeReport; jobs: Reverification[] }> {
  const report: ChangeReport = { changes: [], messages: [] };
  const jobs: Reverification[] = [];
  const statuses = options.statuses ?? WATCHED_STATUSES;
  const versions = await watched(ctx, statuses);
  if (versions.length === 0) return { report, jobs };
  // Each current definition fingerprinted once: a start-up reviews every version. The start-up's judgement
  // serves while it covers every version (a version made since is not in it): one found changed is read again
  // under its lock below.
  const snapshot =
    options.onlyTool === undefined && versions.every((v) => options.snapshot?.judged.has(versionKey(v)))
      ? options.snapshot
      : undefined;
  const fingerprintOf = options.fingerprintOf ?? fingerprintOnce();
  // Without a snapshot (or a version made since it), every version's rows, read once and grouped by version.
  let rows: { deps: Map<string, DependencyRecord[]>; known: Map<string, VerifiedDefinition[]> } | undefined;
  for (const first of versions) {
    const key = versionKey(first);
    let quick = snapshot?.judged.get(key);
    if (quick === undefined) {
      rows ??= {
        deps: Map.groupBy(await ctx.store.getDependencies(), versionKey),
        known: Map.groupBy(await ctx.store.verifiedDefinitions(), versionKey),
      };
      quick = classifyVersion(
        first,
        rows.deps.get(key) ?? [],
        rows.known.get(key) ?? [],
        ctx.baseTool,
        options.onlyTool,
        fingerprintOf,
      ).status;
    }
    if (quick === "known") continue;
    try {
      await ctx.store.withToolLock(first.name, async () => {
        const v = await ctx.store.getVersion(first.name, first.version);
        if (!v || !statuses.includes(v.status)) return;
        // Judged by what its calls pass: a change of a property none of them passes does not break it.
        const review = classifyVersion(
          v,
          await ctx.store.getDependencies(v.name, v.version),
          await ctx.store.verifiedDefinitions(v.name, v.version),
          ctx.baseTool,
          options.onlyTool,
          fingerprint,
          passedProperties(await ctx.store.readCode(v.name, v.version)),
        );
        await applyReview(ctx, v, review, report, jobs);
      });
    } catch (err) {
      // Another process moved the version meanwhile: its change stands, this review reports it.
      report.messages.push(`${first.name} v${first.version}: not reviewed now: ${errorMessage(err)}`);
    }
  }
  return { report, jobs };
}

/** Acts on one version's review: records a cosmetic change, flags a missing tool or a breaking change. */
async function applyReview(
  ctx: DistillContext,
  v: VersionRecord,
  { status, changed, why }: VersionReview,
  report: ChangeReport,
  jobs: Reverification[],
): Promise<void> {
  if (status === "known") return;
  if (status === "cosmetic") {
    // Text cannot change a run: the definition joins the known set, so the next start says nothing.
    await ctx.store.addVerifiedDefinitions(v.name, v.version, definitionsOf(ctx, changed));
    report.changes.push(entry(v, v, `${why}: nothing to re-verify`, "cosmetic"));
  } else if (status === "missing") {
    const after = await addProblem(ctx, v, "dependency_missing", why, { baseTools: changed });
    report.changes.push(entry(v, after, why, "missing"));
  } else {
    const after =
      status === "breaking" ? await addProblem(ctx, v, "schema_changed", why, { baseTools: changed }) : v;
    const e = entry(v, after, why, status);
    report.changes.push(e);
    jobs.push({ v: after, entry: e, tools: changed });
  }
}

/** The current definitions of `tools` with their fingerprints, for a version's set of known definitions. */
function definitionsOf(ctx: DistillContext, tools: readonly string[]): NewDefinition[] {
  return tools.flatMap((tool) => {
    const def = ctx.baseTool(tool);
    const fp = fingerprint(def);
    return def && fp !== null ? [{ baseTool: tool, fingerprint: fp, definition: def }] : [];
  });
}

/**
 * The asynchronous half: re-verifies each version of `jobs` against the current base tools and completes its
 * entry of the report. Never throws: a verification that cannot run is reported on the entry.
 */
export async function reverify(ctx: DistillContext, jobs: readonly Reverification[]): Promise<void> {
  for (const job of jobs) {
    try {
      await ctx.store.withToolLock(job.v.name, () => reverifyLocked(ctx, job));
    } catch (err) {
      job.entry.reason += `; re-verification could not run: ${errorMessage(err)}`;
    }
  }
}

/**
 * One re-verification, under the tool's lock: re-read, and skipped when another process already re-verified the
 * version against the current definitions (or its re-verification failed and took it out of use), so a change
 * noticed by many workers is re-verified once.
 */
async function reverifyLocked(ctx: DistillContext, job: Reverification): Promise<void> {
  const current = (await ctx.store.getVersion(job.v.name, job.v.version)) ?? job.v;
  const known = await ctx.store.verifiedDefinitions(current.name, current.version);
  const settled = job.tools.every(
    (t) =>
      checkDefinition(
        known.filter((k) => k.baseTool === t),
        ctx.baseTool(t),
      ).status === "known",
  );
  const watching = ["active", "suspect", "verified"].includes(current.status);
  if (!watching || (settled && !current.problems.includes("schema_changed"))) {
    job.entry.to = current.status;
    job.entry.problems = current.problems;
    job.entry.queuedRebuild = current.queuedRebuild;
    job.entry.reason += "; already re-verified by another process";
    return;
  }
  const tools = job.tools.map((t) => `'${t}'`).join(", ");
  const verdict = await verifyVersion(ctx, current, { why: `re-verification after ${tools} changed` });
  const after = (await ctx.store.getVersion(job.v.name, job.v.version)) ?? current;
  const passed = verdict.checks.static.ok && verdict.checks.replay.ok && verdict.checks.efficiency.ok;
  job.entry.to = after.status;
  job.entry.problems = after.problems;
  job.entry.queuedRebuild = after.queuedRebuild;
  job.entry.reason += passed ? "; re-verified: passed" : `; re-verified: ${reportSummary(verdict)}`;
}

/** Marks versions that avoided `tool` as improvable (suspect(avoided_tool_recovered)) and queues their rebuild. */
export async function markRecovered(
  ctx: DistillContext,
  tool: string,
  report: ChangeReport,
  how: string,
): Promise<void> {
  const avoiders = (await ctx.store.getDependencies()).filter((d) => d.baseTool === tool && d.avoided);
  for (const dep of avoiders) {
    const v = await ctx.store.getVersion(dep.name, dep.version);
    if (!v || (v.status !== "active" && v.status !== "suspect")) continue;
    const note = `'${tool}' failed on every call in the source run, so this version worked around it; ${how}. A version that uses it may need fewer calls.`;
    // The problem and the queue flag are one write: a rebuild is never queued for a version still unflagged.
    const after = await addProblem(
      ctx,
      v,
      "avoided_tool_recovered",
      `avoided tool '${tool}' recovered`,
      { baseTool: tool },
      (tx) => tx.setQueuedRebuild(v.name, v.version, true, note),
    );
    report.changes.push(
      entry(
        v,
        { ...after, queuedRebuild: true },
        `avoided tool '${tool}' recovered: queued for a rebuild`,
        null,
      ),
    );
  }
}

/**
 * `tool-updated <tool>`: the versions depending on it are reviewed against its current definition and re-verified
 * as the change requires; versions that avoided it become suspect(avoided_tool_recovered) and are queued for a
 * rebuild.
 */
export async function onToolUpdated(ctx: DistillContext, tool: string): Promise<ChangeReport> {
  if (!ctx.baseTool(tool)) {
    throw new DistillError(
      "NOT_FOUND",
      `no base tool '${tool}' among the current tools: check the name (tooldistill mcp tools lists MCP tools)`,
    );
  }
  const { report, jobs } = await reviewDefinitions(ctx, {
    statuses: ["active", "suspect", "verified"],
    onlyTool: tool,
  });
  await reverify(ctx, jobs);
  await markRecovered(ctx, tool, report, "it has been reported updated (tooldistill tool-updated)");
  if (report.changes.length === 0)
    report.messages.push(
      `no distilled tool depends on '${tool}' with a definition it was not verified with, or avoided it`,
    );
  return report;
}

/**
 * `health`: reviews the current definitions (re-verifying what changed) and, with a probe, asks whether avoided
 * tools and base tools with outages have recovered; a version demoted only for outages comes back when its base
 * tools answer again and replay passes. It never calls the executor itself.
 */
export async function health(ctx: DistillContext, options: { probe: boolean }): Promise<HealthReport> {
  const { report: changes, jobs } = await reviewDefinitions(ctx);
  await reverify(ctx, jobs);
  const report: HealthReport = { ...changes, probed: [], baseTools: [] };
  if (options.probe && !ctx.healthProbe) {
    report.messages.push("no health_probe configured: recoveries of base tools are not looked for");
  } else if (options.probe) {
    await probeAndRecover(ctx, report, (tool, how) => markRecovered(ctx, tool, report, how));
  }
  report.baseTools = await ctx.store.baseHealth();
  if (report.changes.length === 0) {
    const suspect = await ctx.store.listVersions({ status: "suspect" });
    if (suspect.length === 0) report.messages.push("all distilled tools match their base tools");
    else {
      report.messages.push("no new change found, but these versions are still suspect:");
      for (const v of suspect) {
        const live = v.problems.includes("runtime_failure") ? " --live" : "";
        report.messages.push(
          `  ${v.name} v${v.version} [${v.problems.join(", ")}]: tooldistill verify ${v.name} --version ${v.version}${live}`,
        );
      }
    }
  }
  return report;
}
