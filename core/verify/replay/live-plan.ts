/**
 * `verify --live` without repeating writes. Each call a live verification makes is decided by what its base tool
 * may do: a read-only tool (annotations.readOnlyHint) runs live; a tool that may write is answered from the record
 * of the source run, and when the record has no answer the verification is refused before anything ran for real.
 * `--allow-writes` is the person's consent to writes: then every call runs live. `--dry-run` replays against the
 * record alone (no base tool is called) and returns the plan: which calls would run live, which from the record,
 * which would be refused. Whatever the consent, a write is never sent again with the arguments a recorded run of the
 * tool already sent (the source run, the run named by `--trace`, the tool's recorded live runs): it would act twice
 * (a second account, a 409). Each write is checked before it is dispatched, and the refusal says how to go on: a
 * fresh input (`--input`), or the record of a later successful run (`--trace`).
 */

import { isReadOnly } from "../../base-tools/tool-effects.ts";
import { DistillError } from "../../errors.ts";
import { verifyVersion } from "../../lifecycle/versions.ts";
import type { VersionRecord } from "../../store/records.ts";
import type { DistillContext } from "../../tool-distill/context.ts";
import type { CallRecord, CheckResult, Verdict } from "../../types.ts";
import { stableStringify } from "../../util/canonical.ts";
import type { LiveAnswer, LiveDecisions, LiveHow, PlanStep, TestInput } from "../types.ts";
import { runChecks } from "../verification.ts";
import type { Fixture } from "./replay.ts";

/** Writes recorded runs already sent: tool → canonical arguments (stable JSON) → which run sent them. */
export type RecordedWrites = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** What a live verification runs against: the recorded writes it must not repeat, and its input, when fresh. */
export interface LiveSetup {
  writes: RecordedWrites;
  /** The input of `--input` / `--trace` (replacing the test inputs), or null for the version's own test inputs. */
  input: TestInput | null;
  /** When the run whose record answers the calls was made (the source run's start, the `--trace` run's end). */
  recordAt: string | null;
}

/** What `verify --live --dry-run` prints: every call in order, and whether the live verification would run. */
export interface LivePlan {
  name: string;
  version: number;
  steps: PlanStep[];
  /** Calls that may write and have no recorded answer: the verification refuses unless --allow-writes. */
  refused: PlanStep[];
  /** Where replaying the record stopped, when it did (a check failed, a call matched no record). */
  problems: CheckResult["problems"];
}

/** Decides every call of one live verification (or of its dry run) and keeps the plan. */
export class LivePolicy implements LiveDecisions {
  readonly steps: PlanStep[] = [];
  readonly #allowWrites: boolean;
  readonly #dryRun: boolean;
  readonly #ctx: Pick<DistillContext, "baseTool">;
  readonly #writes: RecordedWrites;
  readonly #fresh: boolean;
  readonly #recordName: string;
  /** When the record that answers calls was made (a later run's record is evidence of a write working since). */
  readonly recordAt: string | null;

  constructor(
    ctx: Pick<DistillContext, "baseTool">,
    options: { allowWrites: boolean; dryRun: boolean; setup?: LiveSetup },
  ) {
    this.#ctx = ctx;
    this.#allowWrites = options.allowWrites;
    this.#dryRun = options.dryRun;
    this.#writes = options.setup?.writes ?? new Map();
    this.#fresh = options.setup?.input != null;
    const trace = options.setup?.input?.trace ?? null;
    this.#recordName = trace === null ? "the source run" : `the run '${trace}'`;
    this.recordAt = options.setup?.recordAt ?? null;
  }

  /** Decides call `step` to `tool`; `fixture` is the recorded call it matches (already consumed), if any. */
  decide(step: number, tool: string, args: Record<string, unknown>, fixture: Fixture | null): LiveAnswer {
    const recorded =
      fixture?.ok && fixture.clipped === null ? { record: structuredClone(fixture.output) } : null;
    const add = (how: LiveHow, why: string) => this.steps.push({ step, tool, args, how, why });
    if (isReadOnly(this.#ctx.baseTool(tool))) {
      add("live", "read-only (annotations.readOnlyHint)");
      // A dry run follows the recorded path: the live answer is not known before it runs.
      if (!this.#dryRun) return { live: true };
      return (
        recorded ?? {
          refuse: `call ${step} to '${tool}' would run live and has no recorded answer: the plan stops here`,
        }
      );
    }
    const sentBy = this.#writes.get(tool)?.get(stableStringify(args));
    if (this.#allowWrites && sentBy !== undefined) {
      // Checked before dispatch: the same write sent twice acts twice (a second account, a 409 on the first).
      add("repeat", `may write: ${sentBy} already sent these arguments`);
      // A dry run goes on along the record, so the plan shows every call.
      if (this.#dryRun && recorded) return recorded;
      return {
        refuse: `call ${step} to '${tool}' would send again what ${sentBy} already sent: refused, nothing was sent`,
      };
    }
    if (this.#allowWrites) {
      add("live-write", "may write: runs live (--allow-writes)");
      if (!this.#dryRun) return { live: true };
      return (
        recorded ?? {
          refuse: `call ${step} to '${tool}' would write live and has no recorded answer: the plan stops here`,
        }
      );
    }
    if (recorded) {
      add("record", `may write: answered from the record of ${this.#recordName}`);
      return recorded;
    }
    add("refused", "may write and has no recorded answer: needs --allow-writes");
    return {
      refuse: `call ${step} to '${tool}' may write and ${this.#recordName} recorded no answer for it: refused without --allow-writes`,
    };
  }

  /** Tools that ran (or would run) live in this verification. */
  liveTools(): Set<string> {
    return new Set(this.steps.filter((s) => s.how === "live" || s.how === "live-write").map((s) => s.tool));
  }

  /** Tools whose calls were answered from the record in this verification. */
  recordTools(): Set<string> {
    return new Set(this.steps.filter((s) => s.how === "record").map((s) => s.tool));
  }

  /** The calls refused: for want of --allow-writes, or because they would repeat a recorded write. */
  refused(): PlanStep[] {
    return this.steps.filter((s) => s.how === "refused" || s.how === "repeat");
  }

  /** Why the verification of `v` is refused, naming the calls and the ways on. */
  refusal(v: Pick<VersionRecord, "name" | "version">): string {
    const ranLive = this.#dryRun ? [] : this.steps.filter((s) => s.how === "live" || s.how === "live-write");
    return refusalText(v, this.refused(), ranLive, this.#fresh, this.#recordName);
  }
}

/** The refusal's text: what was refused and why, what ran live before it (none in a dry run), and the ways on. */
function refusalText(
  v: Pick<VersionRecord, "name" | "version">,
  refused: readonly PlanStep[],
  ranLive: readonly PlanStep[],
  fresh: boolean,
  recordName = "the source run",
): string {
  const cmd = `tooldistill verify ${v.name} --version ${v.version} --live`;
  const before =
    ranLive.length === 0
      ? "Nothing was run."
      : `The refused call${refused.length === 1 ? " was" : "s were"} not sent; before, ${ranLive.map((s) => `call ${s.step} to '${s.tool}'`).join(", ")} ran live.`;
  const repeats = refused.filter((s) => s.how === "repeat");
  if (repeats.length > 0) {
    const calls = repeats.map(
      (s) => `call ${s.step} to '${s.tool}' ${JSON.stringify(s.args)} (${s.why.replace(/^may write: /, "")})`,
    );
    return (
      `verify --live refused for ${v.name} v${v.version}: ${calls.join("; ")}. A write repeated with the very arguments a recorded run sent acts twice (it creates again, or gets a conflict). ${before} ` +
      `Verify against a fresh input whose writes are new${fresh ? " (another one than this)" : ""}: ${cmd} --allow-writes --input '<json>'; ` +
      "or, without --allow-writes, --trace <id> of a later successful run (tooldistill traces list), whose record answers its writes."
    );
  }
  const calls = refused.map((s) => `call ${s.step} to '${s.tool}'`);
  return (
    `verify --live refused for ${v.name} v${v.version}: ${calls.join(", ")} may write and ${recordName} recorded no answer, ` +
    `so it would run for real. ${before} See the plan with ${cmd} --dry-run, ` +
    "or pass --allow-writes to let those calls write."
  );
}

/** The plan of `verify --live` for a version: a replay against the record only; no base tool is called. */
export async function planLive(
  ctx: DistillContext,
  v: VersionRecord,
  options: { allowWrites: boolean; setup: LiveSetup },
): Promise<LivePlan> {
  const { allowWrites, setup } = options;
  const policy = new LivePolicy(ctx, { allowWrites, dryRun: true, setup });
  const report = await runChecks(ctx, v, await ctx.store.readCode(v.name, v.version), {
    live: true,
    livePolicy: policy,
    ...(setup.input ? { liveInput: setup.input } : {}),
  });
  const failed = [report.checks.static, report.checks.replay].find((c) => !c.ok);
  return {
    name: v.name,
    version: v.version,
    steps: policy.steps,
    refused: policy.refused(),
    problems: failed?.problems ?? [],
  };
}

/** The plan as text for a person. */
export function planText(plan: LivePlan): string {
  const label: Record<LiveHow, string> = {
    live: "live",
    record: "from the record",
    "live-write": "live (writes)",
    refused: "REFUSED",
    repeat: "REFUSED",
  };
  const lines = [
    `plan of tooldistill verify ${plan.name} --version ${plan.version} --live (nothing was run):`,
  ];
  for (const s of plan.steps) {
    lines.push(
      `  ${String(s.step).padStart(2)}. ${s.tool} ${JSON.stringify(s.args)}: ${label[s.how]} (${s.why})`,
    );
  }
  if (plan.steps.length === 0) lines.push("  no base call was reached");
  for (const p of plan.problems) lines.push(`  stops: ${p.message}`);
  lines.push(
    plan.refused.length > 0
      ? plan.refused.some((s) => s.how === "repeat")
        ? "verify --live would be refused: it would repeat a write a recorded run already sent; give a fresh input (--input '<json>')"
        : `verify --live would be refused: ${plan.refused.length} call${plan.refused.length === 1 ? "" : "s"} may write with no recorded answer; --allow-writes runs them for real`
      : "verify --live would run the live calls above for real and answer the others from the record",
  );
  return lines.join("\n");
}

/** Refuses a live verification whose plan has a write the record cannot answer, before anything runs. */
export function assertNoRefusedWrites(plan: LivePlan, setup?: LiveSetup): void {
  if (plan.refused.length === 0) return;
  const trace = setup?.input?.trace ?? null;
  const recordName = trace === null ? "the source run" : `the run '${trace}'`;
  throw new DistillError(
    "WRITE_REFUSED",
    refusalText(plan, plan.refused, [], Boolean(setup?.input), recordName),
  );
}

/**
 * The writes recorded runs of `v`'s tool already sent: its source run, the `--trace` run, and the recorded runs
 * of every version of its name, failed ones included. A call counts once it was sent (answered or failed): a
 * failed write may still have acted.
 */
export async function recordedWrites(
  ctx: Pick<DistillContext, "store" | "baseTool">,
  v: VersionRecord,
  trace: string | null,
): Promise<RecordedWrites> {
  const out = new Map<string, Map<string, string>>();
  const add = (calls: readonly CallRecord[], where: string) => {
    for (const c of calls) {
      if (c.kind !== "base" || c.status === "started" || isReadOnly(ctx.baseTool(c.tool))) continue;
      const byArgs = out.get(c.tool) ?? new Map<string, string>();
      out.set(c.tool, byArgs);
      const key = stableStringify(c.args);
      if (!byArgs.has(key)) byArgs.set(key, where);
    }
  };
  if (v.sourceTrace) add(await ctx.store.getCalls(v.sourceTrace), "the source run");
  if (trace && trace !== v.sourceTrace) add(await ctx.store.getCalls(trace), `the run '${trace}'`);
  // Every recorded run of the tool, failed ones too: the write that got the 409 was sent.
  const byTrace = new Map<string, Set<number>>();
  for (const other of await ctx.store.listVersions({ name: v.name })) {
    for (const run of await ctx.store.recentRuns(other.name, other.version, MAX_WRITE_RUNS)) {
      if (run.traceId === null || run.callId === null) continue;
      byTrace.set(run.traceId, (byTrace.get(run.traceId) ?? new Set()).add(run.callId));
    }
  }
  for (const [id, calls] of byTrace) {
    const inner = (await ctx.store.getCalls(id)).filter((c) => c.parentId !== null && calls.has(c.parentId));
    add(inner, `a recorded run of ${v.name} (trace '${id}')`);
  }
  return out;
}

/** The most recorded runs per version whose writes a live verification checks against: the newest. */
const MAX_WRITE_RUNS = 500;

/**
 * The input of a live verification from `--input` and/or `--trace`: the input given, else the input of the run's
 * call of the tool (a successful run, or a later fallback run that did the task with the base tools after the
 * tool failed). With `--trace` the calls are answered from that run's record; with `--input` alone, from the source
 * run's where they match.
 */
export async function liveInputOf(
  ctx: Pick<DistillContext, "store">,
  name: string,
  given: { input?: Record<string, unknown>; trace?: string },
): Promise<{ input: TestInput | null; recordAt: string | null }> {
  if (given.trace === undefined) {
    return { input: given.input ? { input: given.input, trace: null } : null, recordAt: null };
  }
  const trace = await ctx.store.getTrace(given.trace);
  if (!trace) {
    throw new DistillError(
      "NOT_FOUND",
      `no recorded run '${given.trace}': name a successful run by its id (tooldistill traces list)`,
    );
  }
  if (trace.outcome !== true) {
    throw new DistillError(
      "USAGE",
      `the run '${trace.id}' is not recorded as successful: verify --live --trace needs a run that did the task (tooldistill traces list)`,
    );
  }
  // A fallback run may be the very run in which the tool failed: its record is as late as its end.
  const recordAt = trace.endedAt ?? trace.startedAt;
  if (given.input) return { input: { input: given.input, trace: trace.id }, recordAt };
  // Its call of the tool: one that ran, or one the host refused (a suspect tool), after which the agent went on.
  const own = (await ctx.store.getCalls(trace.id)).filter(
    (c) => c.tool === name && (c.kind === "distilled" || c.kind === "other"),
  );
  const call = own.find((c) => c.status === "ok") ?? own.at(-1);
  if (!call) {
    throw new DistillError(
      "USAGE",
      `the run '${trace.id}' made no call of ${name}, so its input is not known: pass it too, --input '<json>'`,
    );
  }
  return { input: { input: call.args, trace: trace.id }, recordAt };
}

/** What `verify --live` is given: consent to writes, and a fresh input (`input`, or the input of run `trace`). */
export interface LiveOptions {
  allowWrites?: boolean;
  /** A fresh input for the tool, replayed instead of its test inputs (its writes are new). */
  input?: Record<string, unknown>;
  /** A successful recorded run: its input (unless `input` is given), and its record answers the calls. */
  trace?: string;
}

/** The setup of one live verification of `v`: the writes it must not repeat, and its fresh input if any. */
export async function liveSetup(
  ctx: Pick<DistillContext, "store" | "baseTool">,
  v: VersionRecord,
  options: LiveOptions,
): Promise<LiveSetup> {
  const given = {
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.trace === undefined ? {} : { trace: options.trace }),
  };
  const { input, recordAt } = await liveInputOf(ctx, v.name, given);
  const source = v.sourceTrace && recordAt === null ? await ctx.store.getTrace(v.sourceTrace) : null;
  return {
    writes: await recordedWrites(ctx, v, input?.trace ?? null),
    input,
    recordAt: recordAt ?? source?.startedAt ?? null,
  };
}

/**
 * `verify --live`: the plan first (a refused write stops it before anything runs), then the live verification,
 * whose host checks each write before it is dispatched.
 */
export async function verifyLive(
  ctx: DistillContext,
  v: VersionRecord,
  options: LiveOptions,
): Promise<Verdict> {
  if (!ctx.executor) {
    throw new DistillError(
      "EXECUTOR",
      "verify --live needs the executor: set executor/tools or mcp_config in tooldistill.yaml",
    );
  }
  const allowWrites = options.allowWrites ?? false;
  const setup = await liveSetup(ctx, v, options);
  assertNoRefusedWrites(await planLive(ctx, v, { allowWrites, setup }), setup);
  const livePolicy = new LivePolicy(ctx, { allowWrites, dryRun: false, setup });
  return verifyVersion(ctx, v, {
    live: true,
    livePolicy,
    ...(setup.input ? { liveInput: setup.input } : {}),
  });
}
