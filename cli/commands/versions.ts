/** `list` and `show`: the distilled tool versions in the store, read-only. */
import type { RegistryStore, RunStats, VersionRecord } from "../../core/index.ts";
import { DistillError, resolveVersion, runTokens } from "../../core/read.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import {
  output,
  outputRows,
  type Savings,
  type ShownVersion,
  VERSION_TABLE,
  versionPage,
  versionRow,
} from "../format.ts";
import { withRegistry } from "../project.ts";

/** How many of a version's newest runs `show` lists, failures with their evidence. */
const RECENT_RUNS = 10;

/** Every version (or those of one status) with its status, problems, baseline and successful runs. */
export async function list(ctx: ContextOf<"list">): Promise<number> {
  const { status } = ctx.options;
  return withRegistry(
    ctx,
    async (store) => {
      const rows = [];
      for (const v of await store.listVersions(status === undefined ? {} : { status }))
        rows.push(versionRow(v, (await store.getRunStats(v.name, v.version)).successes));
      outputRows(ctx, rows, {
        empty: status === undefined ? "no distilled tools yet" : `no distilled tools with status ${status}`,
        ...VERSION_TABLE,
      });
      return EXIT.ok;
    },
    "read",
  );
}

/** One version (default: the active one, else the newest) with everything the store knows of it. */
export async function show(ctx: ContextOf<"show">): Promise<number> {
  const { name } = ctx.args;
  const shown = await withRegistry(
    ctx,
    async (store): Promise<ShownVersion> => {
      const v = await resolveVersion(store, name, ctx.options.version, "active-or-newest");
      const stats = await store.getRunStats(v.name, v.version);
      return {
        v,
        file: store.codeLocation(v.name, v.version),
        code: await codeOf(store, v),
        history: await store.getHistory(v.name, v.version),
        dependencies: await store.getDependencies(v.name, v.version),
        stats,
        runs: await store.recentRuns(v.name, v.version, RECENT_RUNS),
        definitions: await store.verifiedDefinitions(v.name, v.version),
        savings: await savings(store, v, stats),
        versions: (await store.listVersions({ name })).map((x) => `v${x.version} ${x.status}`),
      };
    },
    "read",
  );
  const { v, stats } = shown;
  output(
    ctx,
    {
      name: v.name,
      version: v.version,
      status: v.status,
      problems: v.problems,
      baseline: v.baseline,
      source_trace: v.sourceTrace,
      code: shown.code,
      history: shown.history.map((h) => ({
        from: h.from,
        to: h.to,
        reason: h.reason,
        evidence: h.evidence,
        at: h.at,
      })),
      verdict: v.verdict,
      run_stats: {
        runs: stats.runs,
        successes: stats.successes,
        failures: stats.failures,
        not_applicable: stats.notApplicable,
        inner_calls: stats.innerCalls,
        last_run_at: stats.lastRunAt,
      },
      queued_rebuild: v.queuedRebuild,
      description: v.description,
      dependencies: shown.dependencies.map((d) => ({
        base_tool: d.baseTool,
        fingerprint: d.fingerprint,
        avoided: d.avoided,
      })),
      savings: shown.savings,
      recent_runs: shown.runs.map((r) => ({
        outcome: r.outcome,
        trace: r.traceId,
        inner_calls: r.innerCalls,
        evidence: r.evidence,
        at: r.at,
      })),
      verified_definitions: shown.definitions.map((d) => ({
        base_tool: d.baseTool,
        fingerprint: d.fingerprint,
        verified_at: d.verifiedAt,
      })),
    },
    () => versionPage(shown),
  );
  return EXIT.ok;
}

/**
 * Baseline calls against inner calls per live run, and the source run's tokens where it recorded usage. The tokens
 * are the source trace's as stored now (what `traces list` shows): the copy taken at verification is only a
 * fallback for a source trace no longer stored, since the run it was taken from often went on afterwards.
 */
async function savings(store: RegistryStore, v: VersionRecord, stats: RunStats): Promise<Savings> {
  let tokens = v.baselineTokens;
  const trace = v.sourceTrace === null ? null : await store.getTrace(v.sourceTrace);
  if (trace && runTokens(trace.usage) > 0) tokens = runTokens(trace.usage);
  return {
    baseline_calls: v.baseline,
    inner_calls_per_run: stats.runs > 0 ? stats.innerCalls / stats.runs : null,
    baseline_tokens: tokens,
  };
}

/** The version's code, or null when it cannot be read (a SQLite store's tool file removed by hand). */
async function codeOf(store: RegistryStore, v: VersionRecord): Promise<string | null> {
  try {
    return await store.readCode(v.name, v.version);
  } catch (err) {
    if (err instanceof DistillError) return null;
    throw err;
  }
}
