/**
 * The shared body of the plugin's hooks: reads the event's JSON from stdin, finds the project's store from
 * `CLAUDE_PROJECT_DIR`/tooldistill.yaml and records into it through claude-code/. Hooks never stall or break
 * the session: the store is opened with a short busy timeout, and when another process holds its write lock past
 * it the event goes to the session's spill file (core/store/spill.ts), applied in order by the next hook or the
 * plugin's server. It records through the library's async registry, over the store's one SQLite connection, and
 * does nothing once the record is written and its answer printed. Every problem (a broken config, empty or
 * non-JSON stdin) is logged to `<store>/hooks.log` (bounded) and stderr, and the hook still exits 0.
 */
import { readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { cachedBaseTools } from "../claude-code/base-tools.ts";
import { distillContext, spilledDistillContext } from "../claude-code/distill-context.ts";
import {
  type HookEvent,
  type HookInput,
  type SessionEvent,
  sessionEvent,
} from "../claude-code/hook-events.ts";
import { spanTraceId } from "../claude-code/session.ts";
import { applySessionEvent, applySpilledEvents } from "../claude-code/session-events.ts";
import type { ToolContext } from "../claude-code/tool-calls.ts";
import { readTranscript, transcriptToolCalls } from "../claude-code/transcript.ts";
import { reconcileTranscript } from "../claude-code/transcript-reconcile.ts";
import {
  appendLog,
  DistillError,
  errorMessage,
  findConfig,
  isPlainObject,
  isPostgresUrl,
  localFolder,
  oneLine,
  type RegistryStore,
  SqliteRegistryStore,
  spillEvent,
  worthDistilling,
} from "../core/recording.ts";
import { type HookConfig, hookConfig } from "./hook-config.ts";

export type { HookEvent, HookInput };

/**
 * How long a hook waits for the store's write lock before it spills the event. The store's own transactions
 * take milliseconds, so this only runs out when something else holds the lock (an sqlite3 shell, a backup).
 */
export const HOOK_BUSY_TIMEOUT_MS = 200;

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

/** The events at which the trace is checked against the transcript: the end of a turn, of the session, and before a prompt. */
// UserPromptExpansion too: on 2.1.197 it fires before UserPromptSubmit and confirms the span, after which a call
// filled in would count as the proposal exchange's, not the task's.
const RECONCILED: readonly HookEvent[] = ["Stop", "SessionEnd", "UserPromptExpansion", "UserPromptSubmit"];

/**
 * Fills in the base calls the tool hooks missed from the session's transcript (claude-code/transcript-reconcile.ts).
 * A transcript that cannot be read is logged, never fatal: the hooks' own records stand.
 */
async function reconcile(
  store: RegistryStore,
  input: HookInput,
  sessionId: string,
  ctx: ToolContext,
  log: (m: string) => void,
): Promise<void> {
  const path = input.transcript_path;
  if (!path) return;
  let calls: ReturnType<typeof transcriptToolCalls>;
  try {
    calls = transcriptToolCalls(readTranscript(path).entries);
  } catch (err) {
    log(
      `the transcript ${path} could not be read, so calls the hooks missed are not filled in: ${errorMessage(err)}`,
    );
    return;
  }
  const report = await reconcileTranscript(store, sessionId, calls, ctx);
  if (report.added > 0 || report.completed > 0)
    log(
      `from the transcript: ${report.added} base call(s) the hooks missed added, ${report.completed} completed`,
    );
}

/** Records the event (after the session's spilled ones), or spills it when the store stays locked. */
async function record(
  store: RegistryStore,
  event: HookEvent,
  text: string,
  input: HookInput,
  ev: SessionEvent,
  config: HookConfig,
  log: (message: string) => void,
): Promise<"recorded" | "spilled"> {
  try {
    const spilled = await applySpilledEvents(store, store.location, ev.sessionId, config.baseServers);
    for (const problem of spilled.failed) log(`a spilled event could not be applied: ${problem}`);
    const ctx: ToolContext = { baseServers: config.baseServers, baseTools: await cachedBaseTools(store) };
    // Before the event: a prompt may start the next span, and /tooldistill:distill reads the span's calls.
    if (RECONCILED.includes(event)) await reconcile(store, input, ev.sessionId, ctx, log);
    await store.transaction((tx) => applySessionEvent(tx, ev, ctx));
    return "recorded";
  } catch (err) {
    if (!(err instanceof DistillError && err.code === "STORE_BUSY")) throw err;
    // Locked past the short timeout: the event waits in the session's spill file, after any earlier ones.
    spillEvent(store.location, ev.sessionId, event, text);
    log(
      `the store was locked by another process for ${HOOK_BUSY_TIMEOUT_MS} ms: the event was spilled to spill/ and is applied by the next hook or the td server`,
    );
    return "spilled";
  }
}

/** What the event prints, and SessionEnd's fallback distiller; reads only, so it works while the store is locked. */
async function respond(
  event: HookEvent,
  input: HookInput,
  ev: SessionEvent,
  config: HookConfig,
  store: RegistryStore,
  rt: HookRuntime,
): Promise<HookOutput | null> {
  if (event === "UserPromptSubmit" && ev.type === "confirm") {
    // Read, never written here: when the event was spilled the store is locked.
    const traceId = spanTraceId(ev.sessionId, (await store.findSessionSpan(ev.sessionId))?.span ?? 1);
    const notes = (input.prompt ?? "").trim().replace(/^\/tooldistill:distill/, "");
    const additionalContext = await distillContext(store, traceId, notes);
    return { hookSpecificOutput: { hookEventName: event, additionalContext } };
  }
  if (event === "SessionEnd") {
    const span = await store.findSessionSpan(ev.sessionId);
    if (!span) return null;
    const traceId = spanTraceId(ev.sessionId, span.span);
    const wanted =
      config.settings.fallbackDistiller &&
      Boolean(rt.env["ANTHROPIC_API_KEY"]) &&
      (await worthDistilling(store, traceId, config.settings.minCallsToDistill));
    if (wanted) (rt.startFallback ?? startFallbackProcess)(config.path, traceId);
  }
  return null;
}

/**
 * What the event prints on a PostgreSQL store, whose rows the hook cannot read: `/tooldistill:distill` gets the
 * proposal request without the recorded list of calls (the model has them in its conversation). The fallback
 * distiller at SessionEnd is for SQLite stores only.
 */
function respondSpilled(event: HookEvent, input: HookInput, ev: SessionEvent): HookOutput | null {
  if (event !== "UserPromptSubmit" || ev.type !== "confirm") return null;
  const notes = (input.prompt ?? "").trim().replace(/^\/tooldistill:distill/, "");
  return { hookSpecificOutput: { hookEventName: event, additionalContext: spilledDistillContext(notes) } };
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

/** Appends a line to the store's hook log (bounded, rotated) and, for problems, to stderr; never throws. */
function logLine(logFile: string | null, event: HookEvent, message: string, toStderr: boolean): void {
  if (toStderr) process.stderr.write(`tooldistill ${event} hook: ${message.split("\n")[0]}\n`);
  if (logFile !== null) appendLog(logFile, `${new Date().toISOString()} ${event}: ${message}`);
}

/** The hook's stdin as an object, or why it is not one (Claude Code always sends one JSON object). */
function parseInput(text: string): { input: HookInput } | { problem: string } {
  if (text.trim() === "") {
    return {
      problem: "stdin was empty: Claude Code sends the event as JSON on stdin, so nothing was recorded",
    };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (isPlainObject(value)) return { input: value as HookInput };
    return { problem: `stdin is JSON but not an object (${text.slice(0, 80)}), so nothing was recorded` };
  } catch (err) {
    const head = oneLine(text, 200);
    return {
      problem: `stdin is not JSON (${errorMessage(err)}), so nothing was recorded; it began: ${head}`,
    };
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
    const parsed = parseInput(text);
    const projectDir =
      rt.env["CLAUDE_PROJECT_DIR"] || ("input" in parsed ? parsed.input.cwd : undefined) || process.cwd();
    logFile = join(projectDir, ".tooldistill", "hooks.log");
    const configPath = findConfig(projectDir);
    if (configPath === null) {
      if (!("input" in parsed)) logLine(null, event, parsed.problem, true);
      return event === "SessionStart" ? { systemMessage: setupHint(projectDir) } : null;
    }
    const config = await hookConfig(configPath, rt.env, (message) => logLine(logFile, event, message, true));
    // A PostgreSQL store has no folder: the log and the spill files stay in the project's .tooldistill/.
    const local = localFolder(config.store, dirname(config.path));
    logFile = join(local, "hooks.log");
    if (!("input" in parsed)) {
      logLine(logFile, event, parsed.problem, true);
      return null;
    }
    const ev = sessionEvent(event, parsed.input);
    const file = logFile;
    const log = (message: string) => logLine(file, event, message, false);
    if (isPostgresUrl(config.store)) {
      // Never a connection from a hook: the td server, connected anyway, applies the file (core/store/spill.ts).
      if (ev.type !== "none") spillEvent(local, ev.sessionId, event, text);
      return respondSpilled(event, parsed.input, ev);
    }
    let store: RegistryStore;
    try {
      store = SqliteRegistryStore.open(config.store, {
        busyTimeoutMs: HOOK_BUSY_TIMEOUT_MS,
        maxOutputBytes: config.settings.maxOutputBytes,
        checkInvariants: false,
      });
    } catch (err) {
      // Locked while it needed a write to open (a schema upgrade): the event waits in the spill file all the same.
      if (!(err instanceof DistillError && err.code === "STORE_BUSY")) throw err;
      spillEvent(config.store, ev.sessionId, event, text);
      log(`the store was locked by another process while opening it: the event was spilled to spill/`);
      return null;
    }
    try {
      await record(store, event, text, parsed.input, ev, config, log);
      return await respond(event, parsed.input, ev, config, store, rt);
    } finally {
      await store.close();
    }
  } catch (err) {
    // An expected problem (a config error, a damaged store) is its message; anything else keeps its stack for a report.
    const detail =
      err instanceof DistillError
        ? err.message
        : err instanceof Error
          ? (err.stack ?? err.message)
          : String(err);
    logLine(logFile, event, detail, true);
    return null;
  }
}

/** The hook entry points' main: stdin → handleHookInput → stdout, exit code 0. */
export async function runHook(event: HookEvent): Promise<void> {
  let text = "";
  try {
    text = readFileSync(0, "utf8");
  } catch (err) {
    logLine(null, event, `cannot read stdin: ${errorMessage(err)}`, true);
  }
  const output = await handleHookInput(event, text, { env: process.env });
  if (output) process.stdout.write(`${JSON.stringify(output)}\n`);
}
