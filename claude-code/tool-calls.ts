/**
 * Claude Code's tool calls in the store: PreToolUse records a call as started in the session's current span,
 * PostToolUse / PostToolUseFailure complete it, and the plugin's server finds the row it answers. Arguments are
 * recorded in the canonical form replay matches on; results as the value the MCP toolkit gets live.
 */
import {
  type CallKind,
  type CallRecord,
  type Clipped,
  canonicalArgs,
  clipDepth,
  isPlainObject,
  mcpHookResponseToValue,
  type NewCall,
  type RegistryData,
  type ToolDef,
} from "../core/recording.ts";
import { type CurrentSpan, currentSpan, spanPrefix } from "./session.ts";
import { identifyTool, isMcpToolName } from "./tool-identity.ts";

/** What the tool hooks know about the project: its base servers and the cached base tool definitions. */
export interface ToolContext {
  baseServers: readonly string[];
  /** Base tool definitions for schema defaults; may be empty before the plugin's server first listed them. */
  baseTools: readonly ToolDef[];
}

/** A tool call as PreToolUse reports it. */
export interface ToolStart {
  sessionId: string;
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
}

/** A finished tool call as PostToolUse / PostToolUseFailure report it. */
export interface ToolEnd extends ToolStart {
  durationMs: number | null;
  outcome: { response: unknown } | { error: string };
}

/**
 * A hook's `tool_input` as recordable arguments: a non-object is wrapped, nesting beyond what the canonical form
 * can walk is clipped, and the schema's defaults are applied. `note` says what was clipped.
 */
function recordedArgs(
  input: unknown,
  schema: ToolDef["input_schema"] | undefined,
): Clipped<Record<string, unknown>> {
  const args = isPlainObject(input) ? input : input === undefined ? {} : { value: input };
  const safe = clipDepth(args);
  return {
    value: canonicalArgs(safe.value, schema),
    note: safe.note === null ? null : `arguments: ${safe.note}`,
  };
}

/**
 * The row of a call in the current span. Base calls after the user's confirmation belong to the proposal exchange
 * and are recorded as `other`, so they never count toward the span's baseline.
 */
export function newCall(call: ToolStart, cur: CurrentSpan, ctx: ToolContext): NewCall {
  const id = identifyTool(call.toolName, ctx.baseServers);
  const kind: CallKind = id.kind === "base" && cur.confirmed ? "other" : id.kind;
  const schema = id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : undefined;
  const args = recordedArgs(call.toolInput, schema);
  return {
    traceId: cur.traceId,
    tool: id.tool,
    kind,
    args: args.value,
    externalId: call.toolUseId,
    note: args.note,
  };
}

/**
 * PreToolUse: records the call as started, in the session's current span (its seq is taken at start, so
 * parallel calls keep the order in which they began). In the caller's transaction: the span, the trace and the
 * row cost a hook one commit, not three.
 */
export async function recordToolStart(tx: RegistryData, call: ToolStart, ctx: ToolContext): Promise<number> {
  const existing = await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
  if (existing) return existing.id;
  return tx.startCall(newCall(call, await currentSpan(tx, call.sessionId), ctx));
}

/**
 * The value of a hook's `tool_response`. For MCP tools it is the value the toolkit gets live for the same
 * result, whichever shape Claude Code sent (content blocks, the JSON text of structuredContent, an object);
 * other tools' responses (Bash's `{stdout, stderr, …}`) are kept as they are.
 */
export function responseValue(toolName: string, response: unknown): unknown {
  if (isMcpToolName(toolName)) return mcpHookResponseToValue(response);
  return response ?? null;
}

/**
 * PostToolUse / PostToolUseFailure: completes the started call. A call the plugin's server already completed
 * (a distilled run or a proposal, with richer data) is left alone; a call whose PreToolUse record is missing
 * is recorded now rather than lost. In the caller's transaction.
 */
export async function recordToolEnd(tx: RegistryData, call: ToolEnd, ctx: ToolContext): Promise<void> {
  const outcome = endOutcome(call);
  const rec = await tx.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
  if (!rec) {
    await tx.appendCall(newCall(call, await currentSpan(tx, call.sessionId), ctx), outcome, call.durationMs);
    return;
  }
  if (rec.status !== "started") return;
  if ("error" in outcome) await tx.failCall(rec.id, outcome.error, call.durationMs);
  else await tx.finishCall(rec.id, outcome.output, call.durationMs);
}

/** What a finished call recorded: its error, or its response as the value the toolkit gets live. */
export function endOutcome(call: ToolEnd): { error: string } | { output: unknown } {
  return "error" in call.outcome
    ? { error: call.outcome.error }
    : { output: responseValue(call.toolName, call.outcome.response) };
}

/**
 * The call a `tools/call` of the plugin's server answers: the row the PreToolUse hook recorded under its
 * tool-use id (Claude Code sends the same id in `_meta`). Only a row still `started` for this very tool counts,
 * so another session's call that reused the id can never be completed twice; when several match (two sessions
 * calling at once), the server's own session wins, else the newest. The server's session id goes stale after
 * /clear, which is why it is only a preference.
 */
export async function callForToolUse(
  data: RegistryData,
  toolUseId: string,
  tool: string,
  sessionHint: string | undefined,
): Promise<CallRecord | null> {
  return pickCall(await data.startedCallsByExternalId(toolUseId), tool, sessionHint);
}

/** Of the started calls under one tool-use id, the one for `tool`: the hinted session's first, else the newest. */
export function pickCall(
  started: readonly CallRecord[],
  tool: string,
  sessionHint: string | undefined,
): CallRecord | null {
  const candidates = started.filter((c) => c.tool === tool);
  const own = sessionHint ? candidates.find((c) => c.traceId.startsWith(spanPrefix(sessionHint))) : undefined;
  return own ?? candidates[0] ?? null;
}

/**
 * Re-canonicalises the trace's base call arguments with the tools' schema defaults. Hooks record before the
 * plugin's server may have cached the schemas; replay matches on canonical arguments, so this runs before a
 * proposal is verified against the trace. Applying defaults twice changes nothing.
 */
export async function canonicalizeTrace(
  tx: RegistryData,
  traceId: string,
  tools: readonly ToolDef[],
): Promise<void> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const c of await tx.getCalls(traceId)) {
    const def = c.kind === "base" ? byName.get(c.tool) : undefined;
    if (!def) continue;
    const args = canonicalArgs(c.args, def.input_schema);
    if (JSON.stringify(args) !== JSON.stringify(c.args)) await tx.setCallArgs(c.id, args);
  }
}
