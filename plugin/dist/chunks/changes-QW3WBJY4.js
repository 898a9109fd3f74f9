import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withLibrary
} from "./chunk-3OFSVOJB.js";
import {
  baseHealthLines,
  changeReportText,
  output,
  outputVerdict
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-BD5LZ5WU.js";
import "./chunk-G4NVZV74.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
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
