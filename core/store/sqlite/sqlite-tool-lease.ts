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
import { type Engine, sql } from "../engine.ts";
import type { RegistryData } from "../registry-store.ts";
import { INTERNAL_META_PREFIX } from "../registry-store.ts";
import { now } from "../row-mappers.ts";

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

const RELEASE = sql((d) => `DELETE FROM ${d.t.meta} WHERE key = ? AND value = ?`);

/**
 * Takes the lease of tool `name` in `registry` (called outside any of its transactions), polling while another
 * holder has it; returns its release.
 */
export async function takeLease(
  registry: RegistryData & { readonly engine: Engine },
  name: string,
  logger: Logger,
): Promise<() => Promise<void>> {
  const key = INTERNAL_META_PREFIX + name;
  const { randomUUID } = process.getBuiltinModule("node:crypto");
  const mine = JSON.stringify({ token: randomUUID(), pid: process.pid, host: hostname(), at: now() });
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    const taken = await registry.transaction(async (tx) => {
      const held = await tx.getMeta(key);
      if (held !== null && !stale(held)) return false;
      await tx.setMeta(key, mine);
      return true;
    });
    if (taken) break;
    await sleep(delay);
  }
  return async () => {
    try {
      await registry.engine.run(RELEASE(registry.engine.dialect), [key, mine]);
    } catch (err) {
      // Left behind, the lease is taken over once this process has exited.
      logger.warn(`tooldistill: could not release the lock of ${name}: ${errorMessage(err)}`);
    }
  };
}
