/** `doctor`: checks the store and, with --fix, applies the repairs that lose nothing. */
import { applySpilledEvents } from "../../claude-code/session-events.ts";
import { doctor as checkStore, loadMcpServers } from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { doctorText, output } from "../format.ts";
import { projectConfig } from "../project.ts";

/** Reports every problem of the store with its repair; exits 1 while a problem is left. */
export async function doctor(ctx: ContextOf<"doctor">): Promise<number> {
  const config = await projectConfig(ctx);
  const { fix } = ctx.options;
  // Spilled hook events need the project's MCP server names; a config whose servers cannot be read still gets
  // every other check.
  const baseServers = Object.keys(
    await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers }).catch(() => ({})),
  );
  const report = checkStore(config.store, {
    fix,
    applySpilled: (store) => applySpilledEvents(store, null, baseServers),
  });
  output(ctx, report, () => doctorText(report, fix));
  return report.ok ? EXIT.ok : EXIT.error;
}
