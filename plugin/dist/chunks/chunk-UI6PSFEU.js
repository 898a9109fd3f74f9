import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  runTokens
} from "./chunk-G4NVZV74.js";
import {
  evidenceLines,
  verdictReport
} from "./chunk-HCN7KP44.js";
import {
  oneLine
} from "./chunk-DFWB4XA7.js";

// cli/format.ts
function print(io, text) {
  io.stdout(text.endsWith("\n") ? text : `${text}
`);
}
function output(ctx, value, text) {
  if (ctx.json) ctx.io.stdout(`${JSON.stringify(value, null, 2)}
`);
  else print(ctx.io, text());
}
function outputRows(ctx, rows, view) {
  output(ctx, rows, () => rows.length === 0 ? view.empty : table(view.headers, rows.map(view.cells)));
}
function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells) => cells.map((cell, i) => i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}
function when(iso) {
  if (iso === null) return "-";
  return iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
}
function count(n) {
  return n.toLocaleString("en-US");
}
function outcomeText(outcome) {
  return outcome === null ? "not set" : outcome ? "success" : "failure";
}
function indent(text) {
  return text.split("\n").map((l) => l ? `  ${l}` : l).join("\n");
}
function outputVerdict(ctx, verdict) {
  output(ctx, verdict, () => verdictReport(verdict));
  return verdict.checks.static.ok && verdict.checks.replay.ok && verdict.checks.efficiency.ok;
}
function versionRow(v, successes) {
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
    runs_reproduced: runs ? { reproduced: runs.reproduced, total: runs.total } : null
  };
}
function promotionText(v, preview) {
  const out = [`code of ${v.name} v${v.version}:`, preview.code.trimEnd()];
  if (preview.replaces) {
    out.push("", `changes from v${preview.replaces.version}, the version it replaces:`);
    out.push(preview.replaces.diff || "  (the code is the same)");
  }
  out.push("", `${v.name} v${v.version}: active`);
  return out.join("\n");
}
var VERSION_TABLE = {
  headers: ["NAME", "VERSION", "STATUS", "PROBLEMS", "BASELINE", "RUNS", "REBUILD"],
  cells: (r) => [
    r.name,
    `v${r.version}`,
    r.status,
    r.problems.length ? r.problems.join(",") : "-",
    r.baseline === null ? "-" : String(r.baseline),
    String(r.successful_runs),
    r.queued_rebuild ? "queued" : "-"
  ]
};
function versionPage(shown) {
  const { v, stats } = shown;
  const out = [`${v.name} v${v.version}: ${v.status}`];
  if (v.description) out.push(v.description);
  out.push("");
  out.push(`versions:  ${shown.versions.join(", ")}`);
  out.push(`problems:  ${v.problems.length ? v.problems.join(", ") : "none"}`);
  out.push(`baseline:  ${v.baseline === null ? "not measured" : `${v.baseline} base calls`}`);
  out.push(`source:    ${v.sourceTrace ?? "-"}`);
  out.push(
    `rebuild:   ${v.queuedRebuild ? `queued${v.rebuildNote ? ` (${v.rebuildNote})` : ""}` : "not queued"}`
  );
  out.push("", "checks:");
  out.push(
    v.verdict ? indent(verdictReport({ ...v.verdict, status: v.status }, { evidence: false })) : "  not verified yet"
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
        shown.history.map((h) => [when(h.at), h.from === null ? h.to : `${h.from} \u2192 ${h.to}`, h.reason])
      )
    )
  );
  out.push("", "runs:");
  const na = stats.notApplicable ? `, ${stats.notApplicable} not applicable` : "";
  out.push(
    stats.runs === 0 ? "  no live runs yet" : `  ${stats.runs} (${stats.successes} successful, ${stats.failures} failed${na}), last ${when(stats.lastRunAt)}`
  );
  for (const r of shown.runs) out.push(`  ${when(r.at)}  ${runLine(r)}`);
  out.push("", "savings:");
  out.push(`  ${savingsText(shown.savings)}`);
  out.push("", `code (${shown.file}):`);
  out.push(shown.code ?? "  the file is missing: deprecate this version or restore the file");
  return out.join("\n");
}
function runLine(r) {
  const e = r.evidence ?? {};
  if (r.outcome === "ok") return `ok, ${r.innerCalls} inner calls (trace ${r.traceId ?? "-"})`;
  if (r.outcome === "declared") {
    const taken = (r.evidence ?? {}).declared ?? [];
    const what = taken.map((d) => `${d.outcome} at ${d.tool}`).join(", ");
    return `ok by a declared outcome (${what}), ${r.innerCalls} inner calls (trace ${r.traceId ?? "-"})`;
  }
  if (r.outcome === "not_applicable") return `not applicable: ${e.reason ?? "?"} (trace ${r.traceId ?? "-"})`;
  const at = e.tool ? ` at ${e.tool}` : "";
  const cause = r.outcome === "tool" ? "failed (the tool's own)" : r.outcome === "caller" ? "failed (the caller's input: not counted against it)" : `failed (${r.outcome}: not counted against it)`;
  return `${cause}: ${e.kind ?? "?"}${at}: ${oneLine(e.message ?? "", 120)} (trace ${r.traceId ?? "-"})`;
}
function savingsText(s) {
  const parts = [];
  if (s.baseline_calls === null) parts.push("no baseline measured");
  else if (s.inner_calls_per_run === null)
    parts.push(`baseline ${s.baseline_calls} base calls; no live runs yet`);
  else {
    const perRun = Number(s.inner_calls_per_run.toFixed(1));
    const saved = s.baseline_calls > 0 ? Math.round((1 - s.inner_calls_per_run / s.baseline_calls) * 100) : 0;
    parts.push(`baseline ${s.baseline_calls} base calls \u2192 ${perRun} per run (${saved}% fewer)`);
  }
  if (s.baseline_tokens !== null) parts.push(`the source run used ${count(s.baseline_tokens)} model tokens`);
  return parts.join("; ");
}
var TRACE_TABLE = {
  headers: ["ID", "STARTED", "SOURCE", "OUTCOME", "CALLS", "TOKENS", "TASK"],
  cells: (r) => [
    r.id,
    when(r.started_at),
    r.source,
    outcomeText(r.outcome),
    String(r.base_calls),
    runTokens(r.usage) ? count(runTokens(r.usage)) : "-",
    oneLine(r.task, 60)
  ]
};
function tracePage(t, calls, topLevelBaseCalls) {
  const u = t.usage;
  const out = [
    `trace ${t.id}`,
    `task:     ${t.task}`,
    `source:   ${t.source}`,
    `outcome:  ${outcomeText(t.outcome)}`,
    `started:  ${when(t.startedAt)}`,
    `ended:    ${when(t.endedAt)}`,
    `tokens:   ${count(u.input_tokens)} input, ${count(u.output_tokens)} output, ${count(u.cache_creation_input_tokens)} cache write, ${count(u.cache_read_input_tokens)} cache read`
  ];
  if (t.note) out.push(`note:     ${t.note}`);
  out.push("", `calls: ${calls.length} recorded, ${topLevelBaseCalls} top-level base calls`);
  if (calls.length > 0) {
    out.push(
      table(
        ["SEQ", "TOOL", "KIND", "STATUS", "MS", "ARGS \u2192 RESULT"],
        calls.map((c) => [
          String(c.seq),
          c.parentId === null ? c.tool : `  \u21B3 ${c.tool}`,
          c.version === null ? c.kind : `${c.kind} v${c.version}`,
          c.status,
          c.latencyMs === null ? "-" : c.latencyMs.toFixed(1),
          oneLine(
            `${JSON.stringify(c.args)} \u2192 ${c.status === "error" ? `error: ${c.error}` : c.status === "ok" ? JSON.stringify(c.output) : "\u2026"}`,
            100
          )
        ])
      )
    );
  }
  return out.join("\n");
}
function changeReportText(report, nothing, extra = []) {
  const lines = report.changes.map((c) => {
    const change = c.from === c.to ? c.to : `${c.from} \u2192 ${c.to}`;
    const problems = c.problems.length ? ` [${c.problems.join(", ")}]` : "";
    return `${c.name} v${c.version}: ${change}${problems} (${c.reason})${c.queuedRebuild ? ", queued for rebuild" : ""}`;
  });
  lines.push(...report.messages, ...extra);
  return lines.length ? lines.join("\n") : nothing;
}
function baseHealthLines(tools) {
  if (tools.length === 0) return [];
  const lines = ["base tools (outages count here, never against a distilled tool):"];
  for (const t of tools) {
    const state = t.consecutive > 0 ? `failing: ${t.consecutive} outage${t.consecutive === 1 ? "" : "s"} in a row, last ${when(t.lastFailureAt)}: ${oneLine(t.lastError ?? "", 100)}` : `healthy (${t.failures} outage${t.failures === 1 ? "" : "s"} recorded${t.lastOkAt ? `, answering again since ${when(t.lastOkAt)}` : ""})`;
    const probe = t.probeOk === null ? "" : `; probe ${t.probeOk ? "answered" : "failed"} ${when(t.probedAt)}`;
    lines.push(`  ${t.tool}: ${state}${probe}`);
  }
  return lines;
}
function toolsTable(tools) {
  if (tools.length === 0) return "no tools listed";
  return table(
    ["SERVER", "TOOL", "HINTS", "DESCRIPTION"],
    tools.map((t) => [t.server, t.tool, hints(t.def), oneLine(t.def.description.split("\n")[0] ?? "", 80)])
  );
}
function hints(t) {
  const a = t.annotations;
  if (!a) return "-";
  const out = [];
  if (a.readOnlyHint) out.push("read-only");
  if (a.destructiveHint) out.push("destructive");
  if (a.idempotentHint) out.push("idempotent");
  return out.length ? out.join(",") : "-";
}
function doctorText(report, fix) {
  const out = [`store: ${report.store}`];
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
      `${left} problem${left === 1 ? "" : "s"} left${fix ? "" : "; run tooldistill doctor --fix for the ones it can repair"}`
    );
  }
  return out.join("\n");
}
function transferText(verb, counts, where) {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const width = Math.max(...Object.keys(counts).map((table2) => table2.length)) + 1;
  const tables = Object.entries(counts).map(([table2, n]) => `  ${table2.padEnd(width)}${n}`);
  return [`${verb} ${total} rows: ${where}`, ...tables].join("\n");
}

export {
  output,
  outputRows,
  outputVerdict,
  versionRow,
  promotionText,
  VERSION_TABLE,
  versionPage,
  TRACE_TABLE,
  tracePage,
  changeReportText,
  baseHealthLines,
  toolsTable,
  doctorText,
  transferText
};
