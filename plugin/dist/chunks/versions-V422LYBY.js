import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withRegistry
} from "./chunk-3OFSVOJB.js";
import {
  VERSION_TABLE,
  output,
  outputRows,
  versionPage,
  versionRow
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-BD5LZ5WU.js";
import {
  resolveVersion,
  runTokens
} from "./chunk-G4NVZV74.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/versions.ts
var RECENT_RUNS = 10;
async function list(ctx) {
  const { status } = ctx.options;
  return withRegistry(
    ctx,
    async (store) => {
      const rows = [];
      for (const v of await store.listVersions(status === void 0 ? {} : { status }))
        rows.push(versionRow(v, (await store.getRunStats(v.name, v.version)).successes));
      outputRows(ctx, rows, {
        empty: status === void 0 ? "no distilled tools yet" : `no distilled tools with status ${status}`,
        ...VERSION_TABLE
      });
      return EXIT.ok;
    },
    "read"
  );
}
async function show(ctx) {
  const { name } = ctx.args;
  const shown = await withRegistry(
    ctx,
    async (store) => {
      const v2 = await resolveVersion(store, name, ctx.options.version, "active-or-newest");
      const stats2 = await store.getRunStats(v2.name, v2.version);
      return {
        v: v2,
        file: store.codeLocation(v2.name, v2.version),
        code: await codeOf(store, v2),
        history: await store.getHistory(v2.name, v2.version),
        dependencies: await store.getDependencies(v2.name, v2.version),
        stats: stats2,
        runs: await store.recentRuns(v2.name, v2.version, RECENT_RUNS),
        definitions: await store.verifiedDefinitions(v2.name, v2.version),
        savings: await savings(store, v2, stats2),
        versions: (await store.listVersions({ name })).map((x) => `v${x.version} ${x.status}`)
      };
    },
    "read"
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
        at: h.at
      })),
      verdict: v.verdict,
      run_stats: {
        runs: stats.runs,
        successes: stats.successes,
        failures: stats.failures,
        not_applicable: stats.notApplicable,
        inner_calls: stats.innerCalls,
        last_run_at: stats.lastRunAt
      },
      queued_rebuild: v.queuedRebuild,
      description: v.description,
      dependencies: shown.dependencies.map((d) => ({
        base_tool: d.baseTool,
        fingerprint: d.fingerprint,
        avoided: d.avoided
      })),
      savings: shown.savings,
      recent_runs: shown.runs.map((r) => ({
        outcome: r.outcome,
        trace: r.traceId,
        inner_calls: r.innerCalls,
        evidence: r.evidence,
        at: r.at
      })),
      verified_definitions: shown.definitions.map((d) => ({
        base_tool: d.baseTool,
        fingerprint: d.fingerprint,
        verified_at: d.verifiedAt
      }))
    },
    () => versionPage(shown)
  );
  return EXIT.ok;
}
async function savings(store, v, stats) {
  let tokens = v.baselineTokens;
  const trace = v.sourceTrace === null ? null : await store.getTrace(v.sourceTrace);
  if (trace && runTokens(trace.usage) > 0) tokens = runTokens(trace.usage);
  return {
    baseline_calls: v.baseline,
    inner_calls_per_run: stats.runs > 0 ? stats.innerCalls / stats.runs : null,
    baseline_tokens: tokens
  };
}
async function codeOf(store, v) {
  try {
    return await store.readCode(v.name, v.version);
  } catch (err) {
    if (err instanceof DistillError) return null;
    throw err;
  }
}
export {
  list,
  show
};
