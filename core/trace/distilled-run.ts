import { baseCallTimeout } from "../base-tools/base-failure.ts";
import { callWithRetries } from "../base-tools/base-retry.ts";
import { schemaProblems } from "../base-tools/json-schema.ts";
import { isReadOnly } from "../base-tools/tool-effects.ts";
import { DistillError, errorMessage } from "../errors.ts";
import { decideDemotion, EVIDENCE_OUTCOMES } from "../lifecycle/demotion.ts";
import { exposedVersions } from "../lifecycle/exposure.ts";
import { callerAttribution, callerConsequence, callerEvidence } from "../lifecycle/input-attribution.ts";
import { isExposed } from "../lifecycle/lifecycle.ts";
import { addProblem } from "../lifecycle/versions.ts";
import type { SandboxCall, SandboxFailure } from "../sandbox/types.ts";
import type { VersionRecord } from "../store/records.ts";
import type { RegistryData } from "../store/registry-store.ts";
import { hashSource } from "../store/tool-files.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import { canonicalArgs, receivedText } from "../util/canonical.ts";
import { clip, oneLine } from "../util/text.ts";
import { withTimeout } from "../util/timeout.ts";
import {
  type CallSite,
  type InstrumentedSource,
  instrumentCallSites,
  locateCallSites,
} from "../verify/call-sites.ts";
import { resultContent } from "./recordable.ts";
import { withWorkflowSpan } from "./telemetry.ts";
import {
  type ExecuteOptions,
  type ExecuteResult,
  noteReplacement,
  recordBaseCall,
  type Trace,
} from "./trace.ts";

/**
 * Runs the exposed distilled tool called `name` (one of `exposed`, the set `activeTools()` offers), or returns
 * null when there is none of that name (a base tool's name always means the base tool). The version is read
 * again first: another process may have demoted it since the set was read.
 */
export async function runExposed(
  ctx: DistillContext,
  exposed: readonly VersionRecord[],
  trace: Trace,
  name: string,
  input: Record<string, unknown>,
  options: ExecuteOptions = {},
): Promise<ExecuteResult | null> {
  if (ctx.baseTool(name)) return null;
  // A tool another process promoted a moment ago may not be in the set in memory yet: read the store then.
  const offered =
    exposed.find((x) => x.name === name) ??
    (await exposedVersions(ctx.store, ctx.settings.maxExposedTools)).find((x) => x.name === name);
  if (!offered) return null;
  const v = await ctx.store.getVersion(offered.name, offered.version);
  return v && isExposed(v.status, v.problems) ? runDistilled(ctx, trace, v, input, options) : null;
}

/**
 * Runs an exposed distilled tool live: validates the input, runs the module in the sandbox against the
 * executor (inner calls recorded under the distilled call), and on failure returns the structured error,
 * demotes the version to suspect(runtime_failure) and lets the agent fall back to the base tools.
 */
export async function runDistilled(
  ctx: DistillContext,
  trace: Trace,
  v: VersionRecord,
  input: Record<string, unknown>,
  options: ExecuteOptions = {},
): Promise<ExecuteResult> {
  const { store } = ctx;
  const args = canonicalArgs(input, v.inputSchema);
  // Matching reads the canonical args; replaying this run gives the code the input as it came (recorded-runs.ts).
  const rawArgs = receivedText(input);
  let callId: number;
  if (options.callId === undefined) {
    callId = await store.startCall({
      traceId: trace.id,
      tool: v.name,
      kind: "distilled",
      args,
      version: v.version,
      rawArgs,
    });
  } else {
    // Claude Code's PreToolUse hook already recorded this call (with its tool_use_id): complete that row.
    callId = options.callId;
    await store.setCallKind(callId, "distilled", v.version);
    await store.setCallArgs(callId, args, rawArgs);
  }
  const started = performance.now();
  const refuse = async (message: string): Promise<ExecuteResult> => {
    await store.failCall(callId, message, performance.now() - started);
    return { content: `Error: ${message}`, isError: true };
  };

  // Invalid input is the caller's mistake, not the tool's: no demotion.
  const invalid = schemaProblems(v.inputSchema, input);
  if (invalid.length)
    return refuse(
      `invalid input for '${v.name}': ${invalid.join("; ")}. Call it again with input that matches its schema.`,
    );

  let code: string;
  try {
    code = await store.readCode(v.name, v.version);
  } catch (err) {
    return refuse(errorMessage(err));
  }
  if (hashSource(code) !== v.sourceHash) {
    ctx.logger.warn(
      `tooldistill: ${store.codeLocation(v.name, v.version)} was edited after verification; refusing to run it`,
    );
    return refuse(
      `the file of '${v.name}' v${v.version} was edited after it was verified, so it is not run. ` +
        `Propose the edited code as a new version (propose_distilled_tool) to have it verified. Complete the task with the base tools.`,
    );
  }

  const allow = (await store.getDependencies(v.name, v.version))
    .filter((d) => !d.avoided)
    .map((d) => d.baseTool);
  const outcome = await withWorkflowSpan(
    { traceId: trace.id, callId },
    v,
    () =>
      ctx.sandbox.run({
        ...runnableSource(code, v.sourceHash),
        input,
        allow,
        call: async (tool, args) => {
          const def = ctx.baseTool(tool);
          if (!def) throw new DistillError("NOT_FOUND", `no such base tool '${tool}'`);
          // Verification checked the arguments against the schema of its day: the call goes out only if they fit today's.
          const invalid = schemaProblems(def.input_schema, args);
          if (invalid.length) {
            throw new DistillError(
              "SCHEMA",
              `the arguments do not match the current input schema of '${tool}', so the call was not made: ${invalid.join("; ")}`,
            );
          }
          // The sandbox does not count time spent waiting for base tools, so a hung executor needs its own bound.
          // An outage of a tool that may be called again is retried here, each attempt recorded (base-retry.ts).
          const r = await callWithRetries(def, ctx.settings.baseCallRetries, () =>
            withTimeout(
              recordBaseCall(ctx, trace.id, def, args, callId, (what, err) => trace.warn(what, err)),
              BASE_CALL_TIMEOUT_MS,
              () => baseCallTimeout(tool, BASE_CALL_TIMEOUT_MS),
            ),
          );
          // The executor's own error goes on, so the sandbox can tell an outage from a refused call.
          if (!r.ok) throw r.thrown;
          return r.output;
        },
      }),
    (o) => (o.ok ? null : o.failure.kind),
  );
  const latency = performance.now() - started;
  const run = {
    name: v.name,
    version: v.version,
    traceId: trace.id,
    callId,
    innerCalls: outcome.calls.length,
  };
  // The outcomes its call sites declared that the run took (the host's record): not failures of the tool.
  const declared = outcome.calls.flatMap((c, i) =>
    c.outcome === undefined
      ? []
      : [{ step: i + 1, tool: c.tool, outcome: c.outcome, error: c.error ?? null }],
  );
  if (outcome.ok && outcome.notApplicable !== undefined) {
    const reason = outcome.notApplicable;
    const evidence = declared.length > 0 ? { reason, declared } : { reason };
    await store.transaction(async (tx) => {
      await tx.finishCall(callId, { not_applicable: reason }, latency);
      await tx.recordRun({ ...run, outcome: "not_applicable", evidence });
    });
    return {
      content: notApplicableContent(v, reason, outcome.calls, ctx),
      isError: false,
      notApplicable: reason,
    };
  }
  if (outcome.ok) {
    await store.transaction(async (tx) => {
      await tx.finishCall(callId, outcome.result, latency);
      await tx.recordRun(
        declared.length > 0
          ? { ...run, outcome: "declared", evidence: { declared } }
          : { ...run, outcome: "ok" },
      );
    });
    return { content: resultContent(outcome.result), isError: false };
  }

  const f = outcome.failure;
  const evidence = {
    trace: trace.id,
    call: callId,
    kind: f.kind,
    cause: f.cause,
    message: clip(f.message, MAX_FAILURE_CHARS),
    step: f.step ?? null,
    tool: f.tool ?? null,
  };
  const expected = v.verdict?.calls ?? null;
  // An outage of a base tool, an overloaded host, or a refusal of what the caller's input passed straight through
  // says nothing against the distilled tool: it stays.
  const caller = callerAttribution(input, f, outcome.calls, ctx.sandbox.limits.maxMessageBytes);
  if (f.cause !== "tool" || caller) {
    const consequence = caller ? callerConsequence(caller) : CONSEQUENCE[f.cause];
    const text = structuredError(v, f, outcome.calls, expected, ctx, consequence);
    await store.transaction(async (tx) => {
      await tx.failCall(callId, text, latency);
      await tx.recordRun(
        caller
          ? { ...run, outcome: "caller", evidence: { ...evidence, caller: callerEvidence(caller) } }
          : { ...run, outcome: f.cause, evidence },
      );
    });
    return { content: text, isError: true };
  }
  // One failure of its own is a data point: the demotion rule decides on the tool's last runs.
  const rule = ctx.settings.demotion;
  const earlier = await store.recentRuns(v.name, v.version, Math.max(0, rule.window - 1), EVIDENCE_OUTCOMES);
  const decision = decideDemotion(
    rule,
    ["tool", ...earlier.map((r) => r.outcome)],
    (await store.getRunStats(v.name, v.version)).successes,
  );
  const consequence = decision.demote
    ? CONSEQUENCE.tool
    : `This run failed, but the tool stays available (${decision.reason}). Complete the task using the base tools directly.`;
  const text = structuredError(v, f, outcome.calls, expected, ctx, consequence);
  const record = async (tx: RegistryData) => {
    await tx.failCall(callId, text, latency);
    await tx.recordRun({ ...run, outcome: "tool", evidence });
  };
  if (!decision.demote) {
    await store.transaction(record);
    return { content: text, isError: true };
  }
  const failures = [evidence, ...earlier.filter((r) => r.outcome === "tool").map((r) => r.evidence)];
  const current = (await store.getVersion(v.name, v.version)) ?? v;
  // The failed call, the run and the demotion are one write: the version is never left exposed after it.
  await addProblem(
    ctx,
    current,
    "runtime_failure",
    `runtime failure: ${clip(f.message, MAX_FAILURE_CHARS)}; demoted: ${decision.reason}`,
    { demotion: decision.reason, failures },
    async (tx) => {
      await record(tx);
      await tx.setReplaceName(trace.id, v.name);
    },
  );
  noteReplacement(trace, v.name);
  return { content: text, isError: true };
}

/**
 * Instrumented sources of codes that declare outcomes (null: one that declares none), by source hash: a tool runs
 * the same code many times, and finding its sites parses it.
 */
const INSTRUMENTED = new Map<string, InstrumentedSource | null>();
const INSTRUMENTED_CACHE_SIZE = 64;

/**
 * The source the sandbox runs: as it is, or, when a call site declares outcomes, instrumented with its sites, so
 * the host knows which site made each call and what that site declared (verification ran it the same way).
 */
function runnableSource(code: string, hash: string): { source: string; sites?: readonly CallSite[] } {
  let made = INSTRUMENTED.get(hash);
  if (made === undefined) {
    const located = locateCallSites(code);
    made = located.sites.some((s) => s.outcomes !== undefined) ? instrumentCallSites(code, located) : null;
    if (INSTRUMENTED.size >= INSTRUMENTED_CACHE_SIZE) INSTRUMENTED.delete(INSTRUMENTED.keys().next().value!);
    INSTRUMENTED.set(hash, made);
  }
  return made ?? { source: code };
}

/**
 * What the agent reads when the tool ended with `notApplicable(reason)`: not an error, the tool stays, go on with
 * the base tools; the steps it completed first, when one may have changed something. JSON, so it reads as data.
 */
function notApplicableContent(
  v: VersionRecord,
  reason: string,
  calls: readonly SandboxCall[],
  ctx: Pick<DistillContext, "baseTool">,
): string {
  const done = calls.filter((c) => c.ok);
  const body: Record<string, unknown> = {
    status: "not_applicable",
    tool: v.name,
    reason,
    next: `'${v.name}' does not cover this case, by design (this is not an error, and the tool stays available): complete the task with the base tools.`,
  };
  if (done.some((c) => !isReadOnly(ctx.baseTool(c.tool)))) {
    body["steps_completed"] = stepLines(done, ctx);
    body["note"] = "some completed steps may have changed something: do not repeat them";
  }
  return JSON.stringify(body, null, 2);
}

const SUMMARY_CHARS = 160;

/** What the failure means for the tool and what the agent should do, by what the failure is evidence of (a tool
 * failure that does not demote says so itself). */
const CONSEQUENCE: Record<SandboxFailure["cause"], string> = {
  tool: "This distilled tool has been disabled. Complete the task using the base tools directly.",
  infrastructure:
    "A base tool could not answer (an outage, not a fault of this distilled tool), so the tool stays available. Complete this task using the base tools directly, or call the tool again later.",
  host: "The host was too busy to finish the run (not a fault of this distilled tool), so the tool stays available. Call it again, or complete the task using the base tools directly.",
};

/** How long one base call inside a distilled tool may take before the run fails. */
export const BASE_CALL_TIMEOUT_MS = 300_000;

function summarize(value: unknown): string {
  const s = resultContent(value);
  return oneLine(s, SUMMARY_CHARS);
}

/**
 * The reference's structured error plus a resume packet: the steps that completed (with a short summary of
 * their outputs and whether they may have changed something) and what was left, so the agent resumes
 * instead of redoing writes.
 */
export function structuredError(
  v: VersionRecord,
  failure: SandboxFailure,
  calls: readonly SandboxCall[],
  expectedSteps: number | null,
  ctx: Pick<DistillContext, "baseTool">,
  consequence: string = CONSEQUENCE[failure.cause],
): string {
  const failedStep = failure.kind === "call_failed" && failure.step !== undefined ? failure.step : null;
  const total = Math.max(expectedSteps ?? 0, calls.length, failedStep ?? 0);
  const lines: string[] = [];
  if (failedStep !== null) {
    lines.push(`Distilled tool '${v.name}' (v${v.version}) failed at step ${failedStep} of ${total}.`);
    lines.push(`Base tool: ${failure.tool ?? "?"}`);
  } else {
    lines.push(
      `Distilled tool '${v.name}' (v${v.version}) failed after step ${calls.filter((c) => c.ok).length} of ${total}.`,
    );
  }
  lines.push(`Error: ${clip(failure.message, MAX_FAILURE_CHARS)}`);
  lines.push(consequence);
  const done = calls.filter((c) => c.ok);
  if (done.length) {
    lines.push("", "Steps already completed (do not repeat the ones that changed something):");
    lines.push(...stepLines(done, ctx));
  } else {
    lines.push("", "No step completed: nothing was changed by the tool.");
  }
  const left = total - done.length;
  if (left > 0) {
    const next = failure.tool ? ` starting with ${failure.tool}` : "";
    lines.push(`Left to do: ${left} step${left > 1 ? "s" : ""}${next}.`);
  }
  // Every part is clipped already; the whole is capped too, whatever the number of steps.
  return clip(lines.join("\n"), MAX_MESSAGE_CHARS);
}

/** Longest failure text in a message (its guest-made parts are clipped shorter where they are made). */
const MAX_FAILURE_CHARS = 2000;
/** Longest arguments of one completed step in a message, as JSON. */
const ARGS_CHARS = 300;
/** Most completed steps listed one by one; the rest are counted (a write among them is said). */
const MAX_STEPS_LISTED = 30;
/** Largest message built after a failure, in characters. */
const MAX_MESSAGE_CHARS = 24_000;

/** Completed steps for the resume packet: `1. tool {args} → output (read-only | may have changed something)`. */
function stepLines(done: readonly SandboxCall[], ctx: Pick<DistillContext, "baseTool">): string[] {
  const lines = done.slice(0, MAX_STEPS_LISTED).map((c, i) => {
    const effect = isReadOnly(ctx.baseTool(c.tool)) ? "read-only" : "may have changed something";
    return `${i + 1}. ${c.tool} ${clip(JSON.stringify(c.args), ARGS_CHARS)} → ${summarize(c.output)} (${effect})`;
  });
  const more = done.length - MAX_STEPS_LISTED;
  if (more > 0) {
    const writes = done.slice(MAX_STEPS_LISTED).filter((c) => !isReadOnly(ctx.baseTool(c.tool))).length;
    lines.push(`… and ${more} more completed steps (${writes} of them may have changed something)`);
  }
  return lines;
}
