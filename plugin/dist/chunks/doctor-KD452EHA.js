import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ioLogger,
  projectConfig
} from "./chunk-76XKPK6E.js";
import {
  doctorText,
  output
} from "./chunk-QHP767UQ.js";
import {
  EXIT
} from "./chunk-ZNOIUMSU.js";
import {
  sessionRecorder
} from "./chunk-FN46BTZL.js";
import {
  applySpilledEvents
} from "./chunk-HGEIAQBH.js";
import {
  doctor,
  pendingSpills
} from "./chunk-WOXAJQJ5.js";
import {
  loadConfiguredStore
} from "./chunk-IUMFZZRM.js";
import "./chunk-J64JK7AG.js";
import {
  localFolder
} from "./chunk-WSTLYW53.js";
import "./chunk-I42C2654.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-KJIBML44.js";
import "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-FLNVHBNK.js";
import "./chunk-WGRAGIMS.js";
import "./chunk-6X6CQ3U3.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-JFH4BXRI.js";
import {
  isPostgresUrl
} from "./chunk-RXOWFUTW.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-3GICA5WK.js";
import "./chunk-AFD4KMO3.js";
import {
  loadMcpServers
} from "./chunk-F7FMCNXH.js";
import "./chunk-PLUU42V4.js";
import "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
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
