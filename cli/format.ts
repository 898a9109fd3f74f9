/**
 * Everything the CLI prints: `--json` for programs, and for people the tables, pages and reports. Commands gather
 * the data; the text is made here, so one command's output reads like another's.
 */
import type {
  BaseToolHealth,
  CallRecord,
  ChangeReport,
  DependencyRecord,
  HistoryRecord,
  RunRecord,
  RunStats,
  ToolDef,
  TraceRecord,
  UsageTotals,
  Verdict,
  VerifiedDefinition,
  VersionRecord,
} from "../core/index.ts";
import type { DoctorReport, PromotionPreview, TransferCounts } from "../core/internal.ts";
import { evidenceLines, oneLine, runTokens, verdictReport } from "../core/read.ts";
import type { CliIO } from "./types.ts";

/** Prints `text` on stdout, ending it with one newline. */
function print(io: CliIO, text: string): void {
  io.stdout(text.endsWith("\n") ? text : `${text}\n`);
}

/** With --json prints `value`, else the text for people (made only when it is printed). */
export function output(ctx: { io: CliIO; json: boolean }, value: unknown, text: () => string): void {
  if (ctx.json) ctx.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  else print(ctx.io, text());
}

/** With --json prints `rows`; else `empty` when there are none, or a table of them. */
export function outputRows<R>(
  ctx: { io: CliIO; json: boolean },
  rows: R[],
  view: { empty: string; headers: string[]; cells: (row: R) => string[] },
): void {
  output(ctx, rows, () => (rows.length === 0 ? view.empty : table(view.headers, rows.map(view.cells))));
}

/** Left-aligned columns, two spaces apart; the last column is not padded. */
function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

/** ISO time without the milliseconds, for people. */
function when(iso: string | null): string {
  if (iso === null) return "-";
  return iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function outcomeText(outcome: boolean | null): string {
  return outcome === null ? "not set" : outcome ? "success" : "failure";
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => (l ? `  ${l}` : l))
    .join("\n");
}

/** Prints a verdict: JSON, or its checks and what the status now means; true when every check passed. */
export function outputVerdict(ctx: { io: CliIO; json: boolean }, verdict: Verdict): boolean {
  output(ctx, verdict, () => verdictReport(verdict));
  return verdict.checks.static.ok && verdict.checks.replay.ok && verdict.checks.efficiency.ok;
}

// ---- versions ---------------------------------------------------------------------------------------

/** One version as `list --json`, `promote --json` and `deprecate --json` print it (a stable shape). */
export function versionRow(v: VersionRecord, successes: number) {
  const { callSites, runs } = v.verdict?.evidence ?? { callSites: null, runs: null };
  return {
    name: v.name,
    version: v.version,
    status: v.status,
    problems: v.problems,
    baseline: v.baseline,
    successful_runs: successes,
    queued_rebuild: v.queuedRebuild,
    coverage: callSites ? { covered: callSites.covered, total: callSites.total } : null,
    runs_reproduced: runs ? { reproduced: runs.reproduced, total: runs.total } : null,
  };
}

/** `promote` for people: the code that became active and, for a replacement, its diff against the one replaced. */
export function promotionText(v: VersionRecord, preview: PromotionPreview): string {
  const out: string[] = [`code of ${v.name} v${v.version}:`, preview.code.trimEnd()];
  if (preview.replaces) {
    out.push("", `changes from v${preview.replaces.version}, the version it replaces:`);
    out.push(preview.replaces.diff || "  (the code is the same)");
  }
  out.push("", `${v.name} v${v.version}: active`);
  return out.join("\n");
}

/** The columns of `list`. */
export const VERSION_TABLE = {
  headers: ["NAME", "VERSION", "STATUS", "PROBLEMS", "BASELINE", "RUNS", "REBUILD"],
  cells: (r: ReturnType<typeof versionRow>) => [
    r.name,
    `v${r.version}`,
    r.status,
    r.problems.length ? r.problems.join(",") : "-",
    r.baseline === null ? "-" : String(r.baseline),
    String(r.successful_runs),
    r.queued_rebuild ? "queued" : "-",
  ],
};

/** Baseline calls against inner calls per live run, and the tokens of the source run where it recorded usage. */
export interface Savings {
  baseline_calls: number | null;
  inner_calls_per_run: number | null;
  baseline_tokens: number | null;
}

/** Everything `show` says of one version. */
export interface ShownVersion {
  v: VersionRecord;
  file: string;
  code: string | null;
  history: HistoryRecord[];
  dependencies: DependencyRecord[];
  stats: RunStats;
  /** The newest live runs, newest first. */
  runs: RunRecord[];
  /** The base tool definitions the version was verified against. */
  definitions: VerifiedDefinition[];
  savings: Savings;
  /** Every version of the tool, as "v1 deprecated". */
  versions: string[];
}

/** `show` for people: status, problems, checks, dependencies, history, runs, savings and the code. */
export function versionPage(shown: ShownVersion): string {
  const { v, stats } = shown;
  const out: string[] = [`${v.name} v${v.version}: ${v.status}`];
  if (v.description) out.push(v.description);
  out.push("");
  out.push(`versions:  ${shown.versions.join(", ")}`);
  out.push(`problems:  ${v.problems.length ? v.problems.join(", ") : "none"}`);
  out.push(`baseline:  ${v.baseline === null ? "not measured" : `${v.baseline} base calls`}`);
  out.push(`source:    ${v.sourceTrace ?? "-"}`);
  out.push(
    `rebuild:   ${v.queuedRebuild ? `queued${v.rebuildNote ? ` (${v.rebuildNote})` : ""}` : "not queued"}`,
  );
  out.push("", "checks:");
  // The stored verdict carries the status of its moment; show it with the version's status now.
  out.push(
    v.verdict
      ? indent(verdictReport({ ...v.verdict, status: v.status }, { evidence: false }))
      : "  not verified yet",
  );
  const evidence = v.verdict ? evidenceLines(v.verdict.evidence) : [];
  out.push("", "evidence:", evidence.length ? indent(evidence.join("\n")) : "  none measured");
  out.push("", "dependencies:");
  if (shown.dependencies.length === 0) out.push("  none recorded");
  for (const d of shown.dependencies) {
    const seen = shown.definitions.filter((x) => x.baseTool === d.baseTool).length;
    const defs = seen > 1 ? ` (verified against ${seen} definitions)` : "";
    out.push(`  ${d.baseTool}${d.avoided ? " (avoided: every call failed in the source run)" : defs}`);
  }
  out.push("", "history:");
  out.push(
    indent(
      table(
        ["AT", "CHANGE", "REASON"],
        shown.history.map((h) => [when(h.at), h.from === null ? h.to : `${h.from} → ${h.to}`, h.reason]),
      ),
    ),
  );
  out.push("", "runs:");
  const na = stats.notApplicable ? `, ${stats.notApplicable} not applicable` : "";
  out.push(
    stats.runs === 0
      ? "  no live runs yet"
      : `  ${stats.runs} (${stats.successes} successful, ${stats.failures} failed${na}), last ${when(stats.lastRunAt)}`,
  );
  for (const r of shown.runs) out.push(`  ${when(r.at)}  ${runLine(r)}`);
  out.push("", "savings:");
  out.push(`  ${savingsText(shown.savings)}`);
  out.push("", `code (${shown.file}):`);
  out.push(shown.code ?? "  the file is missing: deprecate this version or restore the file");
  return out.join("\n");
}

/** One run for `show`: its outcome and, for a failure or a not-applicable end, its evidence. */
function runLine(r: RunRecord): string {
  const e = (r.evidence ?? {}) as { reason?: string; kind?: string; message?: string; tool?: string | null };
  if (r.outcome === "ok") return `ok, ${r.innerCalls} inner calls (trace ${r.traceId ?? "-"})`;
  if (r.outcome === "declared") {
    const taken = ((r.evidence ?? {}) as { declared?: { tool: string; outcome: string }[] }).declared ?? [];
    const what = taken.map((d) => `${d.outcome} at ${d.tool}`).join(", ");
    return `ok by a declared outcome (${what}), ${r.innerCalls} inner calls (trace ${r.traceId ?? "-"})`;
  }
  if (r.outcome === "not_applicable") return `not applicable: ${e.reason ?? "?"} (trace ${r.traceId ?? "-"})`;
  const at = e.tool ? ` at ${e.tool}` : "";
  const cause =
    r.outcome === "tool"
      ? "failed (the tool's own)"
      : r.outcome === "caller"
        ? "failed (the caller's input: not counted against it)"
        : `failed (${r.outcome}: not counted against it)`;
  return `${cause}: ${e.kind ?? "?"}${at}: ${oneLine(e.message ?? "", 120)} (trace ${r.traceId ?? "-"})`;
}

function savingsText(s: Savings): string {
  const parts: string[] = [];
  if (s.baseline_calls === null) parts.push("no baseline measured");
  else if (s.inner_calls_per_run === null)
    parts.push(`baseline ${s.baseline_calls} base calls; no live runs yet`);
  else {
    const perRun = Number(s.inner_calls_per_run.toFixed(1));
    const saved = s.baseline_calls > 0 ? Math.round((1 - s.inner_calls_per_run / s.baseline_calls) * 100) : 0;
    parts.push(`baseline ${s.baseline_calls} base calls → ${perRun} per run (${saved}% fewer)`);
  }
  if (s.baseline_tokens !== null) parts.push(`the source run used ${count(s.baseline_tokens)} model tokens`);
  return parts.join("; ");
}

// ---- traces -----------------------------------------------------------------------------------------

/** One row of `traces list --json` (a stable shape). */
export interface TraceRow {
  id: string;
  task: string;
  source: string;
  outcome: boolean | null;
  started_at: string;
  ended_at: string | null;
  base_calls: number;
  usage: UsageTotals;
  /** `runTokens(usage)`: the one total every command and the report use. */
  tokens: number;
}

/** The columns of `traces list`. */
export const TRACE_TABLE = {
  headers: ["ID", "STARTED", "SOURCE", "OUTCOME", "CALLS", "TOKENS", "TASK"],
  cells: (r: TraceRow) => [
    r.id,
    when(r.started_at),
    r.source,
    outcomeText(r.outcome),
    String(r.base_calls),
    runTokens(r.usage) ? count(runTokens(r.usage)) : "-",
    oneLine(r.task, 60),
  ],
};

/** `traces show` for people: the run, then every call in order with inner calls indented. */
export function tracePage(t: TraceRecord, calls: CallRecord[], topLevelBaseCalls: number): string {
  const u = t.usage;
  const out = [
    `trace ${t.id}`,
    `task:     ${t.task}`,
    `source:   ${t.source}`,
    `outcome:  ${outcomeText(t.outcome)}`,
    `started:  ${when(t.startedAt)}`,
    `ended:    ${when(t.endedAt)}`,
    `tokens:   ${count(u.input_tokens)} input, ${count(u.output_tokens)} output, ${count(u.cache_creation_input_tokens)} cache write, ${count(u.cache_read_input_tokens)} cache read`,
  ];
  if (t.note) out.push(`note:     ${t.note}`);
  out.push("", `calls: ${calls.length} recorded, ${topLevelBaseCalls} top-level base calls`);
  if (calls.length > 0) {
    out.push(
      table(
        ["SEQ", "TOOL", "KIND", "STATUS", "MS", "ARGS → RESULT"],
        calls.map((c) => [
          String(c.seq),
          c.parentId === null ? c.tool : `  ↳ ${c.tool}`,
          c.version === null ? c.kind : `${c.kind} v${c.version}`,
          c.status,
          c.latencyMs === null ? "-" : c.latencyMs.toFixed(1),
          oneLine(
            `${JSON.stringify(c.args)} → ${c.status === "error" ? `error: ${c.error}` : c.status === "ok" ? JSON.stringify(c.output) : "…"}`,
            100,
          ),
        ]),
      ),
    );
  }
  return out.join("\n");
}

// ---- changes, base tools and the store's health -----------------------------------------------------

/** `tool-updated` and `health` for people: one line per affected version, then the messages and `extra`. */
export function changeReportText(report: ChangeReport, nothing: string, extra: string[] = []): string {
  const lines = report.changes.map((c) => {
    const change = c.from === c.to ? c.to : `${c.from} → ${c.to}`;
    const problems = c.problems.length ? ` [${c.problems.join(", ")}]` : "";
    return `${c.name} v${c.version}: ${change}${problems} (${c.reason})${c.queuedRebuild ? ", queued for rebuild" : ""}`;
  });
  lines.push(...report.messages, ...extra);
  return lines.length ? lines.join("\n") : nothing;
}

/** `health`'s lines on base tools: outages (infrastructure failures, which count against the base tool, never a
 * distilled tool) and what the probe last said. */
export function baseHealthLines(tools: readonly BaseToolHealth[]): string[] {
  if (tools.length === 0) return [];
  const lines = ["base tools (outages count here, never against a distilled tool):"];
  for (const t of tools) {
    const state =
      t.consecutive > 0
        ? `failing: ${t.consecutive} outage${t.consecutive === 1 ? "" : "s"} in a row, last ${when(t.lastFailureAt)}: ${oneLine(t.lastError ?? "", 100)}`
        : `healthy (${t.failures} outage${t.failures === 1 ? "" : "s"} recorded${t.lastOkAt ? `, answering again since ${when(t.lastOkAt)}` : ""})`;
    const probe =
      t.probeOk === null ? "" : `; probe ${t.probeOk ? "answered" : "failed"} ${when(t.probedAt)}`;
    lines.push(`  ${t.tool}: ${state}${probe}`);
  }
  return lines;
}

/** One base tool as `mcp tools` shows it. */
export interface ListedTool {
  server: string;
  tool: string;
  def: ToolDef;
}

/** `mcp tools` for people: server, tool, the hints it declares and its first line of description. */
export function toolsTable(tools: ListedTool[]): string {
  if (tools.length === 0) return "no tools listed";
  return table(
    ["SERVER", "TOOL", "HINTS", "DESCRIPTION"],
    tools.map((t) => [t.server, t.tool, hints(t.def), oneLine(t.def.description.split("\n")[0] ?? "", 80)]),
  );
}

function hints(t: ToolDef): string {
  const a = t.annotations;
  if (!a) return "-";
  const out: string[] = [];
  if (a.readOnlyHint) out.push("read-only");
  if (a.destructiveHint) out.push("destructive");
  if (a.idempotentHint) out.push("idempotent");
  return out.length ? out.join(",") : "-";
}

/** `doctor` for people: each finding with what repairs it, then what was done and what is left. */
export function doctorText(report: DoctorReport, fix: boolean): string {
  const out: string[] = [`store: ${report.store}`];
  for (const f of report.findings) {
    out.push(`- ${f.message}`);
    if (f.fix !== null) out.push(fix ? `  repaired: ${f.fix}` : `  tooldistill doctor --fix ${f.fix}`);
    if (f.command !== null) out.push(`  to fix: ${f.command}`);
  }
  for (const done of report.fixed) out.push(`done: ${done}`);
  if (report.findings.length === 0) out.push("no problem found");
  else if (report.ok) out.push("every problem found was repaired");
  else {
    const left = report.findings.filter((f) => f.fix === null || !fix).length;
    out.push(
      `${left} problem${left === 1 ? "" : "s"} left${fix ? "" : "; run tooldistill doctor --fix for the ones it can repair"}`,
    );
  }
  return out.join("\n");
}

/** What export, import and copy moved: one line, then the rows of each table. */
export function transferText(verb: string, counts: TransferCounts, where: string): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const width = Math.max(...Object.keys(counts).map((table) => table.length)) + 1;
  const tables = Object.entries(counts).map(([table, n]) => `  ${table.padEnd(width)}${n}`);
  return [`${verb} ${total} rows: ${where}`, ...tables].join("\n");
}
