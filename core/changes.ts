import type { Distiller, Proposal } from "./distiller.ts";
import { DistillError, errorMessage } from "./errors.ts";
import { fingerprint, sameFingerprint } from "./fingerprint.ts";
import {
  addProblem,
  ingestProposal,
  ProposalError,
  parseProposal,
  type RegistryEnv,
  verifyVersion,
} from "./registry.ts";
import { staticCheck } from "./static-check.ts";
import type { VersionRecord } from "./store.ts";
import type { HealthProbe, OpenProblem, Status, Verdict } from "./types.ts";

/** What reacting to base tool changes needs beyond verification. */
export interface ChangeEnv extends RegistryEnv {
  readonly healthProbe: HealthProbe | null;
  distiller(): Promise<Distiller>;
}

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
function watched(env: RegistryEnv): VersionRecord[] {
  return env.store.listVersions().filter((v) => v.status === "active" || v.status === "suspect");
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
export function compareSchemas(env: RegistryEnv): ChangeReport {
  const report: ChangeReport = { changes: [], messages: [] };
  const versions = new Map(watched(env).map((v) => [`${v.name}\u0000${v.version}`, v]));
  if (versions.size === 0) return report;
  // Each tool is hashed once per comparison, however many versions depend on it.
  const current = new Map(env.tools().map((t) => [t.name, fingerprint(t)]));
  for (const dep of env.store.getDependencies()) {
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
    const after = addProblem(env, v, problem, reason, {
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
function markRecovered(env: RegistryEnv, tool: string, report: ChangeReport, how: string): void {
  const avoiders = env.store.getDependencies().filter((d) => d.baseTool === tool && d.avoided);
  for (const dep of avoiders) {
    const v = env.store.getVersion(dep.name, dep.version);
    if (!v || (v.status !== "active" && v.status !== "suspect")) continue;
    const note = `'${tool}' failed on every call in the source run, so this version worked around it; ${how}. A version that uses it may need fewer calls.`;
    // The problem and the queue flag are one write: a rebuild is never queued for a version still unflagged.
    const after = addProblem(
      env,
      v,
      "avoided_tool_recovered",
      `avoided tool '${tool}' recovered`,
      { baseTool: tool },
      () => env.store.setQueuedRebuild(v.name, v.version, true, note),
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
export async function onToolUpdated(env: RegistryEnv, tool: string): Promise<ChangeReport> {
  const report: ChangeReport = { changes: [], messages: [] };
  const current = env.tools().find((t) => t.name === tool);
  if (!current) {
    throw new DistillError(
      "NOT_FOUND",
      `no base tool '${tool}' among the current tools: check the name (tooldistill mcp tools lists MCP tools)`,
    );
  }
  const fp = fingerprint(current);
  const dependents = env.store.getDependencies().filter((d) => d.baseTool === tool && !d.avoided);
  for (const dep of dependents) {
    const v = env.store.getVersion(dep.name, dep.version);
    if (!v || !["active", "suspect", "verified"].includes(v.status)) continue;
    if (sameFingerprint(dep.fingerprint, fp)) continue;
    let before = v;
    if (v.status === "active")
      before = addProblem(env, v, "schema_changed", `base tool '${tool}' was updated`, {
        stored: dep.fingerprint,
        current: fp,
      });
    const verdict = await verifyVersion(env, before, {});
    const after = env.store.getVersion(v.name, v.version)!;
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
  markRecovered(env, tool, report, "it has been reported updated (tooldistill tool-updated)");
  if (report.changes.length === 0)
    report.messages.push(`no distilled tool depends on '${tool}' with a different definition or avoided it`);
  return report;
}

/**
 * `health`: compares the current tool list with the stored dependencies and, with a probe, asks whether avoided
 * tools have recovered. It never calls the executor itself.
 */
export async function health(env: ChangeEnv, options: { probe: boolean }): Promise<HealthReport> {
  const report: HealthReport = { ...compareSchemas(env), probed: [] };
  if (options.probe) {
    if (!env.healthProbe) {
      report.messages.push("no health_probe configured: recoveries of avoided tools are not looked for");
    } else {
      const exposedOrSuspect = new Set(watched(env).map((v) => `${v.name}\u0000${v.version}`));
      const avoided = new Set(
        env.store
          .getDependencies()
          .filter((d) => d.avoided && exposedOrSuspect.has(`${d.name}\u0000${d.version}`))
          .map((d) => d.baseTool),
      );
      for (const tool of [...avoided].sort()) {
        try {
          const recovered = Boolean(await env.healthProbe(tool));
          report.probed.push({ tool, recovered });
          if (recovered) markRecovered(env, tool, report, "the health probe reports it reachable again");
        } catch (err) {
          report.probed.push({ tool, recovered: false, error: errorMessage(err) });
        }
      }
    }
  }
  if (report.changes.length === 0) {
    const suspect = env.store.listVersions({ status: "suspect" });
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

/** The version a rebuild replaces: the queued one, else the exposed or suspect one. */
function rebuildTarget(env: RegistryEnv, name: string): VersionRecord {
  const versions = env.store.listVersions({ name });
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
export async function rebuild(env: ChangeEnv, name: string): Promise<Verdict> {
  const target = rebuildTarget(env, name);
  if (target.verdict?.calls == null) {
    // Without the replaced version's call count a rebuild could accept a longer version than the one it replaces.
    throw new DistillError(
      "TRANSITION",
      `${name} v${target.version} has no stored verdict, so a rebuild has nothing to beat: run tooldistill verify ${name} --version ${target.version} first`,
    );
  }
  const mustBeat = { version: target.version, calls: target.verdict.calls };
  const trace = env.store.getTrace(target.sourceTrace!)!;
  const recovered = env.store
    .getDependencies(target.name, target.version)
    .filter((d) => d.avoided)
    .map((d) => d.baseTool);
  const distiller = await env.distiller();
  let last: Verdict | null = null;
  const verify = async (proposal: Proposal): Promise<Verdict> => {
    const parsed = parseProposal(proposal);
    const meta = staticCheck(parsed.code, env.tools()).meta;
    if (meta && meta.name !== name) {
      throw new ProposalError(`the rebuild must keep the name '${name}' (the code names '${meta.name}')`);
    }
    last = await ingestProposal(env, target.sourceTrace, parsed, {
      recovered,
      mustBeat,
      reason: `rebuild of v${target.version}`,
      clearQueueOf: { name: target.name, version: target.version },
    });
    return last;
  };
  const proposal = await distiller.distill(
    {
      trace,
      calls: env.store.getCalls(trace.id),
      tools: [...env.tools()],
      reason: "rebuild",
      note: target.rebuildNote ?? `a base tool that v${target.version} avoided has recovered`,
      replacing: {
        name: target.name,
        version: target.version,
        code: env.store.readCode(target.name, target.version),
      },
    },
    async (p) => {
      try {
        return await verify(p);
      } catch (err) {
        if (!(err instanceof ProposalError)) throw err;
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

function rejectedVerdict(name: string, message: string): Verdict {
  const notRun = { ok: false, problems: [{ message: "not run: the proposal was refused" }] };
  return {
    name,
    version: 0,
    status: "draft",
    checks: { static: { ok: false, problems: [{ message }] }, replay: notRun, efficiency: notRun },
    calls: null,
    baseline: null,
    limit: null,
    liveCalls: [],
  };
}

/** How long the fallback distiller may take before `finish()` gives up on it. */
export const FALLBACK_TIMEOUT_MS = 120_000;

/**
 * The fallback distiller of `trace.finish()`: one distiller call for a worth-distilling run without a
 * proposal, bounded in time; the result is ingested and verified. Never throws: failures are logged and kept
 * as the trace's note.
 */
export async function fallbackDistill(
  env: ChangeEnv,
  traceId: string,
  timeoutMs = FALLBACK_TIMEOUT_MS,
): Promise<void> {
  const store = env.store;
  try {
    const trace = store.getTrace(traceId);
    if (!trace) return;
    const flags = store.getTraceFlags(traceId);
    let replacing: { name: string; version: number; code: string } | undefined;
    if (flags.replaceName) {
      const failed = store.listVersions({ name: flags.replaceName }).at(-1);
      if (failed)
        replacing = {
          name: failed.name,
          version: failed.version,
          code: store.readCode(failed.name, failed.version),
        };
    }
    const distiller = await env.distiller();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the fallback distiller took longer than ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      timer.unref();
    });
    const proposal = await Promise.race([
      distiller.distill({
        trace,
        calls: store.getCalls(traceId),
        tools: [...env.tools()],
        reason: replacing ? "replacement" : "fallback",
        ...(replacing
          ? { replacing, note: `'${replacing.name}' v${replacing.version} failed at run time in this run` }
          : {}),
      }),
      timeout,
    ]).finally(() => clearTimeout(timer));
    store.markProposed(traceId);
    if (!proposal) {
      store.setTraceNote(traceId, "fallback distiller: declined to propose a tool");
      return;
    }
    const verdict = await ingestProposal(env, traceId, parseProposal(proposal), {
      reason: "fallback distiller",
    });
    store.setTraceNote(traceId, `fallback distiller: ${verdict.name} v${verdict.version} ${verdict.status}`);
    env.logger.info(
      `tooldistill: fallback distiller proposed ${verdict.name} v${verdict.version}: ${verdict.status}`,
    );
  } catch (err) {
    const message = `fallback distiller failed: ${errorMessage(err)}`;
    env.logger.error(`tooldistill: ${message}`);
    try {
      store.setTraceNote(traceId, message);
    } catch {
      // The store itself failing is already reported by the line above.
    }
  }
}
