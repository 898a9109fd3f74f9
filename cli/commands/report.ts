/** `report`: the library's report over the store, as numbers (--json), text, and a self-contained HTML page. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { reportHtml } from "../../core/index.ts";
import { buildReport } from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output } from "../format.ts";
import { reportText } from "../format-report.ts";
import { withRegistry } from "../project.ts";

/** Builds the report read-only; with --html writes the page too (its path is printed, on stderr with --json). */
export async function report(ctx: ContextOf<"report">): Promise<number> {
  const r = await withRegistry(
    ctx,
    (store) => buildReport(store, { since: ctx.options.since ?? null }),
    "read",
  );
  let file: string | null = null;
  if (ctx.options.html !== undefined) {
    file = resolve(ctx.io.cwd, ctx.options.html);
    writeFileSync(file, reportHtml(r));
  }
  output(ctx, r, () => reportText(r, file));
  if (ctx.json && file !== null) ctx.io.stderr(`wrote ${file}\n`);
  return EXIT.ok;
}
