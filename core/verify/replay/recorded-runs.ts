/**
 * Replay across recorded runs: a new version of a tool is replayed against the successful live runs of the version
 * it replaces, each run's input, inner calls and responses as exact fixtures, and must reproduce every one whose
 * base calls still answer the same way. Reproducing a run is: every call the new code makes is answered by a call of
 * that run, every call of that run that may change something is made, and the run succeeds with check() holding.
 * A run in which the new code needs an answer from a base tool that answers differently since (an avoided tool that
 * recovered, a changed definition, a refusal that made the old version fail) is listed with why and rejects nothing.
 * The runs a version was replayed against are stored with it; re-verification replays the same ones. A run the
 * proposer does not own (run-access.ts) is reported in host facts only.
 */

import { fingerprint, sameFingerprint } from "../../base-tools/fingerprint.ts";
import { schemaProblems } from "../../base-tools/json-schema.ts";
import type { LiveRun, RunRef, VersionRecord } from "../../store/records.ts";
import type { DistillContext } from "../../tool-distill/context.ts";
import type { CallRecord, Problem } from "../../types.ts";
import { stableStringify } from "../../util/canonical.ts";
import { foreignFailure, foreignMiss, runOwnership } from "../run-access.ts";
import type { VerifyOptions } from "../types.ts";
import {
  fixturesFromCalls,
  recordedFailure,
  replayFailure,
  replayInput,
  replayProblem,
  sitesRun,
} from "./replay.ts";
import type { ReplayCode, RunOutcome } from "./replay-inputs.ts";
import { notApplicableProblem } from "./replay-inputs.ts";

/** The most live runs of a replaced version one verification replays: the newest ones. */
export const MAX_RECORDED_RUNS = 50;

/** What the replays of recorded runs found. */
export interface RecordedReplays {
  /** One per run that rejects the version. */
  problems: Problem[];
  /** One per run replayed (or that could not be), in order. */
  runs: RunOutcome[];
  /** The call sites that made calls in runs it reproduced. */
  covered: number[];
  /** The runs to store with the version, for its re-verifications. */
  refs: RunRef[];
}

/**
 * Replays `version` against the live runs of the version it replaces (a draft: the rebuild's target, else the
 * active or suspect version of its name), or against the runs stored with it (a version verified before).
 */
export async function replayRecordedRuns(
  ctx: DistillContext,
  version: VersionRecord,
  code: ReplayCode,
  sourceCalls: readonly CallRecord[],
  options: VerifyOptions,
): Promise<RecordedReplays> {
  const out: RecordedReplays = { problems: [], runs: [], covered: [], refs: [] };
  let runs: LiveRun[];
  if (version.status === "draft") {
    const replaced = await replacedVersion(ctx, version, options);
    runs = replaced ? await ctx.store.liveRuns(replaced.name, replaced.version, MAX_RECORDED_RUNS) : [];
  } else {
    runs = await ctx.store.liveRunsOf(version.replayRuns);
    const found = new Set(runs.map((r) => r.call));
    for (const ref of version.replayRuns) {
      if (!found.has(ref.call)) out.runs.push({ trace: ref.trace, why: "it is no longer in the store" });
    }
  }
  const changes = new Map<number, Map<string, string>>();
  const owns = runOwnership(ctx.store, version.sourceTrace);
  for (const run of runs) {
    out.refs.push({ trace: run.trace, call: run.call });
    let changed = changes.get(run.version);
    if (!changed) {
      changed = await changedTools(ctx, version.name, run.version, version.sourceTrace, sourceCalls, options);
      changes.set(run.version, changed);
    }
    const result = await replayRun(ctx, run, code, changed, await owns(run.trace));
    out.runs.push({ trace: run.trace, why: result.why });
    if (result.why === null) out.covered.push(...result.covered);
    else if (result.rejects) {
      out.problems.push({
        rule: "recorded-run-not-reproduced",
        message: `recorded run ${run.trace} of v${run.version} not reproduced: ${result.why}: a version that replaces v${run.version} must do what it did in its recorded runs whose base calls still answer the same way`,
      });
    }
  }
  return out;
}

/** The version a draft replaces: a rebuild's target, else the newest active or suspect one of its name before it. */
async function replacedVersion(
  ctx: DistillContext,
  version: VersionRecord,
  options: VerifyOptions,
): Promise<VersionRecord | null> {
  const earlier = (await ctx.store.listVersions({ name: version.name })).filter(
    (v) => v.version < version.version,
  );
  if (options.mustBeat) return earlier.find((v) => v.version === options.mustBeat?.version) ?? null;
  return earlier.filter((v) => v.status === "active" || v.status === "suspect").at(-1) ?? null;
}

/**
 * The base tools whose answers to the replaced version's runs may no longer hold, each with why: the ones it
 * avoided (they failed on every call of its source run, so its runs never asked them), the ones whose definition
 * changed since it was verified, the recovered ones, and the ones that refused its calls in this version's source
 * run (the run-time failure a replacement is written after).
 */
async function changedTools(
  ctx: DistillContext,
  name: string,
  replaced: number,
  sourceTrace: string | null,
  sourceCalls: readonly CallRecord[],
  options: VerifyOptions,
): Promise<Map<string, string>> {
  const changed = new Map<string, string>();
  for (const dep of await ctx.store.getDependencies(name, replaced)) {
    const current = ctx.baseTool(dep.baseTool);
    if (dep.avoided) {
      changed.set(
        dep.baseTool,
        `'${dep.baseTool}' failed on every call of v${replaced}'s source run, so that run never asked it`,
      );
    } else if (current && !sameFingerprint(dep.fingerprint, fingerprint(current))) {
      changed.set(dep.baseTool, `'${dep.baseTool}' changed its definition since v${replaced} was verified`);
    }
  }
  for (const tool of options.recovered ?? []) {
    changed.set(tool, `'${tool}' recovered since v${replaced}'s runs, so they never asked it`);
  }
  const failedRuns = new Set(
    sourceCalls
      .filter(
        (c) => c.kind === "distilled" && c.tool === name && c.version === replaced && c.status === "error",
      )
      .map((c) => c.id),
  );
  for (const c of sourceCalls) {
    if (c.parentId !== null && failedRuns.has(c.parentId) && c.status === "error") {
      changed.set(c.tool, `'${c.tool}' refused v${replaced}'s call in run ${sourceTrace}, after that run`);
    }
  }
  return changed;
}

/**
 * One recorded run replayed: null `why` when reproduced; `rejects` when not, and it is the new code's doing. `own`:
 * the proposer owns the run; otherwise `why` holds host facts only (run-access.ts).
 */
async function replayRun(
  ctx: DistillContext,
  run: LiveRun,
  code: ReplayCode,
  changed: ReadonlyMap<string, string>,
  own: boolean,
): Promise<{ why: string | null; rejects: boolean; covered: number[] }> {
  const skip = (why: string) => ({ why, rejects: false, covered: [] });
  const invalid = schemaProblems(code.meta.inputSchema, run.input);
  if (invalid.length) {
    // The problems name the input's keys and values, which are the run's.
    return skip(`its input does not match this version's inputSchema${own ? `: ${invalid.join("; ")}` : ""}`);
  }
  const recorded = fixturesFromCalls(run.calls);
  const known = (tool: string) => code.tools.has(tool);
  // Where the replay stopped on its own account: a call the run cannot answer, or an answer recording clipped.
  const stopped: { at: { clipped: boolean; tool: string; text: string } | null } = { at: null };
  const { outcome, fixtures } = await replayInput({
    sandbox: ctx.sandbox,
    code: code.instrumented.source,
    sites: code.instrumented.sites,
    allow: code.meta.dependencies,
    input: run.input,
    fixtures: recorded,
    tools: code.tools,
    answer: async ({ step, tool, canonical }, set) => {
      const fixture = set.take(tool, canonical);
      if (fixture?.ok && fixture.clipped === null) return structuredClone(fixture.output);
      if (fixture && !fixture.ok) throw recordedFailure(fixture);
      const declared = Object.keys(ctx.baseTool(tool)?.input_schema["properties"] ?? {});
      const text = fixture
        ? `its recorded answer to call ${fixture.index} was clipped when it was recorded`
        : own
          ? set.explainMiss(step, tool, canonical, "that run")
          : foreignMiss(step, tool, canonical, recorded, declared);
      stopped.at = { clipped: fixture !== null, tool, text };
      throw replayProblem(text);
    },
  });
  const stop = stopped.at;
  if (!outcome.ok) {
    if (stop?.clipped) return skip(stop.text);
    const why = stop === null ? undefined : changed.get(stop.tool);
    if (stop !== null && why !== undefined) return skip(`${stop.text}, and ${why}`);
    // Another agent's run: the replay's own reason when it stopped the run (the code may have caught it and thrown
    // its own text instead), else host facts.
    const failed = own
      ? replayFailure(outcome.failure, "that run")
      : (stop?.text ?? foreignFailure(outcome.failure, known));
    return { why: failed, rejects: true, covered: [] };
  }
  const declined = own
    ? notApplicableProblem(outcome.notApplicable, "that run")
    : outcome.notApplicable === undefined
      ? null
      : "the tool answered notApplicable for the input of that run, where the task was done";
  if (declined !== null) return { why: declined, rejects: true, covered: [] };
  for (const left of fixtures.unused()) {
    if (ctx.baseTool(left.tool)?.annotations?.readOnlyHint === true) continue;
    const args = own ? ` ${stableStringify(left.args)}` : "";
    const what = `it left out call ${left.index} to '${left.tool}'${args}, which may change something`;
    const why = changed.get(left.tool);
    if (why !== undefined) return skip(`${what}, and ${why}`);
    return { why: what, rejects: true, covered: [] };
  }
  return { why: null, rejects: false, covered: sitesRun(outcome) };
}
