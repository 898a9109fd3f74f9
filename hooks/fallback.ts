/**
 * The fallback distiller, started detached by the SessionEnd hook (`fallback <config> <traceId>`) so that the
 * user's exit never waits for a model call. Base tool schemas come from the store's cache, not from servers.
 */
import { nodeSupported } from "../claude-code/node-check.ts";

if (nodeSupported()) {
  const { runFallback } = await import("./fallback-run.ts");
  await runFallback(process.argv[2] ?? "", process.argv[3] ?? "");
}
