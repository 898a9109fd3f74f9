/**
 * The host's clock of one sandboxed run. The tool's code runs only in slices (the host calls into the engine and
 * waits for it to return); the clock counts each slice's wall-clock time and the code's own computing time (this
 * thread's CPU time), and the engine's interrupt handler asks it whether a limit has passed.
 */
import type { SandboxFailure, SandboxLimits } from "./sandbox.ts";

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

/** Counts a run's slices against its `cpuMs` and `wallMs` limits. */
export class RunClock {
  readonly #limits: Pick<SandboxLimits, "cpuMs" | "wallMs">;
  #cpuUsed = 0;
  #wallUsed = 0;
  #sliceWall = 0;
  #sliceCpu: { wall: number; cpu: number } | null = null;

  constructor(limits: Pick<SandboxLimits, "cpuMs" | "wallMs">) {
    this.#limits = limits;
  }

  /** A slice of the code's execution starts. */
  begin(): void {
    this.#sliceWall = performance.now();
    this.#sliceCpu = null;
  }

  /** The slice ends: its time is added to the run's. */
  end(): void {
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
