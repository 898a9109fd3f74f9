/** `doctor`: checks the store and, with --fix, applies the repairs that lose nothing. */
import { sessionRecorder } from "../../claude-code/session-recorder.ts";
import type { Config } from "../../core/index.ts";
import {
  doctor as checkStore,
  type DoctorReport,
  isPostgresUrl,
  loadConfiguredStore,
  loadMcpServers,
  localFolder,
  pendingSpills,
} from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { doctorText, output } from "../format.ts";
import { ioLogger, projectConfig } from "../project.ts";

/** Reports every problem of the store with its repair; exits 1 while a problem is left. */
export async function doctor(ctx: ContextOf<"doctor">): Promise<number> {
  const config = await projectConfig(ctx);
  const { fix } = ctx.options;
  const baseServers = Object.keys(
    await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers }).catch(() => ({})),
  );
  const report = isPostgresUrl(config.store)
    ? await doctorDatabase(ctx, config, fix, baseServers)
    : await checkStore(config.store, {
        fix,
        applySpilled: async () => {
          const store = await loadConfiguredStore(config, { logger: ioLogger(ctx.io) });
          try {
            return await sessionRecorder(store, config.store).applySpills(baseServers);
          } finally {
            await store.close();
          }
        },
      });
  output(ctx, report, () => doctorText(report, fix));
  return report.ok ? EXIT.ok : EXIT.error;
}

/**
 * A PostgreSQL registry: opening it checks the connection and the schema (a newer one is refused, an older one
 * migrated by --fix); the lifecycle's invariants are the database's constraints, and there are no tool files, so
 * what is left is this machine's: hook events spilled to `.tooldistill/spill` that no td server applied yet.
 */
async function doctorDatabase(
  ctx: ContextOf<"doctor">,
  config: Config,
  fix: boolean,
  baseServers: string[],
): Promise<DoctorReport> {
  const store = await loadConfiguredStore(config, { readOnly: !fix, logger: ioLogger(ctx.io) });
  const report: DoctorReport = { store: store.location, findings: [], fixed: [], ok: true };
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
          command: null,
        });
    } else if (pending.files.length > 0) {
      report.findings.push({
        kind: "spill",
        message: `${pending.files.length} spill file${pending.files.length === 1 ? "" : "s"} in ${local} hold hook events of ${pending.sessions.length} session${pending.sessions.length === 1 ? "" : "s"} that no td server has applied yet`,
        fix: "apply them to the database",
        command: null,
      });
    }
  } finally {
    await store.close();
  }
  report.ok = report.findings.length === 0;
  return report;
}
