/** A counting semaphore: the bound on how many of something (MCP servers starting) run at once. */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  /** At most `size` holders at once (at least 1). */
  constructor(size: number) {
    this.#free = Math.max(1, size);
  }

  /** Waits for a free place; rejects with the signal's reason when it aborts first. */
  async enter(signal: AbortSignal): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.#waiting.indexOf(go);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal.reason);
      };
      const go = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      this.#waiting.push(go);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Gives a place back, to the longest waiter if there is one. */
  leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}
