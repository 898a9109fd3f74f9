import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import "./chunk-QYIALDTZ.js";
import {
  loadConfiguredStore
} from "./chunk-6TYRKRPH.js";
import {
  buildReport,
  reportHtml
} from "./chunk-3Y2YTLYP.js";
import {
  findConfig,
  loadConfig,
  localFolder
} from "./chunk-HBRSV4NN.js";
import "./chunk-Q5FRN7I7.js";
import "./chunk-QMZU5RRW.js";
import "./chunk-POCT4HZ6.js";
import "./chunk-O4NDKIK6.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-IR76D6NA.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-27JIJYWJ.js";
import "./chunk-EPNEU7NH.js";
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-GLB7ED25.js";
import "./chunk-UNPHGQIK.js";
import "./chunk-XNNFATCV.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
import {
  errorMessage
} from "./chunk-WEYMVVQ3.js";
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
