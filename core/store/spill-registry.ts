/**
 * Applying spill files (spill.ts) into a RegistryStore, on either engine, by every applier: the next hook, the
 * plugin's td server, the fallback distiller, `doctor --fix`. Events in the order written, each exactly once, one
 * that fails reported without undoing the others. The folder's appliers take turns under one lock (the
 * registry's tool lock named after this host and folder), taken before the transaction: only its holder claims
 * files, so a claimed file another applier sees is a dead applier's leftover. The events and their ids commit
 * together, in one transaction.
 */
import { hostname } from "node:os";
import { resolve } from "node:path";
import { errorMessage } from "../errors.ts";
import type { RegistryData, RegistryStore } from "./registry-store.ts";
import {
  claimFiles,
  pendingKeys,
  pruneBefore,
  readSpilled,
  removeFiles,
  type SpilledEvent,
  type SpillReport,
  spillDir,
} from "./spill.ts";

/** The lock the appliers of one spill folder share: folders are per machine, so the host is in the name. */
export function spillLockName(spillRoot: string): string {
  return `spill:${hostname()}:${resolve(spillDir(spillRoot))}`;
}

/**
 * Applies the spilled events under `<spillRoot>/spill` of one session (or of every session when `sessionId` is
 * null) into `store`, in order and exactly once. `apply` records one event through `tx`; one that throws is
 * reported in `failed` and its writes undone, the others kept. Files are removed once their events committed; a
 * failure of the transaction itself (the store unreachable) leaves them for the next applier and is thrown.
 */
export async function applySpillsToRegistry(
  store: RegistryStore,
  spillRoot: string,
  sessionId: string | null,
  apply: (event: SpilledEvent, tx: RegistryData) => Promise<void>,
): Promise<SpillReport> {
  const report: SpillReport = { applied: 0, skipped: 0, failed: [] };
  if (pendingKeys(spillRoot, sessionId).length === 0) return report;
  const dir = spillDir(spillRoot);
  return store.withToolLock(spillLockName(spillRoot), async () => {
    const claimed: string[] = [];
    await store.transaction(async (tx) => {
      // Listed again under the lock: the previous holder may have applied them meanwhile.
      for (const key of pendingKeys(spillRoot, sessionId)) {
        for (const file of claimFiles(dir, key)) {
          claimed.push(file);
          for (const event of readSpilled(file, report)) await applyOne(tx, event, apply, report);
        }
      }
      await tx.pruneSpillApplied(pruneBefore());
    });
    removeFiles(claimed);
    return report;
  });
}

/** One event in its savepoint, its id claimed with it; a failed one is marked applied too (never retried). */
async function applyOne(
  tx: RegistryData,
  event: SpilledEvent,
  apply: (event: SpilledEvent, tx: RegistryData) => Promise<void>,
  report: SpillReport,
): Promise<void> {
  try {
    const fresh = await tx.savepoint(async (step) => {
      if (!(await step.claimSpillEvent(event.id))) return false;
      await apply(event, step);
      return true;
    });
    if (fresh) report.applied++;
    else report.skipped++;
  } catch (err) {
    report.failed.push(`${event.event} of ${event.at}: ${errorMessage(err)}`);
    await tx.claimSpillEvent(event.id);
  }
}
