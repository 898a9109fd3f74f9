import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ioLogger,
  projectConfig
} from "./chunk-3OFSVOJB.js";
import {
  doctorText,
  output
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import {
  sessionRecorder
} from "./chunk-ICWJNCPN.js";
import "./chunk-HZDX3NIU.js";
import {
  doctor,
  pendingSpills
} from "./chunk-6XGZWFWT.js";
import {
  loadConfiguredStore
} from "./chunk-BD5LZ5WU.js";
import {
  loadMcpServers
} from "./chunk-I5S26EEK.js";
import "./chunk-ASUB56OA.js";
import {
  localFolder
} from "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import {
  isPostgresUrl
} from "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/doctor.ts
async function doctor2(ctx) {
  const config = await projectConfig(ctx);
  const { fix } = ctx.options;
  const baseServers = Object.keys(
    await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers }).catch(() => ({}))
  );
  const report = isPostgresUrl(config.store) ? await doctorDatabase(ctx, config, fix, baseServers) : await doctor(config.store, {
    fix,
    applySpilled: async () => {
      const store = await loadConfiguredStore(config, { logger: ioLogger(ctx.io) });
      try {
        return await sessionRecorder(store, config.store).applySpills(baseServers);
      } finally {
        await store.close();
      }
    }
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
