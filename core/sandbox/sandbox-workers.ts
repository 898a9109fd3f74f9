/**
 * The main thread's side of the engine workers. Each worker (sandbox-worker.ts) runs one job at a time, so a
 * worker the host terminates takes no other run with it; base calls come back here and run on the host, which
 * keeps its own record of them. A watchdog on this thread reads each busy worker's slice deadline from shared
 * memory and terminates a worker whose slice outlived it: the guest's code was running (inside one engine
 * operation the interrupt handler cannot reach), so the run fails with `cpu`, cause `tool`. Idle workers are
 * unref'd (they never keep the process alive) and a terminated one is simply replaced.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { errorMessage } from "../errors.ts";
import type { CallSite } from "../verify/call-sites.ts";
import { compiledModule } from "./quickjs-engine.ts";
import { performCall } from "./sandbox-calls.ts";
import { pastDeadline, WATCH_DEADLINE } from "./sandbox-clock.ts";
import type {
  SandboxCall,
  SandboxFailure,
  SandboxLimits,
  SandboxOutcome,
  SandboxRunRequest,
} from "./types.ts";

/** What a worker starts with. */
export interface WorkerData {
  /** The engine's compiled WebAssembly module, compiled once by the main thread. */
  module: object;
  /** Int32Array's buffer: the running slice's deadline at WATCH_DEADLINE. */
  watch: SharedArrayBuffer;
  /** The memory cap of the instances it makes ahead. */
  memoryMb: number;
  /** Test only (`breakRunIsolationForTest`): every job runs in the first job's context. */
  reuseRunsForTest?: boolean;
}

/** One run (and its check) for a worker. */
export interface Job {
  type: "job";
  id: number;
  body: string;
  input: string;
  limits: SandboxLimits;
  allow: readonly string[];
  sites?: { sites: readonly CallSite[]; at: [string, number][] };
  runCheck: boolean;
}

/** Messages to a worker. */
export type ToWorker =
  | Job
  | { type: "answer"; id: number; step: number; answer: { json: string } | SandboxFailure };

/** Messages from a worker; `made` counts the engine instances it made since its last message. */
export type FromWorker =
  | { type: "ready"; made: number }
  | {
      type: "call";
      id: number;
      step: number;
      tool: string;
      args: Record<string, unknown>;
      /** The outcomes the call's site declared (the worker's host-side record of the site), if any. */
      outcomes?: readonly string[];
    }
  | { type: "done"; id: number; outcome: SandboxOutcome; made: number };

interface Active {
  id: number;
  host: SandboxRunRequest["call"];
  limits: SandboxLimits;
  performed: Map<number, SandboxCall>;
  inflight: Set<Promise<void>>;
  resolve: (outcome: SandboxOutcome) => void;
}

let nextJob = 1;
let reuseRunsForTest = false;

/**
 * Test only (test/sandbox-isolation.test.ts): `true` breaks the isolation on purpose for workers started after,
 * every job of a worker run in the context of its first, to prove the test sees a leak.
 */
export function breakRunIsolationForTest(on: boolean): void {
  reuseRunsForTest = on;
}

/** The worker entry's file name without extension (scripts/render-plugin.ts puts its bundle beside this one). */
export const WORKER_FILE = "sandbox-worker";

/** Where the worker's entry is: a built file beside this one (bundle, dist/), else the TypeScript source. */
function workerEntry(): URL {
  const built = new URL(`./${WORKER_FILE}.js`, import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : new URL(`./${WORKER_FILE}.ts`, import.meta.url);
}

/** One engine worker, serving one job at a time. */
export class EngineWorker {
  readonly #worker: Worker;
  readonly #watch: Int32Array;
  readonly #onMade: (n: number) => void;
  #active: Active | null = null;
  #ready: Promise<void>;
  #dead: SandboxFailure | null = null;
  /** Taken for a run (from the wait for its instance to its outcome): the worker then keeps the process alive. */
  #held = false;

  constructor(memoryMb: number, onMade: (n: number) => void) {
    const watch = new SharedArrayBuffer(4);
    this.#watch = new Int32Array(watch);
    this.#onMade = onMade;
    const data: WorkerData = {
      module: compiledModule(),
      watch,
      memoryMb,
      ...(reuseRunsForTest ? { reuseRunsForTest } : {}),
    };
    // Its own stdout and stderr are piped, not inherited: stdout belongs to the protocol.
    this.#worker = new Worker(workerEntry(), { workerData: data, stdout: true, stderr: true });
    this.#worker.unref();
    // A worker still starting can hold the process alive until it is online: unref'd again then, unless busy.
    this.#worker.once("online", () => {
      if (!this.#held) this.#worker.unref();
    });
    let ready: () => void = () => {};
    this.#ready = new Promise<void>((resolve) => {
      ready = resolve;
    });
    this.#worker.on("message", (msg: FromWorker) => {
      if (this.#dead) return;
      if (msg.type === "ready") {
        this.#onMade(msg.made);
        ready();
      } else if (msg.type === "call") this.#call(msg);
      else this.#done(msg);
    });
    const died = (why: string) => {
      ready();
      this.#end({ kind: "engine", cause: "host", message: `the sandbox engine's worker stopped: ${why}` });
    };
    this.#worker.on("error", (err) => died(errorMessage(err)));
    this.#worker.on("exit", (code) => died(`exit code ${code}`));
  }

  /** True once the worker was terminated or died: it takes no more jobs. */
  get dead(): boolean {
    return this.#dead !== null;
  }

  /** Takes the worker for a run: it keeps the process alive until `release` (the watchdog bounds the run). */
  hold(): Promise<void> {
    this.#held = true;
    this.#worker.ref();
    return this.#ready;
  }

  /** Gives the worker back: idle, it never keeps the process alive. */
  release(): void {
    this.#held = false;
    this.#worker.unref();
  }

  /** Runs `job` for `host`; always an outcome, never a throw. */
  run(job: Omit<Job, "type" | "id">, host: SandboxRunRequest["call"]): Promise<SandboxOutcome> {
    if (this.#dead) return Promise.resolve({ ok: false, failure: this.#dead, calls: [] });
    const id = nextJob++;
    return new Promise<SandboxOutcome>((resolve) => {
      this.#active = { id, host, limits: job.limits, performed: new Map(), inflight: new Set(), resolve };
      this.#worker.postMessage({ ...job, type: "job", id } satisfies Job);
    });
  }

  /** The watchdog's look at this worker: true when it terminated it. */
  watchdog(): boolean {
    if (this.#active === null || this.#dead) return false;
    if (!pastDeadline(Atomics.load(this.#watch, WATCH_DEADLINE))) return false;
    const { wallMs } = this.#active.limits;
    this.#end({
      kind: "cpu",
      cause: "tool",
      message: `the tool's code stayed inside one engine operation (a builtin over a huge length, a regular expression) past its ${wallMs} ms limit, where the engine could not stop it, and its worker was terminated`,
    });
    return true;
  }

  /** Terminates the worker; a job in progress ends with `failure` at once (its calls so far recorded). */
  terminate(failure: SandboxFailure): void {
    this.#end(failure, false);
  }

  #end(failure: SandboxFailure, waitForCalls = true): void {
    if (this.#dead) return;
    this.#dead = failure;
    void this.#worker.terminate();
    const active = this.#active;
    this.#active = null;
    if (active === null) return;
    const outcome = (): SandboxOutcome => ({
      ok: false,
      failure,
      calls: [...active.performed.entries()].sort(([a], [b]) => a - b).map(([, c]) => c),
    });
    // Calls still running on the host finish first: their outcomes belong to the run's record.
    if (waitForCalls) void Promise.allSettled([...active.inflight]).then(() => active.resolve(outcome()));
    else active.resolve(outcome());
  }

  #call(msg: Extract<FromWorker, { type: "call" }>): void {
    const active = this.#active;
    if (active === null || active.id !== msg.id) return;
    const call: SandboxCall = { tool: msg.tool, args: msg.args, ok: false };
    active.performed.set(msg.step, call);
    const done = performCall(active.host, active.limits, { call, step: msg.step }, msg.outcomes).then(
      (answer) => {
        active.inflight.delete(done);
        if (this.#active === active) {
          this.#worker.postMessage({ type: "answer", id: msg.id, step: msg.step, answer } satisfies ToWorker);
        }
      },
    );
    active.inflight.add(done);
  }

  #done(msg: Extract<FromWorker, { type: "done" }>): void {
    this.#onMade(msg.made);
    const active = this.#active;
    if (active === null || active.id !== msg.id) return;
    this.#active = null;
    // The host's record of each call it ran is the one kept; the worker's says what it refused or never sent.
    const calls = msg.outcome.calls.map((c, i): SandboxCall => {
      const mine = active.performed.get(i + 1);
      if (mine === undefined) return c;
      const merged: SandboxCall = { ...mine };
      if (c.site !== undefined) merged.site = c.site;
      return merged;
    });
    active.resolve({ ...msg.outcome, calls });
  }
}
