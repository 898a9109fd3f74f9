/**
 * Copying a whole registry from one store to another (SQLite → PostgreSQL to move a team onto a shared database,
 * PostgreSQL → SQLite for a backup or a laptop): traces, calls, versions with their code, verdicts, history,
 * dependencies, run counters, live runs with their outcomes, the definitions versions were verified against, base
 * tool health and cached values, read from one snapshot of the source and written in one
 * transaction into the target. The target must be empty: a copy never merges two registries, and a copy that
 * fails leaves the target as empty as it was.
 */
import { DistillError } from "../../errors.ts";
import {
  type RegistryBatch,
  type RegistryStore,
  TRANSFER_ORDER,
  type TransferCounts,
} from "../registry-store.ts";
import { hashSource } from "../tool-files.ts";

/**
 * Copies everything in `from` into `to`, which must be empty (a USAGE error otherwise, before anything is read).
 * A version whose code no longer matches its recorded hash stops the copy (TOOL_FILE_CHANGED), naming it.
 * Returns how many rows of each table were copied.
 */
export async function copyRegistry(from: RegistryStore, to: RegistryStore): Promise<TransferCounts> {
  if (from === to || (from.kind === to.kind && from.location === to.location)) {
    throw new DistillError(
      "USAGE",
      `cannot copy the store ${from.location} onto itself: name another target.`,
    );
  }
  if (!(await to.isEmpty())) {
    throw new DistillError(
      "USAGE",
      `the store ${to.location} is not empty: a copy never merges two registries, so nothing was written. Copy into an empty database or a new folder, or empty the target first.`,
    );
  }
  return to.importRegistry(
    checkedBatches(from.exportRegistry(), from.location, (n, v) => from.codeLocation(n, v)),
  );
}

/**
 * A source's pages (a store's export, or a file's), checked on the way: tables in TRANSFER_ORDER, and every
 * version's code its own. A failure says that nothing was written (the target's import rolls back).
 */
export async function* checkedBatches(
  batches: AsyncIterable<RegistryBatch>,
  where: string,
  codeLocation: (name: string, version: number) => string,
): AsyncGenerator<RegistryBatch> {
  let at = 0;
  try {
    for await (const batch of batches) {
      const index = TRANSFER_ORDER.indexOf(batch.table);
      if (index < at) {
        throw new DistillError(
          "STORE",
          `${where} has ${batch.table} after ${TRANSFER_ORDER[at]}: a copy needs its tables in the order ${TRANSFER_ORDER.join(", ")}.`,
        );
      }
      at = index;
      if (batch.table === "versions") {
        for (const v of batch.rows) {
          if (hashSource(v.code) !== v.sourceHash) {
            throw new DistillError(
              "TOOL_FILE_CHANGED",
              `the code of ${v.name} v${v.version} (${codeLocation(v.name, v.version)}) was changed after it was stored: its sha256 no longer matches the registry's. Restore the code it was verified with, then copy again.`,
            );
          }
        }
      }
      yield batch;
    }
  } catch (err) {
    if (err instanceof DistillError) {
      throw new DistillError(err.code, `the copy stopped and wrote nothing: ${err.message}`, { cause: err });
    }
    throw err;
  }
}
