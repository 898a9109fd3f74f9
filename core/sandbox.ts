/**
 * Runs distilled tools (LLM-written code) on QuickJS compiled to WebAssembly, in-process. The boundary is
 * the engine: a tool's code runs in a fresh instance with its own linear memory, which holds no host
 * object at all; its only way out is `call(name, argsJSON)`, answered with JSON. The host enforces the
 * limits (computing time, wall-clock time, memory, stack, calls, message and name sizes, the allowlist),
 * records every base call itself, and decides every outcome from its own observations.
 * See docs/security.md for the threat model.
 */
import type { CallSite } from "./call-sites.ts";
import { DistillError, type ErrorCode, errorMessage } from "./errors.ts";
import { toFunctionBody } from "./module-body.ts";
import { ENGINE_BASE_MB, type EngineInstance, newEngineInstance } from "./quickjs-engine.ts";
import { SandboxRun } from "./sandbox-run.ts";

/** Resource limits of one sandboxed run. */
export interface SandboxLimits {
  /** The tool's own computing time in ms (CPU time of its code); waiting for base calls does not count. */
  cpuMs: number;
  /** Wall-clock time in ms the code may take, base calls not counted: the bound when the host is loaded. */
  wallMs: number;
  /** The engine instance's whole memory in MB (its own 16 MB included). */
  memoryMb: number;
  /** The engine's stack in KB: deeper recursion fails the run. */
  stackKb: number;
  /** Most base calls one run may make. */
  maxCalls: number;
  /** Largest JSON message in bytes: one call's arguments, one call's result, or the tool's result. */
  maxMessageBytes: number;
}

/** Limits used where neither the sandbox options nor the run request say otherwise. */
export const DEFAULT_LIMITS: SandboxLimits = Object.freeze({
  cpuMs: 2000,
  wallMs: 10_000,
  memoryMb: 64,
  stackKb: 256,
  maxCalls: 200,
  maxMessageBytes: 1024 * 1024,
});

/** One base call the tool requested, in order, with its outcome. */
export interface SandboxCall {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  output?: unknown;
  error?: string;
  /** The call site it came from, when the run's source was instrumented (`SandboxRunRequest.sites`). */
  site?: number;
  /**
   * Set when the call failed with an outcome its site declared (declared-outcomes.ts): the host let the site's
   * handler run instead of failing the run. The call is still `ok: false`, with its error.
   */
  outcome?: string;
}

/** Why a sandboxed run failed. */
export type SandboxFailureKind =
  | "call_failed"
  | "code_error"
  | "check_failed"
  | "cpu"
  | "deadline"
  | "memory"
  | "stack"
  | "call_limit"
  | "message_limit"
  | "not_allowed"
  | "bad_module"
  | "crashed"
  | "engine"
  | "closed";

/**
 * What a failure is evidence of, as the host saw it: `tool`, the tool itself (its code, its limits, or
 * arguments a base tool refused); `infrastructure`, a base tool that could not answer (down, timed out,
 * connection lost, an answer too large); `host`, the host (overloaded, closing, no engine). Only `tool`
 * says anything about the distilled tool.
 */
export type FailureCause = "tool" | "infrastructure" | "host";

/** A failed run: `step` is the 1-based index in `calls` of the call that failed it, where a call did. */
export interface SandboxFailure {
  kind: SandboxFailureKind;
  cause: FailureCause;
  message: string;
  step?: number;
  tool?: string;
  /** For a failed call: the code of the DistillError the host's call threw, when it threw one. */
  errorCode?: ErrorCode;
}

/**
 * What a sandboxed run gives back: always a value, never a throw, for anything the tool's code does. A run whose
 * code called `notApplicable(reason)` (and that no failure ended first) is `ok` with `notApplicable` set and no
 * result: the tool ended on purpose, which is neither a result nor a failure.
 */
export type SandboxOutcome =
  | {
      ok: true;
      result: unknown;
      check: "passed" | "absent" | "skipped";
      calls: SandboxCall[];
      notApplicable?: string;
    }
  | { ok: false; failure: SandboxFailure; calls: SandboxCall[] };

/** One run of a tool module. */
export interface SandboxRunRequest {
  /** TypeScript source of the tool module. */
  source: string;
  input: Record<string, unknown>;
  /** Base tools this tool may call. */
  allow: readonly string[];
  /** Host dispatcher for base calls: a throw fails that call (and the run). Its own timeout is the host's. */
  call: (tool: string, args: Record<string, unknown>) => Promise<unknown>;
  /**
   * The call sites of `source` when it was instrumented (`instrumentCallSites`): every call must then carry
   * the id of one of them whose tool it calls, and the host records it on the call. Without them any id a call
   * carries is ignored.
   */
  sites?: readonly CallSite[];
  /** Run the module's `check(result)` too, in a fresh instance; a throw or a falsy return fails the run. */
  runCheck?: boolean;
  limits?: Partial<SandboxLimits>;
}

/** Options of a sandbox. */
export interface SandboxOptions {
  /** Fresh engine instances made ahead of time, each used once (default 2); 0 makes one per run. */
  poolSize?: number;
  /** Runs executing at once (default 16); more wait their turn, and their clocks do not run meanwhile. */
  maxConcurrent?: number;
  limits?: Partial<SandboxLimits>;
}

/** Counters of a sandbox, for diagnostics and tests. */
export interface SandboxStats {
  /** Engine instances made since the sandbox was made (each serves one run or one check). */
  spawned: number;
  /** Fresh instances waiting for a run. */
  idle: number;
  /** Runs executing now. */
  busy: number;
  /** Runs waiting for their turn. */
  queued: number;
}

/** The sandbox: runs tool modules, at most `maxConcurrent` at a time. `close()` ends runs in progress. */
export class Sandbox {
  readonly #limits: SandboxLimits;
  readonly #poolSize: number;
  readonly #maxConcurrent: number;
  readonly #spares: Promise<EngineInstance>[] = [];
  readonly #queue: (() => void)[] = [];
  readonly #running = new Set<SandboxRun>();
  /** Prepared bodies by source: a tool runs the same source many times, and preparing it parses it twice. */
  readonly #bodies = new Map<string, string>();
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
    let body: string;
    try {
      body = this.#body(req.source);
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
    await this.#turn();
    try {
      const outcome = await this.#execute(limits, (run) => run.run(body, input), req);
      if (!outcome.ok || req.runCheck !== true || outcome.notApplicable !== undefined) return outcome;
      // The check runs in an instance of its own, on the result as JSON: the run cannot reach it.
      const checked = await this.#execute(
        limits,
        async (run) => {
          const verdict = await run.check(body, JSON.stringify(outcome.result));
          return verdict === "passed" || verdict === "absent"
            ? { ...outcome, check: verdict }
            : { ok: false as const, failure: verdict, calls: outcome.calls };
        },
        { allow: [], call: refuseCall },
      );
      return { ...checked, calls: outcome.calls };
    } finally {
      this.#endTurn();
    }
  }

  /** Ends every run in progress with a `closed` failure; later runs are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#spares.length = 0;
    for (const run of this.#running) {
      run.abort({
        kind: "closed",
        cause: "host",
        message: "the sandbox was closed while the tool was running",
      });
    }
    for (const waiting of this.#queue.splice(0)) waiting();
  }

  /** Counters, for diagnostics and tests. */
  stats(): SandboxStats {
    return {
      spawned: this.#spawned,
      idle: this.#spares.length,
      busy: this.#busy,
      queued: this.#queue.length,
    };
  }

  async #execute(
    limits: SandboxLimits,
    body: (run: SandboxRun) => Promise<SandboxOutcome>,
    req: Pick<SandboxRunRequest, "allow" | "call" | "sites">,
  ): Promise<SandboxOutcome> {
    if (this.#closed) return closedOutcome();
    let instance: EngineInstance;
    try {
      instance = await this.#instance(limits.memoryMb);
    } catch (err) {
      return {
        ok: false,
        failure: {
          kind: "engine",
          cause: "host",
          message: `the sandbox engine could not start: ${errorMessage(err)}`,
        },
        calls: [],
      };
    }
    if (this.#closed) return closedOutcome();
    const run = new SandboxRun(instance, req, limits);
    this.#running.add(run);
    try {
      return await body(run);
    } finally {
      this.#running.delete(run);
    }
  }

  #body(source: string): string {
    const cached = this.#bodies.get(source);
    if (cached !== undefined) return cached;
    const body = toFunctionBody(source);
    if (this.#bodies.size >= BODY_CACHE_SIZE) {
      const oldest = this.#bodies.keys().next();
      if (!oldest.done) this.#bodies.delete(oldest.value);
    }
    this.#bodies.set(source, body);
    return body;
  }

  /** A fresh instance: a spare made ahead of time when the memory cap matches, else a new one. */
  #instance(memoryMb: number): Promise<EngineInstance> {
    const spare = memoryMb === this.#limits.memoryMb ? this.#spares.shift() : undefined;
    setImmediate(() => this.#topUp());
    if (spare) return spare;
    this.#spawned++;
    return newEngineInstance(memoryMb);
  }

  #topUp(): void {
    while (!this.#closed && this.#spares.length < this.#poolSize) {
      this.#spawned++;
      const made = newEngineInstance(this.#limits.memoryMb);
      // A spare that fails to start is the next run's failure to report, not an unhandled rejection.
      made.catch(() => {});
      this.#spares.push(made);
    }
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

const BODY_CACHE_SIZE = 64;

async function refuseCall(): Promise<never> {
  throw new DistillError("USAGE", "call() is not available in check()");
}

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
