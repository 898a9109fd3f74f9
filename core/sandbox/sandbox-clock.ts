/**
 * The host's clock of one sandboxed run. The tool's code runs only in slices (the host calls into the engine and
 * waits for it to return); the clock counts each slice's wall-clock time and the code's own computing time (this
 * thread's CPU time), and the engine's interrupt handler asks it whether a limit has passed.
 */
import type { SandboxFailure, SandboxLimits } from "./types.ts";

/** This thread's CPU time in ms: the tool's code runs on it, so this is the code's own computing time. */
const cpuNow: () => number =
  typeof process.threadCpuUsage === "function"
    ? () => {
        const u = process.threadCpuUsage();
        return (u.user + u.system) / 1000;
      }
    : () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      };

/** The index in a worker's watch array of the running slice's deadline (0: no slice is running). */
export const WATCH_DEADLINE = 0;
/**
 * The watchdog's least slack past a slice's wall-clock budget (a quarter of `wallMs` when that is more): the
 * interrupt handler stops ordinary code within a few ms of its limits, even on a loaded host (its `deadline`), so
 * a slice still running this long after is inside one engine operation the handler cannot reach.
 */
export const WATCHDOG_GRACE_MS = 500;

/** Wall-clock ms on a clock every thread shares (a worker's `performance.now()` starts at its own origin). */
export function sharedNow(): number {
  return performance.timeOrigin + performance.now();
}

const EPOCH = 2 ** 30;

/**
 * The deadline of a slice with `budgetMs` of wall-clock time left, as whole ms in an Int32 (modulo a 2^30-ms
 * epoch, compared modulo it too): the budget and the grace, past which the host terminates the worker.
 */
export function watchdogDeadline(budgetMs: number, wallMs: number): number {
  const grace = Math.max(WATCHDOG_GRACE_MS, wallMs / 4);
  return Math.max(1, Math.ceil(sharedNow() + budgetMs + grace) % EPOCH);
}

/** True when the slice whose deadline is `deadline` (from `watchdogDeadline`) has passed it. */
export function pastDeadline(deadline: number): boolean {
  if (deadline === 0) return false;
  // Modulo the epoch: just before a deadline `late` is nearly a whole epoch, just after it is small.
  const late = (((Math.floor(sharedNow()) - deadline) % EPOCH) + EPOCH) % EPOCH;
  return late > 0 && late < EPOCH / 2;
}

/** Counts a run's slices against its `cpuMs` and `wallMs` limits. */
export class RunClock {
  readonly #limits: Pick<SandboxLimits, "cpuMs" | "wallMs">;
  #cpuUsed = 0;
  #wallUsed = 0;
  #sliceWall = 0;
  #sliceCpu: { wall: number; cpu: number } | null = null;
  readonly #watch: Int32Array | undefined;

  /** `watch`: where each slice's deadline goes for the host's watchdog (`watchdogDeadline`). */
  constructor(limits: Pick<SandboxLimits, "cpuMs" | "wallMs">, watch?: Int32Array) {
    this.#limits = limits;
    this.#watch = watch;
  }

  /** A slice of the code's execution starts. */
  begin(): void {
    this.#sliceWall = performance.now();
    this.#sliceCpu = null;
    if (this.#watch) {
      const left = Math.max(0, this.#limits.wallMs - this.#wallUsed);
      Atomics.store(this.#watch, WATCH_DEADLINE, watchdogDeadline(left, this.#limits.wallMs));
    }
  }

  /** The slice ends: its time is added to the run's. */
  end(): void {
    if (this.#watch) Atomics.store(this.#watch, WATCH_DEADLINE, 0);
    const wall = performance.now() - this.#sliceWall;
    this.#wallUsed += wall;
    this.#cpuUsed += this.#sliceCpuSoFar(wall);
  }

  /** Asked by the engine while code runs: the limit that has passed, or null to let it go on. */
  check(): SandboxFailure | null {
    const wall = performance.now() - this.#sliceWall;
    this.#sliceCpu ??= { wall, cpu: cpuNow() };
    // On one thread CPU time never exceeds wall time: only read the CPU clock when it could be over.
    if (this.#cpuUsed + wall > this.#limits.cpuMs) {
      const cpu = this.#cpuUsed + this.#sliceCpuSoFar(wall);
      if (cpu > this.#limits.cpuMs) {
        return {
          kind: "cpu",
          cause: "tool",
          message: `the tool's code ran for more than ${this.#limits.cpuMs} ms of its own time and was stopped`,
        };
      }
    }
    if (this.#wallUsed + wall > this.#limits.wallMs) {
      return {
        kind: "deadline",
        cause: "host",
        message: `the tool's code took more than ${this.#limits.wallMs} ms of wall-clock time (base calls not counted) while using less than its ${this.#limits.cpuMs} ms of computing time: the host is overloaded`,
      };
    }
    return null;
  }

  /**
   * The slice's computing time. Reading the CPU clock costs a system call, so it starts only at the slice's
   * first interrupt check: what ran before it (never more than a few thousand instructions) is counted at its
   * wall-clock time, which on one thread is never less than its CPU time.
   */
  #sliceCpuSoFar(wall: number): number {
    const started = this.#sliceCpu;
    if (started === null) return wall;
    return started.wall + (cpuNow() - started.cpu);
  }
}
