/**
 * What a distilled tool saves, measured from stored runs: the base calls and tokens of the runs that used it,
 * against its baseline (its source runs, and the successful runs of the same task recorded before the tool
 * existed). Pure: takes the runs' numbers, returns the arithmetic and the basis it rests on.
 */

/** One recorded run's cost: every finished base call in it (inside distilled tools too) and its tokens. */
export interface RunCost {
  trace: string;
  baseCalls: number;
  /** `runTokens` of the run's usage; 0 when the run recorded no usage. */
  tokens: number;
}

/** The mean cost of a set of runs; token means are over the runs that recorded tokens only. */
export interface CostSide {
  runs: number;
  traces: string[];
  baseCallsPerRun: number | null;
  /** How many of the runs recorded tokens (the token mean rests on these). */
  tokenRuns: number;
  tokensPerRun: number | null;
}

/** Measured savings of one tool, with the basis: how many runs on each side, and which. */
export interface ToolSavings {
  baseline: CostSide;
  withTool: CostSide;
  /** Baseline mean minus the with-tool mean; null when a side has no runs (or no tokens). */
  perRun: { baseCalls: number | null; tokens: number | null };
  /** `perRun` times the with-tool runs (base calls) or the with-tool runs that recorded tokens (tokens). */
  total: { baseCalls: number | null; tokens: number | null };
  /** The basis in words, for people: "2 runs with the tool against 1 baseline run (the source run)". */
  basis: string;
}

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round1 = (n: number | null): number | null => (n === null ? null : Math.round(n * 10) / 10);

/** The mean cost of `runs`. */
export function costSide(runs: readonly RunCost[]): CostSide {
  const withTokens = runs.filter((r) => r.tokens > 0);
  return {
    runs: runs.length,
    traces: runs.map((r) => r.trace),
    baseCallsPerRun: round1(mean(runs.map((r) => r.baseCalls))),
    tokenRuns: withTokens.length,
    tokensPerRun: round1(mean(withTokens.map((r) => r.tokens))),
  };
}

/** Savings of a tool: `baseline` runs (source and earlier runs of the task) against the runs that used it. */
export function measureSavings(baseline: readonly RunCost[], withTool: readonly RunCost[]): ToolSavings {
  const b = costSide(baseline);
  const w = costSide(withTool);
  const diff = (x: number | null, y: number | null) => (x === null || y === null ? null : round1(x - y));
  const perRun = {
    baseCalls: diff(b.baseCallsPerRun, w.baseCallsPerRun),
    tokens: diff(b.tokensPerRun, w.tokensPerRun),
  };
  const total = {
    baseCalls: perRun.baseCalls === null ? null : Math.round(perRun.baseCalls * w.runs),
    tokens: perRun.tokens === null ? null : Math.round(perRun.tokens * w.tokenRuns),
  };
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const basis =
    w.runs === 0
      ? `no runs used it yet; baseline: ${plural(b.runs, "run")}`
      : `${plural(w.runs, "run")} with the tool against ${plural(b.runs, "baseline run")}` +
        (w.tokenRuns < w.runs || b.tokenRuns < b.runs
          ? ` (tokens: ${w.tokenRuns} against ${b.tokenRuns} that recorded them)`
          : "");
  return { baseline: b, withTool: w, perRun, total, basis };
}
