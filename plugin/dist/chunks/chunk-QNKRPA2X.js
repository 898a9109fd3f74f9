import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/mcp/process-stop.ts
async function stopProcess(pid, graceMs) {
  const start = Date.now();
  let signal = null;
  while (isRunning(pid)) {
    const waited = Date.now() - start;
    const next = waited >= 2 * graceMs ? "SIGKILL" : waited >= graceMs ? "SIGTERM" : null;
    if (next !== null && next !== signal) {
      signal = next;
      try {
        process.kill(pid, next);
      } catch {
        return;
      }
    }
    if (signal === "SIGKILL" && waited >= 2 * graceMs + 1e3) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

export {
  stopProcess,
  isRunning
};
