/**
 * Verification costs: the static check per file, a cold and a warm verification of a 10-call tool (proposal
 * stored, static check, sandboxed replay, efficiency), and the sandbox's overhead per inner call.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import type { ToolDef } from "../core/types.ts";
import { staticCheck } from "../core/verify/static/static-check.ts";
import { type Benchmark, median } from "./types.ts";

export const STEPS = 10;
export const TOOLS: ToolDef[] = Array.from({ length: STEPS }, (_, i) => ({
  name: `step_${i}`,
  description: `Step ${i}.`,
  input_schema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
}));

/** A tool that threads a value through ten base calls; its check holds for a run from `start` 0. */
export function toolSource(name: string, steps = STEPS, check = `result.value === 0 + ${steps} + 0`): string {
  const body = Array.from(
    { length: steps },
    (_, i) => `    value = (await call("step_${i % STEPS}", { value })).value;`,
  ).join("\n");
  return `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "${name}",
  description: "Runs ${steps} steps.",
  inputSchema: { type: "object", properties: { start: { type: "number" } }, required: ["start"] },
  async run({ start }: { start: number }) {
    let value = start;
${body}
    return { value };
  },
  check: (result: { value: number }) => ${check},
});
`;
}

const ms = (x: number) => x.toFixed(2);

export const verification: Benchmark = {
  name: "verification",
  description: `static check per file, cold and warm verification of a ${STEPS}-call tool, sandbox overhead per inner call`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "td-bench-verify-"));
    const executor = (_name: string, args: Record<string, unknown>) => ({ value: Number(args["value"]) + 1 });
    try {
      // Static check: median of 200 runs over the same source.
      const source = toolSource("bench_tool");
      staticCheck(source, TOOLS);
      const staticTimes: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        staticCheck(source, TOOLS);
        staticTimes.push(performance.now() - t0);
      }

      // Cold verification: a fresh Sandbox (no spare engine instance made yet); warm: spares are ready.
      const coldTimes: number[] = [];
      const warmTimes: number[] = [];
      for (let round = 0; round < 3; round++) {
        const sandbox = new Sandbox({ poolSize: 1 });
        const td = new ToolDistill({
          store: join(dir, `store-${round}`),
          executor,
          tools: TOOLS,
          sandbox,
          fallbackDistiller: false,
          minCallReduction: 0.05,
        });
        const trace = td.startTrace("ten steps, twice over");
        // A source run of 12 calls so the 10-call tool passes efficiency.
        let value = 0;
        for (let i = 0; i < STEPS; i++) value = (await executor("", { value })).value;
        value = 0;
        for (let i = 0; i < STEPS; i++) {
          const out = await trace.execute(`step_${i}`, { value });
          value = JSON.parse(out.content).value;
        }
        await trace.execute("step_0", { value: 99 });
        await trace.execute("step_1", { value: 99 });
        trace.setOutcome({ success: true });
        for (let k = 0; k < 4; k++) {
          const t0 = performance.now();
          const out = await trace.execute(PROPOSE_TOOL_NAME, {
            code: toolSource(`bench_tool_${k}`),
            test_inputs: [{ start: 0 }],
          });
          const elapsed = performance.now() - t0;
          if (out.isError) throw new Error(`bench tool was rejected:\n${out.content}`);
          (k === 0 ? coldTimes : warmTimes).push(elapsed);
        }
        await td.close();
        await sandbox.close();
      }

      // Sandbox overhead per inner call: a 200-call run against a no-op host, minus a 1-call run.
      const sandbox = new Sandbox({ poolSize: 1 });
      const manyTools = [...TOOLS];
      const host = async (_tool: string, args: Record<string, unknown>) => ({
        value: Number(args["value"]) + 1,
      });
      const run = (steps: number) =>
        sandbox.run({
          source: toolSource("overhead", steps),
          input: { start: 0 },
          allow: manyTools.map((t) => t.name),
          call: host,
        });
      await run(1);
      await run(200);
      const one: number[] = [];
      const many: number[] = [];
      for (let i = 0; i < 7; i++) {
        let t0 = performance.now();
        await run(1);
        one.push(performance.now() - t0);
        t0 = performance.now();
        const out = await run(200);
        many.push(performance.now() - t0);
        if (!out.ok) throw new Error(out.failure.message);
      }
      await sandbox.close();
      const perCall = (median(many) - median(one)) / 199;

      const staticMs = median(staticTimes);
      const coldMs = median(coldTimes);
      const warmMs = median(warmTimes);
      return {
        columns: ["measure", "ms", "goal"],
        rows: [
          ["static check of one tool file", ms(staticMs), ""],
          [`verification of a ${STEPS}-call tool, cold`, ms(coldMs), "≤ 150"],
          [`verification of a ${STEPS}-call tool, warm`, ms(warmMs), "≤ 20"],
          ["sandbox overhead per inner call", ms(perCall), "≤ 0.5"],
        ],
        goal: {
          text: "cold ≤ 150 ms, warm ≤ 20 ms, ≤ 0.5 ms per inner call",
          met: coldMs <= 150 && warmMs <= 20 && perCall <= 0.5,
        },
        notes: [
          "cold = first verification with a fresh Sandbox in this process (the engine's WebAssembly module is compiled once per process: the first verification in a fresh process is in the distilled call bench); medians of 3 rounds",
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
