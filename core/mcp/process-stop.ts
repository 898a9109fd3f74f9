/**
 * Stopping a child process by pid, whatever its parent library does: a server that ignores stdin and SIGTERM
 * must still be gone within a known time, so nothing the toolkit started outlives it.
 */

/**
 * Waits until `pid` has exited, sending SIGTERM after `graceMs` and SIGKILL after `graceMs` more; gives up
 * shortly after the SIGKILL (the kernel reaps it; its parent may be us, reaping through the SDK).
 */
export async function stopProcess(pid: number, graceMs: number): Promise<void> {
  const start = Date.now();
  let signal: NodeJS.Signals | null = null;
  while (isRunning(pid)) {
    const waited = Date.now() - start;
    const next: NodeJS.Signals | null =
      waited >= 2 * graceMs ? "SIGKILL" : waited >= graceMs ? "SIGTERM" : null;
    if (next !== null && next !== signal) {
      signal = next;
      try {
        process.kill(pid, next);
      } catch {
        return;
      }
    }
    if (signal === "SIGKILL" && waited >= 2 * graceMs + 1000) return;
    // A timer that holds the event loop: waiting for a child to go must not let the process end first.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** True while process `pid` exists (ours or not). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM means it exists but is not ours to signal: it is still running.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
