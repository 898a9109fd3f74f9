/** The report for people: the overall numbers, one line per tool, and what waits for a person (format.ts's kin). */
import type { Report } from "../core/index.ts";

const n = (x: number | null, digits = 0): string =>
  x === null ? "-" : x.toLocaleString("en-US", { maximumFractionDigits: digits });
const pct = (x: number | null): string => (x === null ? "-" : `${Math.round(x * 100)}%`);

/** `report` without --json: a page of text; `file` is the HTML page written, if any. */
export function reportText(r: Report, file: string | null): string {
  const o = r.overall;
  const out = [
    `tooldistill report (${r.since === null ? "everything stored" : `since ${r.since}`})`,
    "",
    `runs:             ${n(o.runs)} (${pct(o.successRate)} succeeded, ${n(o.undeclared)} without an outcome)`,
    `base calls:       ${n(o.baseCalls)}`,
    `tokens:           ${n(o.tokens.total)} (${n(o.tokens.input_tokens)} input, ${n(o.tokens.output_tokens)} output, ${n(o.tokens.cache_creation_input_tokens)} cache write, ${n(o.tokens.cache_read_input_tokens)} cache read)`,
    `distilled calls:  ${n(o.distilledCalls)} (${pct(o.distilledSuccessRate)} succeeded) in ${n(o.runsWithDistilled)} runs`,
    `saved:            ${n(o.saved.baseCalls)} base calls, ${n(o.saved.tokens)} tokens`,
    "",
    "tools:",
  ];
  if (r.tools.length === 0) out.push("  none yet");
  for (const t of r.tools) {
    const s = t.savings;
    out.push(
      `  ${t.name} v${t.current.version} ${t.current.status}: ${n(t.runs)} calls, ${pct(t.successRate)} succeeded; ` +
        `saves ${n(s.perRun.baseCalls, 1)} base calls and ${n(s.perRun.tokens)} tokens per run ` +
        `(${n(s.total.baseCalls)} and ${n(s.total.tokens)} in total; ${s.basis})`,
    );
  }
  const causes = Object.entries(r.failures.byCause);
  out.push("", `failures: ${causes.length ? causes.map(([k, v]) => `${k} ${v}`).join(", ") : "none"}`);
  out.push("", "next actions:");
  if (r.actions.length === 0) out.push("  nothing waits for a person");
  for (const a of r.actions) out.push(`  ${a.command}   # ${a.why}`);
  if (file !== null) out.push("", `wrote ${file}`);
  return out.join("\n");
}
