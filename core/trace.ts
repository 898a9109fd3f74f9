import { classifyBaseFailure } from "./base-failure.ts";
import { canonicalArgs, isPlainObject } from "./canonical.ts";
import type { DistillContext } from "./context.ts";
import { suggestion } from "./did-you-mean.ts";
import { DistillError, errorMessage } from "./errors.ts";
import { nudgeText, PROPOSE_TOOL_NAME } from "./prompts.ts";
import { clipDepth } from "./recordable.ts";
import type { Store } from "./store.ts";
import type { ToolDef, TraceRecord } from "./types.ts";

/** What `trace.execute` returns: the text for the model's tool_result and whether it is an error. */
export interface ExecuteResult {
  content: string;
  isError: boolean;
  /** Set when a distilled tool ended with `notApplicable(reason)`: the reason (the content says to go on). */
  notApplicable?: string;
}

/** Options of one `execute`: `callId` completes a call row recorded elsewhere (the plugin's PreToolUse hook). */
export interface ExecuteOptions {
  callId?: number;
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
  /** Handles a call of a distilled tool, or returns null when `name` is not an exposed distilled tool. */
  runDistilled(
    trace: Trace,
    name: string,
    input: Record<string, unknown>,
    options?: ExecuteOptions,
  ): Promise<ExecuteResult> | null;
  /** Handles a `propose_distilled_tool` call. */
  propose(trace: Trace, input: Record<string, unknown>, options?: ExecuteOptions): Promise<ExecuteResult>;
  /** Why a distilled tool of that name cannot be called now, or null when there is none of that name. */
  unavailableReason(name: string): string | null;
  /** Called by `finish()` for a worth-distilling run without a proposal. Never throws. */
  fallbackDistill(trace: Trace): Promise<void>;
}

/** One base call's outcome: the raw value, or the error's message with what was thrown. */
export type BaseCallOutcome = { ok: true; output: unknown } | { ok: false; error: string; thrown: unknown };

/**
 * Runs one base call through the executor and records it under `parentId` (the distilled call it runs inside,
 * if any). The call has happened (maybe with side effects) before it is recorded: a store that cannot record it
 * does not turn it into an error the agent would retry; `warn` hears about it instead.
 */
export async function recordBaseCall(
  ctx: Pick<DistillContext, "store" | "executor">,
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
  let outcome: BaseCallOutcome;
  try {
    if (!ctx.executor) {
      throw new DistillError(
        "EXECUTOR",
        "no executor configured: pass executor to ToolDistill or set executor/mcp_config in tooldistill.yaml",
      );
    }
    outcome = { ok: true, output: await ctx.executor(tool.name, args) };
  } catch (err) {
    outcome = { ok: false, error: errorMessage(err), thrown: err };
  }
  try {
    // An outage counts against the base tool's health (never against a distilled tool); an answer ends it.
    const down = !outcome.ok && classifyBaseFailure(outcome.thrown) === "infrastructure";
    if (outcome.ok || down)
      ctx.store.recordBaseHealth(tool.name, outcome.ok, outcome.ok ? null : outcome.error);
    ctx.store.appendCall(
      call,
      outcome.ok ? { output: outcome.output } : { error: outcome.error },
      performance.now() - started,
    );
  } catch (err) {
    warn(`recording the call of '${tool.name}' (it ran; it is missing from the trace)`, err);
  }
  return outcome;
}

/**
 * Text for a tool_result: strings as they are, anything else as JSON; a value JSON cannot encode (a cycle,
 * nesting deep enough to overflow the encoder) is clipped first, as the store records it.
 */
export function resultContent(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "null";
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    try {
      return JSON.stringify(clipDepth(value).value) ?? "null";
    } catch (err) {
      return `[the result could not be encoded as JSON: ${errorMessage(err)}]`;
    }
  }
}

/**
 * One recorded run. Every tool call of the agent goes through `execute`, so the library sees base calls,
 * runs distilled tools and ingests proposals. Errors never throw out of `execute`: they become an error
 * result for the model, as a tool_result with `is_error` expects.
 */
export class Trace {
  readonly id: string;
  readonly task: string;
  readonly #host: TraceHost;
  #finished = false;

  constructor(host: TraceHost, id: string, task: string) {
    this.#host = host;
    this.id = id;
    this.task = task;
  }

  /** The caller's verdict on the run; null until `setOutcome` (or when the store cannot be read). */
  get outcome(): boolean | null {
    try {
      return this.record().outcome;
    } catch (err) {
      this.warn("reading the outcome", err);
      return null;
    }
  }

  /** The stored trace row. */
  record(): TraceRecord {
    const t = this.#host.ctx.store.getTrace(this.id);
    if (!t) throw new DistillError("STORE", `trace ${this.id} vanished from the store`);
    return t;
  }

  /**
   * Runs one tool call of the agent and records it. Never throws: a malformed proposal, a failing tool, a store
   * that cannot be written (permissions, a read-only disk, a lock) all become an error result for the model and,
   * for store problems, a warning on the logger, so the agent keeps running.
   */
  async execute(name: string, input: unknown, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    try {
      await this.#host.ready();
      const args = isPlainObject(input) ? input : {};
      if (name === PROPOSE_TOOL_NAME) return await this.#host.propose(this, args, options);
      const distilled = this.#host.runDistilled(this, name, args, options);
      if (distilled) return await distilled;
      const tool = this.#host.ctx.baseTool(name);
      if (!tool) return this.#unknownTool(name, args);
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
    const r = await recordBaseCall(this.#host.ctx, this.id, tool, args, null, (what, err) =>
      this.warn(what, err),
    );
    return r.ok
      ? { content: resultContent(r.output), isError: false }
      : { content: `Error: ${r.error}`, isError: true };
  }

  #unknownTool(name: string, args: Record<string, unknown>): ExecuteResult {
    const { store } = this.#host.ctx;
    const names = this.#host.ctx.tools().map((t) => t.name);
    const message = this.#host.unavailableReason(name) ?? `no such tool '${name}'${suggestion(name, names)}`;
    const id = store.startCall({ traceId: this.id, tool: name, kind: "other", args: canonicalArgs(args) });
    store.failCall(id, message, 0);
    return { content: `Error: ${message}`, isError: true };
  }

  /** Adds one Anthropic usage object to the run's totals (cache token fields included); a store problem is warned. */
  recordUsage(usage: UsageLike | null | undefined): void {
    if (!usage) return;
    try {
      this.#host.ctx.store.addUsage(this.id, {
        input_tokens: usage.input_tokens ?? 0,
        output_tokens: usage.output_tokens ?? 0,
        cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
      });
    } catch (err) {
      this.warn("recording usage", err);
    }
  }

  /**
   * Records whether the task succeeded: the caller's own check, never inferred from the model stopping. A store
   * problem is warned, not thrown.
   */
  setOutcome(outcome: { success: boolean }): void {
    try {
      this.#host.ctx.store.setOutcome(this.id, outcome.success);
    } catch (err) {
      this.warn("recording the outcome", err);
    }
  }

  /** Top-level base calls of the run (failed ones included): the unit of baselines. */
  baseCallCount(): number {
    return this.#host.ctx.store.countTopLevelBaseCalls(this.id);
  }

  /**
   * True when the run succeeded, nobody proposed yet, and it took at least `min_calls_to_distill`
   * top-level base calls (waived after a distilled tool failed in it).
   */
  worthDistilling(): boolean {
    return worthDistilling(this.#host.ctx.store, this.id, this.#host.ctx.settings.minCallsToDistill);
  }

  /** A message asking the agent to propose a distilled tool, or null; at most once per trace. Never throws. */
  distillNudge(): string | null {
    try {
      if (!this.worthDistilling()) return null;
      if (!this.#host.ctx.store.claimNudge(this.id)) return null;
      const flags = this.#host.ctx.store.getTraceFlags(this.id);
      return nudgeText({ baseCalls: this.baseCallCount(), replaceName: flags.replaceName });
    } catch (err) {
      this.warn("deciding on the nudge", err);
      return null;
    }
  }

  /** Ends the run; may run the fallback distiller. Never throws: problems are logged and kept on the trace. */
  async finish(): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    try {
      this.#host.ctx.store.endTrace(this.id);
      if (this.#host.ctx.settings.fallbackDistiller && this.worthDistilling()) {
        await this.#host.fallbackDistill(this);
      }
    } catch (err) {
      this.#host.ctx.logger.error(`tooldistill: finishing trace ${this.id} failed: ${errorMessage(err)}`);
    }
  }
}

/** The shared "worth distilling" rule, for the SDK trace and the plugin's spans alike. */
export function worthDistilling(store: Store, traceId: string, minCallsToDistill: number): boolean {
  const trace = store.getTrace(traceId);
  if (trace?.outcome !== true) return false;
  const flags = store.getTraceFlags(traceId);
  if (flags.proposed) return false;
  if (flags.replaceName) return true;
  return store.countTopLevelBaseCalls(traceId) >= minCallsToDistill;
}
