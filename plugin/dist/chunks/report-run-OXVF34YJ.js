import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import "./chunk-6XGZWFWT.js";
import {
  loadConfiguredStore
} from "./chunk-BD5LZ5WU.js";
import "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import {
  buildReport,
  reportHtml
} from "./chunk-ASUB56OA.js";
import {
  findConfig,
  loadConfig,
  localFolder
} from "./chunk-G4NVZV74.js";
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
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import {
  errorMessage
} from "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// hooks/report-run.ts
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
function parseArgs(argv) {
  let file = null;
  let since = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--since") since = argv[++i] ?? null;
    else if (a.startsWith("--since=")) since = a.slice("--since=".length);
    else if (a.trim() !== "") file = a;
  }
  return { file, since };
}
async function runReport(argv, env, out) {
  const projectDir = env["CLAUDE_PROJECT_DIR"] || process.cwd();
  try {
    const configPath = findConfig(projectDir);
    if (configPath === null) {
      out(`tooldistill: no tooldistill.yaml in ${projectDir}, so there is no store to report on.
`);
      return 1;
    }
    const config = await loadConfig(configPath);
    const args = parseArgs(argv);
    const file = resolve(
      projectDir,
      args.file ?? join(localFolder(config.store, dirname(configPath)), "report.html")
    );
    const store = await loadConfiguredStore(config, { readOnly: true, logger: silentLogger });
    try {
      const r = await buildReport(store, { since: args.since });
      writeFileSync(file, reportHtml(r));
      const o = r.overall;
      out(
        `tooldistill report written to ${file}
${o.runs} runs, ${o.distilledCalls} distilled calls; saved ${o.saved.baseCalls} base calls and ${o.saved.tokens} tokens; ${r.actions.length} next action(s)
`
      );
      return 0;
    } finally {
      await store.close();
    }
  } catch (err) {
    out(`tooldistill: the report could not be written: ${errorMessage(err)}
`);
    return 1;
  }
}
export {
  runReport
};
