/**
 * Per-call overhead of recording: `trace.execute` of a base tool whose executor does nothing, against the same
 * executor called directly. The difference is what the library adds to every tool call of an agent (one small
 * SQLite commit in a temp store, argument canonicalisation, result text).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ToolDistill } from "../core/tool-distill.ts";
import type { Executor, ToolDef } from "../core/types.ts";
import { type Benchmark, median, micros } from "./types.ts";

const GOAL_US = 50;
const CALLS = 2000;
const ROUNDS = 5;

const NOOP: ToolDef = {
  name: "noop",
  description: "Does nothing.",
  input_schema: {
    type: "object",
    properties: { n: { type: "number" }, tag: { type: "string", default: "x" } },
  },
};

const executor: Executor = () => null;

async function timePerCall(fn: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await fn(i);
  return (performance.now() - start) / CALLS;
}

export const traceExecute: Benchmark = {
  name: "trace.execute overhead",
  description: `a no-op base tool through trace.execute vs the executor called directly (${ROUNDS} rounds of ${CALLS} calls, median)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "td-bench-"));
    const td = new ToolDistill({
      store: join(dir, ".tooldistill"),
      executor,
      tools: [NOOP],
      fallbackDistiller: false,
    });
    try {
      const trace = td.startTrace("bench: trace.execute overhead");
      const direct = async (i: number) => executor("noop", { n: i });
      const recorded = (i: number) => trace.execute("noop", { n: i });
      // The store's share alone: the one commit every recorded call makes.
      const storeTrace = td.startTrace("bench: store writes only");
      await storeTrace.flush();
      const storeOnly = async (i: number) => {
        await td.store.appendCall(
          { traceId: storeTrace.id, tool: "noop", kind: "base", args: { n: i } },
          { output: null },
          0,
        );
      };
      // Warm up the JIT and SQLite's statement cache before measuring either side.
      await timePerCall(direct);
      await timePerCall(recorded);
      await timePerCall(storeOnly);
      const directMs: number[] = [];
      const recordedMs: number[] = [];
      const storeMs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        directMs.push(await timePerCall(direct));
        recordedMs.push(await timePerCall(recorded));
        storeMs.push(await timePerCall(storeOnly));
      }
      const d = median(directMs);
      const e = median(recordedMs);
      const s = median(storeMs);
      const overheadUs = (e - d) * 1000;
      const recordedCalls = await td.store.countTopLevelBaseCalls(trace.id);
      return {
        columns: ["measure", "µs per call"],
        rows: [
          ["executor called directly", micros(d)],
          ["store.appendCall only (one commit)", micros(s)],
          ["trace.execute (recorded)", micros(e)],
          ["overhead", overheadUs.toFixed(2)],
          ["ratio", `${d > 0 ? (e / d).toFixed(0) : "∞"}×`],
        ],
        goal: { text: `overhead ≤ ${GOAL_US} µs per call`, met: overheadUs <= GOAL_US },
        notes: [`${recordedCalls} calls recorded in a temp store (WAL, synchronous=NORMAL)`],
      };
    } finally {
      await td.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
