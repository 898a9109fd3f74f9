/** Claude Code's UserPromptExpansion hook: checks the Node version, then hands stdin to the shared hook runner. */
import { nodeSupported } from "../claude-code/node-check.ts";

if (nodeSupported()) {
  const { runHook } = await import("./run.ts");
  await runHook("UserPromptExpansion");
}
