/** Runs the `td` server on stdio for Claude Code; stdout is the protocol, so everything else goes to stderr. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Logger } from "../core/types.ts";
import { createTdServer } from "./td-server.ts";

const logger: Logger = {
  info: (m) => process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`${m}\n`),
  error: (m) => process.stderr.write(`${m}\n`),
};

/** Serves `td` until Claude Code closes stdin or stops the process; base servers are closed on the way out. */
export async function main(): Promise<void> {
  const td = createTdServer({
    projectDir: process.env["CLAUDE_PROJECT_DIR"] || process.cwd(),
    sessionId: process.env["CLAUDE_CODE_SESSION_ID"],
    logger,
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await td.close();
    } catch (err) {
      logger.error(`tooldistill td: closing failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    process.exit(0);
  };
  td.server.onclose = () => void stop();
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  await td.server.connect(new StdioServerTransport());
}
