/**
 * One process of bench/fleet.ts's fleet (`process.execPath bench/fleet-worker.ts <json job>`): opens a
 * ToolDistill on the shared store, prints `{"event":"ready"}`, waits for `go` on stdin, then runs `agents` agents
 * at once, each recording `traces` runs of `calls` no-op base tool calls (startTrace, execute, setOutcome,
 * finish). Each call is timed through `trace.execute` and, just before, the executor called directly, so the
 * overhead is measured in the same process under the same load. Prints the samples and the warnings (a write
 * the store refused is warned, never thrown: the count shows what would be lost).
 */

import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { type Executor, type Logger, type ToolDef, ToolDistill } from "../core/index.ts";

export interface FleetWorkerJob {
  store: string;
  agents: number;
  traces: number;
  calls: number;
  poolSize: number;
}

export interface FleetWorkerResult {
  event: "done";
  /** Wall clock (epoch ms) of the first call and of the last finish. */
  start: number;
  end: number;
  /** Milliseconds per call: through trace.execute, and the executor called directly. */
  execute: number[];
  direct: number[];
  errors: number;
  warnings: string[];
}

export const NOOP: ToolDef = {
  name: "noop",
  description: "Does nothing.",
  input_schema: { type: "object", properties: { n: { type: "number" } } },
};

const job = JSON.parse(process.argv[2] ?? "{}") as FleetWorkerJob;
const warnings: string[] = [];
const logger: Logger = {
  info: () => {},
  warn: (m) => warnings.push(m),
  error: (m) => warnings.push(m),
};
const executor: Executor = () => null;
const td = await ToolDistill.open({
  store: job.store,
  executor,
  tools: [NOOP],
  logger,
  fallbackDistiller: false,
  checkSchemasOnStart: false,
  storePoolSize: job.poolSize,
});
process.stdout.write(`${JSON.stringify({ event: "ready" })}\n`);
for await (const line of createInterface({ input: process.stdin })) if (line.trim() === "go") break;

const execute: number[] = [];
const direct: number[] = [];
let errors = 0;
async function agent(a: number): Promise<void> {
  for (let r = 0; r < job.traces; r++) {
    const trace = td.startTrace(`bench fleet: process ${process.pid} agent ${a} run ${r}`);
    for (let i = 0; i < job.calls; i++) {
      const t0 = performance.now();
      await executor("noop", { n: i });
      const t1 = performance.now();
      const out = await trace.execute("noop", { n: i });
      const t2 = performance.now();
      direct.push(t1 - t0);
      execute.push(t2 - t1);
      if (out.isError) errors++;
    }
    trace.setOutcome({ success: true });
    await trace.finish();
  }
}
const start = Date.now();
await Promise.all(Array.from({ length: job.agents }, (_, a) => agent(a)));
const end = Date.now();
await td.close();
const result: FleetWorkerResult = { event: "done", start, end, execute, direct, errors, warnings };
process.stdout.write(`${JSON.stringify(result)}\n`);
// stdin stays open (the bench holds its end): end now.
process.exit(0);
