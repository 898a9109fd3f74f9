/**
 * What an async flow holds of a registry: an open transaction, and the tool locks it took. Both registry stores
 * use this to refuse a call on the store from inside its own transaction (on SQLite it would wait for the
 * transaction that waits for it; on PostgreSQL it would run outside it, on another connection) and to make a
 * tool lock reentrant within one flow while flows of one process queue for it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { DistillError } from "../errors.ts";

/** An open transaction: of which store, and whether it is still open (a timer started inside may outlive it). */
interface OpenTransaction {
  owner: object;
  open: boolean;
}

const transactions = new AsyncLocalStorage<OpenTransaction>();

/** Runs `fn` as the body of a transaction of `owner`; calls on `owner` made from inside it are refused. */
export async function runInTransaction<T>(owner: object, fn: () => Promise<T>): Promise<T> {
  const scope: OpenTransaction = { owner, open: true };
  try {
    return await transactions.run(scope, fn);
  } finally {
    scope.open = false;
  }
}

/** Throws USAGE when the caller is inside an open transaction of `owner` and calls `owner` itself. */
export function assertOutsideTransaction(owner: object, what = "a registry store method"): void {
  const scope = transactions.getStore();
  if (scope?.open && scope.owner === owner) {
    throw new DistillError(
      "USAGE",
      `${what} was called on the store inside its own transaction(): use the transaction's \`tx\` argument instead ` +
        "(or take tool locks before opening the transaction).",
    );
  }
}

/** savepoint() called on a store rather than on a transaction's `tx`. */
export function noTransaction(): DistillError {
  return new DistillError(
    "USAGE",
    "savepoint() needs an open transaction: call it on the `tx` that transaction() passes to its function",
  );
}

/** Releases a lock taken across processes. */
export type Release = () => Promise<void>;

/**
 * Tool locks of one store, within this process: one flow at a time per name (the others queue here, so a process
 * waits on the cross-process lock with one connection, not one per flow), reentrant within a flow. `acquire`
 * takes the cross-process lock and returns its release.
 */
export class ToolLocks {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #held = new AsyncLocalStorage<ReadonlySet<string>>();

  async run<T>(name: string, acquire: () => Promise<Release>, fn: () => Promise<T>): Promise<T> {
    const held = this.#held.getStore();
    if (held?.has(name)) return fn();
    const before = this.#tails.get(name);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const tail = before ? before.then(() => mine) : mine;
    this.#tails.set(name, tail);
    try {
      if (before) await before;
      const release = await acquire();
      try {
        return await this.#held.run(new Set([...(held ?? []), name]), fn);
      } finally {
        await release();
      }
    } finally {
      done();
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    }
  }
}
