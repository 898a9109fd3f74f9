import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withRegistry
} from "./chunk-3OFSVOJB.js";
import {
  TRACE_TABLE,
  output,
  outputRows,
  tracePage
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-BD5LZ5WU.js";
import {
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

// cli/commands/traces.ts
async function tracesList(ctx) {
  const limit = ctx.options.limit ?? 50;
  return withRegistry(
    ctx,
    async (store) => {
      const traces = await store.listTraces(limit);
      const rows = [];
      for (const t of traces)
        rows.push({
          id: t.id,
          task: t.task,
          source: t.source,
          outcome: t.outcome,
          started_at: t.startedAt,
          ended_at: t.endedAt,
          base_calls: await store.countTopLevelBaseCalls(t.id),
          usage: t.usage,
          tokens: runTokens(t.usage)
        });
      outputRows(ctx, rows, { empty: "no traces recorded yet", ...TRACE_TABLE });
      return EXIT.ok;
    },
    "read"
  );
}
async function tracesShow(ctx) {
  return withRegistry(
    ctx,
    async (store) => {
      const t = await findTrace(store, ctx.args.id);
      const calls = await store.getCalls(t.id);
      const baseCalls = await store.countTopLevelBaseCalls(t.id);
      output(
        ctx,
        {
          id: t.id,
          task: t.task,
          source: t.source,
          outcome: t.outcome,
          usage: t.usage,
          tokens: runTokens(t.usage),
          calls: calls.map((c) => ({
            id: c.id,
            seq: c.seq,
            parent_id: c.parentId,
            tool: c.tool,
            args: c.args,
            output: c.output,
            error: c.error,
            latency_ms: c.latencyMs
          }))
        },
        () => tracePage(t, calls, baseCalls)
      );
      return EXIT.ok;
    },
    "read"
  );
}
async function findTrace(store, idOrPrefix) {
  const exact = await store.getTrace(idOrPrefix);
  if (exact) return exact;
  const ids = await store.traceIdsStartingWith(idOrPrefix, 6);
  const only = ids.length === 1 ? await store.getTrace(ids[0]) : null;
  if (only) return only;
  if (ids.length > 1) {
    const shown = ids.slice(0, 5).join(", ");
    throw new DistillError(
      "NOT_FOUND",
      `'${idOrPrefix}' is the beginning of several traces (${shown}${ids.length > 5 ? ", \u2026" : ""}): give more of the id`
    );
  }
  throw new DistillError("NOT_FOUND", `no trace '${idOrPrefix}': see tooldistill traces list`);
}
export {
  tracesList,
  tracesShow
};
