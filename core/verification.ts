import { canonicalArgs } from "./canonical.ts";
import type { DistillContext } from "./context.ts";
import { DistillError } from "./errors.ts";
import { fingerprint } from "./fingerprint.ts";
import type { LivePolicy } from "./live-plan.ts";
import { FixtureSet, fixturesFromCalls } from "./replay.ts";
import { schemaProblems } from "./schema.ts";
import { staticCheck, type ToolMeta } from "./static-check.ts";
import type { DependencyRecord, Store, VersionRecord } from "./store.ts";
import type { CheckResult, Problem, ToolDef, Verdict, VerdictEvidence } from "./types.ts";
import { noEvidence } from "./verdict.ts";

/** Options of one verification. */
export interface VerifyOptions {
  /** `verify --live`: calls run against the executor (the user's explicit consent), as `livePolicy` decides. */
  live?: boolean;
  /** Decides each call of a live verification by what its tool may write (see live-plan.ts). */
  livePolicy?: LivePolicy;
  /** Base tools that recovered since the source run: their recorded failures are not replayed as failures. */
  recovered?: readonly string[];
  /** A rebuild must also beat the version it replaces. */
  mustBeat?: { version: number; calls: number | null };
}

/** The three checks' results plus what verification measured; the caller applies the lifecycle. */
export interface CheckReport {
  checks: Verdict["checks"];
  passed: boolean;
  calls: number | null;
  baseline: number | null;
  limit: number | null;
  liveCalls: string[];
  evidence: VerdictEvidence;
  baselineTokens: number | null;
  meta: ToolMeta | null;
  dependencies: Omit<DependencyRecord, "name" | "version">[];
}

const notRun = (why: string): CheckResult => ({ ok: false, problems: [{ message: `not run: ${why}` }] });

/** Runs the static, replay and efficiency checks on one stored version. */
export async function runChecks(
  ctx: DistillContext,
  version: VersionRecord,
  code: string,
  options: VerifyOptions = {},
): Promise<CheckReport> {
  const tools = ctx.tools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const sourceCalls = version.sourceTrace ? ctx.store.getCalls(version.sourceTrace) : [];
  const sourceTrace = version.sourceTrace ? ctx.store.getTrace(version.sourceTrace) : null;
  const baseline = measureBaseline(ctx.store, version);
  const limit = baseline === null ? null : roundLimit(baseline * (1 - ctx.settings.minCallReduction));
  const baselineTokens = sourceTrace
    ? sourceTrace.usage.input_tokens +
        sourceTrace.usage.output_tokens +
        sourceTrace.usage.cache_creation_input_tokens +
        sourceTrace.usage.cache_read_input_tokens || null
    : null;

  const statics = staticCheck(code, tools);
  const report: CheckReport = {
    checks: {
      static: { ok: statics.ok, problems: statics.problems },
      replay: notRun("the static check failed"),
      efficiency: notRun("the static check failed"),
    },
    passed: false,
    calls: null,
    baseline,
    limit,
    liveCalls: [],
    evidence: noEvidence(),
    baselineTokens,
    meta: statics.meta,
    dependencies: [],
  };
  if (!statics.ok || !statics.meta) return report;

  // Dependencies are read from the source; avoided tools (every call failed in the source run) are added.
  const avoided = avoidedTools(sourceCalls);
  const depNames = new Set([...statics.meta.dependencies, ...avoided]);
  report.dependencies = [...depNames].sort().map((baseTool) => ({
    baseTool,
    fingerprint: fingerprint(byName.get(baseTool)),
    avoided: avoided.has(baseTool) && !statics.meta!.dependencies.includes(baseTool),
  }));

  const replay = await replayAll(ctx, version, code, statics.meta, byName, sourceCalls, options);
  report.checks.replay = replay.check;
  report.calls = replay.calls;
  report.liveCalls = replay.liveCalls;
  if (!replay.check.ok) {
    report.checks.efficiency = notRun("the replay check failed");
    return report;
  }
  report.checks.efficiency = efficiencyCheck(
    replay.calls,
    baseline,
    limit,
    ctx.settings.minCallReduction,
    options.mustBeat,
  );
  report.passed = report.checks.efficiency.ok;
  return report;
}

/** Baseline limits are shown to people: keep 12 × 0.7 at 8.4, not 8.399999999999999. */
function roundLimit(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * The source run's top-level base calls, or the larger baseline of an earlier non-draft version of the same
 * name (a replacement must not get easier to pass than what it replaces).
 */
export function measureBaseline(store: Store, version: VersionRecord): number | null {
  let baseline = version.sourceTrace ? store.countTopLevelBaseCalls(version.sourceTrace) : null;
  for (const earlier of store.listVersions({ name: version.name })) {
    const unverified = earlier.status === "draft" || earlier.status === "rejected";
    if (earlier.version >= version.version || unverified || earlier.baseline === null) continue;
    if (baseline === null || earlier.baseline > baseline) baseline = earlier.baseline;
  }
  return baseline;
}

/** Base tools every call of which failed in the source run. */
export function avoidedTools(calls: readonly { tool: string; kind: string; status: string }[]): Set<string> {
  const seen = new Map<string, boolean>();
  for (const c of calls) {
    if (c.kind !== "base" || c.status === "started") continue;
    seen.set(c.tool, (seen.get(c.tool) ?? false) || c.status === "ok");
  }
  return new Set([...seen].filter(([, anyOk]) => !anyOk).map(([tool]) => tool));
}

/** Efficiency: replayed calls ≤ baseline × (1 − min_call_reduction), and fewer than a replaced version's. */
export function efficiencyCheck(
  calls: number | null,
  baseline: number | null,
  limit: number | null,
  minCallReduction: number,
  mustBeat?: { version: number; calls: number | null },
): CheckResult {
  if (calls === null) return notRun("no replayed call count");
  if (baseline === null || limit === null) {
    return {
      ok: false,
      problems: [{ message: "no baseline: the version has no source run to compare with" }],
    };
  }
  const factor = Math.round((1 - minCallReduction) * 100) / 100;
  const line = `${calls} base calls; limit ${limit} (baseline ${baseline} × ${factor})`;
  const problems: Problem[] = [];
  if (calls > limit) {
    problems.push({
      message: `${line}: use at least ${Math.round(minCallReduction * 100)}% fewer base calls than the source run`,
    });
  }
  if (mustBeat && mustBeat.calls !== null && calls >= mustBeat.calls) {
    problems.push({
      message: `${calls} base calls; the version it replaces (v${mustBeat.version}) needs ${mustBeat.calls}: a rebuild must use fewer`,
    });
  }
  return { ok: problems.length === 0, problems };
}

async function replayAll(
  ctx: DistillContext,
  version: VersionRecord,
  code: string,
  meta: ToolMeta,
  byName: Map<string, ToolDef>,
  sourceCalls: ReturnType<Store["getCalls"]>,
  options: VerifyOptions,
): Promise<{ check: CheckResult; calls: number | null; liveCalls: string[] }> {
  const problems: Problem[] = [];
  const liveCalls: string[] = [];
  const inputs = version.testInputs;
  if (inputs.length === 0) {
    return {
      check: {
        ok: false,
        problems: [{ message: "test_inputs is empty: give at least one input taken from the source run" }],
      },
      calls: null,
      liveCalls,
    };
  }
  if (!version.sourceTrace && !options.live) {
    return {
      check: { ok: false, problems: [{ message: "no source run to replay against" }] },
      calls: null,
      liveCalls,
    };
  }
  const fixtures = fixturesFromCalls(sourceCalls);
  const recovered = new Set(options.recovered ?? []);
  let maxCalls = 0;
  for (const [i, input] of inputs.entries()) {
    const label = inputs.length > 1 ? `test input ${i + 1}: ` : "";
    const inputProblems = schemaProblems(meta.inputSchema, input);
    if (inputProblems.length) {
      problems.push({
        message: `${label}input ${JSON.stringify(input)} does not match the tool's inputSchema: ${inputProblems.join("; ")}`,
      });
      continue;
    }
    const set = new FixtureSet(fixtures);
    let step = 0;
    const outcome = await ctx.sandbox.run({
      source: code,
      input,
      allow: meta.dependencies,
      runCheck: true,
      call: async (tool, args) => {
        step += 1;
        const def = byName.get(tool);
        if (!def) {
          throw replayProblem(`call ${step} to '${tool}': no such base tool`);
        }
        const invalid = schemaProblems(def.input_schema, args);
        if (invalid.length) {
          throw replayProblem(
            `call ${step} to '${tool}': arguments do not match its current input schema: ${invalid.join("; ")}`,
          );
        }
        const canonical = canonicalArgs(args, def.input_schema);
        const live = async (why: string): Promise<unknown> => {
          if (!ctx.executor) {
            throw replayProblem(
              `call ${step} to '${tool}' ${why} and no executor is configured to run it live`,
            );
          }
          liveCalls.push(`${tool} (call ${step})`);
          return ctx.executor(tool, args);
        };
        const fixture = set.take(tool, canonical);
        if (options.live) {
          const answer = options.livePolicy?.decide(step, tool, canonical, fixture) ?? { live: true };
          if ("record" in answer) return answer.record;
          if ("refuse" in answer) throw replayProblem(answer.refuse);
          return live("runs live (verify --live)");
        }
        if (fixture) {
          if (fixture.ok && fixture.clipped !== null) {
            throw replayProblem(
              `call ${step} to '${tool}': its recorded output was clipped when it was recorded (${fixture.clipped}), so replay cannot answer with it: raise max_output_bytes in tooldistill.yaml and record the run again`,
            );
          }
          if (fixture.ok) return structuredClone(fixture.output);
          if (recovered.has(tool)) {
            if (ctx.settings.allowLiveVerification)
              return live("has only a failure recorded before the tool recovered");
            throw replayProblem(
              `call ${step} to '${tool}' has only a failure recorded before '${tool}' recovered: set allow_live_verification: true in tooldistill.yaml (real side effects) or run tooldistill verify ${version.name} --version ${version.version} --live`,
            );
          }
          throw new DistillError("EXECUTOR", fixture.error ?? "recorded failure");
        }
        if (ctx.settings.allowLiveVerification) return live("matches no recorded call");
        throw replayProblem(set.explainMiss(step, tool, canonical));
      },
    });
    maxCalls = Math.max(maxCalls, outcome.calls.length);
    if (outcome.ok && outcome.notApplicable !== undefined) {
      // The recorded run did the task for this input, so "not mine to do" contradicts the record.
      problems.push({
        message: `${label}the tool answered notApplicable(${JSON.stringify(outcome.notApplicable)}) for an input of the recorded run, where the task was done: it must do the task for its test inputs (notApplicable is for inputs it does not cover)`,
      });
      continue;
    }
    if (outcome.ok) continue;
    const f = outcome.failure;
    // A call the replay itself refused (a mismatch, a schema problem) names its own reason; any other failed call
    // replayed a failure recorded in the source run.
    if (f.errorCode === "REPLAY") problems.push({ message: `${label}${f.message}` });
    else if (f.kind === "call_failed") {
      problems.push({
        message: `${label}call ${f.step ?? "?"} to '${f.tool ?? "?"}' failed as recorded in the source run: ${f.message}; a distilled tool must follow calls that succeeded`,
      });
    } else if (f.kind === "check_failed") {
      problems.push({ message: `${label}check(result) did not hold: ${f.message}` });
    } else {
      problems.push({ message: `${label}${f.kind.replaceAll("_", " ")}: ${f.message}` });
    }
  }
  return { check: { ok: problems.length === 0, problems }, calls: maxCalls, liveCalls };
}

/** A call replay refuses on its own account (not a recorded failure): the message is the problem to report. */
function replayProblem(message: string): DistillError {
  return new DistillError("REPLAY", message);
}
