/**
 * `npm run bench [-- [--json] <name filter>...]`: runs each benchmark and prints its table, or with `--json` only
 * the figures of the performance goals as one JSON array (`{ name, value, floor, ratio, goal, met, … }`), so a
 * script can check them. Benchmarks are modules under bench/ exporting a `Benchmark`; add one by importing it into
 * BENCHMARKS. Goals are reported, never enforced: timings depend on the machine, so the bench is not part of
 * `npm test`.
 */

import { cliStart } from "./cli-start.ts";
import { distilledCall } from "./distilled-call.ts";
import { fleet } from "./fleet.ts";
import { hooks } from "./hooks.ts";
import { mcpServer } from "./mcp-server.ts";
import { recordedRuns } from "./recorded-runs.ts";
import { schemaCheck } from "./schema-check.ts";
import { traceExecute } from "./trace-execute.ts";
import { type Benchmark, type BenchResult, type Figure, figureLine } from "./types.ts";
import { verification } from "./verification.ts";

const BENCHMARKS: Benchmark[] = [
  traceExecute,
  distilledCall,
  cliStart,
  verification,
  recordedRuns,
  schemaCheck,
  hooks,
  mcpServer,
  fleet,
];

function table(columns: string[], rows: string[][]): string {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(columns), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function report(b: Benchmark, r: BenchResult): string {
  const lines = [`## ${b.name}`, b.description, "", table(r.columns, r.rows)];
  if (r.goal) lines.push("", `goal: ${r.goal.text}: ${r.goal.met ? "met" : "MISSED"}`);
  for (const f of r.figures ?? []) lines.push(figureLine(f));
  for (const note of r.notes ?? []) lines.push(note);
  return lines.join("\n");
}

const args = process.argv.slice(2);
const json = args.includes("--json");
const filters = args.filter((a) => a !== "--json").map((f) => f.toLowerCase());
const selected = BENCHMARKS.filter(
  (b) => filters.length === 0 || filters.some((f) => b.name.toLowerCase().includes(f)),
);
if (selected.length === 0) {
  console.error(
    `bench: no benchmark matches ${filters.join(", ")} (have: ${BENCHMARKS.map((b) => b.name).join(", ")})`,
  );
  process.exit(2);
}
if (json) {
  const figures: Figure[] = [];
  for (const b of selected) figures.push(...((await b.run()).figures ?? []));
  console.log(JSON.stringify(figures, null, 2));
} else {
  console.log(`node ${process.version}, ${process.platform}/${process.arch}\n`);
  for (const b of selected) console.log(`${report(b, await b.run())}\n`);
}
