import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withLibrary
} from "./chunk-7WU6MUDY.js";
import {
  baseHealthLines,
  changeReportText,
  output,
  outputVerdict
} from "./chunk-ZEIOH4VZ.js";
import {
  EXIT
} from "./chunk-Q764J24N.js";
import "./chunk-KNTWPZCL.js";
import "./chunk-Q43EQ4S5.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-KWE2AXCZ.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-PLUU42V4.js";
import "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/changes.ts
async function toolUpdated(ctx) {
  const tool = ctx.args.base_tool;
  return withLibrary(ctx, async (td) => {
    const report = await td.onToolUpdated(tool);
    output(ctx, report, () => changeReportText(report, `no distilled tool depends on ${tool}`));
    return EXIT.ok;
  });
}
async function health(ctx) {
  const probe = !ctx.options["no-probe"];
  return withLibrary(ctx, async (td) => {
    const report = await td.health({ probe });
    const probed = report.probed.map(
      (p) => `probe ${p.tool}: ${p.recovered ? "answers" : "still failing"}${p.error ? ` (${p.error})` : ""}`
    );
    const extra = [...probed, ...baseHealthLines(report.baseTools)];
    output(ctx, report, () => changeReportText(report, "all distilled tools match their base tools", extra));
    return EXIT.ok;
  });
}
async function rebuild(ctx) {
  return withLibrary(ctx, async (td) => {
    const verdict = await td.rebuild(ctx.args.name);
    return outputVerdict(ctx, verdict) ? EXIT.ok : EXIT.error;
  });
}
export {
  health,
  rebuild,
  toolUpdated
};
