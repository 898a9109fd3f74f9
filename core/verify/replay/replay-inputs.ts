/**
 * The replay of a version's test inputs: each one against the recorded run it names (the source run, unless it
 * names another successful recorded run of the proposer's own, run-access.ts, as `{ trace, input }`). A call that no recorded call answers runs live
 * only where the user allowed it: `verify --live`, `allow_live_verification`, or a recovered tool's failure.
 */

import { schemaProblems } from "../../base-tools/json-schema.ts";
import { DistillError } from "../../errors.ts";
import type { VersionRecord } from "../../store/records.ts";
import type { DistillContext } from "../../tool-distill/context.ts";
import type { CallRecord, Problem, ToolDef } from "../../types.ts";
import type { InstrumentedSource } from "../call-sites.ts";
import { type OwnsRun, runOwnership } from "../run-access.ts";
import type { ToolMeta } from "../static/static-check.ts";
import type { TestInput, VerifyOptions } from "../types.ts";
import { testInputsOf } from "../verdict.ts";
import {
  type FixtureSet,
  fixturesFromCalls,
  type ReplayedCall,
  recordedFailure,
  replayFailure,
  replayInput,
  replayProblem,
  sitesRun,
} from "./replay.ts";

/** One replay against a recorded run, for the evidence: the run's trace, and why it was not reproduced. */
export interface RunOutcome {
  trace: string;
  /** Null when reproduced. */
  why: string | null;
}

/** What the test inputs' replays found. */
export interface InputReplays {
  problems: Problem[];
  /** The most base calls one test input made; null when none could be replayed. */
  calls: number | null;
  liveCalls: string[];
  /** The call sites that made calls in replays that passed. */
  covered: number[];
  /** The call sites that made calls in any replay, failed ones included (a failed replay still ran them). */
  reached: number[];
  /** One entry per test input replayed against a recording (none under `verify --live`). */
  runs: RunOutcome[];
}

/** The code and what the static check read from it, as every replay of one verification uses them. */
export interface ReplayCode {
  instrumented: InstrumentedSource;
  meta: ToolMeta;
  tools: ReadonlyMap<string, ToolDef>;
}

/** Replays every test input of `version`; `sourceCalls` are the calls of its source run. */
export async function replayTestInputs(
  ctx: DistillContext,
  version: VersionRecord,
  code: ReplayCode,
  sourceCalls: readonly CallRecord[],
  options: VerifyOptions,
): Promise<InputReplays> {
  const out: InputReplays = { problems: [], calls: null, liveCalls: [], covered: [], reached: [], runs: [] };
  let inputs: TestInput[];
  try {
    inputs = testInputsOf(version.testInputs);
  } catch (err) {
    if (!(err instanceof DistillError)) throw err;
    out.problems.push({ rule: "test-inputs", message: err.message });
    return out;
  }
  if (inputs.length === 0) {
    out.problems.push({
      rule: "test-inputs",
      message: "test_inputs is empty: give at least one input taken from the source run",
    });
    return out;
  }
  if (!version.sourceTrace && !options.live && inputs.every((t) => t.trace === null)) {
    out.problems.push({ rule: "no-source-run", message: "no source run to replay against" });
    return out;
  }
  let maxCalls = 0;
  // A live verification's input (`verify --live --trace`) is named by whoever holds the store, not by the proposer:
  // every recorded run is theirs to name.
  const owns = runOwnership(ctx.store, options.liveInput ? null : version.sourceTrace);
  for (const [i, test] of inputs.entries()) {
    const label = inputs.length > 1 ? `test input ${i + 1}: ` : "";
    const problem = (rule: string, message: string) =>
      out.problems.push({ rule, message: `${label}${message}` });
    const inputProblems = schemaProblems(code.meta.inputSchema, test.input);
    if (inputProblems.length) {
      problem(
        "test-input-schema",
        `input ${JSON.stringify(test.input)} does not match the tool's inputSchema: ${inputProblems.join("; ")}`,
      );
      continue;
    }
    const run = await recordedRun(ctx, test, version.sourceTrace, sourceCalls, options, owns);
    if (typeof run === "string") {
      problem("test-input-run", run);
      continue;
    }
    const { outcome } = await replayInput({
      sandbox: ctx.sandbox,
      code: code.instrumented.source,
      sites: code.instrumented.sites,
      allow: code.meta.dependencies,
      input: test.input,
      fixtures: fixturesFromCalls(run.calls),
      tools: code.tools,
      answer: (call, fixtures) => answer(ctx, version, call, fixtures, run.name, options, out.liveCalls),
    });
    maxCalls = Math.max(maxCalls, outcome.calls.length);
    out.reached.push(...sitesRun(outcome));
    const why = outcome.ok
      ? notApplicableProblem(outcome.notApplicable, run.name)
      : replayFailure(outcome.failure, run.name, options.live === true);
    if (why !== null) problem("replay-mismatch", why);
    else out.covered.push(...sitesRun(outcome));
    if (!options.live && run.trace !== null) out.runs.push({ trace: run.trace, why });
  }
  out.calls = maxCalls;
  return out;
}

/** The run a test input is replayed against: its calls and how messages name it, or why there is none. */
async function recordedRun(
  ctx: DistillContext,
  test: TestInput,
  sourceTrace: string | null,
  sourceCalls: readonly CallRecord[],
  options: VerifyOptions,
  owns: OwnsRun,
): Promise<{ trace: string | null; name: string; calls: readonly CallRecord[] } | string> {
  if (test.trace === null || test.trace === sourceTrace) {
    if (sourceTrace === null && !options.live) {
      return `no source run to replay against: name a recorded run as { "trace": "<id>", "input": {...} }`;
    }
    return { trace: sourceTrace, name: "the source run", calls: sourceCalls };
  }
  const trace = await ctx.store.getTrace(test.trace);
  // Another agent's run is refused as if it did not exist: its answers would reach the proposer's code and
  // verdict, and telling it apart from a missing one would say that it exists.
  if (trace === null || !(await owns(trace.id))) {
    return `no recorded run '${test.trace}' of this session: a test input may name only a successful recorded run of the proposing trace or of its Claude Code session (tooldistill traces list)`;
  }
  if (trace.outcome !== true) {
    const outcome = trace.outcome === null ? "not set" : "failed";
    return `the run '${test.trace}' is not recorded as successful (outcome ${outcome}): replay only against runs that succeeded`;
  }
  return { trace: trace.id, name: `the run '${trace.id}'`, calls: await ctx.store.getCalls(trace.id) };
}

/** Answers one call of a test input's replay from the recording, or live where that is allowed. */
async function answer(
  ctx: DistillContext,
  version: VersionRecord,
  { step, tool, args, canonical }: ReplayedCall,
  fixtures: FixtureSet,
  run: string,
  options: VerifyOptions,
  liveCalls: string[],
): Promise<unknown> {
  const live = async (why: string): Promise<unknown> => {
    if (!ctx.executor) {
      throw replayProblem(`call ${step} to '${tool}' ${why} and no executor is configured to run it live`);
    }
    liveCalls.push(`${tool} (call ${step})`);
    return ctx.executor(tool, args);
  };
  const fixture = fixtures.take(tool, canonical);
  if (options.live) {
    const decision = options.livePolicy?.decide(step, tool, canonical, fixture) ?? { live: true };
    if ("record" in decision) return decision.record;
    if ("refuse" in decision) throw replayProblem(decision.refuse);
    return live("runs live (verify --live)");
  }
  if (fixture) {
    if (fixture.ok && fixture.clipped !== null) {
      throw replayProblem(
        `call ${step} to '${tool}': its recorded output was clipped when it was recorded (${fixture.clipped}), so replay cannot answer with it: raise max_output_bytes in tooldistill.yaml and record the run again`,
      );
    }
    if (fixture.ok) return structuredClone(fixture.output);
    if (options.recovered?.includes(tool)) {
      if (ctx.settings.allowLiveVerification)
        return live("has only a failure recorded before the tool recovered");
      throw replayProblem(
        `call ${step} to '${tool}' has only a failure recorded before '${tool}' recovered: set allow_live_verification: true in tooldistill.yaml (real side effects) or run tooldistill verify ${version.name} --version ${version.version} --live`,
      );
    }
    throw recordedFailure(fixture);
  }
  if (ctx.settings.allowLiveVerification) return live("matches no recorded call");
  throw replayProblem(fixtures.explainMiss(step, tool, canonical, run));
}

/**
 * A run the recording shows done cannot be "not mine to do": notApplicable is for inputs the tool does not cover,
 * never for an input of a recorded successful run.
 */
export function notApplicableProblem(reason: string | undefined, run: string): string | null {
  if (reason === undefined) return null;
  return `the tool answered notApplicable(${JSON.stringify(reason)}) for the input of ${run}, where the task was done: it must do the task for its test inputs (notApplicable is for inputs it does not cover)`;
}
