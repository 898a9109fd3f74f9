/**
 * The cost of running a distilled tool: a 7-call tool through `trace.execute` against the same 7 base calls
 * made directly through `trace.execute` (both recorded), and the first distilled call and the first
 * verification in a fresh process, where the sandbox engine is loaded and compiled.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parse } from "@babel/parser";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import type { Executor, ToolDef } from "../core/types.ts";
import { type Benchmark, figure, median } from "./types.ts";

export const STEPS = 7;
export const TOOLS: ToolDef[] = Array.from({ length: STEPS }, (_, i) => ({
  name: `hop_${i}`,
  description: `Hop ${i}.`,
  input_schema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
  annotations: { readOnlyHint: true },
}));
export const executor: Executor = (_name, args) => ({ value: Number(args["value"]) + 1 });

/** A tool that threads a value through `STEPS` base calls. */
export function hopsSource(name: string): string {
  const body = Array.from(
    { length: STEPS },
    (_, i) => `    value = (await call("hop_${i}", { value })).value;`,
  ).join("\n");
  return `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "${name}",
  description: "Runs ${STEPS} hops.",
  inputSchema: { type: "object", properties: { start: { type: "number" } }, required: ["start"] },
  async run({ start }: { start: number }) {
    let value = start;
${body}
    return { value };
  },
  check: (result: { value: number }) => result.value >= ${STEPS},
});
`;
}

/** Records a source run of 10 calls (7 hops and 3 retries) and proposes the 7-hop tool; it is active after. */
export async function distilHops(td: ToolDistill, name = "hops"): Promise<number> {
  const trace = td.startTrace("seven hops");
  let value = 0;
  for (let i = 0; i < STEPS; i++) {
    const out = await trace.execute(`hop_${i}`, { value });
    value = JSON.parse(out.content).value;
  }
  for (let i = 0; i < 3; i++) await trace.execute("hop_0", { value: 99 });
  trace.setOutcome({ success: true });
  const started = performance.now();
  const verdict = await trace.execute(PROPOSE_TOOL_NAME, {
    code: hopsSource(name),
    test_inputs: [{ start: 0 }],
  });
  const elapsed = performance.now() - started;
  if (verdict.isError) throw new Error(`the bench tool was rejected:\n${verdict.content}`);
  return elapsed;
}

const ROUNDS = 7;
const CALLS = 100;
const ms = (x: number) => x.toFixed(2);

/** Runs bench/first-call.ts in a fresh process: its own timings, as JSON. */
function freshProcess(store: string, what: "call" | "verify"): number {
  const script = fileURLToPath(new URL("./first-call.ts", import.meta.url));
  const child = spawnSync(process.execPath, [script, store, what], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`bench/first-call.ts failed:\n${child.stderr}`);
  return Number(JSON.parse(child.stdout).ms);
}

export const distilledCall: Benchmark = {
  name: "distilled call",
  description: `a ${STEPS}-call distilled tool through trace.execute vs the same ${STEPS} base calls through trace.execute (${ROUNDS} rounds of ${CALLS}, median); first call and first verification in a fresh process`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "td-bench-distilled-"));
    try {
      const store = join(dir, ".tooldistill");
      const td = new ToolDistill({
        store,
        executor,
        tools: TOOLS,
        fallbackDistiller: false,
        autoPromote: "all",
      });
      await distilHops(td);
      const trace = td.startTrace("bench: distilled vs direct");
      const direct = async () => {
        let value = 0;
        for (let i = 0; i < STEPS; i++)
          value = JSON.parse((await trace.execute(`hop_${i}`, { value })).content).value;
        return value;
      };
      const distilled = async () => {
        const out = await trace.execute("hops", { start: 0 });
        if (out.isError) throw new Error(out.content);
        return out;
      };
      const per = async (fn: () => Promise<unknown>) => {
        const t0 = performance.now();
        for (let i = 0; i < CALLS; i++) await fn();
        return (performance.now() - t0) / CALLS;
      };
      await per(direct);
      await per(distilled);
      const directMs: number[] = [];
      const distilledMs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        directMs.push(await per(direct));
        distilledMs.push(await per(distilled));
      }
      // Warm verification of the same 7-call tool (each proposal after its own source run), against the floor of
      // parsing its source once with @babel/parser, as the static check's first step does.
      const warmVerify: number[] = [];
      for (let k = 0; k < 5; k++) warmVerify.push(await distilHops(td, `hops_warm_${k}`));
      const parseMs: number[] = [];
      const source = hopsSource("hops_parse");
      for (let k = 0; k < 200; k++) {
        const t0 = performance.now();
        parse(source, { sourceType: "module", plugins: ["typescript"] });
        parseMs.push(performance.now() - t0);
      }
      await td.close();
      const d = median(directMs);
      const x = median(distilledMs);
      const perCall = (x - d) / STEPS;

      // The sandbox alone (no store): a 7-call run against a 0-call run, so the difference over 7 is what one base
      // call costs in the sandbox, its two thread hops (worker → host → worker) included.
      const sandbox = new Sandbox();
      const allow = TOOLS.map((t) => t.name);
      const call = async (name: string, args: Record<string, unknown>) => executor(name, args);
      const none = hopsSource("none").replace(/ {4}value = \(await call[^\n]*\n/g, "");
      const sandboxRun = (source: string) => async () => {
        const out = await sandbox.run({ source, input: { start: 0 }, allow, call });
        if (!out.ok) throw new Error(out.failure.message);
      };
      await per(sandboxRun(hopsSource("hops")));
      const sevenMs: number[] = [];
      const zeroMs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        sevenMs.push(await per(sandboxRun(hopsSource("hops"))));
        zeroMs.push(await per(sandboxRun(none)));
      }
      await sandbox.close();
      const seven = median(sevenMs);
      const zero = median(zeroMs);

      const firstCall = median([0, 1, 2].map(() => freshProcess(store, "call")));
      const firstVerify = median([0, 1, 2].map((i) => freshProcess(join(dir, `verify-${i}`), "verify")));
      return {
        columns: ["measure", "ms", "goal"],
        rows: [
          [`${STEPS} base calls through trace.execute`, ms(d), ""],
          [`one ${STEPS}-call distilled call through trace.execute`, ms(x), ""],
          [`warm verification of the ${STEPS}-call tool`, ms(median(warmVerify)), ""],
          ["parsing its source with @babel/parser", ms(median(parseMs)), ""],
          ["overhead per inner call ((distilled − direct) / 7)", ms(perCall), "≤ 0.5"],
          [`ratio: distilled / ${STEPS} direct calls`, `${(x / d).toFixed(1)}×`, "≤ 2×"],
          ["sandbox run without a base call (worker, fresh instance)", ms(zero), ""],
          [`sandbox run with ${STEPS} base calls, no store`, ms(seven), ""],
          [
            "one base call in the sandbox, thread hops included ((7 − 0) / 7)",
            ms((seven - zero) / STEPS),
            "",
          ],
          ["first distilled call in a fresh process", ms(firstCall), "≤ 60"],
          ["first verification in a fresh process (7-call tool)", ms(firstVerify), "≤ 150"],
        ],
        figures: [
          figure(
            `one ${STEPS}-call distilled call`,
            { value: x, floor: d, unit: "ms", basis: `the same ${STEPS} base calls through trace.execute` },
            2,
          ),
          figure(
            `warm verification of the ${STEPS}-call tool`,
            {
              value: median(warmVerify),
              floor: median(parseMs),
              unit: "ms",
              basis: "parsing the same source with @babel/parser",
            },
            20,
          ),
        ],
        goal: {
          text: "≤ 0.5 ms per inner call, distilled ≤ 2× direct, first call ≤ 60 ms, first verification ≤ 150 ms",
          met: perCall <= 0.5 && x <= 2 * d && firstCall <= 60 && firstVerify <= 150,
        },
        notes: [
          "fresh process: the time of the call itself, from a ToolDistill already open (Node's start-up and the library's import not counted); medians of 3 processes",
        ],
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
