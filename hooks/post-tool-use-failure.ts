/** Claude Code's PostToolUseFailure hook: checks the Node version, then hands stdin to the shared hook runner. */
import { nodeSupported } from "../claude-code/node-check.ts";

if (nodeSupported()) {
  const { runHook } = await import("./run.ts");
  await runHook("PostToolUseFailure");
}
