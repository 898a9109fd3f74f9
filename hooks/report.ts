/**
 * `/tooldistill:report [file] [--since <date>]`: writes the project's report as one self-contained HTML page (the
 * library's `report`, the same page as `tooldistill report --html`) and prints where, for the slash command's
 * expansion. Not a hook: a bundled entry the plugin's command runs with `node`.
 */
import { nodeSupported } from "../claude-code/node-check.ts";

if (nodeSupported()) {
  const { runReport } = await import("./report-run.ts");
  process.exitCode = await runReport(process.argv.slice(2), process.env, (text) =>
    process.stdout.write(text),
  );
}
