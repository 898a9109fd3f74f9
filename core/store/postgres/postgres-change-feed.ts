/**
 * The change feed of a PostgreSQL registry: one connection of its own (not the pool's: a pooled connection
 * goes back to the pool and stops listening) that LISTENs on the channel the history's trigger notifies, so every
 * process hears a status change as soon as its transaction commits. A lost connection is re-established with
 * backoff, and the listeners then hear `resync`, since what was announced meanwhile is gone. The connection's
 * socket is unref'd: listening never keeps a process alive.
 */
import type { Client, ClientConfig, Notification } from "pg";
import { errorMessage } from "../../errors.ts";
import type { Logger } from "../../types.ts";
import { type Status, Statuses } from "../../types.ts";
import type { RegistryChange, RegistryChangeListener } from "../registry-store.ts";
import { explainPgError, type Pg } from "./postgres-connect.ts";
import { CHANGES_CHANNEL } from "./postgres-schema.ts";

const RETRY_MS = { first: 100, max: 5_000 };

export class PostgresChangeFeed {
  readonly #pg: Pg;
  readonly #config: ClientConfig;
  readonly #where: string;
  readonly #logger: Logger;
  readonly #listeners = new Set<RegistryChangeListener>();
  #client: Client | null = null;
  #starting: Promise<void> | null = null;
  #retry: NodeJS.Timeout | null = null;
  #retryMs = RETRY_MS.first;
  #stopped = true;

  constructor(pg: Pg, config: ClientConfig, where: string, logger: Logger) {
    this.#pg = pg;
    this.#config = config;
    this.#where = where;
    this.#logger = logger;
  }

  /** Adds a listener; resolves once the connection LISTENs, with the function that removes it again. */
  async subscribe(listener: RegistryChangeListener): Promise<() => Promise<void>> {
    this.#listeners.add(listener);
    this.#stopped = false;
    try {
      if (!this.#client) {
        if (!this.#starting) {
          this.#starting = this.#connect().finally(() => {
            this.#starting = null;
          });
        }
        await this.#starting;
      }
    } catch (err) {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) await this.stop();
      throw err;
    }
    return async () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) await this.stop();
    };
  }

  /** Stops listening and closes the connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#listeners.clear();
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    await this.#starting?.catch(() => {});
    const client = this.#client;
    this.#client = null;
    // Referenced again while it closes: on an unref'd socket, a process with nothing else to do would exit in the
    // middle of `end()`, leaving the caller's await unsettled (a CLI command that stopped its feed never returned).
    socketOf(client)?.ref?.();
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const client = new this.#pg.Client(this.#config);
    client.on("notification", (n) => this.#heard(n));
    client.on("error", () => this.#lost(client));
    client.on("end", () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners("end");
      await client.end().catch(() => {});
      throw explainPgError(err, this.#where);
    }
    socketOf(client)?.unref?.();
    if (this.#stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = RETRY_MS.first;
  }

  #lost(client: Client): void {
    if (this.#client !== client || this.#stopped) return;
    this.#client = null;
    client.end().catch(() => {});
    this.#logger.warn(`tooldistill: lost the change feed of the store ${this.#where}; reconnecting`);
    this.#reconnect();
  }

  #reconnect(): void {
    if (this.#stopped || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#stopped) return;
      this.#connect().then(
        () => this.#emit({ type: "resync" }),
        (err) => {
          this.#logger.warn(`tooldistill: the change feed cannot reconnect yet: ${errorMessage(err)}`);
          this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MS.max);
          this.#reconnect();
        },
      );
    }, this.#retryMs);
    this.#retry.unref();
  }

  #heard(n: Notification): void {
    if (n.channel !== CHANGES_CHANNEL || n.payload === undefined) return;
    let change: RegistryChange;
    try {
      const p = JSON.parse(n.payload) as { name: string; version: number; from: Status | null; to: Status };
      if (!Statuses.includes(p.to)) return;
      change = { type: "status", name: p.name, version: Number(p.version), from: p.from ?? null, to: p.to };
    } catch {
      return;
    }
    this.#emit(change);
  }

  #emit(change: RegistryChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (err) {
        this.#logger.warn(`tooldistill: a store change listener failed: ${errorMessage(err)}`);
      }
    }
  }
}

/** The socket under a node-postgres client (not part of its typed API). */
function socketOf(client: Client | null): { ref?: () => void; unref?: () => void } | undefined {
  return (client as unknown as { connection?: { stream?: { ref?: () => void; unref?: () => void } } } | null)
    ?.connection?.stream;
}
