/**
 * The set of exposed distilled tools a ToolDistill offers (`activeTools()`), kept in memory so that reading it
 * never waits on the store: loaded when the ToolDistill opens, re-read after every lifecycle change this process
 * commits, and on the store's change feed (PostgreSQL's NOTIFY, SQLite's poll of the history), so a promotion or
 * demotion made by any process sharing the registry reaches it without a restart.
 */

import { fingerprintOnce } from "../base-tools/fingerprint.ts";
import { classifyVersion, type StartupSnapshot, WATCHED_STATUSES } from "../base-tools/tool-changes.ts";
import type { DefinitionStatus } from "../base-tools/verified-definitions.ts";
import { errorMessage } from "../errors.ts";
import type { Dialect, Read } from "../store/engine.ts";
import { type VersionRecord, versionKey } from "../store/records.ts";
import type { RegistryStore } from "../store/registry-store.ts";
import {
  definitionsRead,
  dependedOnRead,
  dependenciesRead,
  unknownDependenciesRead,
} from "../store/tables/dependencies.ts";
import { allRunStatsRead } from "../store/tables/runs.ts";
import { versionsRead } from "../store/tables/versions.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import type { Logger, ToolDef } from "../types.ts";
import { candidatesOf, type ExposedCandidate, exposedCandidates, pickExposed } from "./exposure.ts";

/** The start-up's fingerprints of the current definitions, and what its first look read (`startupCandidates`). */
export interface StartupLook {
  fingerprintOf: (tool: ToolDef) => string | null;
  snapshot?: StartupSnapshot;
}

/** Runs a read of the store at once (SqliteRegistryStore.readNow). */
export type ReadNow = <T>(q: (d: Dialect) => Read<T>) => T;

/**
 * The exposed versions of the embedded store, read synchronously when a ToolDistill opens. With `baseTool` (the
 * start-up review will run), versions whose base tools broke or are gone are left out: the review makes them
 * suspect once it runs, and until then they are not offered. What it read and judged is left in `look.snapshot`
 * for that review.
 */
export function startupCandidates(
  readNow: ReadNow,
  baseTool: DistillContext["baseTool"] | null,
  look: StartupLook = { fingerprintOf: fingerprintOnce() },
): ExposedCandidate[] {
  // The constructor cannot await: the same reads exposedCandidates makes, run at once.
  const versions = readNow((d) => versionsRead(d));
  const candidates = candidatesOf(
    versions,
    readNow((d) => allRunStatsRead(d)),
  );
  if (!baseTool || candidates.length === 0) return candidates;
  // Every version the review watches is judged here, so the review judges none again. One read finds the
  // versions a current definition is new to; only those have their rows read and their definitions parsed.
  const watched = versions.filter((v) => WATCHED_STATUSES.includes(v.status));
  const current = new Map<string, string>();
  for (const name of readNow((d) => dependedOnRead(d))) {
    const tool = baseTool(name);
    const print = tool === undefined ? null : look.fingerprintOf(tool);
    if (print !== null) current.set(name, print);
  }
  const unknown = readNow((d) => unknownDependenciesRead(d, current, WATCHED_STATUSES));
  const judged = new Map<string, DefinitionStatus>();
  look.snapshot = { judged };
  for (const v of watched) {
    const k = versionKey(v);
    const status = !unknown.has(k)
      ? "known"
      : classifyVersion(
          v,
          readNow((d) => dependenciesRead(d, v.name, v.version)),
          readNow((d) => definitionsRead(d, v.name, v.version)),
          baseTool,
          undefined,
          look.fingerprintOf,
        ).status;
    judged.set(k, status);
  }
  return candidates.filter((c) => {
    const status = judged.get(versionKey(c.v));
    return status !== "missing" && status !== "breaking";
  });
}

/** What tells two exposed sets apart for a client: names, versions, statuses and descriptions. */
function signatureOf(versions: readonly VersionRecord[]): string {
  return versions
    .map((v) => `${v.name}@${v.version}:${v.status}:${v.problems.join("+")}:${v.description}`)
    .sort()
    .join("\n");
}

export class ExposureCache {
  readonly #store: RegistryStore;
  readonly #max: number;
  readonly #logger: Logger;
  readonly #changed: () => void;
  #candidates: ExposedCandidate[] = [];
  #signature = "";
  /** A re-read requested and not started yet: later requests share it. */
  #queued: Promise<void> | null = null;
  #tail: Promise<void> = Promise.resolve();
  #unfollow: (() => Promise<void>) | null = null;
  #closed = false;

  /** `changed` hears every change of the set, whichever process made it. */
  constructor(store: RegistryStore, max: number, logger: Logger, changed: () => void) {
    this.#store = store;
    this.#max = max;
    this.#logger = logger;
    this.#changed = changed;
  }

  /** The versions offered now. */
  versions(): VersionRecord[] {
    return pickExposed(this.#candidates, this.#max);
  }

  /** Sets the first contents (read synchronously by the SQLite constructor), telling no one. */
  seed(candidates: ExposedCandidate[]): void {
    this.#candidates = candidates;
    this.#signature = signatureOf(this.versions());
  }

  /** Counts a successful run of the offered version of `name` (the set is ordered by successful runs). */
  ran(name: string): void {
    const offered = this.versions().find((v) => v.name === name);
    const c = offered && this.#candidates.find((x) => x.v.name === name && x.v.version === offered.version);
    if (!c) return;
    c.runs += 1;
    this.#settle();
  }

  /**
   * Re-reads the set from the store; resolves once a read that started after this call has ended. A read that
   * fails is warned (the set stays as it was; the next change re-reads it).
   */
  refresh(): Promise<void> {
    if (this.#queued) return this.#queued;
    const next = this.#tail.then(() => {
      this.#queued = null;
      return this.#load();
    });
    this.#queued = next;
    this.#tail = next;
    return next;
  }

  /** Follows the store's change feed: every status change (and every resync) re-reads the set. */
  async follow(): Promise<void> {
    if (this.#closed || this.#unfollow) return;
    this.#unfollow = await this.#store.onChange(() => {
      void this.refresh();
    });
  }

  /** Stops following the feed; reads still running end quietly. */
  async close(): Promise<void> {
    this.#closed = true;
    const stop = this.#unfollow;
    this.#unfollow = null;
    await stop?.();
  }

  async #load(): Promise<void> {
    if (this.#closed) return;
    try {
      this.#candidates = await exposedCandidates(this.#store);
    } catch (err) {
      if (!this.#closed)
        this.#logger.warn(`tooldistill: cannot re-read the exposed distilled tools: ${errorMessage(err)}`);
      return;
    }
    this.#settle();
  }

  #settle(): void {
    const signature = signatureOf(this.versions());
    if (signature === this.#signature) return;
    this.#signature = signature;
    try {
      this.#changed();
    } catch (err) {
      this.#logger.warn(`tooldistill: an onExposureChange listener failed: ${errorMessage(err)}`);
    }
  }
}
