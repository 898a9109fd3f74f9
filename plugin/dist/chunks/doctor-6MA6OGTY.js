import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ioLogger,
  projectConfig
} from "./chunk-7WU6MUDY.js";
import {
  doctorText,
  output
} from "./chunk-ZEIOH4VZ.js";
import {
  EXIT
} from "./chunk-Q764J24N.js";
import {
  sessionRecorder
} from "./chunk-NCT7WRCJ.js";
import {
  applySpilledEvents
} from "./chunk-ZSJA2ZHR.js";
import {
  doctor,
  pendingSpills
} from "./chunk-IYMYVRKQ.js";
import {
  loadConfiguredStore
} from "./chunk-KNTWPZCL.js";
import "./chunk-2CDCRBX2.js";
import {
  localFolder
} from "./chunk-Q43EQ4S5.js";
import "./chunk-AKW4E22I.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-C76PIVXH.js";
import "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UMZBALXE.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-GHTTQKRX.js";
import {
  isPostgresUrl
} from "./chunk-KWE2AXCZ.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
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
