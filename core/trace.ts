import { canonicalArgs, isPlainObject } from "./canonical.ts";
import { clipDepth } from "./clip.ts";
import type { Settings } from "./config.ts";
import { suggestion } from "./did-you-mean.ts";
import { errorMessage } from "./errors.ts";
import { nudgeText, PROPOSE_TOOL_NAME } from "./nudge.ts";
import type { Store } from "./store.ts";
import type { Logger, ToolDef, TraceRecord } from "./types.ts";

/** What `trace.execute` returns: the text for the model's tool_result and whether it is an error. */
export interface ExecuteResult {
  content: string;
  isError: boolean;
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

/** What a trace needs from its ToolDistill; kept narrow so the recorder does not depend on verification. */
export interface TraceHost {
  readonly store: Store;
  readonly settings: Settings;
  readonly logger: Logger;
  /** The base tool of that name, if any. */
  baseTool(name: string): ToolDef | undefined;
  /** Names of all base tools, for did-you-mean. */
  baseToolNames(): string[];
  /** Runs a base tool through the executor. */
  runBase(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** Handles a call of a distilled tool, or returns null when `name` is not an exposed distilled tool. */
  runDistilled(
    trace: Trace,
    name: string,
    input: Record<string, unknown>,
    options?: ExecuteOptions,
  ): Promise<ExecuteResult> | null;
  /** Handles a `propose_distilled_tool` call. */
  propose(trace: Trace, input: Record<string, unknown>, options?: ExecuteOptions): Promise<ExecuteResult>;
  /** Called by `finish()` for a worth-distilling run without a proposal. Never throws. */
  fallbackDistill(trace: Trace): Promise<void>;
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

  /** The caller's verdict on the run; null until `setOutcome`. */
  get outcome(): boolean | null {
    return this.record().outcome;
  }

  /** The stored trace row. */
  record(): TraceRecord {
    const t = this.#host.store.getTrace(this.id);
    if (!t) throw new Error(`trace ${this.id} vanished from the store`);
    return t;
  }

  /** Runs one tool call of the agent and records it. */
  async execute(name: string, input: unknown, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    const args = isPlainObject(input) ? input : {};
    if (name === PROPOSE_TOOL_NAME) return this.#host.propose(this, args, options);
    const distilled = this.#host.runDistilled(this, name, args, options);
    if (distilled) return distilled;
    const tool = this.#host.baseTool(name);
    if (!tool) return this.#unknownTool(name, args);
    return this.runBaseCall(tool, args, null);
  }

  /** Runs and records one base call; `parentId` is the distilled call it runs inside, if any. */
  async runBaseCall(
    tool: ToolDef,
    args: Record<string, unknown>,
    parentId: number | null,
  ): Promise<ExecuteResult> {
    const r = await this.recordBaseCall(tool, args, parentId);
    return r.ok
      ? { content: resultContent(r.output), isError: false }
      : { content: `Error: ${r.error}`, isError: true };
  }

  /** Runs one base call through the executor and records it; returns the raw value or the error message. */
  async recordBaseCall(
    tool: ToolDef,
    args: Record<string, unknown>,
    parentId: number | null,
  ): Promise<{ ok: true; output: unknown } | { ok: false; error: string }> {
    const safe = clipDepth(args);
    const call = {
      traceId: this.id,
      tool: tool.name,
      kind: "base" as const,
      args: canonicalArgs(safe.value, tool.input_schema),
      parentId,
      note: safe.note === null ? null : `arguments: ${safe.note}`,
    };
    const started = performance.now();
    try {
      const output = await this.#host.runBase(tool.name, args);
      this.#host.store.appendCall(call, { output }, performance.now() - started);
      return { ok: true, output };
    } catch (err) {
      const error = errorMessage(err);
      this.#host.store.appendCall(call, { error }, performance.now() - started);
      return { ok: false, error };
    }
  }

  #unknownTool(name: string, args: Record<string, unknown>): ExecuteResult {
    const { store } = this.#host;
    const message = `no such tool '${name}'${suggestion(name, this.#host.baseToolNames())}`;
    const id = store.startCall({ traceId: this.id, tool: name, kind: "other", args: canonicalArgs(args) });
    store.failCall(id, message, 0);
    return { content: `Error: ${message}`, isError: true };
  }

  /** Adds one Anthropic usage object to the run's totals (cache token fields included). */
  recordUsage(usage: UsageLike | null | undefined): void {
    if (!usage) return;
    this.#host.store.addUsage(this.id, {
      input_tokens: usage.input_tokens ?? 0,
      output_tokens: usage.output_tokens ?? 0,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    });
  }

  /** Records whether the task succeeded: the caller's own check, never inferred from the model stopping. */
  setOutcome(outcome: { success: boolean }): void {
    this.#host.store.setOutcome(this.id, outcome.success);
  }

  /** Top-level base calls of the run (failed ones included): the unit of baselines. */
  baseCallCount(): number {
    return this.#host.store.countTopLevelBaseCalls(this.id);
  }

  /**
   * True when the run succeeded, nobody proposed yet, and it took at least `min_calls_to_distill`
   * top-level base calls (waived after a distilled tool failed in it).
   */
  worthDistilling(): boolean {
    return worthDistilling(this.#host.store, this.id, this.#host.settings.minCallsToDistill);
  }

  /** A message asking the agent to propose a distilled tool, or null; at most once per trace. */
  distillNudge(): string | null {
    if (!this.worthDistilling()) return null;
    if (!this.#host.store.claimNudge(this.id)) return null;
    const flags = this.#host.store.getTraceFlags(this.id);
    return nudgeText({ baseCalls: this.baseCallCount(), replaceName: flags.replaceName });
  }

  /** Ends the run; may run the fallback distiller. Never throws: problems are logged and kept on the trace. */
  async finish(): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    try {
      this.#host.store.endTrace(this.id);
      if (this.#host.settings.fallbackDistiller && this.worthDistilling()) {
        await this.#host.fallbackDistill(this);
      }
    } catch (err) {
      this.#host.logger.error(`tooldistill: finishing trace ${this.id} failed: ${errorMessage(err)}`);
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
