/**
 * Replay across recorded runs: verifying a replacement of a 10-call tool whose active version has 50 recorded live
 * runs (each replayed with its own input, inner calls and responses), against verifying the same code with only its
 * test input to replay (the same tool, no version to replace), measured in the same run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import type { Trace } from "../core/trace/trace.ts";
import { MAX_RECORDED_RUNS } from "../core/verify/replay/recorded-runs.ts";
import { type Benchmark, median } from "./types.ts";
import { STEPS, TOOLS, toolSource } from "./verification.ts";

const RUNS = MAX_RECORDED_RUNS;
const ROUNDS = 5;
const ms = (x: number) => x.toFixed(1);

/** The tool, with a check that holds from any start and a description that makes each proposal new code. */
const source = (name: string, k: number) =>
  toolSource(name, STEPS, `result.value >= ${STEPS}`).replace(
    `description: "Runs ${STEPS} steps."`,
    `description: "Runs ${STEPS} steps (${k})."`,
  );

async function proposeTimed(trace: Trace, code: string): Promise<number> {
  const t0 = performance.now();
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{ start: 0 }] });
  const elapsed = performance.now() - t0;
  if (out.isError) throw new Error(`bench tool was rejected:\n${out.content}`);
  return elapsed;
}

export const recordedRuns: Benchmark = {
  name: "recorded runs",
  description: `verification of a replacement of a ${STEPS}-call tool that replays the ${RUNS} recorded live runs of the version it replaces`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "td-bench-runs-"));
    const executor = (_name: string, args: Record<string, unknown>) => ({ value: Number(args["value"]) + 1 });
    // The sandbox a ToolDistill makes for itself (its default pool of spare engine instances).
    const sandbox = new Sandbox();
    const td = new ToolDistill({
      store: join(dir, "store"),
      executor,
      tools: TOOLS,
      sandbox,
      fallbackDistiller: false,
      minCallReduction: 0.05,
    });
    try {
      // A source run of 12 calls, so the 10-call tool passes efficiency.
      const trace = td.startTrace("ten steps, twice over");
      let value = 0;
      for (let i = 0; i < STEPS; i++) {
        value = JSON.parse((await trace.execute(`step_${i}`, { value })).content).value;
      }
      await trace.execute("step_0", { value: 99 });
      await trace.execute("step_1", { value: 99 });
      trace.setOutcome({ success: true });

      await proposeTimed(trace, source("runs_tool", 0));
      await td.promote("runs_tool");
      const live = td.startTrace("fifty runs of the active version");
      for (let start = 1; start <= RUNS; start++) {
        const out = await live.execute("runs_tool", { start });
        if (out.isError) throw new Error(`live run ${start} failed:\n${out.content}`);
      }
      live.setOutcome({ success: true });

      // Alternate, so a machine that slows down mid-run weighs on both alike.
      const replacing: number[] = [];
      const alone: number[] = [];
      for (let k = 1; k <= ROUNDS; k++) {
        replacing.push(await proposeTimed(trace, source("runs_tool", k)));
        alone.push(await proposeTimed(trace, source(`alone_${k}`, k)));
      }
      const reproduced = (await td.store.getVersion("runs_tool", ROUNDS + 1))?.verdict?.evidence.runs;
      if (reproduced?.reproduced !== RUNS + 1) {
        throw new Error(`the replacement reproduced ${JSON.stringify(reproduced)}, not ${RUNS + 1} runs`);
      }
      const withRuns = median(replacing);
      const base = median(alone);
      const perRun = (withRuns - base) / RUNS;
      return {
        columns: ["measure", "ms", "goal"],
        rows: [
          [`verification, test input only`, ms(base), ""],
          [`verification, test input + ${RUNS} recorded runs`, ms(withRuns), "≤ 2000"],
          ["per recorded run replayed", ms(perRun), ""],
          ["ratio (with runs / test input only)", (withRuns / base).toFixed(1), ""],
        ],
        goal: { text: `≤ 2 s with ${RUNS} recorded runs to reproduce`, met: withRuns <= 2000 },
        notes: [`medians of ${ROUNDS} proposals each, alternated; the default sandbox, warm`],
      };
    } finally {
      await td.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
