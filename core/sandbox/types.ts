/**
 * What a sandboxed run is asked and gives back: limits, requests, outcomes and failures. A leaf of types, so the
 * sandbox and the modules it is split into (workers, calls, clock, failures, the worker's run) share them without
 * importing each other back.
 */
import type { ErrorCode } from "../errors.ts";
import type { CallSite } from "../verify/call-sites.ts";

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

/** One base call the tool requested, in order, with its outcome. */
export interface SandboxCall {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  output?: unknown;
  error?: string;
  /** The call site it came from, when the run was given its sites (`SandboxRunRequest.sites`). */
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
   * The call sites of `source` (`instrumentCallSites`, which leaves the source as it is): the host then places
   * every call at one of them, from the engine's stack at the call, and records it on the call; a call it cannot
   * place, or placed at a site of another tool, fails the run. The code runs the same either way.
   */
  sites?: readonly CallSite[];
  /** Run the module's `check(result)` too, in a fresh instance; a throw or a falsy return fails the run. */
  runCheck?: boolean;
  limits?: Partial<SandboxLimits>;
}

/** Options of a sandbox. */
export interface SandboxOptions {
  /**
   * Spare engine workers kept ready, each with a fresh instance made ahead (default 2); 0 starts one per run.
   * Every run and every check still gets an instance of its own, used once.
   */
  poolSize?: number;
  /** Runs executing at once (default 16); more wait their turn, and their clocks do not run meanwhile. */
  maxConcurrent?: number;
  limits?: Partial<SandboxLimits>;
}

/** Counters of a sandbox, for diagnostics and tests. */
export interface SandboxStats {
  /** Engine instances made since the sandbox was made (each serves one run or one check). */
  spawned: number;
  /** Engine workers waiting for a run, each with a fresh instance ready. */
  idle: number;
  /** Runs executing now. */
  busy: number;
  /** Runs waiting for their turn. */
  queued: number;
}
