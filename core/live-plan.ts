/**
 * `verify --live` without repeating writes. Each call a live verification makes is decided by what its base tool
 * may do: a read-only tool (annotations.readOnlyHint) runs live; a tool that may write is answered from the record
 * of the source run, and when the record has no answer the verification is refused before anything ran for real.
 * `--allow-writes` is the person's consent to writes: then every call runs live. `--dry-run` replays against the
 * record alone (no base tool is called) and returns the plan: which calls would run live, which from the record,
 * which would be refused.
 */
import type { DistillContext } from "./context.ts";
import { DistillError } from "./errors.ts";
import type { Fixture } from "./replay.ts";
import type { VersionRecord } from "./store.ts";
import { isReadOnly } from "./tool-effects.ts";
import type { CheckResult } from "./types.ts";
import { runChecks } from "./verification.ts";

/** How one call of a live verification is (or would be) answered. */
export type LiveHow = "live" | "record" | "live-write" | "refused";

/** One call of the plan. */
export interface PlanStep {
  /** Its place among the calls of its test input's replay, 1-based. */
  step: number;
  tool: string;
  args: Record<string, unknown>;
  how: LiveHow;
  why: string;
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

/** How a call is answered: run it live, answer it with a recorded output, or refuse it (the message says why). */
export type LiveAnswer = { live: true } | { record: unknown } | { refuse: string };

/** Decides every call of one live verification (or of its dry run) and keeps the plan. */
export class LivePolicy {
  readonly steps: PlanStep[] = [];
  readonly #allowWrites: boolean;
  readonly #dryRun: boolean;
  readonly #ctx: Pick<DistillContext, "baseTool">;

  constructor(ctx: Pick<DistillContext, "baseTool">, options: { allowWrites: boolean; dryRun: boolean }) {
    this.#ctx = ctx;
    this.#allowWrites = options.allowWrites;
    this.#dryRun = options.dryRun;
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
      add("record", "may write: answered from the record of the source run");
      return recorded;
    }
    add("refused", "may write and has no recorded answer: needs --allow-writes");
    return {
      refuse: `call ${step} to '${tool}' may write and the source run recorded no answer for it: refused without --allow-writes`,
    };
  }

  /** Tools that ran (or would run) live in this verification. */
  liveTools(): Set<string> {
    return new Set(this.steps.filter((s) => s.how === "live" || s.how === "live-write").map((s) => s.tool));
  }

  /** The calls refused for want of --allow-writes. */
  refused(): PlanStep[] {
    return this.steps.filter((s) => s.how === "refused");
  }

  /** Why the verification of `v` is refused, naming the calls and the two ways on. */
  refusal(v: Pick<VersionRecord, "name" | "version">): string {
    const calls = this.refused().map((s) => `call ${s.step} to '${s.tool}'`);
    return (
      `verify --live refused for ${v.name} v${v.version}: ${calls.join(", ")} may write and the source run recorded no answer, ` +
      `so it would run for real. Nothing was run. See the plan with tooldistill verify ${v.name} --version ${v.version} --live --dry-run, ` +
      "or pass --allow-writes to let those calls write."
    );
  }
}

/** The plan of `verify --live` for a version: a replay against the record only; no base tool is called. */
export async function planLive(
  ctx: DistillContext,
  v: VersionRecord,
  options: { allowWrites: boolean },
): Promise<LivePlan> {
  const policy = new LivePolicy(ctx, { allowWrites: options.allowWrites, dryRun: true });
  const report = await runChecks(ctx, v, await ctx.store.readCode(v.name, v.version), {
    live: true,
    livePolicy: policy,
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
      ? `verify --live would be refused: ${plan.refused.length} call${plan.refused.length === 1 ? "" : "s"} may write with no recorded answer; --allow-writes runs them for real`
      : "verify --live would run the live calls above for real and answer the others from the record",
  );
  return lines.join("\n");
}

/** Refuses a live verification whose plan has a write the record cannot answer, before anything runs. */
export function assertNoRefusedWrites(plan: LivePlan): void {
  if (plan.refused.length === 0) return;
  const policy = new LivePolicy({ baseTool: () => undefined }, { allowWrites: false, dryRun: true });
  policy.steps.push(...plan.refused);
  throw new DistillError("WRITE_REFUSED", policy.refusal(plan));
}
