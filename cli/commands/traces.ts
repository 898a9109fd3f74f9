/** `traces list` and `traces show`: the recorded runs in the store, read-only. */
import type { RegistryStore } from "../../core/index.ts";
import { DistillError, runTokens } from "../../core/read.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output, outputRows, TRACE_TABLE, type TraceRow, tracePage } from "../format.ts";
import { withRegistry } from "../project.ts";

/** The newest recorded runs with their outcome, top-level base calls and tokens. */
export async function tracesList(ctx: ContextOf<"traces list">): Promise<number> {
  const limit = ctx.options.limit ?? 50;
  return withRegistry(
    ctx,
    async (store) => {
      const traces = await store.listTraces(limit);
      const rows: TraceRow[] = [];
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
          tokens: runTokens(t.usage),
        });
      outputRows(ctx, rows, { empty: "no traces recorded yet", ...TRACE_TABLE });
      return EXIT.ok;
    },
    "read",
  );
}

/** One recorded run with every call in order. */
export async function tracesShow(ctx: ContextOf<"traces show">): Promise<number> {
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
            latency_ms: c.latencyMs,
          })),
        },
        () => tracePage(t, calls, baseCalls),
      );
      return EXIT.ok;
    },
    "read",
  );
}

/** A trace by its id or a unique beginning of it (ids are long: Claude Code's are a UUID and a span number). */
async function findTrace(store: RegistryStore, idOrPrefix: string) {
  const exact = await store.getTrace(idOrPrefix);
  if (exact) return exact;
  const ids = await store.traceIdsStartingWith(idOrPrefix, 6);
  const only = ids.length === 1 ? await store.getTrace(ids[0]!) : null;
  if (only) return only;
  if (ids.length > 1) {
    const shown = ids.slice(0, 5).join(", ");
    throw new DistillError(
      "NOT_FOUND",
      `'${idOrPrefix}' is the beginning of several traces (${shown}${ids.length > 5 ? ", …" : ""}): give more of the id`,
    );
  }
  throw new DistillError("NOT_FOUND", `no trace '${idOrPrefix}': see tooldistill traces list`);
}
