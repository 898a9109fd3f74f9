/**
 * Reacting to base tool changes: the start-up schema comparison, `tool-updated` (re-verify dependents, queue
 * rebuilds of the versions that avoided a recovered tool) and `health` (with the probe).
 */
import type { DistillContext } from "./context.ts";
import { DistillError, errorMessage } from "./errors.ts";
import { fingerprint, sameFingerprint } from "./fingerprint.ts";
import type { VersionRecord } from "./store.ts";
import type { OpenProblem, Status } from "./types.ts";
import { addProblem, verifyVersion } from "./versions.ts";

/** One version a change touched. */
export interface ChangeEntry {
  name: string;
  version: number;
  from: Status;
  to: Status;
  problems: OpenProblem[];
  reason: string;
  queuedRebuild: boolean;
}

/** What `onToolUpdated`, `health` and the start-up comparison did, per affected version. */
export interface ChangeReport {
  changes: ChangeEntry[];
  messages: string[];
}

/** A health report: the change report plus what the probe said per avoided tool. */
export interface HealthReport extends ChangeReport {
  probed: { tool: string; recovered: boolean; error?: string }[];
}

/** Versions whose dependencies are watched: the ones agents use or may use again without a new proposal. */
function watched(ctx: DistillContext): VersionRecord[] {
  return ctx.store.listVersions().filter((v) => v.status === "active" || v.status === "suspect");
}

function entry(before: VersionRecord, after: VersionRecord, reason: string): ChangeEntry {
  return {
    name: before.name,
    version: before.version,
    from: before.status,
    to: after.status,
    problems: after.problems,
    reason,
    queuedRebuild: after.queuedRebuild,
  };
}

/**
 * The cheap comparison of `check_schemas_on_start` (and the first half of `health`): a dependency whose tool is
 * gone makes its version suspect(dependency_missing); one whose fingerprint changed, suspect(schema_changed).
 * Synchronous and store-only, so it runs in the ToolDistill constructor before the first call.
 */
export function compareSchemas(ctx: DistillContext): ChangeReport {
  const report: ChangeReport = { changes: [], messages: [] };
  const versions = new Map(watched(ctx).map((v) => [`${v.name}\u0000${v.version}`, v]));
  if (versions.size === 0) return report;
  // Each tool is hashed once per comparison, however many versions depend on it.
  const current = new Map(ctx.tools().map((t) => [t.name, fingerprint(t)]));
  for (const dep of ctx.store.getDependencies()) {
    let v = versions.get(`${dep.name}\u0000${dep.version}`);
    if (!v || dep.avoided) continue;
    let problem: OpenProblem | null = null;
    let reason = "";
    const fp = current.get(dep.baseTool);
    if (fp === undefined) {
      problem = "dependency_missing";
      reason = `base tool '${dep.baseTool}' is no longer offered`;
    } else if (!sameFingerprint(dep.fingerprint, fp)) {
      problem = "schema_changed";
      reason = `base tool '${dep.baseTool}' changed its definition`;
    }
    if (!problem || v.problems.includes(problem)) continue;
    const after = addProblem(ctx, v, problem, reason, {
      baseTool: dep.baseTool,
      stored: dep.fingerprint,
      current: fp ?? null,
    });
    report.changes.push(entry(v, after, reason));
    v = after;
    versions.set(`${dep.name}\u0000${dep.version}`, v);
  }
  return report;
}

/** Marks versions that avoided `tool` as improvable (suspect(avoided_tool_recovered)) and queues their rebuild. */
function markRecovered(ctx: DistillContext, tool: string, report: ChangeReport, how: string): void {
  const avoiders = ctx.store.getDependencies().filter((d) => d.baseTool === tool && d.avoided);
  for (const dep of avoiders) {
    const v = ctx.store.getVersion(dep.name, dep.version);
    if (!v || (v.status !== "active" && v.status !== "suspect")) continue;
    const note = `'${tool}' failed on every call in the source run, so this version worked around it; ${how}. A version that uses it may need fewer calls.`;
    // The problem and the queue flag are one write: a rebuild is never queued for a version still unflagged.
    const after = addProblem(
      ctx,
      v,
      "avoided_tool_recovered",
      `avoided tool '${tool}' recovered`,
      { baseTool: tool },
      () => ctx.store.setQueuedRebuild(v.name, v.version, true, note),
    );
    report.changes.push(
      entry(v, { ...after, queuedRebuild: true }, `avoided tool '${tool}' recovered: queued for a rebuild`),
    );
  }
}

/**
 * `tool-updated <tool>`: versions depending on it with a different stored fingerprint are re-verified at once
 * (pass → schema_changed cleared and new fingerprints stored; fail → deprecated); versions that avoided it
 * become suspect(avoided_tool_recovered) and are queued for a rebuild.
 */
export async function onToolUpdated(ctx: DistillContext, tool: string): Promise<ChangeReport> {
  const report: ChangeReport = { changes: [], messages: [] };
  const current = ctx.tools().find((t) => t.name === tool);
  if (!current) {
    throw new DistillError(
      "NOT_FOUND",
      `no base tool '${tool}' among the current tools: check the name (tooldistill mcp tools lists MCP tools)`,
    );
  }
  const fp = fingerprint(current);
  const dependents = ctx.store.getDependencies().filter((d) => d.baseTool === tool && !d.avoided);
  for (const dep of dependents) {
    const v = ctx.store.getVersion(dep.name, dep.version);
    if (!v || !["active", "suspect", "verified"].includes(v.status)) continue;
    if (sameFingerprint(dep.fingerprint, fp)) continue;
    let before = v;
    if (v.status === "active")
      before = addProblem(ctx, v, "schema_changed", `base tool '${tool}' was updated`, {
        stored: dep.fingerprint,
        current: fp,
      });
    const verdict = await verifyVersion(ctx, before, {});
    const after = ctx.store.getVersion(v.name, v.version)!;
    const passed = verdict.checks.static.ok && verdict.checks.replay.ok && verdict.checks.efficiency.ok;
    report.changes.push(
      entry(
        v,
        after,
        passed
          ? `re-verified against the new '${tool}': passed`
          : `re-verified against the new '${tool}': failed`,
      ),
    );
  }
  markRecovered(ctx, tool, report, "it has been reported updated (tooldistill tool-updated)");
  if (report.changes.length === 0)
    report.messages.push(`no distilled tool depends on '${tool}' with a different definition or avoided it`);
  return report;
}

/**
 * `health`: compares the current tool list with the stored dependencies and, with a probe, asks whether avoided
 * tools have recovered. It never calls the executor itself.
 */
export async function health(ctx: DistillContext, options: { probe: boolean }): Promise<HealthReport> {
  const report: HealthReport = { ...compareSchemas(ctx), probed: [] };
  if (options.probe) {
    if (!ctx.healthProbe) {
      report.messages.push("no health_probe configured: recoveries of avoided tools are not looked for");
    } else {
      const exposedOrSuspect = new Set(watched(ctx).map((v) => `${v.name}\u0000${v.version}`));
      const avoided = new Set(
        ctx.store
          .getDependencies()
          .filter((d) => d.avoided && exposedOrSuspect.has(`${d.name}\u0000${d.version}`))
          .map((d) => d.baseTool),
      );
      for (const tool of [...avoided].sort()) {
        try {
          const recovered = Boolean(await ctx.healthProbe(tool));
          report.probed.push({ tool, recovered });
          if (recovered) markRecovered(ctx, tool, report, "the health probe reports it reachable again");
        } catch (err) {
          report.probed.push({ tool, recovered: false, error: errorMessage(err) });
        }
      }
    }
  }
  if (report.changes.length === 0) {
    const suspect = ctx.store.listVersions({ status: "suspect" });
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
