import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withLibrary
} from "./chunk-ZTKOGAON.js";
import {
  baseHealthLines,
  changeReportText,
  output,
  outputVerdict
} from "./chunk-SDNSSE42.js";
import {
  EXIT
} from "./chunk-JFCIHAGY.js";
import "./chunk-66WDDRXQ.js";
import "./chunk-ZTOAOY7G.js";
import "./chunk-PKRKCUPB.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-UAOKGEVO.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-MOQGWUYL.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-7JG2XOTS.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-XSOUOFOT.js";
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
