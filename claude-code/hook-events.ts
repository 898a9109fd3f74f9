/**
 * Claude Code's hook events as the store changes they stand for. A hook's stdin JSON is read into a SessionEvent,
 * which a hook applies at once or, when the store is locked, spills and applies later (see session-events.ts).
 */
import { DistillError } from "../core/recording.ts";
import { DISTILL_COMMAND, isDistillPrompt } from "./plugin-names.ts";
import type { ToolEnd, ToolStart } from "./tool-calls.ts";
import { isToolSearch } from "./tool-identity.ts";

/** The Claude Code events the plugin hooks. */
export const HookEvents = [
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SessionEnd",
] as const;

/** One of the Claude Code events the plugin hooks. */
export type HookEvent = (typeof HookEvents)[number];

/** The fields of a hook's stdin JSON the plugin reads (see claude-code-facts.md). */
export interface HookInput {
  session_id?: string;
  /** The session's transcript (JSONL), in every payload: the trace is reconciled with it (transcript.ts). */
  transcript_path?: string;
  cwd?: string;
  prompt?: string;
  command_name?: string;
  command_args?: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  tool_response?: unknown;
  error?: string;
  duration_ms?: number;
  reason?: string;
  /** Tool events of MCP tools on 2.1.332 and later (absent on 2.1.197): the server and where it is configured. */
  mcp_server?: { name?: string; source?: string };
}

/** What one hook event writes to the store, whether a hook applies it live or from a spill file later. */
export type SessionEvent =
  | { type: "session-start"; sessionId: string }
  | { type: "prompt"; sessionId: string; prompt: string; transcriptPath: string | null }
  | { type: "confirm"; sessionId: string }
  | { type: "tool-start"; sessionId: string; call: ToolStart }
  | { type: "tool-end"; sessionId: string; call: ToolEnd; transcriptPath: string | null }
  | { type: "session-end"; sessionId: string; transcriptPath: string | null }
  | { type: "none"; sessionId: string };

/** True when `name` is one of the events the plugin hooks (a spill file's event is checked before it is applied). */
export function isHookEvent(name: string): name is HookEvent {
  return (HookEvents as readonly string[]).includes(name);
}

function need<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new DistillError("USAGE", `the hook input has no ${field}`);
  return value;
}

/** The call a tool event reports; throws naming a missing field. */
function toolStart(sessionId: string, input: HookInput): ToolStart {
  return {
    sessionId,
    toolName: need(input.tool_name, "tool_name"),
    toolInput: input.tool_input,
    toolUseId: need(input.tool_use_id, "tool_use_id"),
  };
}

/** Reads a hook's input as the store change it stands for; throws naming a missing field. */
export function sessionEvent(event: HookEvent, input: HookInput): SessionEvent {
  const sessionId = need(input.session_id, "session_id");
  // The span's tokens are read from the transcript where the span may change (a prompt, the session's end) and
  // after each tool call, since Claude Code may cut SessionEnd's hook short as it exits.
  const transcriptPath = typeof input.transcript_path === "string" ? input.transcript_path : null;
  switch (event) {
    case "SessionStart":
      return { type: "session-start", sessionId };
    case "UserPromptSubmit": {
      const prompt = input.prompt ?? "";
      return isDistillPrompt(prompt)
        ? { type: "confirm", sessionId }
        : { type: "prompt", sessionId, prompt, transcriptPath };
    }
    case "UserPromptExpansion":
      // UserPromptSubmit sends the context; confirming here too keeps the outcome if only one of them fires.
      return input.command_name === DISTILL_COMMAND
        ? { type: "confirm", sessionId }
        : { type: "none", sessionId };
    case "PreToolUse":
      // Claude Code's own search for deferred tools (2.1.332) loads schemas; it is no step of the task.
      if (isToolSearch(input.tool_name)) return { type: "none", sessionId };
      return { type: "tool-start", sessionId, call: toolStart(sessionId, input) };
    case "PostToolUse":
    case "PostToolUseFailure":
      if (isToolSearch(input.tool_name)) return { type: "none", sessionId };
      return {
        type: "tool-end",
        sessionId,
        transcriptPath,
        call: {
          ...toolStart(sessionId, input),
          durationMs: input.duration_ms ?? null,
          outcome:
            event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" },
        },
      };
    case "Stop":
      // Nothing to write of its own: the hook reconciles the trace with the transcript (see run.ts).
      return { type: "none", sessionId };
    case "SessionEnd":
      return { type: "session-end", sessionId, transcriptPath };
  }
}
