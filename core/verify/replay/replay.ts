/**
 * Replay: a tool's code run in the sandbox against the recorded base calls of a run (the fixtures), each call
 * answered by the recorded response of the same call. The fixtures and their matching are here, and one replay
 * of one input; what a call no fixture answers means is the caller's (a test input may run it live, a recorded
 * run of a replaced version may not).
 */
import { type BaseFailureClass, RecordedBaseFailure } from "../../base-tools/base-failure.ts";
import { schemaProblems } from "../../base-tools/json-schema.ts";
import { DistillError } from "../../errors.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import type { SandboxFailure, SandboxOutcome } from "../../sandbox/types.ts";
import type { CallRecord, ToolDef } from "../../types.ts";
import { canonicalArgs, stableStringify } from "../../util/canonical.ts";
import type { CallSite } from "../call-sites.ts";

/** A recorded base call of the source run that replay may answer from. */
export interface Fixture {
  /** Position in the source run's base calls, 1-based, for messages. */
  index: number;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  output: unknown;
  error: string | null;
  /** What recording clipped of the output (null when the output is the value the tool returned). */
  clipped: string | null;
  /** A failed call: the class the host gave it when it happened (null: recorded before classes were). */
  failure: BaseFailureClass | null;
}

/**
 * Fixtures are all finished base calls of the source trace, inner calls of distilled tools included, in order,
 * less the transients: an infrastructure failure whose next call with the same tool and canonical arguments
 * succeeded (after any number of such failures) was a retry the tool need not reproduce, since the host retries
 * what may be retried at run time. Indexes stay the positions in the run, so messages name the recorded call.
 */
export function fixturesFromCalls(calls: readonly CallRecord[]): Fixture[] {
  const all = calls
    .filter((c) => c.kind === "base" && c.status !== "started")
    .map(
      (c, i): Fixture => ({
        index: i + 1,
        tool: c.tool,
        args: c.args,
        ok: c.status === "ok",
        output: c.output,
        error: c.error,
        clipped: c.clipped ? (c.note ?? "clipped") : null,
        failure: c.status === "error" ? c.failure : null,
      }),
    );
  // From the end: whether the next identical call recovers, so a chain of 503s before a success all go.
  const recovers = new Map<string, boolean>();
  const transient = new Set<Fixture>();
  for (let i = all.length - 1; i >= 0; i--) {
    const f = all[i]!;
    const k = key(f.tool, f.args);
    if (f.ok) recovers.set(k, true);
    else if (f.failure === "infrastructure" && recovers.get(k) === true) transient.add(f);
    else recovers.set(k, false);
  }
  return all.filter((f) => !transient.has(f));
}

/** The error a recorded failure is replayed as: its text, and the class the host gave it live (base-failure.ts). */
export function recordedFailure(fixture: Fixture): Error {
  return new RecordedBaseFailure(fixture.error ?? "recorded failure", fixture.failure ?? "rejected");
}

/**
 * The fixtures of one replay. A call takes the earliest unconsumed fixture with the same tool and canonical
 * arguments, so a search repeated before and after a create gets each recorded answer in turn.
 */
export class FixtureSet {
  readonly #fixtures: readonly Fixture[];
  readonly #keys: readonly string[];
  readonly #used: boolean[];

  constructor(fixtures: readonly Fixture[]) {
    this.#fixtures = fixtures;
    this.#keys = fixtures.map((f) => key(f.tool, f.args));
    this.#used = fixtures.map(() => false);
  }

  /** Consumes and returns the matching fixture, or null. `args` must be canonical. */
  take(tool: string, args: Record<string, unknown>): Fixture | null {
    const k = key(tool, args);
    for (let i = 0; i < this.#fixtures.length; i++) {
      if (!this.#used[i] && this.#keys[i] === k) {
        this.#used[i] = true;
        return this.#fixtures[i]!;
      }
    }
    return null;
  }

  /** The fixtures no call of this replay took, in order. */
  unused(): Fixture[] {
    return this.#fixtures.filter((_, i) => !this.#used[i]);
  }

  /**
   * Says why a call matches nothing, naming the nearest recorded call and how the arguments differ; `run` names
   * the run the fixtures come from.
   */
  explainMiss(step: number, tool: string, args: Record<string, unknown>, run = "the source run"): string {
    const head = `call ${step} to '${tool}' with ${stableStringify(args)} matches no recorded call`;
    const sameTool = this.#fixtures.filter((f) => f.tool === tool);
    if (sameTool.length === 0) {
      return `${head}: ${run} never called '${tool}'`;
    }
    let best = sameTool[0]!;
    let bestScore = Number.POSITIVE_INFINITY;
    for (const f of sameTool) {
      const score = argDifferences(f.args, args).length;
      if (score < bestScore) {
        best = f;
        bestScore = score;
      }
    }
    const diffs = argDifferences(best.args, args);
    const used = diffs.length === 0 ? " (already used by an earlier call of this replay)" : "";
    const how = diffs.length === 0 ? "" : `; differs in ${diffs.join(", ")}`;
    return `${head}; nearest recorded: call ${best.index} ${best.tool} ${stableStringify(best.args)}${used}${how}`;
  }
}

function key(tool: string, args: Record<string, unknown>): string {
  return `${tool}\u0000${stableStringify(args)}`;
}

/** Human-readable differences between recorded and replayed arguments, one entry per top-level key. */
export function argDifferences(recorded: Record<string, unknown>, actual: Record<string, unknown>): string[] {
  const out: string[] = [];
  const keys = [...new Set([...Object.keys(recorded), ...Object.keys(actual)])].sort();
  for (const k of keys) {
    const inRecorded = k in recorded;
    const inActual = k in actual;
    if (inRecorded && !inActual) out.push(`${k}: missing (recorded ${stableStringify(recorded[k])})`);
    else if (!inRecorded && inActual)
      out.push(`${k}: not in the recorded call (got ${stableStringify(actual[k])})`);
    else if (stableStringify(recorded[k]) !== stableStringify(actual[k])) {
      out.push(`${k}: ${stableStringify(actual[k])} ≠ recorded ${stableStringify(recorded[k])}`);
    }
  }
  return out;
}

/** One call the code made during a replay, after its tool and arguments were checked: the caller answers it. */
export interface ReplayedCall {
  /** 1-based position among this replay's calls. */
  step: number;
  tool: string;
  /** As the code passed them (what a live call gets). */
  args: Record<string, unknown>;
  /** With the tool's schema defaults applied and keys sorted: what fixtures match on. */
  canonical: Record<string, unknown>;
}

/** One replay of an input: the instrumented code, its sites, the fixtures and how a call is answered. */
export interface ReplayRequest {
  sandbox: Sandbox;
  /** The instrumented source, and its call sites (the host records which one made each call). */
  code: string;
  sites: readonly CallSite[];
  allow: readonly string[];
  input: Record<string, unknown>;
  fixtures: readonly Fixture[];
  /** The current base tools by name: a call's arguments must fit its tool's current input schema. */
  tools: ReadonlyMap<string, ToolDef>;
  /** Answers a call: a value, or a throw (`replayProblem` for a refusal of the replay's own). */
  answer(call: ReplayedCall, fixtures: FixtureSet): Promise<unknown>;
}

/** What one replay did: the sandbox's outcome (every call with the site it came from) and the fixtures it used. */
export interface Replay {
  outcome: SandboxOutcome;
  fixtures: FixtureSet;
}

/** Runs one input through the code, `check()` included, with every call checked and then answered by `answer`. */
export async function replayInput(req: ReplayRequest): Promise<Replay> {
  const fixtures = new FixtureSet(req.fixtures);
  let step = 0;
  const outcome = await req.sandbox.run({
    source: req.code,
    sites: req.sites,
    input: req.input,
    allow: req.allow,
    runCheck: true,
    call: async (tool, args) => {
      step += 1;
      const def = req.tools.get(tool);
      if (!def) throw replayProblem(`call ${step} to '${tool}': no such base tool`);
      const invalid = schemaProblems(def.input_schema, args);
      if (invalid.length) {
        throw replayProblem(
          `call ${step} to '${tool}': arguments do not match its current input schema: ${invalid.join("; ")}`,
        );
      }
      return req.answer({ step, tool, args, canonical: canonicalArgs(args, def.input_schema) }, fixtures);
    },
  });
  return { outcome, fixtures };
}

/** A call replay refuses on its own account (not a recorded failure): the message is the problem to report. */
export function replayProblem(message: string): DistillError {
  return new DistillError("REPLAY", message);
}

/**
 * Why a replay failed, as one problem; `run` names the run whose recorded failure a failed call replayed. Under
 * `verify --live` (`live`) a failed call failed for real: the record answers only with successful outputs.
 */
export function replayFailure(f: SandboxFailure, run: string, live = false): string {
  // A call the replay itself refused (a mismatch, a schema problem) names its own reason; any other failed call
  // replayed a failure recorded in the run, or, live, failed now.
  if (f.errorCode === "REPLAY") return f.message;
  if (f.kind === "call_failed" && live) {
    return `call ${f.step ?? "?"} to '${f.tool ?? "?"}' failed live (verify --live sent it for real, replaying the input of ${run}): ${f.message}`;
  }
  if (f.kind === "call_failed") {
    return `call ${f.step ?? "?"} to '${f.tool ?? "?"}' failed as recorded in ${run}: ${f.message}; a distilled tool must follow calls that succeeded`;
  }
  if (f.kind === "check_failed") return `check(result) did not hold: ${f.message}`;
  return `${f.kind.replaceAll("_", " ")}: ${f.message}`;
}

/** The ids of the call sites that made calls in a replay. */
export function sitesRun(outcome: SandboxOutcome): number[] {
  return outcome.calls.flatMap((c) => (c.site === undefined ? [] : [c.site]));
}
