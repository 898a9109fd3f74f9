import { type BaseFailure, classifyBaseFailure } from "../base-tools/base-failure.ts";
import { nudgeText, PROPOSE_TOOL_NAME } from "../distill/prompts.ts";
import { DistillError, errorMessage } from "../errors.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import type { ToolDef, TraceRecord, UsageTotals } from "../types.ts";
import { canonicalArgs, dangerousKeyProblem, isPlainObject } from "../util/canonical.ts";
import { suggestion } from "../util/did-you-mean.ts";
import { clipDepth, resultContent } from "./recordable.ts";
import { endRunSpan, startRunSpan, withToolSpan } from "./telemetry.ts";
import { isWorthDistilling, newTraceState, type TraceState } from "./trace-state.ts";

/** What `trace.execute` returns: the text for the model's tool_result and whether it is an error. */
export interface ExecuteResult {
  content: string;
  isError: boolean;
  /** Set when a distilled tool ended with `notApplicable(reason)`: the reason (the content says to go on). */
  notApplicable?: string;
}

/** Options of one `execute`. */
export interface ExecuteOptions {
  /** Completes a call row recorded elsewhere (the plugin's PreToolUse hook) instead of starting one. */
  callId?: number;
  /**
   * For a client that runs the base tools itself and offers only distilled ones (the plugin's td server): the call
   * runs a distilled tool offered now (read from the store at the call, so a change another process made a moment
   * ago counts) or the proposal tool, nothing else. A base tool's name, or a distilled tool that is not offered, is
   * refused with why (`activeTools()`'s ranking, the version's status) and recorded as a call not made.
   */
  distilledOnly?: boolean;
}

/** Anthropic's usage object; every field may be absent or null depending on the API and the SDK version. */
export interface UsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * What a trace needs from its ToolDistill: the shared context and the operations that would pull verification into
 * the recorder (the plugin's hooks use this module and must stay small). Built once, private to ToolDistill.
 */
export interface TraceHost {
  readonly ctx: DistillContext;
  /** Resolves when the library is ready for calls (the start-up re-verification has ended). */
  ready(): Promise<void>;
  /**
   * Handles a call of a distilled tool, or resolves to null when `name` is not an exposed distilled tool (read from
   * the store with `distilledOnly`, else from the set in memory).
   */
  runDistilled(
    trace: Trace,
    name: string,
    input: Record<string, unknown>,
    options?: ExecuteOptions,
  ): Promise<ExecuteResult | null>;
  /** Handles a `propose_distilled_tool` call. */
  propose(trace: Trace, input: Record<string, unknown>, options?: ExecuteOptions): Promise<ExecuteResult>;
  /** Why a distilled tool of that name cannot be called now, or null when there is none of that name. */
  unavailableReason(name: string): Promise<string | null>;
  /** Why a `distilledOnly` call of `name` is refused: `unavailableReason`, else that there is no such tool. */
  notOffered(name: string): Promise<string>;
  /** Called by `finish()` for a worth-distilling run without a proposal. Never throws. */
  fallbackDistill(trace: Trace): Promise<void>;
}

/** One base call's outcome: the raw value, or the error's message with what was thrown and its classification. */
export type BaseCallOutcome =
  | { ok: true; output: unknown }
  | { ok: false; error: string; thrown: unknown; failure: BaseFailure };

/**
 * Runs one base call through the executor and records it under `parentId` (the distilled call it runs inside,
 * if any). The call has happened (maybe with side effects) before it is recorded: a store that cannot record it
 * does not turn it into an error the agent would retry; `warn` hears about it instead.
 */
export async function recordBaseCall(
  ctx: Pick<DistillContext, "store" | "executor" | "logger">,
  traceId: string,
  tool: ToolDef,
  args: Record<string, unknown>,
  parentId: number | null,
  warn: (what: string, err: unknown) => void,
): Promise<BaseCallOutcome> {
  const safe = clipDepth(args);
  const call = {
    traceId,
    tool: tool.name,
    kind: "base" as const,
    args: canonicalArgs(safe.value, tool.input_schema),
    parentId,
    note: safe.note === null ? null : `arguments: ${safe.note}`,
  };
  const started = performance.now();
  const outcome = await withToolSpan({ traceId, parentCallId: parentId }, tool.name, async () => {
    try {
      if (!ctx.executor) {
        throw new DistillError(
          "EXECUTOR",
          "no executor configured: pass executor to ToolDistill or set executor/mcp_config in tooldistill.yaml",
        );
      }
      return { ok: true, output: await ctx.executor(tool.name, args) } satisfies BaseCallOutcome;
    } catch (err) {
      return {
        ok: false,
        error: errorMessage(err),
        thrown: err,
        failure: classifyBaseFailure(err),
      } satisfies BaseCallOutcome;
    }
  });
  // An outage counts against the base tool's health (never against a distilled tool); an answer ends it, in the
  // same write as the call. Only out-of-band signals say it is down (base-failure.ts): the error's text may echo
  // the caller's arguments.
  const down = !outcome.ok && outcome.failure.kind === "infrastructure";
  try {
    await ctx.store.appendBaseCall(
      call,
      outcome.ok ? { output: outcome.output } : { error: outcome.error, failure: outcome.failure.kind },
      performance.now() - started,
      outcome.ok ? { ok: true } : down ? { ok: false, error: outcome.error } : null,
    );
  } catch (err) {
    warn(`recording the call of '${tool.name}' (it ran; it is missing from the trace)`, err);
  }
  return outcome;
}

/** Sets the name a replacement is asked under (distilled-run.ts, after demoting a tool that failed in this run). */
let markReplacing: (trace: Trace, name: string) => void;
let queueWrite: (trace: Trace, write: () => Promise<unknown>, onError: (err: unknown) => void) => void;

/** Queues a write of `trace` before anything it does next (ToolDistill queues the trace's creation). */
export function queueTraceWrite(
  trace: Trace,
  write: () => Promise<unknown>,
  onError: (err: unknown) => void,
): void {
  queueWrite(trace, write, onError);
}

/** Records on `trace` that the distilled tool `name` failed in it and was demoted: the nudge asks for a replacement. */
export function noteReplacement(trace: Trace, name: string): void {
  markReplacing(trace, name);
}

/**
 * One recorded run. Every tool call of the agent goes through `execute`, so the library sees base calls,
 * runs distilled tools and ingests proposals. Errors never throw out of `execute`: they become an error
 * result for the model, as a tool_result with `is_error` expects.
 *
 * A trace keeps its own state in memory (outcome, usage, whether it was proposed from or nudged, the name a
 * replacement is asked under, its top-level base call count), updated by its own operations, so `outcome`,
 * `recordUsage`, `setOutcome`, `worthDistilling`, `baseCallCount` and `distillNudge` are synchronous on any store.
 * Their writes go to the store through one ordered queue; `execute` first waits for the writes queued before it
 * and awaits its own, `finish` and `flush` drain the queue, and a write that fails is warned on the logger.
 */
export class Trace {
  readonly id: string;
  readonly task: string;
  readonly #host: TraceHost;
  readonly #state: TraceState;
  #writes: Promise<void> = Promise.resolve();
  #finished = false;

  static {
    markReplacing = (trace, name) => {
      trace.#state.replaceName = name;
    };
    queueWrite = (trace, write, onError) => trace.#enqueue("", write, onError);
  }

  /** `state`: what the store holds of the run (a new run's when omitted). */
  constructor(host: TraceHost, id: string, task: string, state: TraceState = newTraceState()) {
    this.#host = host;
    this.id = id;
    this.task = task;
    this.#state = state;
  }

  /** The caller's verdict on the run; null until `setOutcome`. */
  get outcome(): boolean | null {
    return this.#state.outcome;
  }

  /** The stored trace row, once the writes queued so far are made. */
  async record(): Promise<TraceRecord> {
    await this.flush();
    const t = await this.#host.ctx.store.getTrace(this.id);
    if (!t) throw new DistillError("STORE", `trace ${this.id} vanished from the store`);
    return t;
  }

  /** Resolves once every write queued so far (usage, outcome, nudge) is made or warned about. Never rejects. */
  flush(): Promise<void> {
    return this.#writes;
  }

  /** Queues a write after the ones before it; a failure is told to `onError` (default: warned as `what`). */
  #enqueue(what: string, write: () => Promise<unknown>, onError?: (err: unknown) => void): void {
    this.#writes = this.#writes.then(write).then(
      () => {},
      (err: unknown) => (onError ? onError(err) : this.warn(what, err)),
    );
  }

  /**
   * Runs one tool call of the agent and records it. Never throws: a malformed proposal, a failing tool, a store
   * that cannot be written (permissions, a read-only disk, a lock) all become an error result for the model and,
   * for store problems, a warning on the logger, so the agent keeps running.
   */
  async execute(name: string, input: unknown, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    startRunSpan(this.id);
    try {
      // The trace row and the writes queued before this call land first.
      await this.#writes;
      await this.#host.ready();
      const args = isPlainObject(input) ? input : {};
      if (name === PROPOSE_TOOL_NAME) {
        this.#state.proposed = true;
        return await this.#host.propose(this, args, options);
      }
      // Refused before anything matches, records or dispatches them (canonical.ts's dangerousKeyPath).
      const dangerous = dangerousKeyProblem(args);
      if (dangerous !== null) return await this.#refuseCall(name, args, dangerous, options);
      const distilled = await this.#host.runDistilled(this, name, args, options);
      if (distilled) return distilled;
      if (options.distilledOnly)
        return await this.#refuseCall(name, args, await this.#host.notOffered(name), options);
      const tool = this.#host.ctx.baseTool(name);
      if (!tool) return await this.#unknownTool(name, args);
      return await this.#runBaseCall(tool, args);
    } catch (err) {
      this.warn(`the call of '${name}'`, err);
      const message = errorMessage(err);
      return name === PROPOSE_TOOL_NAME
        ? { content: `rejected: tooldistill could not handle the proposal: ${message}`, isError: true }
        : { content: `Error: tooldistill could not run '${name}': ${message}`, isError: true };
    }
  }

  /** Reports a problem of this trace on the logger (the agent runs on). */
  warn(what: string, err: unknown): void {
    this.#host.ctx.logger.warn(`tooldistill: ${what} in trace ${this.id} failed: ${errorMessage(err)}`);
  }

  /** Runs and records one top-level base call. */
  async #runBaseCall(tool: ToolDef, args: Record<string, unknown>): Promise<ExecuteResult> {
    let recorded = true;
    const r = await recordBaseCall(this.#host.ctx, this.id, tool, args, null, (what, err) => {
      recorded = false;
      this.warn(what, err);
    });
    if (recorded) this.#state.baseCalls += 1;
    return r.ok
      ? { content: resultContent(r.output), isError: false }
      : { content: `Error: ${r.error}`, isError: true };
  }

  async #unknownTool(name: string, args: Record<string, unknown>): Promise<ExecuteResult> {
    const names = this.#host.ctx.tools().map((t) => t.name);
    const message =
      (await this.#host.unavailableReason(name)) ?? `no such tool '${name}'${suggestion(name, names)}`;
    return this.#refuseCall(name, args, message);
  }

  /** Records a call that was not made (kind `other`: it never counts nor answers a replay) and says why. */
  async #refuseCall(
    name: string,
    args: Record<string, unknown>,
    message: string,
    options: ExecuteOptions = {},
  ): Promise<ExecuteResult> {
    const { store } = this.#host.ctx;
    let id = options.callId;
    if (id === undefined) {
      id = await store.startCall({ traceId: this.id, tool: name, kind: "other", args: canonicalArgs(args) });
    } else await store.setCallKind(id, "other", null);
    await store.failCall(id, message, 0);
    return { content: `Error: ${message}`, isError: true };
  }

  /** Adds one Anthropic usage object to the run's totals (cache token fields included); a store problem is warned. */
  recordUsage(usage: UsageLike | null | undefined): void {
    if (!usage) return;
    const add: UsageTotals = {
      input_tokens: usage.input_tokens ?? 0,
      output_tokens: usage.output_tokens ?? 0,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    };
    const total = this.#state.usage;
    total.input_tokens += add.input_tokens;
    total.output_tokens += add.output_tokens;
    total.cache_creation_input_tokens += add.cache_creation_input_tokens;
    total.cache_read_input_tokens += add.cache_read_input_tokens;
    this.#enqueue("recording usage", () => this.#host.ctx.store.addUsage(this.id, add));
  }

  /**
   * Records whether the task succeeded: the caller's own check, never inferred from the model stopping. A store
   * problem is warned, not thrown.
   */
  setOutcome(outcome: { success: boolean }): void {
    this.#state.outcome = outcome.success;
    this.#enqueue("recording the outcome", () => this.#host.ctx.store.setOutcome(this.id, outcome.success));
  }

  /** Top-level base calls of the run (failed ones included): the unit of baselines. */
  baseCallCount(): number {
    return this.#state.baseCalls;
  }

  /**
   * True when the run succeeded, nobody proposed yet, and it took at least `min_calls_to_distill`
   * top-level base calls (waived after a distilled tool failed in it).
   */
  worthDistilling(): boolean {
    return isWorthDistilling(this.#state, this.#host.ctx.settings.minCallsToDistill);
  }

  /**
   * A message asking the agent to propose a distilled tool, or null; at most once per trace. Never throws.
   *
   * The decision is this trace's own (its state in memory); the claim is still made atomically in the store,
   * through the write queue. In the rare case that another process holds the same trace (the plugin's server and
   * a hook on one Claude Code span) and claims the nudge between this trace's load and its own claim, both may
   * show it once: the store records one claim, and the agent reads the same request twice.
   */
  distillNudge(): string | null {
    if (!this.worthDistilling() || this.#state.nudged) return null;
    this.#state.nudged = true;
    this.#enqueue("claiming the nudge", () => this.#host.ctx.store.claimNudge(this.id));
    return nudgeText({ baseCalls: this.#state.baseCalls, replaceName: this.#state.replaceName });
  }

  /** Ends the run; may run the fallback distiller. Never throws: problems are logged and kept on the trace. */
  async finish(): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    this.#enqueue("ending the run", () => this.#host.ctx.store.endTrace(this.id));
    await this.#writes;
    endRunSpan(this.id, this.#state.usage, this.#state.outcome);
    try {
      if (this.#host.ctx.settings.fallbackDistiller && this.worthDistilling()) {
        this.#state.proposed = true;
        await this.#host.fallbackDistill(this);
      }
    } catch (err) {
      this.#host.ctx.logger.error(`tooldistill: finishing trace ${this.id} failed: ${errorMessage(err)}`);
    }
  }
}
