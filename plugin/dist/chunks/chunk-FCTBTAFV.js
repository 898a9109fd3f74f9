import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  trace
} from "./chunk-A6E7RSNK.js";

// core/mcp/mcp-result.ts
function textBlocks(content) {
  const texts = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text } = block;
    if (type === "text" && typeof text === "string") texts.push(text);
  }
  return texts;
}
function textValue(texts) {
  if (texts.length === 0) return void 0;
  if (texts.length === 1) return jsonOrText(texts[0]);
  return texts.join("\n");
}
function jsonOrText(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
function mcpContentToValue(content) {
  const value = textValue(textBlocks(content));
  return value === void 0 ? null : value;
}
function mcpResultToValue(result) {
  const texts = textBlocks(Array.isArray(result.content) ? result.content : []);
  if (result.isError === true) {
    let message = texts.join("\n");
    if (message === "" && result.structuredContent !== void 0) {
      message = JSON.stringify(result.structuredContent);
    }
    const structured = result.structuredContent;
    throw new DistillError(
      "MCP_TOOL",
      message === "" ? "the MCP tool returned an error without a message" : message,
      structured !== null && typeof structured === "object" ? { cause: structured } : void 0
    );
  }
  if (result.structuredContent !== void 0) return result.structuredContent;
  const value = textValue(texts);
  return value === void 0 ? null : value;
}
function mcpHookResponseToValue(response) {
  if (Array.isArray(response)) return mcpContentToValue(response);
  if (typeof response === "string") return jsonOrText(response);
  if (typeof response === "object" && response !== null) {
    const r = response;
    if (r.structuredContent !== void 0) return r.structuredContent;
    if (Array.isArray(r.content) && Object.keys(r).every((k) => k === "content" || k === "isError")) {
      return mcpContentToValue(r.content);
    }
    return response;
  }
  return response ?? null;
}

// core/trace/telemetry.ts
import { AsyncLocalStorage } from "node:async_hooks";
var TRACER = "tooldistill";
function tracer() {
  return trace.getTracer(TRACER);
}
var runs = /* @__PURE__ */ new Map();
var workflows = /* @__PURE__ */ new Map();
var current = /* @__PURE__ */ new AsyncLocalStorage();
function parentOf(traceId, parentCallId) {
  if (parentCallId !== null) {
    const wf = workflows.get(parentCallId);
    if (wf) return wf;
  }
  const run = runSpan(traceId);
  return run ? trace.setSpan(current.getStore() ?? context.active(), run) : context.active();
}
function runSpan(traceId) {
  const known = runs.get(traceId);
  if (known) return known;
  const span = tracer().startSpan(
    `invoke_agent ${TRACER}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": TRACER,
        "tooldistill.trace.id": traceId
      }
    },
    ROOT_CONTEXT
  );
  if (!span.isRecording()) return void 0;
  runs.set(traceId, span);
  return span;
}
function startRunSpan(traceId) {
  runSpan(traceId);
}
function endRunSpan(traceId, usage, outcome) {
  const span = runs.get(traceId);
  if (!span) return;
  runs.delete(traceId);
  span.setAttributes({
    "gen_ai.usage.input_tokens": usage.input_tokens,
    "gen_ai.usage.output_tokens": usage.output_tokens,
    "gen_ai.usage.cache_read.input_tokens": usage.cache_read_input_tokens,
    "gen_ai.usage.cache_creation.input_tokens": usage.cache_creation_input_tokens
  });
  if (outcome !== null) span.setAttribute("tooldistill.run.success", outcome);
  if (outcome === false) span.setStatus({ code: SpanStatusCode.ERROR, message: "the run failed" });
  span.end();
}
function errorType(err) {
  if (err && typeof err === "object") {
    const code = err.code;
    if (typeof code === "string" && code) return code;
    const name = err.name;
    if (typeof name === "string" && name && name !== "Error") return name;
  }
  return "_OTHER";
}
async function withToolSpan(where, tool, fn) {
  const attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool };
  if (where.callId !== void 0) attributes["gen_ai.tool.call.id"] = where.callId;
  const span = tracer().startSpan(
    `execute_tool ${tool}`,
    { kind: SpanKind.INTERNAL, attributes },
    parentOf(where.traceId, where.parentCallId)
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
async function withWorkflowSpan(where, tool, fn, failure) {
  const span = tracer().startSpan(
    `invoke_workflow ${tool.name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_workflow",
        "gen_ai.workflow.name": tool.name,
        "gen_ai.tool.name": tool.name,
        "tooldistill.tool.version": tool.version,
        "tooldistill.call.id": where.callId
      }
    },
    parentOf(where.traceId, null)
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
async function withVerificationSpan(tool, fn, attributesOf) {
  const span = tracer().startSpan(`verify_distilled_tool ${tool.name}`, {
    kind: SpanKind.INTERNAL,
    attributes: { "tooldistill.tool.name": tool.name, "tooldistill.tool.version": tool.version }
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
function traceContextMeta() {
  const span = trace.getSpan(current.getStore() ?? context.active());
  const sc = span?.spanContext();
  if (!sc || !trace.isSpanContextValid(sc)) return {};
  const meta = {
    traceparent: `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 255).toString(16).padStart(2, "0")}`
  };
  const state = sc.traceState?.serialize();
  if (state) meta["tracestate"] = state;
  return meta;
}

export {
  mcpResultToValue,
  mcpHookResponseToValue,
  startRunSpan,
  endRunSpan,
  withToolSpan,
  withWorkflowSpan,
  withVerificationSpan,
  traceContextMeta
};
