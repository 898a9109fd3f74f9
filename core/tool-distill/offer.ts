/**
 * What a client that runs the base tools itself (the plugin's td server) lists for its agent: the proposal tool and
 * the distilled tools offered now. `ToolDistill.offer()` serves it from memory; before a ToolDistill is open (its
 * base servers may take seconds to connect, and Claude Code does not wait long for a list) an `OfferReader` reads it
 * from the registry, read-only. What such a client may run is decided at the call: `execute`'s `distilledOnly`.
 */

import type { Config } from "../config/config.ts";
import { DistillError, errorMessage } from "../errors.ts";
import { exposedVersions, toolDefinition } from "../lifecycle/exposure.ts";
import { openConfiguredStore } from "../store/registry-open.ts";
import type { RegistryStore } from "../store/registry-store.ts";
import { isPostgresUrl } from "../store/store-url.ts";
import type { Logger, ToolDef } from "../types.ts";
import { proposeToolDefinition } from "./tool-distill-options.ts";

/** The tools to list: `propose_distilled_tool` and the distilled tools offered now, as `activeTools()` ranks them. */
export interface DistilledOffer {
  propose: ToolDef;
  distilled: ToolDef[];
}

/** The offer with the proposal tool alone. */
function proposalOnly(): DistilledOffer {
  return { propose: proposeToolDefinition(), distilled: [] };
}

/**
 * The offer read from a registry at each `read()`, before a ToolDistill over it is open. A registry that cannot be
 * read offers the proposal tool alone: nothing recorded yet, a PostgreSQL registry (connecting may take longer than
 * the first list can wait; the ToolDistill connects behind it), or an open or read that failed (warned).
 */
export class OfferReader {
  readonly #store: RegistryStore | null;
  readonly #max: number;
  readonly #logger: Logger;
  /** Reads still running: `close` waits for them, so a list being answered never meets a closed store. */
  readonly #reads = new Set<Promise<DistilledOffer>>();
  #closed = false;

  private constructor(store: RegistryStore | null, max: number, logger: Logger) {
    this.#store = store;
    this.#max = max;
    this.#logger = logger;
  }

  /** Opens the registry `config` names read-only (without the open check: a writer's job, not a list's). */
  static async open(config: Config, logger: Logger): Promise<OfferReader> {
    const max = config.settings.maxExposedTools;
    if (isPostgresUrl(config.store)) return new OfferReader(null, max, logger);
    try {
      const store = await openConfiguredStore(config, { readOnly: true, checkInvariants: false, logger });
      return new OfferReader(store, max, logger);
    } catch (err) {
      if (!(err instanceof DistillError && err.code === "NOT_FOUND"))
        logger.warn(`tooldistill: cannot read the store yet: ${errorMessage(err)}`);
      return new OfferReader(null, max, logger);
    }
  }

  /** The offer now. Never rejects: a failed read is warned and offers the proposal tool alone. */
  read(): Promise<DistilledOffer> {
    const store = this.#store;
    if (store === null || this.#closed) return Promise.resolve(proposalOnly());
    const read = exposedVersions(store, this.#max).then(
      (versions) => ({ propose: proposeToolDefinition(), distilled: versions.map(toolDefinition) }),
      (err: unknown) => {
        this.#logger.warn(`tooldistill: cannot read the offered distilled tools: ${errorMessage(err)}`);
        return proposalOnly();
      },
    );
    this.#reads.add(read);
    void read.finally(() => this.#reads.delete(read));
    return read;
  }

  /** Closes the registry once the reads still running have ended. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#reads);
    await this.#store?.close();
  }
}
