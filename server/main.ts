/**
 * Runs the `td` server on stdio for Claude Code; stdout is the protocol, so everything else goes to stderr.
 * The server never outlives its session: it stops when stdin ends or closes, on SIGTERM, SIGINT or SIGHUP, and when
 * the process that started it (Claude Code) is gone, and it stops every base server it started, by pid. A stop
 * that takes longer than STOP_DEADLINE_MS (a base server that ignores its signals) is finished with SIGKILL.
 */
import type { Logger } from "../core/index.ts";
import { TdStdioTransport } from "./stdio-transport.ts";
import { createTdServer } from "./td-server.ts";

/** Claude Code may SIGKILL a server that takes longer than a few seconds to stop: stay well inside that. */
export const STOP_DEADLINE_MS = 1500;

/** How often the server checks that the process that started it is still there. */
export const PARENT_POLL_MS = 1000;

const logger: Logger = {
  info: (m) => process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`${m}\n`),
  error: (m) => process.stderr.write(`${m}\n`),
};

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Serves `td` until Claude Code goes away; base servers are stopped on the way out. */
export async function main(): Promise<void> {
  const td = createTdServer({
    projectDir: process.env["CLAUDE_PROJECT_DIR"] || process.cwd(),
    sessionId: process.env["CLAUDE_CODE_SESSION_ID"],
    logger,
  });
  const parent = process.ppid;
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`tooldistill td: stopping: ${why}`);
    const deadline = setTimeout(() => {
      logger.warn(`tooldistill td: stopping took over ${STOP_DEADLINE_MS} ms: killing the base servers`);
      for (const pid of td.pids()) kill(pid);
      process.exit(0);
    }, STOP_DEADLINE_MS);
    try {
      await td.close();
    } catch (err) {
      logger.error(`tooldistill td: closing failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    // Anything the close left running (a base server that outlived its connection) goes by pid.
    for (const pid of td.pids()) kill(pid);
    clearTimeout(deadline);
    process.exit(0);
  };
  const transport = new TdStdioTransport(process.stdin, process.stdout, {
    log: (message) => logger.warn(message),
  });
  td.server.onclose = () => void stop("stdin closed");
  td.server.onerror = (err) => logger.warn(`tooldistill td: ${err.message}`);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void stop(signal));
  // Reparented means the parent died without closing our stdin (killed, or a pipe kept open by someone else).
  setInterval(() => {
    if (process.ppid !== parent) void stop(`the process that started it (pid ${parent}) is gone`);
  }, PARENT_POLL_MS).unref();
  await td.server.connect(transport);
}
