import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ioLogger,
  projectConfig
} from "./chunk-ZTKOGAON.js";
import {
  sessionRecorder
} from "./chunk-QXDRXTOY.js";
import {
  applySpilledEvents
} from "./chunk-IWFZTXJW.js";
import {
  doctorText,
  output
} from "./chunk-SDNSSE42.js";
import {
  EXIT
} from "./chunk-JFCIHAGY.js";
import {
  doctor,
  loadConfiguredStore,
  localFolder,
  pendingSpills
} from "./chunk-66WDDRXQ.js";
import "./chunk-ZTOAOY7G.js";
import "./chunk-PKRKCUPB.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-UAOKGEVO.js";
import "./chunk-OGWWFJGY.js";
import {
  isPostgresUrl
} from "./chunk-MOQGWUYL.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-RYZN5VFB.js";
import {
  loadMcpServers
} from "./chunk-7JG2XOTS.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-XSOUOFOT.js";
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
