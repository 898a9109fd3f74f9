/**
 * Tool locks of a SQLite registry across processes: a lease row in `meta` (key `tooldistill.lock:<name>`),
 * taken and given back in short write transactions, so a re-verification or rebuild that runs for seconds holds
 * the tool without holding SQLite's write lock (which every recording hook needs) that long. A lease whose
 * process is gone (killed while holding it) is taken over; SQLite stores live on one machine, so the process id
 * says it. One on another host's process (a store on a network file system, which SQLite does not support) is
 * taken over after LEASE_FOREIGN_MS.
 */
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { errorMessage } from "../../errors.ts";
import { isRunning } from "../../mcp/process-stop.ts";
import type { Logger } from "../../types.ts";
import { INTERNAL_META_PREFIX } from "../registry-store.ts";
import { now } from "../row-mappers.ts";
import type { Store } from "./sqlite-store.ts";

/** How long a lease held by a process of another host is honoured. */
export const LEASE_FOREIGN_MS = 15 * 60_000;

interface Lease {
  token: string;
  pid: number;
  host: string;
  at: string;
}

function stale(text: string): boolean {
  let lease: Partial<Lease>;
  try {
    lease = JSON.parse(text) as Partial<Lease>;
  } catch {
    return true;
  }
  if (typeof lease.pid !== "number") return true;
  if (lease.host !== hostname()) return Date.now() - Date.parse(String(lease.at)) > LEASE_FOREIGN_MS;
  return !isRunning(lease.pid);
}

/**
 * Takes the lease of tool `name`, polling while another holder has it; returns its release. `idle` waits until
 * this process's async registry has no transaction open, so the lease's own short transaction is not folded into
 * another flow's.
 */
export async function takeLease(
  store: Store,
  name: string,
  idle: () => Promise<void>,
  logger: Logger,
): Promise<() => Promise<void>> {
  const key = INTERNAL_META_PREFIX + name;
  const { randomUUID } = process.getBuiltinModule("node:crypto");
  const mine = JSON.stringify({ token: randomUUID(), pid: process.pid, host: hostname(), at: now() });
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    await idle();
    const taken = store.transaction(() => {
      const held = store.getMeta(key);
      if (held !== null && !stale(held)) return false;
      store.setMeta(key, mine);
      return true;
    });
    if (taken) break;
    await sleep(delay);
  }
  return async () => {
    await idle();
    try {
      store.database.stmt("DELETE FROM meta WHERE key = ? AND value = ?").run(key, mine);
    } catch (err) {
      // Left behind, the lease is taken over once this process has exited.
      logger.warn(`tooldistill: could not release the lock of ${name}: ${errorMessage(err)}`);
    }
  };
}
