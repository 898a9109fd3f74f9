/**
 * Per-call overhead of recording: `trace.execute` of a base tool whose executor does nothing, against the same
 * executor called directly. The difference is what the library adds to every tool call of an agent (one small
 * SQLite commit in a temp store, argument canonicalisation, result text).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DatabaseSync } from "node:sqlite";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import type { Executor, ToolDef } from "../core/types.ts";
import { type Benchmark, figure, median, micros } from "./types.ts";

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

/**
 * The floor recording is judged against: one bare `node:sqlite` insert of a call row (the store's columns), committed
 * on its own, in WAL with synchronous=NORMAL, through one prepared statement. Nothing can record a call for less.
 */
function bareInsert(dir: string): (i: number) => Promise<void> {
  const db = new DatabaseSync(join(dir, "floor.db"));
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  db.exec(`CREATE TABLE calls (id INTEGER PRIMARY KEY, trace_id TEXT NOT NULL, seq INTEGER NOT NULL, parent_id INTEGER,
    tool TEXT NOT NULL, kind TEXT NOT NULL, args TEXT NOT NULL, status TEXT NOT NULL, output TEXT, error TEXT,
    latency_ms REAL, version INTEGER, external_id TEXT, started_at TEXT NOT NULL, UNIQUE (trace_id, seq))`);
  const insert = db.prepare(
    "INSERT INTO calls (trace_id, seq, tool, kind, args, status, output, latency_ms, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  let seq = 0;
  return async (i) => {
    insert.run(
      "floor",
      seq++,
      "noop",
      "base",
      JSON.stringify({ n: i, tag: "x" }),
      "ok",
      "null",
      0,
      new Date().toISOString(),
    );
  };
}

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
      const floorInsert = bareInsert(dir);
      // Warm up the JIT and SQLite's statement cache before measuring either side.
      await timePerCall(direct);
      await timePerCall(recorded);
      await timePerCall(storeOnly);
      await timePerCall(floorInsert);
      const directMs: number[] = [];
      const recordedMs: number[] = [];
      const storeMs: number[] = [];
      const floorMs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        directMs.push(await timePerCall(direct));
        recordedMs.push(await timePerCall(recorded));
        storeMs.push(await timePerCall(storeOnly));
        floorMs.push(await timePerCall(floorInsert));
      }
      const d = median(directMs);
      const e = median(recordedMs);
      const s = median(storeMs);
      const f = median(floorMs);
      const overheadUs = (e - d) * 1000;
      const recordedCalls = await td.store.countTopLevelBaseCalls(trace.id);
      return {
        columns: ["measure", "µs per call"],
        rows: [
          ["executor called directly", micros(d)],
          ["bare node:sqlite insert + commit (the floor)", micros(f)],
          ["store.appendCall only (one commit)", micros(s)],
          ["trace.execute (recorded)", micros(e)],
          ["overhead", overheadUs.toFixed(2)],
          ["ratio", `${d > 0 ? (e / d).toFixed(0) : "∞"}×`],
        ],
        goal: { text: `overhead ≤ ${GOAL_US} µs per call`, met: overheadUs <= GOAL_US },
        figures: [
          figure(
            "recording one base call (trace.execute of a no-op tool)",
            {
              value: e * 1000,
              floor: f * 1000,
              unit: "µs",
              basis: "one bare node:sqlite insert + commit (WAL, NORMAL)",
            },
            1.2,
          ),
        ],
        notes: [`${recordedCalls} calls recorded in a temp store (WAL, synchronous=NORMAL)`],
      };
    } finally {
      await td.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
