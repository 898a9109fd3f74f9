/** Body of the plugin's report entry (see report.ts): finds the project's config, reads its store, writes the page. */
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { loadConfig, reportHtml, silentLogger } from "../core/index.ts";
import { buildReport, errorMessage, findConfig, loadConfiguredStore, localFolder } from "../core/internal.ts";

/** `[file] [--since <date>]` from the command's raw arguments (split on spaces by the shell). */
function parseArgs(argv: readonly string[]): { file: string | null; since: string | null } {
  let file: string | null = null;
  let since: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--since") since = argv[++i] ?? null;
    else if (a.startsWith("--since=")) since = a.slice("--since=".length);
    else if (a.trim() !== "") file = a;
  }
  return { file, since };
}

/** Writes the report of the project's store; returns the exit code. Every problem is one line on `out`. */
export async function runReport(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: (text: string) => void,
): Promise<number> {
  const projectDir = env["CLAUDE_PROJECT_DIR"] || process.cwd();
  try {
    const configPath = findConfig(projectDir);
    if (configPath === null) {
      out(`tooldistill: no tooldistill.yaml in ${projectDir}, so there is no store to report on.\n`);
      return 1;
    }
    const config = await loadConfig(configPath);
    const args = parseArgs(argv);
    const file = resolve(
      projectDir,
      args.file ?? join(localFolder(config.store, dirname(configPath)), "report.html"),
    );
    const store = await loadConfiguredStore(config, { readOnly: true, logger: silentLogger });
    try {
      const r = await buildReport(store, { since: args.since });
      writeFileSync(file, reportHtml(r));
      const o = r.overall;
      out(
        `tooldistill report written to ${file}\n` +
          `${o.runs} runs, ${o.distilledCalls} distilled calls; saved ${o.saved.baseCalls} base calls and ` +
          `${o.saved.tokens} tokens; ${r.actions.length} next action(s)\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  } catch (err) {
    out(`tooldistill: the report could not be written: ${errorMessage(err)}\n`);
    return 1;
  }
}
