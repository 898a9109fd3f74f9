/** Entry of the plugin's MCP server `td` (stdio): checks the Node version, then starts the server. */
import { nodeSupported } from "../claude-code/node-check.ts";

if (nodeSupported()) {
  const { main } = await import("./main.ts");
  await main();
}
