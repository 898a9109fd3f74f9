import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadMcpServers
} from "./chunk-AO7663KD.js";
import {
  DISTILL_COMMAND,
  Store,
  cachedBaseTools,
  confirmSpan,
  currentSpan,
  distillContext,
  findConfig,
  isDistillPrompt,
  loadConfig,
  recordToolEnd,
  recordToolStart,
  userPrompt,
  worthDistilling
} from "./chunk-X6SEQEUN.js";
import "./chunk-S7G3FP4S.js";
import "./chunk-N3CXI2OZ.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// hooks/run.ts
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
function setupHint(projectDir) {
  return `tooldistill: no tooldistill.yaml in ${projectDir}, so this session is not recorded. To distil this project's MCP tools, add a tooldistill.yaml with \`mcp_config: .mcp.json\` (or run \`npx tooldistill init\` and set mcp_config), then start a new session.`;
}
async function baseServers(config, env) {
  try {
    return Object.keys(
      await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers, env })
    );
  } catch (err) {
    if (config.mcpConfig === null) throw err;
    const raw = JSON.parse(readFileSync(config.mcpConfig, "utf8"));
    return [.../* @__PURE__ */ new Set([...Object.keys(raw.mcpServers ?? {}), ...Object.keys(config.mcpServers)])];
  }
}
function toolContext(store, servers) {
  return { baseServers: servers, baseTools: cachedBaseTools(store) };
}
function need(value, field) {
  if (value === void 0) throw new Error(`the hook input has no ${field}`);
  return value;
}
async function handle(event, input, config, store, rt) {
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
          additionalContext: distillContext(store, cur.traceId, notes)
        }
      };
    }
    case "UserPromptExpansion":
      if (input.command_name === DISTILL_COMMAND) confirmSpan(store, sessionId);
      return null;
    case "PreToolUse":
      recordToolStart(
        store,
        {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id")
        },
        toolContext(store, await baseServers(config, rt.env))
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
          outcome: event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" }
        },
        toolContext(store, await baseServers(config, rt.env))
      );
      return null;
    case "SessionEnd": {
      const span = store.findSessionSpan(sessionId);
      if (!span) return null;
      const cur = currentSpan(store, sessionId);
      store.endTrace(cur.traceId);
      const wanted = config.settings.fallbackDistiller && Boolean(rt.env["ANTHROPIC_API_KEY"]) && worthDistilling(store, cur.traceId, config.settings.minCallsToDistill);
      if (wanted && config.path) (rt.startFallback ?? startFallbackProcess)(config.path, cur.traceId);
      return null;
    }
  }
}
function startFallbackProcess(configPath, traceId) {
  const entry = process.argv[1] ?? "";
  const script = join(dirname(entry), `fallback${extname(entry) || ".js"}`);
  const child = spawn(process.execPath, [script, configPath, traceId], { detached: true, stdio: "ignore" });
  child.unref();
}
function logError(logFile, event, err) {
  const detail = err instanceof Error ? err.stack ?? err.message : String(err);
  const line = `${(/* @__PURE__ */ new Date()).toISOString()} ${event}: ${detail}
`;
  process.stderr.write(`tooldistill ${event} hook: ${err instanceof Error ? err.message : String(err)}
`);
  if (logFile === null) return;
  try {
    mkdirSync(dirname(logFile), { recursive: true });
    appendFileSync(logFile, line);
  } catch {
  }
}
async function handleHookInput(event, text, rt) {
  let logFile = null;
  try {
    const input = JSON.parse(text);
    const projectDir = rt.env["CLAUDE_PROJECT_DIR"] || input.cwd || process.cwd();
    logFile = join(projectDir, ".tooldistill", "hooks.log");
    const configPath = findConfig(projectDir);
    if (configPath === null)
      return event === "SessionStart" ? { systemMessage: setupHint(projectDir) } : null;
    const config = await loadConfig(configPath);
    logFile = join(config.store, "hooks.log");
    const store = new Store(config.store);
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
async function runHook(event) {
  let text = "";
  try {
    text = readFileSync(0, "utf8");
  } catch (err) {
    logError(null, event, err);
  }
  const output = await handleHookInput(event, text, { env: process.env });
  if (output) process.stdout.write(`${JSON.stringify(output)}
`);
}
export {
  handleHookInput,
  runHook,
  setupHint
};
