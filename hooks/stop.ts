/** Claude Code's Stop hook (after each turn; it reconciles the trace with the transcript): checks the Node version, then hands stdin to the shared hook runner. */
import { nodeSupported } from "../claude-code/node-check.ts";

if (nodeSupported()) {
  const { runHook } = await import("./run.ts");
  await runHook("Stop");
}
