/**
 * Runs distilled tools (LLM-written code) on QuickJS compiled to WebAssembly, in worker threads. The boundary is
 * the engine: a tool's code runs in a fresh instance with its own linear memory, which holds no host
 * object at all; its only way out is `call(name, argsJSON)`, answered with JSON. The engine runs in a worker
 * (sandbox-workers.ts) that the host terminates from outside when the code outlives its bound, so no guest code
 * runs on the host's event loop. The host enforces the limits (computing time, wall-clock time, memory, stack,
 * calls, message and name sizes, the allowlist), runs and records every base call itself on the main thread, and
 * decides every outcome from its own observations. See docs/security.md for the threat model.
 */

import { DistillError, errorMessage } from "../errors.ts";
import { type MappedBody, toMappedBody } from "../verify/module-body.ts";
import { ENGINE_BASE_MB } from "./quickjs-engine.ts";
import { sitePositions } from "./sandbox-sites.ts";
import { EngineWorker } from "./sandbox-workers.ts";
import type {
  SandboxFailure,
  SandboxLimits,
  SandboxOptions,
  SandboxOutcome,
  SandboxRunRequest,
  SandboxStats,
} from "./types.ts";

/** Limits used where neither the sandbox options nor the run request say otherwise. */
export const DEFAULT_LIMITS: SandboxLimits = Object.freeze({
  cpuMs: 2000,
  wallMs: 10_000,
  memoryMb: 64,
  stackKb: 256,
  maxCalls: 200,
  maxMessageBytes: 1024 * 1024,
});

/** The sandbox: runs tool modules, at most `maxConcurrent` at a time. `close()` ends runs in progress. */
export class Sandbox {
  readonly #limits: SandboxLimits;
  readonly #poolSize: number;
  readonly #maxConcurrent: number;
  readonly #idle: EngineWorker[] = [];
  readonly #busyWorkers = new Set<EngineWorker>();
  readonly #queue: (() => void)[] = [];
  /** Prepared bodies by source: a tool runs the same source many times, and preparing it parses it twice. */
  readonly #bodies = new Map<string, MappedBody>();
  #watchdog: ReturnType<typeof setInterval> | null = null;
  #busy = 0;
  #spawned = 0;
  #closed = false;

  constructor(options: SandboxOptions = {}) {
    this.#limits = resolveLimits(DEFAULT_LIMITS, options.limits);
    this.#poolSize = wholeNumber("poolSize", options.poolSize ?? 2, 0);
    this.#maxConcurrent = wholeNumber("maxConcurrent", options.maxConcurrent ?? 16, 1);
  }

  /** The limits a run gets unless its request narrows them (the host reads them to attribute a failure). */
  get limits(): Readonly<SandboxLimits> {
    return this.#limits;
  }

  /** Runs one tool module; every failure of the tool is an outcome, never a throw. */
  async run(req: SandboxRunRequest): Promise<SandboxOutcome> {
    if (this.#closed)
      throw new DistillError("USAGE", "the sandbox is closed: make a new Sandbox to run more tools");
    const limits = resolveLimits(this.#limits, req.limits);
    let mapped: MappedBody;
    try {
      mapped = this.#body(req.source);
    } catch (err) {
      if (err instanceof DistillError)
        return { ok: false, failure: { kind: "bad_module", cause: "tool", message: err.message }, calls: [] };
      throw err;
    }
    let input: string;
    try {
      input = JSON.stringify(req.input ?? {});
    } catch (err) {
      throw new DistillError("USAGE", `the tool's input is not JSON-serialisable: ${errorMessage(err)}`, {
        cause: err,
      });
    }
    const sites = req.sites && sitePositions(req.source, mapped, req.sites);
    await this.#turn();
    try {
      if (this.#closed) return closedOutcome();
      const worker = this.#worker();
      try {
        await worker.hold();
        if (this.#closed) return closedOutcome();
        this.#watch();
        return await worker.run(
          {
            body: mapped.body,
            input,
            limits,
            allow: [...req.allow],
            runCheck: req.runCheck === true,
            ...(sites ? { sites: { sites: sites.sites, at: [...sites.at] } } : {}),
          },
          req.call,
        );
      } finally {
        this.#busyWorkers.delete(worker);
        this.#release(worker);
      }
    } finally {
      this.#endTurn();
    }
  }

  /** Ends every run in progress with a `closed` failure and terminates every worker; later runs are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const failure: SandboxFailure = {
      kind: "closed",
      cause: "host",
      message: "the sandbox was closed while the tool was running",
    };
    for (const worker of [...this.#idle.splice(0), ...this.#busyWorkers]) worker.terminate(failure);
    if (this.#watchdog) clearInterval(this.#watchdog);
    this.#watchdog = null;
    for (const waiting of this.#queue.splice(0)) waiting();
  }

  /** Counters, for diagnostics and tests. */
  stats(): SandboxStats {
    return {
      spawned: this.#spawned,
      idle: this.#idle.length,
      busy: this.#busy,
      queued: this.#queue.length,
    };
  }

  #body(source: string): MappedBody {
    const cached = this.#bodies.get(source);
    if (cached !== undefined) return cached;
    const body = toMappedBody(source);
    if (this.#bodies.size >= BODY_CACHE_SIZE) {
      const oldest = this.#bodies.keys().next();
      if (!oldest.done) this.#bodies.delete(oldest.value);
    }
    this.#bodies.set(source, body);
    return body;
  }

  /** A worker for a run, counted busy (close() ends it): a spare made ahead, else a new one; spares topped up after. */
  #worker(): EngineWorker {
    let worker = this.#idle.shift();
    while (worker?.dead) worker = this.#idle.shift();
    setImmediate(() => this.#topUp());
    worker ??= this.#spawn();
    this.#busyWorkers.add(worker);
    return worker;
  }

  #spawn(): EngineWorker {
    return new EngineWorker(this.#limits.memoryMb, (n) => {
      this.#spawned += n;
    });
  }

  #topUp(): void {
    while (!this.#closed && this.#idle.length < this.#poolSize) this.#idle.push(this.#spawn());
  }

  /**
   * A worker back from a run: kept as a spare (its next instance is being made) up to twice the pool's size, so
   * steady sequential runs start no worker; a dead one (the watchdog's, or one that crashed) is dropped.
   */
  #release(worker: EngineWorker): void {
    worker.release();
    if (worker.dead) return;
    if (this.#closed || this.#idle.length >= this.#poolSize * 2) {
      worker.terminate({ kind: "closed", cause: "host", message: "the worker was not needed" });
      return;
    }
    this.#idle.push(worker);
  }

  /** The watchdog: while any run is in progress, each busy worker's slice deadline is read every few ms. */
  #watch(): void {
    if (this.#watchdog !== null) return;
    this.#watchdog = setInterval(() => {
      for (const worker of this.#busyWorkers) worker.watchdog();
      if (this.#busyWorkers.size === 0 && this.#watchdog !== null) {
        clearInterval(this.#watchdog);
        this.#watchdog = null;
      }
    }, WATCHDOG_TICK_MS);
    // It bounds runs; it never keeps the process alive by itself (a run in progress does, through its worker).
    this.#watchdog.unref();
  }

  /** Waits for one of the `maxConcurrent` places; a closed sandbox lets everyone through to fail. */
  async #turn(): Promise<void> {
    if (this.#busy < this.#maxConcurrent || this.#closed) {
      this.#busy++;
      return;
    }
    await new Promise<void>((resolve) => this.#queue.push(resolve));
    this.#busy++;
  }

  #endTurn(): void {
    this.#busy--;
    this.#queue.shift()?.();
  }
}

/** How often the watchdog looks at busy workers. */
const WATCHDOG_TICK_MS = 20;
const BODY_CACHE_SIZE = 64;

function closedOutcome(): SandboxOutcome {
  return {
    ok: false,
    failure: { kind: "closed", cause: "host", message: "the sandbox was closed while the tool was starting" },
    calls: [],
  };
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new DistillError("USAGE", `sandbox ${name} must be a whole number ≥ ${min} (got ${value})`);
  }
  return value;
}

function resolveLimits(base: SandboxLimits, override: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...base };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[]) {
    const value = override?.[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new DistillError(
        "USAGE",
        `sandbox limits: ${key} must be a positive number (got ${String(value)})`,
      );
    }
    limits[key] = key === "memoryMb" || key === "maxCalls" || key === "stackKb" ? Math.ceil(value) : value;
  }
  if (limits.memoryMb < ENGINE_BASE_MB * 2) {
    throw new DistillError(
      "USAGE",
      `sandbox limits: memoryMb must be at least ${ENGINE_BASE_MB * 2} (the engine itself takes ${ENGINE_BASE_MB}); got ${limits.memoryMb}`,
    );
  }
  return limits;
}
