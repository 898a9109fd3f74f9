/**
 * The change feed of a SQLite registry: SQLite has no notification between processes, so while anyone listens
 * the feed polls `status_history` for rows newer than the last it saw (an indexed lookup, every POLL_MS), and
 * tells each new row to the listeners. The timer is unref'd: listening never keeps a process alive.
 */
import { errorMessage } from "../../errors.ts";
import type { Logger, Status } from "../../types.ts";
import type { RegistryChangeListener } from "../registry-store.ts";
import type { StoreDatabase } from "./sqlite-database.ts";

/** How often the history is polled while someone listens. */
export const POLL_MS = 250;

export class SqliteChangeFeed {
  readonly #db: StoreDatabase;
  readonly #busy: () => boolean;
  readonly #logger: Logger;
  readonly #listeners = new Set<RegistryChangeListener>();
  #timer: NodeJS.Timeout | null = null;
  #last = 0;
  #failing = false;

  /** `busy`: this process holds a transaction open, whose rows must not be heard before they commit. */
  constructor(db: StoreDatabase, busy: () => boolean, logger: Logger) {
    this.#db = db;
    this.#busy = busy;
    this.#logger = logger;
  }

  subscribe(listener: RegistryChangeListener): () => Promise<void> {
    if (this.#timer === null) {
      this.#last = Number(
        this.#db.stmt("SELECT COALESCE(MAX(id), 0) AS id FROM status_history").get()?.["id"],
      );
      this.#timer = setInterval(() => this.#poll(), POLL_MS);
      this.#timer.unref();
    }
    this.#listeners.add(listener);
    return async () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#listeners.clear();
  }

  #poll(): void {
    if (this.#busy()) return;
    let rows: Record<string, unknown>[];
    try {
      rows = this.#db
        .stmt("SELECT id, name, version, from_status, to_status FROM status_history WHERE id > ? ORDER BY id")
        .all(this.#last);
      this.#failing = false;
    } catch (err) {
      // Say it once per outage, not four times a second.
      if (!this.#failing)
        this.#logger.warn(`tooldistill: cannot read the store's changes: ${errorMessage(err)}`);
      this.#failing = true;
      return;
    }
    for (const r of rows) {
      this.#last = Number(r["id"]);
      const change = {
        type: "status" as const,
        name: String(r["name"]),
        version: Number(r["version"]),
        from: (r["from_status"] ?? null) as Status | null,
        to: r["to_status"] as Status,
      };
      for (const listener of this.#listeners) {
        try {
          listener(change);
        } catch (err) {
          this.#logger.warn(`tooldistill: a store change listener failed: ${errorMessage(err)}`);
        }
      }
    }
  }
}
