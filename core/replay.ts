import { stableStringify } from "./canonical.ts";
import type { CallRecord } from "./types.ts";

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
}

/** Fixtures are all finished base calls of the source trace, inner calls of distilled tools included, in order. */
export function fixturesFromCalls(calls: readonly CallRecord[]): Fixture[] {
  return calls
    .filter((c) => c.kind === "base" && c.status !== "started")
    .map((c, i) => ({
      index: i + 1,
      tool: c.tool,
      args: c.args,
      ok: c.status === "ok",
      output: c.output,
      error: c.error,
      clipped: c.clipped ? (c.note ?? "clipped") : null,
    }));
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

  /** Says why a call matches nothing, naming the nearest recorded call and how the arguments differ. */
  explainMiss(step: number, tool: string, args: Record<string, unknown>): string {
    const head = `call ${step} to '${tool}' with ${stableStringify(args)} matches no recorded call`;
    const sameTool = this.#fixtures.filter((f) => f.tool === tool);
    if (sameTool.length === 0) {
      return `${head}: the source run never called '${tool}'`;
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
