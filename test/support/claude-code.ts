/**
 * Running the real Claude Code binaries headless and offline, for the plugin's end-to-end tests: the releases the
 * plugin supports (the newest, the devDependency; the oldest, installed beside it as an npm alias), a clean
 * environment pointing at the fake Messages API, a stream-json session that feeds prompts one by one, and readers
 * of what the model was sent.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FakeAnthropic } from "../fakes/anthropic-server.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** One supported Claude Code release: its version and binary. */
export interface ClaudeRelease {
  label: "newest" | "oldest";
  version: string;
  bin: string;
  /** The release defers MCP tools behind ToolSearch (2.1.332 does; 2.1.197 loads every tool upfront). */
  defers: boolean;
}

function release(label: ClaudeRelease["label"], pkgDir: string): ClaudeRelease {
  const version = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version: string })
    .version;
  const [, minor = 0, patch = 0] = version.split(".").map(Number);
  return { label, version, bin: join(pkgDir, "bin", "claude.exe"), defers: minor > 1 || patch >= 332 };
}

/** The newest supported release (`@anthropic-ai/claude-code`) and the oldest (`claude-code-oldest`). */
export const CLAUDE_RELEASES: readonly ClaudeRelease[] = [
  release("newest", join(ROOT, "node_modules", "@anthropic-ai", "claude-code")),
  release("oldest", join(ROOT, "node_modules", "claude-code-oldest")),
];

/** The environment Claude Code runs in: no inherited CLAUDE or ANTHROPIC variables, the fake API, Node 24 first on PATH. */
export function claudeEnv(
  home: string,
  api: FakeAnthropic,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(CLAUDE|ANTHROPIC)/.test(k) || k.startsWith("NODE_TEST") || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return {
    ...env,
    HOME: home,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-ant-fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}),
    ...extra,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: stream-json events and API bodies are arbitrary JSON
export type Json = any;

/**
 * One headless session: the prompts go in one by one on stdin (stream-json), each after the previous result.
 * `onResult(n)` runs after the n-th result, before the next prompt (a test changes the world between turns).
 */
export function session(
  bin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  prompts: string[],
  options: { timeoutMs?: number; args?: string[]; onResult?: (n: number) => void } = {},
): Promise<Json[]> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(
      bin,
      [
        "-p",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--verbose",
        "--include-hook-events",
        "--dangerously-skip-permissions",
        ...(options.args ?? []),
      ],
      { cwd, env, stdio: ["pipe", "pipe", "pipe"] },
    );
    const events: Json[] = [];
    let buffer = "";
    let stderr = "";
    let next = 0;
    const send = () => {
      const prompt = prompts[next++];
      if (prompt === undefined) {
        child.stdin.end();
        return;
      }
      child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n`);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `claude timed out after ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}; last events: ${JSON.stringify(events.slice(-5))}`,
        ),
      );
    }, timeoutMs);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf("\n");
        if (!line) continue;
        const event = JSON.parse(line) as Json;
        events.push(event);
        if (event.type === "result") {
          options.onResult?.(next);
          send();
        }
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`claude exited ${code}; stderr: ${stderr.slice(-2000)}`));
      else resolve(events);
    });
    send();
  });
}

/** Runs a non-interactive `claude` command and returns its stdout; fails the test on a non-zero exit. */
export function claude(bin: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): string {
  const r = spawnSync(bin, args, { cwd, env, encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, `claude ${args.join(" ")}: ${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The names in a request's `tools` (loaded or deferred alike). */
export function offered(body: Json): string[] {
  return ((body?.tools ?? []) as Json[]).map((t) => t.name as string);
}

/** The names in a request's `tools` whose schemas the model sees without searching (no `defer_loading`). */
export function upfront(body: Json): string[] {
  return ((body?.tools ?? []) as Json[]).filter((t) => t.defer_loading !== true).map((t) => t.name as string);
}

/** The last user turn of a request: its text and its tool results. */
export function lastUser(body: Json): {
  text: string;
  toolResults: Array<{ id: string; isError: boolean; text: string }>;
} {
  const messages: Json[] = body?.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  const content =
    typeof last?.content === "string" ? [{ type: "text", text: last.content }] : (last?.content ?? []);
  const toolResults = content
    .filter((b: Json) => b.type === "tool_result")
    .map((b: Json) => ({
      id: b.tool_use_id as string,
      isError: b.is_error === true,
      text:
        typeof b.content === "string" ? b.content : (b.content ?? []).map((c: Json) => c.text ?? "").join(""),
    }));
  const text = content
    .filter((b: Json) => b.type === "text")
    .map((b: Json) => b.text as string)
    .join("\n");
  return { text, toolResults };
}

/** The requests whose last user turn carries the result of `toolUseId`. */
export function requestsAfterResult(api: FakeAnthropic, toolUseId: string): Json[] {
  return api.received
    .filter((r) => lastUser(r.body).toolResults.some((t) => t.id === toolUseId))
    .map((r) => r.body);
}

/** The result the model got for `toolUseId`. */
export function resultOf(
  api: FakeAnthropic,
  toolUseId: string,
): { id: string; isError: boolean; text: string } | undefined {
  const [body] = requestsAfterResult(api, toolUseId);
  return body === undefined ? undefined : lastUser(body).toolResults.find((x) => x.id === toolUseId);
}

/** The tool_use names the model sent over the whole log (the fake's replies, read back from later requests). */
export function toolUsesSent(api: FakeAnthropic): string[] {
  const seen = new Map<string, string>();
  for (const r of api.received)
    for (const m of r.body?.messages ?? [])
      if (m.role === "assistant" && Array.isArray(m.content))
        for (const b of m.content) if (b.type === "tool_use") seen.set(b.id, b.name);
  return [...seen.values()];
}
