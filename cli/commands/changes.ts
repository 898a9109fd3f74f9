/** `tool-updated`, `health` and `rebuild`: keeping distilled tools working as their base tools change. */
import { type ContextOf, EXIT } from "../commands.ts";
import { baseHealthLines, changeReportText, output, outputVerdict } from "../format.ts";
import { withLibrary } from "../project.ts";

/** Re-verifies the versions that depend on a changed base tool; queues rebuilds for those that avoided it. */
export async function toolUpdated(ctx: ContextOf<"tool-updated">): Promise<number> {
  const tool = ctx.args.base_tool;
  return withLibrary(ctx, async (td) => {
    const report = await td.onToolUpdated(tool);
    output(ctx, report, () => changeReportText(report, `no distilled tool depends on ${tool}`));
    return EXIT.ok;
  });
}

/** Compares the base tools with the stored dependencies and, unless --no-probe, probes avoided tools. */
export async function health(ctx: ContextOf<"health">): Promise<number> {
  const probe = !ctx.options["no-probe"];
  return withLibrary(ctx, async (td) => {
    const report = await td.health({ probe });
    const probed = report.probed.map(
      (p) => `probe ${p.tool}: ${p.recovered ? "answers" : "still failing"}${p.error ? ` (${p.error})` : ""}`,
    );
    const extra = [...probed, ...baseHealthLines(report.baseTools)];
    output(ctx, report, () => changeReportText(report, "all distilled tools match their base tools", extra));
    return EXIT.ok;
  });
}

/** Hands a queued tool's source run to the distiller and verifies the result; exits 1 when a check fails. */
export async function rebuild(ctx: ContextOf<"rebuild">): Promise<number> {
  return withLibrary(ctx, async (td) => {
    const verdict = await td.rebuild(ctx.args.name);
    return outputVerdict(ctx, verdict) ? EXIT.ok : EXIT.error;
  });
}
