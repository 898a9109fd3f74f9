/**
 * The report: what distilled tools did and saved, per tool and overall, read from a registry on either store.
 * `buildReport` gathers the numbers (the CLI's `report --json` prints them as they are); report-html.ts draws them.
 * Every number is recomputed from stored rows: runs, calls, usage, the status history, base tool health.
 */
import { DistillError } from "../errors.ts";
import type { HistoryRecord, VersionRecord } from "../store/records.ts";
import type { RegistryData } from "../store/registry-store.ts";
import { addUsage, runTokens, zeroUsage } from "../trace/run-tokens.ts";
import type { OpenProblem, Status, TraceRecord, UsageTotals } from "../types.ts";
import { actionsOf, type BaseToolReport, baseToolReports, type ReportAction } from "./report-actions.ts";
import { measureSavings, type RunCost, type ToolSavings } from "./report-savings.ts";

export type { BaseToolReport, ReportAction } from "./report-actions.ts";
export type { CostSide, RunCost, ToolSavings } from "./report-savings.ts";

/** What to report on: runs from `since` on (an ISO date or time; default: everything stored). */
export interface ReportOptions {
  since?: string | Date | null;
  /** The report's time (default: now); for reproducible reports. */
  now?: Date;
}

/** Usage totals with their sum (`runTokens`). */
export interface TokenTotals extends UsageTotals {
  total: number;
}

/** One change of a version's status, with its reason. */
export interface TimelineEntry {
  version: number;
  from: Status | null;
  to: Status;
  reason: string;
  at: string;
}

/** One distilled tool (every version of one name). */
export interface ToolReport {
  name: string;
  versions: { version: number; status: Status; problems: OpenProblem[]; queuedRebuild: boolean }[];
  /** The active version, else the newest. */
  current: { version: number; status: Status };
  /** Calls of the tool in the period, by how they ended. */
  runs: number;
  successes: number;
  notApplicable: number;
  /** Failed calls by cause: tool, infrastructure, host, declared, or any other recorded outcome as it is. */
  failures: Record<string, number>;
  /** successes / (successes + failures); not-applicable ends count as neither. Null before any run. */
  successRate: number | null;
  savings: ToolSavings;
  timeline: TimelineEntry[];
  /** When each of its calls in the period was made, oldest first (the cumulative chart). */
  callTimes: string[];
}

/** One recorded run, for the per-run chart. */
export interface RunPoint {
  trace: string;
  at: string;
  baseCalls: number;
  tokens: number;
  /** A distilled tool ran in it. */
  distilled: boolean;
}

/** One UTC day of runs, for the charts. */
export interface DayPoint {
  day: string;
  runs: number;
  baseCalls: number;
  tokens: number;
  /** Calls of each distilled tool that day, by tool name. */
  toolRuns: Record<string, number>;
}

/** A failed distilled call, for "what failed". */
export interface FailureItem {
  tool: string;
  version: number;
  cause: string;
  trace: string | null;
  message: string | null;
  at: string;
}

/** Everything the report says. Times are ISO 8601 (UTC). */
export interface Report {
  generatedAt: string;
  since: string | null;
  store: { kind: string; location: string };
  overall: {
    /** Recorded runs (traces) started in the period. */
    runs: number;
    succeeded: number;
    failed: number;
    /** Runs with no declared outcome, or one this build does not know. */
    undeclared: number;
    successRate: number | null;
    baseCalls: number;
    tokens: TokenTotals;
    /** Runs in which at least one distilled tool ran. */
    runsWithDistilled: number;
    distilledCalls: number;
    distilledSuccessRate: number | null;
    saved: { baseCalls: number; tokens: number; tools: number };
  };
  tools: ToolReport[];
  failures: { byCause: Record<string, number>; recent: FailureItem[] };
  baseTools: BaseToolReport[];
  actions: ReportAction[];
  /** Every run of the period, oldest first. */
  runs: RunPoint[];
  days: DayPoint[];
}

const ALL = 1_000_000;

/** `since` as an ISO time, or null; a USAGE error names what it accepts. */
export function parseSince(since: string | Date | null | undefined): string | null {
  if (since === undefined || since === null) return null;
  const d = since instanceof Date ? since : new Date(since);
  if (Number.isNaN(d.getTime())) {
    throw new DistillError(
      "USAGE",
      `--since: '${String(since)}' is not a date; give one like 2026-01-31 or 2026-01-31T12:00:00Z`,
    );
  }
  return d.toISOString();
}

/** A declared outcome as success, failure or unknown (other builds may record more than a boolean). */
function declared(outcome: unknown): "succeeded" | "failed" | "undeclared" {
  if (outcome === true || outcome === "success" || outcome === "ok") return "succeeded";
  if (outcome === false || outcome === "failure" || outcome === "failed") return "failed";
  return "undeclared";
}

/** Builds the report from `store` (read-only: nothing is written). */
export async function buildReport(
  store: RegistryData & { kind: string; location: string },
  options: ReportOptions = {},
): Promise<Report> {
  const since = parseSince(options.since);
  const inPeriod = (at: string) => since === null || at >= since;
  const traces = await store.listTraces(ALL);
  const byId = new Map(traces.map((t) => [t.id, t]));
  const costs = new Map<string, RunCost>();
  const baseTools = new Map<string, { calls: number; errors: number }>();
  const costOf = async (t: TraceRecord, count: boolean): Promise<RunCost> => {
    const known = costs.get(t.id);
    if (known) return known;
    const calls = (await store.getCalls(t.id)).filter((c) => c.kind === "base" && c.status !== "started");
    if (count) {
      for (const c of calls) {
        const b = baseTools.get(c.tool) ?? { calls: 0, errors: 0 };
        b.calls += 1;
        if (c.status === "error") b.errors += 1;
        baseTools.set(c.tool, b);
      }
    }
    const cost = { trace: t.id, baseCalls: calls.length, tokens: runTokens(t.usage) };
    costs.set(t.id, cost);
    return cost;
  };
  const period = traces.filter((t) => inPeriod(t.startedAt)).reverse();
  for (const t of period) await costOf(t, true);

  const versions = await store.listVersions();
  const names = [...new Set(versions.map((v) => v.name))].sort();
  const tools: ToolReport[] = [];
  const failures: FailureItem[] = [];
  const byCause: Record<string, number> = {};
  const toolRunsByTrace = new Map<string, Set<string>>();
  const dayRuns = new Map<string, Record<string, number>>();
  for (const name of names) {
    const mine = versions.filter((v) => v.name === name);
    const tool = await toolReport(store, name, mine, { inPeriod, byId, costOf, failures, byCause });
    for (const trace of tool.report.savings.withTool.traces) {
      const set = toolRunsByTrace.get(trace) ?? new Set<string>();
      set.add(name);
      toolRunsByTrace.set(trace, set);
    }
    for (const [day, n] of tool.byDay) {
      const row = dayRuns.get(day) ?? {};
      row[name] = (row[name] ?? 0) + n;
      dayRuns.set(day, row);
    }
    tools.push(tool.report);
  }

  let tokens = zeroUsage();
  const outcomes = { succeeded: 0, failed: 0, undeclared: 0 };
  const days = new Map<string, DayPoint>();
  for (const t of period) {
    tokens = addUsage(tokens, t.usage);
    outcomes[declared(t.outcome)] += 1;
    const day = t.startedAt.slice(0, 10);
    const point = days.get(day) ?? { day, runs: 0, baseCalls: 0, tokens: 0, toolRuns: {} };
    point.runs += 1;
    point.baseCalls += costs.get(t.id)?.baseCalls ?? 0;
    point.tokens += runTokens(t.usage);
    days.set(day, point);
  }
  for (const [day, runs] of dayRuns) {
    const point = days.get(day) ?? { day, runs: 0, baseCalls: 0, tokens: 0, toolRuns: {} };
    point.toolRuns = runs;
    days.set(day, point);
  }

  const health = await store.baseHealth();
  const distilledCalls = tools.reduce((n, t) => n + t.runs, 0);
  const ended = tools.reduce((n, t) => n + t.successes + sum(t.failures), 0);
  const declaredRuns = outcomes.succeeded + outcomes.failed;
  return {
    generatedAt: (options.now ?? new Date()).toISOString(),
    since,
    store: { kind: store.kind, location: store.location },
    overall: {
      runs: period.length,
      ...outcomes,
      successRate: declaredRuns ? outcomes.succeeded / declaredRuns : null,
      baseCalls: period.reduce((n, t) => n + (costs.get(t.id)?.baseCalls ?? 0), 0),
      tokens: { ...tokens, total: runTokens(tokens) },
      runsWithDistilled: [...toolRunsByTrace.keys()].filter((id) => byId.has(id)).length,
      distilledCalls,
      distilledSuccessRate: ended ? tools.reduce((n, t) => n + t.successes, 0) / ended : null,
      saved: {
        baseCalls: tools.reduce((n, t) => n + (t.savings.total.baseCalls ?? 0), 0),
        tokens: tools.reduce((n, t) => n + (t.savings.total.tokens ?? 0), 0),
        tools: tools.filter((t) => t.savings.total.baseCalls !== null).length,
      },
    },
    tools,
    failures: { byCause, recent: failures.sort((a, b) => b.at.localeCompare(a.at)).slice(0, 20) },
    baseTools: baseToolReports(baseTools, health),
    actions: actionsOf(versions, health),
    runs: period.map((t) => ({
      trace: t.id,
      at: t.startedAt,
      baseCalls: costs.get(t.id)?.baseCalls ?? 0,
      tokens: runTokens(t.usage),
      distilled: toolRunsByTrace.has(t.id),
    })),
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
  };
}

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

interface Gather {
  inPeriod: (at: string) => boolean;
  byId: Map<string, TraceRecord>;
  costOf: (t: TraceRecord, count: boolean) => Promise<RunCost>;
  failures: FailureItem[];
  byCause: Record<string, number>;
}

/** One tool's runs, savings and timeline; `byDay` counts its calls per UTC day. */
async function toolReport(
  store: RegistryData,
  name: string,
  versions: VersionRecord[],
  g: Gather,
): Promise<{ report: ToolReport; byDay: Map<string, number> }> {
  const counts = { runs: 0, successes: 0, notApplicable: 0 };
  const failures: Record<string, number> = {};
  const usedIn = new Set<string>();
  const byDay = new Map<string, number>();
  const timeline: TimelineEntry[] = [];
  const callTimes: string[] = [];
  for (const v of versions) {
    for (const r of await store.recentRuns(name, v.version, ALL)) {
      if (!g.inPeriod(r.at)) continue;
      counts.runs += 1;
      callTimes.push(r.at);
      byDay.set(r.at.slice(0, 10), (byDay.get(r.at.slice(0, 10)) ?? 0) + 1);
      if (r.traceId !== null) usedIn.add(r.traceId);
      // An outcome this build does not know (a newer writer's) is counted under its own name, never dropped.
      const outcome = String(r.outcome);
      if (outcome === "ok") counts.successes += 1;
      else if (outcome === "not_applicable") counts.notApplicable += 1;
      else {
        failures[outcome] = (failures[outcome] ?? 0) + 1;
        g.byCause[outcome] = (g.byCause[outcome] ?? 0) + 1;
        const e = (r.evidence ?? {}) as { message?: unknown };
        g.failures.push({
          tool: name,
          version: v.version,
          cause: outcome,
          trace: r.traceId,
          message: typeof e.message === "string" ? e.message : null,
          at: r.at,
        });
      }
    }
    const history: HistoryRecord[] = await store.getHistory(name, v.version);
    for (const h of history)
      timeline.push({ version: v.version, from: h.from, to: h.to, reason: h.reason, at: h.at });
  }
  timeline.sort((a, b) => a.at.localeCompare(b.at) || a.version - b.version);

  // The baseline: the source runs, and successful runs of the same task before the tool's first version.
  const firstAt = versions.map((v) => v.createdAt).sort()[0] ?? "";
  const sources = new Set(versions.map((v) => v.sourceTrace).filter((s): s is string => s !== null));
  const tasks = new Set([...sources].map((s) => g.byId.get(s)?.task).filter((t): t is string => Boolean(t)));
  const baseline: RunCost[] = [];
  for (const t of g.byId.values()) {
    const earlier = t.startedAt < firstAt && tasks.has(t.task) && declared(t.outcome) === "succeeded";
    if ((sources.has(t.id) || earlier) && !usedIn.has(t.id)) baseline.push(await g.costOf(t, false));
  }
  const withTool: RunCost[] = [];
  for (const id of usedIn) {
    const t = g.byId.get(id);
    if (t && g.inPeriod(t.startedAt)) withTool.push(await g.costOf(t, false));
  }
  const active = versions.find((v) => v.status === "active") ?? versions.at(-1)!;
  const ended = counts.successes + sum(failures);
  return {
    byDay,
    report: {
      name,
      versions: versions.map((v) => ({
        version: v.version,
        status: v.status,
        problems: v.problems,
        queuedRebuild: v.queuedRebuild,
      })),
      current: { version: active.version, status: active.status },
      ...counts,
      failures,
      successRate: ended ? counts.successes / ended : null,
      savings: measureSavings(baseline, withTool),
      timeline,
      callTimes: callTimes.sort(),
    },
  };
}
