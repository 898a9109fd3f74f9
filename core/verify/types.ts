/**
 * The types verification shares with its parts (the verdict, the replays, the live plan) and with the lifecycle
 * that applies its report: a leaf of types, so none of them imports verification.ts or live-plan.ts back.
 */
import type { DependencyRecord, RunRef, VersionRecord } from "../store/records.ts";
import type { Verdict, VerdictEvidence } from "../types.ts";
import type { Fixture } from "./replay/replay.ts";
import type { CheckedSource, ToolMeta } from "./static/types.ts";

/** One test input of a proposal: the tool's input, and the recorded run to replay it against (null: the source run). */
export interface TestInput {
  input: Record<string, unknown>;
  trace: string | null;
}

/**
 * How one call of a live verification is (or would be) answered; `repeat` is a write refused because a recorded
 * run already sent it with the same arguments.
 */
export type LiveHow = "live" | "record" | "live-write" | "refused" | "repeat";

/** One call of the plan. */
export interface PlanStep {
  /** Its place among the calls of its test input's replay, 1-based. */
  step: number;
  tool: string;
  args: Record<string, unknown>;
  how: LiveHow;
  why: string;
}

/** How a call is answered: run it live, answer it with a recorded output, or refuse it (the message says why). */
export type LiveAnswer = { live: true } | { record: unknown } | { refuse: string };

/**
 * What verification and the lifecycle ask of a live verification's policy (live-plan.ts's LivePolicy, which
 * itself calls the verification): how to answer each call, and afterwards what ran live and what was refused.
 */
export interface LiveDecisions {
  /** When the record that answers calls was made (a later run's record is evidence of a write working since). */
  readonly recordAt: string | null;
  /** Decides call `step` to `tool`; `fixture` is the recorded call it matches (already consumed), if any. */
  decide(step: number, tool: string, args: Record<string, unknown>, fixture: Fixture | null): LiveAnswer;
  /** The base tools that ran live. */
  liveTools(): Set<string>;
  /** The base tools the record answered. */
  recordTools(): Set<string>;
  /** The calls refused. */
  refused(): PlanStep[];
  /** Why the verification was refused, and how to go on. */
  refusal(v: Pick<VersionRecord, "name" | "version">): string;
}

/** Options of one verification. */
export interface VerifyOptions {
  /** `verify --live`: calls run against the executor (the user's explicit consent), as `livePolicy` decides. */
  live?: boolean;
  /** Decides each call of a live verification by what its tool may write (live-plan.ts's LivePolicy). */
  livePolicy?: LiveDecisions;
  /** `verify --live --input/--trace`: the fresh input replayed instead of the version's test inputs. */
  liveInput?: TestInput;
  /** Base tools that recovered since the source run: their recorded failures are not replayed as failures. */
  recovered?: readonly string[];
  /** A rebuild must also beat the version it replaces. */
  mustBeat?: { version: number; calls: number | null };
  /**
   * The static check the proposal already ran, reused (with its parse) only when it checked exactly the code
   * verified here against the same base tool list; otherwise the code is checked again.
   */
  checked?: CheckedSource;
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
  /** The recorded live runs it was replayed against, to store with a draft for its re-verifications. */
  replayRuns: RunRef[];
}
