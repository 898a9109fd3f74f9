/**
 * OpenTelemetry spans, after the GenAI semantic conventions, through `@opentelemetry/api` only: a no-op until the
 * application registers an SDK (a TracerProvider with its exporter); tooldistill bundles none.
 *
 * - a run (a Trace of the SDK loop): `invoke_agent tooldistill`, ended by `finish()` with its usage
 *   (`gen_ai.usage.input_tokens`, `…output_tokens`, `…cache_read.input_tokens`, `…cache_creation.input_tokens`);
 * - a base call: `execute_tool {gen_ai.tool.name}` (`error.type` when it failed);
 * - a distilled call: `invoke_workflow {name}` with the version, parent of one `execute_tool` per inner call;
 * - a verification: `verify_distilled_tool {name}` with the verdict's checks as attributes.
 *
 * Parents are passed explicitly (by trace id and by the distilled call's id), so the tree is right whether or not
 * the application registered a context manager; the base call's context is also kept in this module's own
 * AsyncLocalStorage for the MCP toolkit, which sends it to the server as `_meta.traceparent` (W3C Trace Context,
 * as the MCP specification describes), propagator or not.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Attributes,
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { UsageTotals } from "../types.ts";

const TRACER = "tooldistill";

function tracer() {
  return trace.getTracer(TRACER);
}

/** The open run spans by trace id, and the open distilled-call spans by call id (the parents of inner calls). */
// Pure allocations: the plugin's hooks import trace.ts but never make a span, so their bundles leave this out.
const runs = /* @__PURE__ */ new Map<string, Span>();
const workflows = /* @__PURE__ */ new Map<number, Context>();
/** The context of the base call in progress, for `traceparent` (whatever context manager the app has, if any). */
const current = /* @__PURE__ */ new AsyncLocalStorage<Context>();

/** The context new spans of `traceId` hang under: the distilled call they run inside, else the run's span. */
function parentOf(traceId: string, parentCallId: number | null): Context {
  if (parentCallId !== null) {
    const wf = workflows.get(parentCallId);
    if (wf) return wf;
  }
  const run = runSpan(traceId);
  return run ? trace.setSpan(current.getStore() ?? context.active(), run) : context.active();
}

/** The span of a run, started on first use; undefined when no SDK is registered (nothing is kept then). */
function runSpan(traceId: string): Span | undefined {
  const known = runs.get(traceId);
  if (known) return known;
  const span = tracer().startSpan(
    `invoke_agent ${TRACER}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": TRACER,
        "tooldistill.trace.id": traceId,
      },
    },
    ROOT_CONTEXT,
  );
  if (!span.isRecording()) return undefined;
  runs.set(traceId, span);
  return span;
}

/** Starts the run's span now (a no-op without an SDK, and when it is open already). */
export function startRunSpan(traceId: string): void {
  runSpan(traceId);
}

/** Ends a run's span with its usage and outcome. */
export function endRunSpan(traceId: string, usage: UsageTotals, outcome: boolean | null): void {
  const span = runs.get(traceId);
  if (!span) return;
  runs.delete(traceId);
  span.setAttributes({
    "gen_ai.usage.input_tokens": usage.input_tokens,
    "gen_ai.usage.output_tokens": usage.output_tokens,
    "gen_ai.usage.cache_read.input_tokens": usage.cache_read_input_tokens,
    "gen_ai.usage.cache_creation.input_tokens": usage.cache_creation_input_tokens,
  });
  if (outcome !== null) span.setAttribute("tooldistill.run.success", outcome);
  if (outcome === false) span.setStatus({ code: SpanStatusCode.ERROR, message: "the run failed" });
  span.end();
}

/** What a failure's `error.type` is: the thrown error's code or class name. */
function errorType(err: unknown): string {
  if (err && typeof err === "object") {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code) return code;
    const name = (err as { name?: unknown }).name;
    if (typeof name === "string" && name && name !== "Error") return name;
  }
  return "_OTHER";
}

/**
 * Runs one base call in an `execute_tool {tool}` span under its run (or its distilled call). `fn` resolves to the
 * call's outcome; a failed one sets `error.type` from what it threw.
 */
export async function withToolSpan<T extends { ok: boolean; thrown?: unknown }>(
  where: { traceId: string; parentCallId: number | null; callId?: string | undefined },
  tool: string,
  fn: () => Promise<T>,
): Promise<T> {
  const attributes: Attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool };
  if (where.callId !== undefined) attributes["gen_ai.tool.call.id"] = where.callId;
  const span = tracer().startSpan(
    `execute_tool ${tool}`,
    { kind: SpanKind.INTERNAL, attributes },
    parentOf(where.traceId, where.parentCallId),
  );
  const ctx = trace.setSpan(context.active(), span);
  try {
    const outcome = await current.run(ctx, () => context.with(ctx, fn));
    if (!outcome.ok) {
      span.setAttribute("error.type", errorType(outcome.thrown));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return outcome;
  } finally {
    span.end();
  }
}

/**
 * Runs a distilled call in an `invoke_workflow {name}` span: inner base calls recorded under `callId` become its
 * children. `fn`'s result says whether it failed (and why, as `error.type`).
 */
export async function withWorkflowSpan<T>(
  where: { traceId: string; callId: number },
  tool: { name: string; version: number },
  fn: () => Promise<T>,
  failure: (result: T) => string | null,
): Promise<T> {
  const span = tracer().startSpan(
    `invoke_workflow ${tool.name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_workflow",
        "gen_ai.workflow.name": tool.name,
        "gen_ai.tool.name": tool.name,
        "tooldistill.tool.version": tool.version,
        "tooldistill.call.id": where.callId,
      },
    },
    parentOf(where.traceId, null),
  );
  workflows.set(where.callId, trace.setSpan(context.active(), span));
  try {
    const result = await fn();
    const failed = failure(result);
    if (failed !== null) {
      span.setAttribute("error.type", failed);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return result;
  } finally {
    workflows.delete(where.callId);
    span.end();
  }
}

/** The checks of a verification as span attributes. */
export interface VerificationAttributes {
  passed: boolean;
  checks: Record<string, { ok: boolean; problems: unknown[] }>;
  calls: number | null;
  baseline: number | null;
  limit: number | null;
}

/** Runs a verification in a `verify_distilled_tool {name}` span; the checks of its result become attributes. */
export async function withVerificationSpan<T>(
  tool: { name: string; version: number },
  fn: () => Promise<T>,
  attributesOf: (result: T) => VerificationAttributes,
): Promise<T> {
  const span = tracer().startSpan(`verify_distilled_tool ${tool.name}`, {
    kind: SpanKind.INTERNAL,
    attributes: { "tooldistill.tool.name": tool.name, "tooldistill.tool.version": tool.version },
  });
  try {
    const result = await current.run(trace.setSpan(context.active(), span), fn);
    const a = attributesOf(result);
    span.setAttribute("tooldistill.verdict.passed", a.passed);
    for (const [check, r] of Object.entries(a.checks)) {
      span.setAttribute(`tooldistill.check.${check}.ok`, r.ok);
      span.setAttribute(`tooldistill.check.${check}.problems`, r.problems.length);
    }
    if (a.calls !== null) span.setAttribute("tooldistill.verdict.calls", a.calls);
    if (a.baseline !== null) span.setAttribute("tooldistill.verdict.baseline", a.baseline);
    if (a.limit !== null) span.setAttribute("tooldistill.verdict.limit", a.limit);
    if (!a.passed) span.setStatus({ code: SpanStatusCode.ERROR, message: "verification failed" });
    return result;
  } catch (err) {
    span.setAttribute("error.type", errorType(err));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

/**
 * The W3C `traceparent` (and `tracestate`) of the base call in progress, for an MCP request's `_meta`; empty when
 * no span is recording (no SDK registered), so nothing is sent then.
 */
export function traceContextMeta(): Record<string, string> {
  const span = trace.getSpan(current.getStore() ?? context.active());
  const sc = span?.spanContext();
  if (!sc || !trace.isSpanContextValid(sc)) return {};
  const meta: Record<string, string> = {
    traceparent: `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, "0")}`,
  };
  const state = sc.traceState?.serialize();
  if (state) meta["tracestate"] = state;
  return meta;
}
