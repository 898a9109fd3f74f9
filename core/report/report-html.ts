/**
 * The report as one self-contained HTML file: the numbers as JSON in the page, the chart library (uPlot) and its
 * stylesheet inlined, nothing fetched from anywhere (no CDN, no font, no favicon). uPlot is read from its npm
 * package's dist file when the report is written, or from a copy beside this module in a bundle (the plugin's).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { DistillError } from "../errors.ts";
import type { Report } from "./report.ts";

/** The chart library's files: the browser build and its stylesheet. */
export const CHART_FILES = { js: "uPlot.iife.min.js", css: "uPlot.min.css" } as const;

/**
 * Where the chart library's file is: in a bundle, beside this module or in the chunk folder beside it (the plugin
 * copies it to dist/chunks/, and this code lands in an entry or in a chunk); else in the `uplot` package.
 */
export function chartAssetPath(file: string): string {
  for (const near of [`./${file}`, `./chunks/${file}`]) {
    const path = fileURLToPath(new URL(near, import.meta.url));
    if (existsSync(path)) return path;
  }
  try {
    return createRequire(import.meta.url).resolve(`uplot/dist/${file}`);
  } catch (err) {
    throw new DistillError(
      "USAGE",
      `the chart library (uplot/dist/${file}) is missing: reinstall tooldistill, or keep ${file} next to a bundle`,
      { cause: err },
    );
  }
}

/** JSON safe inside a <script> element: `<` never appears, so no `</script>` can end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** Text safe inside HTML. */
function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

const n = (x: number | null, digits = 0): string =>
  x === null ? "–" : x.toLocaleString("en-US", { maximumFractionDigits: digits });
const pct = (x: number | null): string => (x === null ? "–" : `${Math.round(x * 100)}%`);

function table(headers: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** The tables of the report (everything but the charts), as HTML. */
function sections(r: Report): { cards: string; tables: string } {
  const o = r.overall;
  const cards = [
    ["runs", n(o.runs), `${pct(o.successRate)} succeeded (${n(o.undeclared)} without a declared outcome)`],
    ["base calls", n(o.baseCalls), "every finished base call, inside distilled tools too"],
    ["tokens", n(o.tokens.total), "input + output + cache creation + cache read"],
    ["distilled calls", n(o.distilledCalls), `${pct(o.distilledSuccessRate)} succeeded`],
    ["base calls saved", n(o.saved.baseCalls), `measured over ${n(o.saved.tools)} tool(s)`],
    ["tokens saved", n(o.saved.tokens), "against each tool's baseline runs"],
  ]
    .map(
      ([k, v, d]) =>
        `<div class="card"><div class="k">${k}</div><div class="v">${v}</div><div>${d}</div></div>`,
    )
    .join("");
  const tools = table(
    ["tool", "status", "runs", "success", "failures", "saved / run", "saved in total", "basis"],
    r.tools.map((t) => [
      esc(t.name),
      `v${t.current.version} ${esc(t.current.status)}`,
      n(t.runs),
      pct(t.successRate),
      esc(
        Object.entries(t.failures)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "none",
      ),
      `${n(t.savings.perRun.baseCalls, 1)} calls, ${n(t.savings.perRun.tokens)} tokens`,
      `${n(t.savings.total.baseCalls)} calls, ${n(t.savings.total.tokens)} tokens`,
      esc(t.savings.basis),
    ]),
    "no distilled tools yet",
  );
  const timeline = table(
    ["at", "tool", "change", "reason"],
    r.tools.flatMap((t) =>
      t.timeline.map((h) => [
        esc(h.at.replace("T", " ").replace(/\.\d+Z$/, "Z")),
        `${esc(t.name)} v${h.version}`,
        `<span class="st ${esc(h.to)}">${esc(h.from === null ? h.to : `${h.from} → ${h.to}`)}</span>`,
        esc(h.reason),
      ]),
    ),
    "no status changes",
  );
  const causes = table(
    ["cause", "failed calls"],
    Object.entries(r.failures.byCause).map(([k, v]) => [esc(k), n(v)]),
    "no distilled call failed",
  );
  const recent = table(
    ["at", "tool", "cause", "message", "trace"],
    r.failures.recent.map((f) => [
      esc(f.at),
      `${esc(f.tool)} v${f.version}`,
      esc(f.cause),
      esc(f.message ?? ""),
      esc(f.trace ?? "-"),
    ]),
    "none",
  );
  const base = table(
    ["base tool", "calls", "errors", "failing in a row", "last error", "last answer", "probe"],
    r.baseTools.map((b) => [
      esc(b.tool),
      n(b.calls),
      n(b.errors),
      n(b.consecutiveFailures),
      esc(b.lastError ?? ""),
      esc(b.lastOkAt ?? "-"),
      b.probeOk === null ? "-" : b.probeOk ? "ok" : "down",
    ]),
    "no base tool calls recorded",
  );
  const actions = table(
    ["what", "command", "why"],
    r.actions.map((a) => [
      `${esc(a.kind)}: ${esc(a.tool)}${a.version === null ? "" : ` v${a.version}`}`,
      `<code>${esc(a.command)}</code>`,
      esc(a.why),
    ]),
    "nothing waits for a person",
  );
  return {
    cards: `<section class="cards">${cards}</section>`,
    tables: `<h2>Distilled tools</h2>${tools}
<h2>Next actions</h2>${actions}
<h2>Status timeline</h2>${timeline}
<h2>Failures by cause</h2>${causes}
<h3>Recent failures</h3>${recent}
<h2>Base tool health</h2>${base}`,
  };
}

// The page's own script: draws the three charts from the embedded numbers with uPlot.
const CHARTS = `
const R = JSON.parse(document.getElementById("report-data").textContent);
const W = Math.min(1000, document.body.clientWidth - 40);
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#be185d", "#4d7c0f"];
function empty(id, text) { document.getElementById(id).innerHTML = '<p class="empty">' + text + "</p>"; }
function chart(id, opts, data) {
  const el = document.getElementById(id);
  el.dataset.series = String(opts.series.length - 1);
  return new uPlot(Object.assign({ width: W, height: 260 }, opts), data, el);
}
const pts = { show: true, size: 7 };
// One point in time has no span: a minute either side, or uPlot's time axis would stretch over years.
const timeX = { x: { range: (u, min, max) => (min === max ? [min - 60, max + 60] : [min, max]) } };
const t = (iso) => Date.parse(iso) / 1000;
if (R.runs.length === 0) empty("chart-runs", "no runs in this period");
else chart("chart-runs", {
  scales: timeX,
  series: [{}, { label: "base calls", stroke: COLORS[0], width: 2, scale: "calls", points: pts },
    { label: "tokens", stroke: COLORS[1], width: 2, scale: "tokens", points: pts }],
  axes: [{}, { scale: "calls", label: "base calls" }, { scale: "tokens", side: 1, label: "tokens", grid: { show: false }, size: 70 }],
}, [R.runs.map((r) => t(r.at)), R.runs.map((r) => r.baseCalls), R.runs.map((r) => r.tokens || null)]);
const used = R.tools.filter((tool) => tool.callTimes.length > 0);
if (used.length === 0) empty("chart-tools", "no distilled tool has run in this period");
else {
  // From the period's first run (none yet) to the last call, so even one call draws a step.
  const start = R.runs.length ? [R.runs[0].at] : [];
  const xs = [...new Set(start.concat(used.flatMap((tool) => tool.callTimes)))].sort();
  chart("chart-tools", {
    scales: timeX,
    series: [{}].concat(used.map((tool, i) => ({ label: tool.name, stroke: COLORS[i % COLORS.length], width: 2, points: pts, paths: uPlot.paths.stepped({ align: 1 }) }))),
    axes: [{}, { label: "calls so far" }],
  }, [xs.map(t)].concat(used.map((tool) => xs.map((x) => tool.callTimes.filter((c) => c <= x).length))));
}
const measured = R.tools.filter((t) => t.savings.perRun.baseCalls !== null);
if (measured.length === 0) empty("chart-savings", "no savings measured yet: no run used a distilled tool");
else {
  const idx = measured.map((_, i) => i);
  const bars = uPlot.paths.bars;
  chart("chart-savings", {
    scales: { x: { time: false, range: [-0.5, measured.length - 0.5] } },
    series: [{}, { label: "base calls saved per run", fill: COLORS[0] + "cc", stroke: COLORS[0], scale: "calls", paths: bars({ size: [0.3], align: -1 }), points: { show: false } },
      { label: "tokens saved per run", fill: COLORS[1] + "cc", stroke: COLORS[1], scale: "tokens", paths: bars({ size: [0.3], align: 1 }), points: { show: false } }],
    axes: [{ splits: () => idx, values: (u, s) => s.map((i) => measured[i] ? measured[i].name : "") },
      { scale: "calls", label: "base calls" }, { scale: "tokens", side: 1, label: "tokens", grid: { show: false }, size: 70 }],
  }, [idx, measured.map((t) => t.savings.perRun.baseCalls), measured.map((t) => t.savings.perRun.tokens)]);
}
document.body.dataset.rendered = "true";
`;

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 20px; color: #111; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; } .meta, .empty { color: #555; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 16px 0; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 10px 14px; min-width: 150px; color: #555; font-size: 12px; }
.card .k { text-transform: uppercase; letter-spacing: .04em; } .card .v { font-size: 24px; color: #111; font-weight: 600; }
table { border-collapse: collapse; } th, td { border-bottom: 1px solid #eee; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f6f6f6; } code { background: #f3f3f3; padding: 1px 4px; }
.st.active { color: #15803d; } .st.suspect { color: #b45309; } .st.deprecated, .st.rejected { color: #b91c1c; }
.chart { margin: 8px 0 16px; }
`;

/** The report as one HTML page with its charts, needing nothing but itself. */
export function reportHtml(report: Report): string {
  const js = readFileSync(chartAssetPath(CHART_FILES.js), "utf8");
  const css = readFileSync(chartAssetPath(CHART_FILES.css), "utf8");
  const { cards, tables } = sections(report);
  const since = report.since === null ? "everything stored" : `since ${report.since}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>tooldistill report</title>
<style>${css}</style><style>${STYLE}</style>
</head><body>
<h1>tooldistill report</h1>
<div class="meta">${esc(since)} · generated ${esc(report.generatedAt)} · ${esc(report.store.kind)} store ${esc(report.store.location)}</div>
${cards}
<h2>Each run: base calls and tokens</h2><div class="chart" id="chart-runs"></div>
<h2>Calls of each distilled tool, so far</h2><div class="chart" id="chart-tools"></div>
<h2>Saved per run, by tool</h2><div class="chart" id="chart-savings"></div>
${tables}
<script type="application/json" id="report-data">${scriptJson(report)}</script>
<script>${js.replace(/<\/script/gi, "<\\/script")}</script>
<script>${CHARTS}</script>
</body></html>
`;
}
