/** Entry of the plugin's MCP server `td` (stdio): checks the Node version, then starts the server. */
import { nodeSupported } from "../claude-code/node-check.ts";

if (nodeSupported()) {
  // Claude Code starts the server with every session: the compile cache keeps its compiled chunks between them.
  (await import("node:module")).enableCompileCache?.();
  const { main } = await import("./main.ts");
  await main();
}
