import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ioLogger,
  projectConfig
} from "./chunk-BTWLJ23G.js";
import {
  doctorText,
  output
} from "./chunk-XI77YA5Y.js";
import {
  EXIT
} from "./chunk-3CDQHHHB.js";
import {
  sessionRecorder
} from "./chunk-Y4MNFS2B.js";
import {
  applySpilledEvents
} from "./chunk-WLDVZ5FR.js";
import {
  doctor,
  pendingSpills
} from "./chunk-QYIALDTZ.js";
import {
  loadConfiguredStore
} from "./chunk-6TYRKRPH.js";
import "./chunk-3Y2YTLYP.js";
import {
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
import {
  isPostgresUrl
} from "./chunk-EPNEU7NH.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-GLB7ED25.js";
import {
  loadMcpServers
} from "./chunk-UNPHGQIK.js";
import "./chunk-XNNFATCV.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/doctor.ts
async function doctor2(ctx) {
  const config = await projectConfig(ctx);
  const { fix } = ctx.options;
  const baseServers = Object.keys(
    await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers }).catch(() => ({}))
  );
  const report = isPostgresUrl(config.store) ? await doctorDatabase(ctx, config, fix, baseServers) : doctor(config.store, {
    fix,
    applySpilled: (store) => applySpilledEvents(store, null, baseServers)
  });
  output(ctx, report, () => doctorText(report, fix));
  return report.ok ? EXIT.ok : EXIT.error;
}
async function doctorDatabase(ctx, config, fix, baseServers) {
  const store = await loadConfiguredStore(config, { readOnly: !fix, logger: ioLogger(ctx.io) });
  const report = { store: store.location, findings: [], fixed: [], ok: true };
  try {
    const local = localFolder(config.store, config.dir);
    const pending = pendingSpills(local);
    if (pending.files.length > 0 && fix) {
      const applied = await sessionRecorder(store, local).applySpills(baseServers);
      report.fixed.push(`applied ${applied.applied} spilled hook event${applied.applied === 1 ? "" : "s"}`);
      for (const failed of applied.failed)
        report.findings.push({
          kind: "spill",
          message: `a spilled hook event could not be applied: ${failed}`,
          fix: null,
          command: null
        });
    } else if (pending.files.length > 0) {
      report.findings.push({
        kind: "spill",
        message: `${pending.files.length} spill file${pending.files.length === 1 ? "" : "s"} in ${local} hold hook events of ${pending.sessions.length} session${pending.sessions.length === 1 ? "" : "s"} that no td server has applied yet`,
        fix: "apply them to the database",
        command: null
      });
    }
  } finally {
    await store.close();
  }
  report.ok = report.findings.length === 0;
  return report;
}
export {
  doctor2 as doctor
};
