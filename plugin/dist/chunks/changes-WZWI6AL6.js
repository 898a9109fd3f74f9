import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withLibrary
} from "./chunk-BTWLJ23G.js";
import {
  baseHealthLines,
  changeReportText,
  output,
  outputVerdict
} from "./chunk-XI77YA5Y.js";
import {
  EXIT
} from "./chunk-3CDQHHHB.js";
import "./chunk-6TYRKRPH.js";
import "./chunk-HBRSV4NN.js";
import "./chunk-QMZU5RRW.js";
import "./chunk-O4NDKIK6.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-EPNEU7NH.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-XNNFATCV.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
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
