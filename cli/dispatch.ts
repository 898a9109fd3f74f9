/**
 * Where each command's body lives and how it runs. Bodies load on first use, so `--help` and a usage mistake load
 * no command module; this module, not the command table, imports them, so a body may import the table's types.
 */
import type { CommandName, ContextOf } from "./commands.ts";
import type { CommandContext } from "./types.ts";

type Body<N extends CommandName> = (ctx: ContextOf<N>) => Promise<number>;

/** Where each command's body lives: one module per command group under commands/, loaded on first use. */
const LOADERS: { [N in CommandName]: () => Promise<Body<N>> } = {
  init: () => import("./commands/init.ts").then((m) => m.init),
  list: () => import("./commands/versions.ts").then((m) => m.list),
  show: () => import("./commands/versions.ts").then((m) => m.show),
  "traces list": () => import("./commands/traces.ts").then((m) => m.tracesList),
  "traces show": () => import("./commands/traces.ts").then((m) => m.tracesShow),
  report: () => import("./commands/report.ts").then((m) => m.report),
  promote: () => import("./commands/lifecycle.ts").then((m) => m.promote),
  deprecate: () => import("./commands/lifecycle.ts").then((m) => m.deprecate),
  verify: () => import("./commands/lifecycle.ts").then((m) => m.verify),
  prune: () => import("./commands/lifecycle.ts").then((m) => m.prune),
  "tool-updated": () => import("./commands/changes.ts").then((m) => m.toolUpdated),
  health: () => import("./commands/changes.ts").then((m) => m.health),
  rebuild: () => import("./commands/changes.ts").then((m) => m.rebuild),
  doctor: () => import("./commands/doctor.ts").then((m) => m.doctor),
  export: () => import("./commands/transfer.ts").then((m) => m.exportRegistry),
  import: () => import("./commands/transfer.ts").then((m) => m.importRegistry),
  copy: () => import("./commands/transfer.ts").then((m) => m.copy),
  "mcp tools": () => import("./commands/mcp.ts").then((m) => m.mcpTools),
};

/** Loads command `name`'s body and runs it; resolves to the exit code. */
export async function runCommand(name: CommandName, ctx: CommandContext): Promise<number> {
  // The command line was checked against this command's own spec, so ctx has the shape its body declares.
  const body = (await LOADERS[name]()) as (ctx: CommandContext) => Promise<number>;
  return body(ctx);
}
