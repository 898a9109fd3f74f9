import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withRegistry
} from "./chunk-3OFSVOJB.js";
import {
  output
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-6XGZWFWT.js";
import "./chunk-BD5LZ5WU.js";
import "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import {
  buildReport,
  reportHtml
} from "./chunk-ASUB56OA.js";
import "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-RTC3Y7I5.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-UEVEZT5O.js";
import "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/report.ts
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";

// cli/format-report.ts
var n = (x, digits = 0) => x === null ? "-" : x.toLocaleString("en-US", { maximumFractionDigits: digits });
var pct = (x) => x === null ? "-" : `${Math.round(x * 100)}%`;
function reportText(r, file) {
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
    "tools:"
  ];
  if (r.tools.length === 0) out.push("  none yet");
  for (const t of r.tools) {
    const s = t.savings;
    out.push(
      `  ${t.name} v${t.current.version} ${t.current.status}: ${n(t.runs)} calls, ${pct(t.successRate)} succeeded; saves ${n(s.perRun.baseCalls, 1)} base calls and ${n(s.perRun.tokens)} tokens per run (${n(s.total.baseCalls)} and ${n(s.total.tokens)} in total; ${s.basis})`
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

// cli/commands/report.ts
async function report(ctx) {
  const r = await withRegistry(
    ctx,
    (store) => buildReport(store, { since: ctx.options.since ?? null }),
    "read"
  );
  let file = null;
  if (ctx.options.html !== void 0) {
    file = resolve(ctx.io.cwd, ctx.options.html);
    writeFileSync(file, reportHtml(r));
  }
  output(ctx, r, () => reportText(r, file));
  if (ctx.json && file !== null) ctx.io.stderr(`wrote ${file}
`);
  return EXIT.ok;
}
export {
  report
};
