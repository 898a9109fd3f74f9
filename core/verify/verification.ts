/**
 * Verification: the static check, the replay check and the efficiency check of one stored version, and the
 * evidence they leave. Replay runs the instrumented code (each call carries its call site's id, which the host
 * records) against the test inputs' recorded runs and the recorded live runs of the version it replaces; argument
 * provenance checks its literals against the source run; call-site coverage requires every site to have run. The
 * rules are written down in docs/verification.md.
 */

import { fingerprint } from "../base-tools/fingerprint.ts";
import { mayWrite } from "../base-tools/tool-effects.ts";
import { DistillError } from "../errors.ts";
import type { RunRef, VersionRecord } from "../store/records.ts";
import type { RegistryData } from "../store/registry-store.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import { runTokens } from "../trace/run-tokens.ts";
import { withVerificationSpan } from "../trace/telemetry.ts";
import type { CallRecord, CheckResult, Problem, ToolDef, VerdictEvidence } from "../types.ts";
import {
  type InstrumentedSource,
  instrumentCallSites,
  type LocatedCallSites,
  locateCallSites,
} from "./call-sites.ts";
import { siteCoverage } from "./coverage.ts";
import { checkArgumentProvenance, type RunFacts } from "./provenance/provenance.ts";
import { earlierRunCalls } from "./provenance/provenance-facts.ts";
import { withRecordedDefaults } from "./replay/recorded-defaults.ts";
import { replayRecordedRuns } from "./replay/recorded-runs.ts";
import { type ReplayCode, replayTestInputs } from "./replay/replay-inputs.ts";
import { checkedSource, type ToolMeta } from "./static/static-check.ts";
import type { ToolAst } from "./tool-syntax.ts";
import type { CheckReport, VerifyOptions } from "./types.ts";
import { formatProblem, noEvidence, testInputsOf } from "./verdict.ts";

const notRun = (why: string): CheckResult => ({
  ok: false,
  problems: [{ rule: "not-run", message: `not run: ${why}` }],
});

/** Runs the static, replay and efficiency checks on one stored version (in a verification span, telemetry.ts). */
export function runChecks(
  ctx: DistillContext,
  version: VersionRecord,
  code: string,
  options: VerifyOptions = {},
): Promise<CheckReport> {
  return withVerificationSpan(
    version,
    () => checksOf(ctx, version, code, options),
    (r) => r,
  );
}

async function checksOf(
  ctx: DistillContext,
  version: VersionRecord,
  code: string,
  options: VerifyOptions,
): Promise<CheckReport> {
  const tools = ctx.tools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const sourceCalls = version.sourceTrace ? await ctx.store.getCalls(version.sourceTrace) : [];
  const sourceTrace = version.sourceTrace ? await ctx.store.getTrace(version.sourceTrace) : null;
  const baseline = await measureBaseline(ctx.store, version);
  const limit = baseline === null ? null : roundLimit(baseline * (1 - ctx.settings.minCallReduction));
  const baselineTokens = sourceTrace ? runTokens(sourceTrace.usage) || null : null;

  const statics = checkedSource(code, tools, options.checked);
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
    replayRuns: [],
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

  const source = { calls: sourceCalls, task: sourceTrace?.task ?? null };
  // Recorded calls carry the defaults of the schemas of their time: a rolled-back schema matches with them too.
  const replayTools = withRecordedDefaults(
    byName,
    await ctx.store.verifiedDefinitions(version.name, version.version),
  );
  const replay = await replayCheck(
    ctx,
    version,
    { code, ast: statics.ast, meta: statics.meta, tools: replayTools },
    source,
    options,
  );
  report.checks.replay = replay.check;
  report.calls = replay.calls;
  report.liveCalls = replay.liveCalls;
  report.evidence = { ...report.evidence, ...replay.evidence };
  report.replayRuns = replay.replayRuns;
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

/** What the replay check found, and the evidence it measured. */
interface ReplayReport {
  check: CheckResult;
  calls: number | null;
  liveCalls: string[];
  evidence: Pick<VerdictEvidence, "callSites" | "literals" | "runs">;
  replayRuns: RunRef[];
}

/**
 * The replay check: argument provenance against the source run, the test inputs' replays, the replays of the
 * replaced version's recorded runs, and call-site coverage over the replays that passed. Every problem is
 * reported at once, in that order.
 */
async function replayCheck(
  ctx: DistillContext,
  version: VersionRecord,
  {
    code,
    ast,
    meta,
    tools,
  }: { code: string; ast: ToolAst | null; meta: ToolMeta; tools: ReadonlyMap<string, ToolDef> },
  source: { calls: readonly CallRecord[]; task: string | null },
  options: VerifyOptions,
): Promise<ReplayReport> {
  const evidence: ReplayReport["evidence"] = { callSites: null, literals: null, runs: null };
  let located: LocatedCallSites;
  let instrumented: InstrumentedSource;
  try {
    // The static check's tree of this same code: call sites and provenance read it instead of parsing again.
    located = ast === null ? locateCallSites(code) : locateCallSites(code, ast);
    instrumented = instrumentCallSites(code, located);
  } catch (err) {
    if (!(err instanceof DistillError && err.code === "PROPOSAL_INVALID")) throw err;
    const check = { ok: false, problems: [{ rule: "uncountable-call", message: err.message }] };
    return { check, calls: null, liveCalls: [], evidence, replayRuns: [] };
  }
  const problems: Problem[] = [];
  if (source.task !== null) {
    const facts = {
      ...provenanceFacts(source.task, version, source.calls),
      writes: mayWrite(meta.dependencies, (name) => tools.get(name)),
      earlier: await earlierRunCalls(ctx.store, version),
    };
    const provenance = checkArgumentProvenance(code, facts, located);
    problems.push(...provenance.problems);
    evidence.literals = { checked: provenance.checked, warned: provenance.warnings.map(formatProblem) };
  }
  const replayCode: ReplayCode = { instrumented, meta, tools };
  // A live verification with a fresh input replays that input alone (its writes are new; the test inputs' are not).
  const fresh = options.live ? options.liveInput : undefined;
  const tested = fresh
    ? {
        ...version,
        testInputs: [fresh.trace === null ? fresh.input : { trace: fresh.trace, input: fresh.input }],
      }
    : version;
  const inputs = await replayTestInputs(ctx, tested, replayCode, source.calls, options);
  problems.push(...inputs.problems);
  const recorded = await replayRecordedRuns(ctx, version, replayCode, source.calls, options);
  problems.push(...recorded.problems);
  if (inputs.calls !== null) {
    const coverage = siteCoverage(
      instrumented.sites,
      [...inputs.covered, ...recorded.covered],
      inputs.reached,
    );
    evidence.callSites = coverage.callSites;
    // A replay that failed stopped early: the sites after it say nothing until it passes. A fresh live input need
    // not reach every site: the test inputs covered them when the version was verified.
    if (inputs.problems.length === 0 && !fresh) problems.push(...coverage.problems);
  }
  const runs = [...inputs.runs, ...recorded.runs];
  if (runs.length > 0) {
    evidence.runs = {
      reproduced: runs.filter((r) => r.why === null).length,
      total: runs.length,
      notReproduced: runs.flatMap((r) => (r.why === null ? [] : [{ trace: r.trace, why: r.why }])),
    };
  }
  return {
    check: { ok: problems.length === 0, problems },
    calls: inputs.calls,
    liveCalls: inputs.liveCalls,
    evidence,
    replayRuns: recorded.refs,
  };
}

/** The source run as argument provenance reads it: its task, the test inputs, its finished base calls in order. */
function provenanceFacts(task: string, version: VersionRecord, calls: readonly CallRecord[]): RunFacts {
  let inputs: Record<string, unknown>[];
  try {
    inputs = testInputsOf(version.testInputs).map((t) => t.input);
  } catch {
    // The replay reports an unreadable test input; provenance then has none to explain a value.
    inputs = [];
  }
  return {
    task,
    inputs,
    calls: calls
      .filter((c) => c.kind === "base" && c.status !== "started")
      .map((c) =>
        c.status === "ok"
          ? { tool: c.tool, args: c.args, output: c.output, ok: true }
          : { tool: c.tool, args: c.args, ok: false },
      ),
  };
}

/** Baseline limits are shown to people: keep 12 × 0.7 at 8.4, not 8.399999999999999. */
function roundLimit(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * The source run's top-level base calls, or the larger baseline of an earlier non-draft version of the same
 * name (a replacement must not get easier to pass than what it replaces).
 */
export async function measureBaseline(store: RegistryData, version: VersionRecord): Promise<number | null> {
  let baseline = version.sourceTrace ? await store.countTopLevelBaseCalls(version.sourceTrace) : null;
  for (const earlier of await store.listVersions({ name: version.name })) {
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
      problems: [
        { rule: "no-baseline", message: "no baseline: the version has no source run to compare with" },
      ],
    };
  }
  const factor = Math.round((1 - minCallReduction) * 100) / 100;
  const line = `${calls} base calls; limit ${limit} (baseline ${baseline} × ${factor})`;
  const problems: Problem[] = [];
  if (calls > limit) {
    problems.push({
      rule: "call-limit",
      message: `${line}: use at least ${Math.round(minCallReduction * 100)}% fewer base calls than the source run`,
    });
  }
  if (mustBeat && mustBeat.calls !== null && calls >= mustBeat.calls) {
    problems.push({
      rule: "rebuild-not-fewer",
      message: `${calls} base calls; the version it replaces (v${mustBeat.version}) needs ${mustBeat.calls}: a rebuild must use fewer`,
    });
  }
  return { ok: problems.length === 0, problems };
}
