/**
 * Run by bench/distilled-call.ts in a fresh process: `first-call.ts <store> call` times the first distilled
 * call against a store where the 7-hop tool is active; `first-call.ts <store> verify` times the first
 * verification (the proposal of the 7-hop tool) in a new store. Prints `{ "ms": <n> }`.
 */
import { performance } from "node:perf_hooks";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { distilHops, executor, TOOLS } from "./distilled-call.ts";

const [store, what] = process.argv.slice(2);
if (!store || (what !== "call" && what !== "verify")) {
  process.stderr.write("usage: first-call.ts <store> call|verify\n");
  process.exit(2);
}
const td = new ToolDistill({ store, executor, tools: TOOLS, fallbackDistiller: false, autoPromote: "all" });
let elapsed: number;
if (what === "verify") {
  elapsed = await distilHops(td);
} else {
  const trace = td.startTrace("first call");
  const started = performance.now();
  const out = await trace.execute("hops", { start: 0 });
  elapsed = performance.now() - started;
  if (out.isError) throw new Error(out.content);
}
await td.close();
process.stdout.write(JSON.stringify({ ms: elapsed }));
