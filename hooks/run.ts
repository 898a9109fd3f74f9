/**
 * The shared body of the plugin's hooks: reads the event's JSON from stdin, finds the project's store from
 * `CLAUDE_PROJECT_DIR`/tooldistill.yaml and records into it through core/session.ts. Hooks fail open: any
 * error is logged to `<store>/hooks.log` and stderr, and the hook still exits 0 so the session goes on.
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { findConfig } from "../core/config-file.ts";
import {
  cachedBaseTools,
  confirmSpan,
  currentSpan,
  DISTILL_COMMAND,
  distillContext,
  isDistillPrompt,
  recordToolEnd,
  recordToolStart,
  type ToolContext,
  userPrompt,
} from "../core/session.ts";
import { Store } from "../core/store.ts";
import { worthDistilling } from "../core/trace.ts";
import { type HookConfig, hookConfig } from "./hook-config.ts";

/** The Claude Code events the plugin hooks. */
export type HookEvent =
  | "SessionStart"
  | "UserPromptSubmit"
  | "UserPromptExpansion"
  | "PreToolUse"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "SessionEnd";

/** The fields of a hook's stdin JSON the plugin reads (see claude-code-facts.md). */
export interface HookInput {
  session_id?: string;
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
}

/** What a hook prints on stdout (exit 0): a message for the user, or context for the model. */
export interface HookOutput {
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: HookEvent; additionalContext: string };
}

/** The one hint a project without tooldistill.yaml gets, at session start. */
export function setupHint(projectDir: string): string {
  return (
    `tooldistill: no tooldistill.yaml in ${projectDir}, so this session is not recorded. ` +
    "To distil this project's MCP tools, add a tooldistill.yaml with `mcp_config: .mcp.json` " +
    "(or run `npx tooldistill init` and set mcp_config), then start a new session."
  );
}

/** Where the hook runs: the environment, and how to start the detached fallback distiller. */
export interface HookRuntime {
  env: NodeJS.ProcessEnv;
  /** Starts the fallback distiller for a trace without waiting for it (default: a detached process). */
  startFallback?: (configPath: string, traceId: string) => void;
}

function toolContext(store: Store, config: HookConfig): ToolContext {
  return { baseServers: config.baseServers, baseTools: cachedBaseTools(store) };
}

function need<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new Error(`the hook input has no ${field}`);
  return value;
}

/** Handles one event for a project that has a config. */
async function handle(
  event: HookEvent,
  input: HookInput,
  config: HookConfig,
  store: Store,
  rt: HookRuntime,
): Promise<HookOutput | null> {
  const sessionId = need(input.session_id, "session_id");
  switch (event) {
    case "SessionStart":
      currentSpan(store, sessionId);
      return null;
    case "UserPromptSubmit": {
      const prompt = input.prompt ?? "";
      if (!isDistillPrompt(prompt)) {
        userPrompt(store, sessionId, prompt);
        return null;
      }
      const cur = confirmSpan(store, sessionId);
      const notes = prompt.trim().replace(/^\/tooldistill:distill/, "");
      return {
        hookSpecificOutput: {
          hookEventName: event,
          additionalContext: distillContext(store, cur.traceId, notes),
        },
      };
    }
    case "UserPromptExpansion":
      // UserPromptSubmit sends the context; confirming here too keeps the outcome if only one of them fires.
      if (input.command_name === DISTILL_COMMAND) confirmSpan(store, sessionId);
      return null;
    case "PreToolUse":
      recordToolStart(
        store,
        {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id"),
        },
        toolContext(store, config),
      );
      return null;
    case "PostToolUse":
    case "PostToolUseFailure":
      recordToolEnd(
        store,
        {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id"),
          durationMs: input.duration_ms ?? null,
          outcome:
            event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" },
        },
        toolContext(store, config),
      );
      return null;
    case "SessionEnd": {
      const span = store.findSessionSpan(sessionId);
      if (!span) return null;
      const cur = currentSpan(store, sessionId);
      store.endTrace(cur.traceId);
      const wanted =
        config.settings.fallbackDistiller &&
        Boolean(rt.env["ANTHROPIC_API_KEY"]) &&
        worthDistilling(store, cur.traceId, config.settings.minCallsToDistill);
      if (wanted) (rt.startFallback ?? startFallbackProcess)(config.path, cur.traceId);
      return null;
    }
  }
}

/** Runs `fallback.{ts,js}` beside this hook's entry, detached, so the user's exit is not delayed. */
function startFallbackProcess(configPath: string, traceId: string): void {
  // Loaded here, not at the top: only SessionEnd spawns, and every tool hook would pay for node:child_process.
  const { spawn } = process.getBuiltinModule("node:child_process");
  const entry = process.argv[1] ?? "";
  const script = join(dirname(entry), `fallback${extname(entry) || ".js"}`);
  const child = spawn(process.execPath, [script, configPath, traceId], { detached: true, stdio: "ignore" });
  child.unref();
}

/** Appends an error to the store's hook log and to stderr; never throws. */
function logError(logFile: string | null, event: HookEvent, err: unknown): void {
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  const line = `${new Date().toISOString()} ${event}: ${detail}\n`;
  process.stderr.write(`tooldistill ${event} hook: ${err instanceof Error ? err.message : String(err)}\n`);
  if (logFile === null) return;
  try {
    mkdirSync(dirname(logFile), { recursive: true });
    appendFileSync(logFile, line);
  } catch {
    // stderr already has it; a log that cannot be written must not break the session either.
  }
}

/**
 * Handles one hook invocation from its stdin text. Returns what to print (or null); every error is logged
 * and swallowed here, which is what failing open means.
 */
export async function handleHookInput(
  event: HookEvent,
  text: string,
  rt: HookRuntime,
): Promise<HookOutput | null> {
  let logFile: string | null = null;
  try {
    const input = JSON.parse(text) as HookInput;
    const projectDir = rt.env["CLAUDE_PROJECT_DIR"] || input.cwd || process.cwd();
    logFile = join(projectDir, ".tooldistill", "hooks.log");
    const configPath = findConfig(projectDir);
    if (configPath === null)
      return event === "SessionStart" ? { systemMessage: setupHint(projectDir) } : null;
    const config = await hookConfig(configPath, rt.env, (message) => logError(logFile, event, message));
    logFile = join(config.store, "hooks.log");
    const store = new Store(config.store, {
      maxOutputBytes: config.settings.maxOutputBytes,
      checkInvariants: false,
    });
    try {
      return await handle(event, input, config, store, rt);
    } finally {
      store.close();
    }
  } catch (err) {
    logError(logFile, event, err);
    return null;
  }
}

/** The hook entry points' main: stdin → handleHookInput → stdout, exit code 0. */
export async function runHook(event: HookEvent): Promise<void> {
  let text = "";
  try {
    text = readFileSync(0, "utf8");
  } catch (err) {
    logError(null, event, err);
  }
  const output = await handleHookInput(event, text, { env: process.env });
  if (output) process.stdout.write(`${JSON.stringify(output)}\n`);
}
