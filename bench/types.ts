import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";

/**
 * One figure of the performance goals, as `npm run bench -- --json` prints it: a value and the floor it is judged
 * against, both measured in the same run (absolute times do not carry from one machine to another; their ratio
 * does), the ratio, the goal for that ratio and whether this run met it. `better` says which way the goal points:
 * most ratios must stay under theirs, a throughput share must reach it.
 */
export interface Figure {
  name: string;
  value: number;
  floor: number;
  ratio: number;
  goal: number;
  met: boolean;
  /** The unit of `value` and `floor` (ms, µs, calls/s). */
  unit: string;
  /** What the floor is, in words. */
  basis: string;
  better: "lower" | "higher";
}

/** A figure from a value and its floor: the ratio is value / floor, judged against `goal` in the direction given. */
export function figure(
  name: string,
  measured: { value: number; floor: number; unit: string; basis: string },
  goal: number,
  better: "lower" | "higher" = "lower",
): Figure {
  const ratio = measured.floor > 0 ? measured.value / measured.floor : Number.POSITIVE_INFINITY;
  const met = better === "lower" ? ratio <= goal : ratio >= goal;
  return { name, ...measured, ratio: Number(ratio.toFixed(3)), goal, met, better };
}

/** A figure's line in the human report: `name: 1.08× <basis> (goal ≤ 1.2×): met`. */
export function figureLine(f: Figure): string {
  const sign = f.better === "lower" ? "≤" : "≥";
  return `${f.name}: ${f.ratio.toFixed(2)}× ${f.basis} (goal ${sign} ${f.goal}×): ${f.met ? "met" : "MISSED"}`;
}

/** What one benchmark module gives the harness (bench/run.ts): a table and, where it has one, a goal. */
export interface BenchResult {
  columns: string[];
  rows: string[][];
  /** The target this benchmark guards, and whether this run met it. */
  goal?: { text: string; met: boolean };
  /** The ratios of the performance goals this benchmark measures (README "Performance"). */
  figures?: Figure[];
  notes?: string[];
}

/** A benchmark: a module under bench/ exporting one of these, listed in bench/run.ts. */
export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<BenchResult>;
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Microseconds with two decimals. */
export function micros(ms: number): string {
  return (ms * 1000).toFixed(2);
}

/**
 * The wall time of one process on this Node; throws unless it exits 0 with nothing on stderr (a failing process
 * must not look fast).
 */
export function timedProcess(args: string[], input: string, env: NodeJS.ProcessEnv, cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: "utf8" });
  const elapsed = performance.now() - t0;
  if (r.status !== 0 || r.stderr !== "") {
    throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr || r.error?.message || ""}`);
  }
  return elapsed;
}
