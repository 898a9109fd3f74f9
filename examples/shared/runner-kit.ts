/**
 * What both example runners share around their agent loop: choosing the model (real, or the scripted one on
 * 127.0.0.1), the agent loop, the switch file of the fake tools, and the numbers of a run, read back from the store.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import type { RegistryData, RegistryStore, ToolDistill } from "../../core/index.ts";
import { type ScriptPolicy, startScriptedModel } from "./scripted-model.ts";

/** The repository root (where `.env` may hold ANTHROPIC_API_KEY). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Set (to anything) to make runners and example distillers use the scripted model whatever the environment. */
export const SCRIPTED_ENV = "TOOLDISTILL_SCRIPTED";

/** Overrides where an example keeps its switches (npm run demo and the tests point it into a temp folder). */
export const STATE_ENV = "TOOLDISTILL_DEMO_STATE";

/**
 * Loads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the repository's `.env` when the shell does not set them.
 * Only the runners do this; the CLI never reads `.env`.
 */
export function loadDotEnv(root = REPO_ROOT): void {
  const file = join(root, ".env");
  if (!existsSync(file)) return;
  const values = parseEnv(readFileSync(file, "utf8"));
  for (const key of ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"]) {
    const value = values[key];
    if (value && !process.env[key]) process.env[key] = value;
  }
}

/** The model a runner talks to. */
export interface ModelChoice {
  client: Anthropic;
  model: string;
  scripted: boolean;
  /** One line for people: which model, and why. */
  describe: string;
  close(): Promise<void>;
}

/**
 * A real model when ANTHROPIC_API_KEY is set and `--scripted` is not given, else the scripted model: a Messages
 * API server on 127.0.0.1 reached through `baseURL`, so everything after this call is the same code either way.
 */
export async function chooseModel(options: {
  scripted: boolean;
  model: string;
  policy: ScriptPolicy;
}): Promise<ModelChoice> {
  const forced = options.scripted || Boolean(process.env[SCRIPTED_ENV]);
  if (!forced && process.env["ANTHROPIC_API_KEY"]) {
    const client = new Anthropic({ maxRetries: 2 });
    return {
      client,
      model: options.model,
      scripted: false,
      describe: `${options.model} (real model${process.env["ANTHROPIC_BASE_URL"] ? ` at ${client.baseURL}` : ""})`,
      close: async () => {},
    };
  }
  const server = await startScriptedModel(options.policy);
  // The example's distiller (rebuilds, fallback) follows the runner into scripted mode.
  process.env[SCRIPTED_ENV] = "1";
  return {
    client: new Anthropic({ apiKey: "scripted", baseURL: server.url, maxRetries: 0 }),
    model: options.model,
    scripted: true,
    describe: `scripted model at ${server.url} (offline; ${forced ? "--scripted" : "no ANTHROPIC_API_KEY"})`,
    close: () => server.close(),
  };
}

/** The switch file of an example: `<example>/.switches.json`, or the file TOOLDISTILL_DEMO_STATE names. */
export function switchFile(exampleDir: string): string {
  return process.env[STATE_ENV] || join(exampleDir, ".switches.json");
}

/** Reads the switches; a missing or unreadable file means every switch is off. */
export function readSwitches<T extends Record<string, boolean>>(file: string, defaults: T): T {
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const out = { ...defaults };
    for (const key of Object.keys(defaults) as (keyof T)[]) {
      if (typeof stored[key as string] === "boolean") out[key] = stored[key as string] as T[keyof T];
    }
    return out;
  } catch {
    return { ...defaults };
  }
}

/** Writes every switch at once, so each copy of a fake server (runner, CLI, MCP server) sees the same world. */
export function writeSwitches(file: string, values: Record<string, boolean>): void {
  writeFileSync(file, `${JSON.stringify(values, null, 2)}\n`);
}

/** The numbers of one recorded run, read back from the store. */
export interface RunNumbers {
  traceId: string;
  outcome: boolean | null;
  topLevelBaseCalls: number;
  failedBaseCalls: number;
  distilledCalls: { tool: string; version: number | null; ok: boolean; innerCalls: number }[];
  innerCalls: number;
  proposals: number;
  tokens: number;
}

/** Reads a run's counts and tokens from the store (never from the runner's own counting). */
export async function runNumbers(store: RegistryData, traceId: string): Promise<RunNumbers> {
  const trace = await store.getTrace(traceId);
  const calls = await store.getCalls(traceId);
  const inner = (id: number) => calls.filter((c) => c.parentId === id && c.kind === "base").length;
  const u = trace?.usage;
  return {
    traceId,
    outcome: trace?.outcome ?? null,
    topLevelBaseCalls: await store.countTopLevelBaseCalls(traceId),
    failedBaseCalls: calls.filter((c) => c.kind === "base" && c.parentId === null && c.status === "error")
      .length,
    distilledCalls: calls
      .filter((c) => c.kind === "distilled")
      .map((c) => ({ tool: c.tool, version: c.version, ok: c.status === "ok", innerCalls: inner(c.id) })),
    innerCalls: calls.filter((c) => c.kind === "base" && c.parentId !== null).length,
    proposals: calls.filter((c) => c.kind === "proposal").length,
    tokens: u
      ? u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens
      : 0,
  };
}

/** One line per version, as `tooldistill list` shows them: `name v1 deprecated · v2 active (…)`. */
export async function versionLines(store: RegistryData): Promise<string[]> {
  const byName = new Map<string, string[]>();
  for (const v of await store.listVersions()) {
    const problems = v.problems.length ? ` (${v.problems.join(", ")})` : "";
    const queued = v.queuedRebuild ? " [queued for rebuild]" : "";
    const list = byName.get(v.name) ?? [];
    list.push(`v${v.version} ${v.status}${problems}${queued}`);
    byName.set(v.name, list);
  }
  return [...byName].map(([name, list]) => `${name}: ${list.join(" · ")}`);
}

/** The summary a runner prints after a run. */
export async function summaryLines(store: RegistryStore, traceId: string): Promise<string[]> {
  const n = await runNumbers(store, traceId);
  const distilled = n.distilledCalls
    .map((d) => `${d.tool} v${d.version} ${d.ok ? "ok" : "FAILED"} with ${d.innerCalls} inner calls`)
    .join("; ");
  const lines = [
    `outcome: ${n.outcome === null ? "not set" : n.outcome ? "success" : "failure"}`,
    `top-level base calls: ${n.topLevelBaseCalls} (${n.failedBaseCalls} failed)`,
    `distilled calls: ${n.distilledCalls.length}${distilled ? ` (${distilled})` : ""}`,
    `model tokens: ${n.tokens.toLocaleString("en-US")}`,
    ...(await versionLines(store)).map((l) => `version ${l}`),
  ];
  const note = (await store.getTrace(traceId))?.note;
  if (note) lines.push(`note: ${note}`);
  return lines;
}

/** Shortens a tool result for the console. */
export function clip(text: string, max = 110): string {
  const one = text.replace(/\s+/g, " ");
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/**
 * What the library's start-up review did (check_schemas_on_start): ToolDistill.fromConfig has already classified
 * each changed base tool definition and re-verified the versions it affects, so a broken one is deprecated, never
 * offered. The runner only prints it.
 */
export function printStartup(td: ToolDistill): void {
  for (const c of td.startupReport?.changes ?? []) {
    console.log(`start-up: ${c.name} v${c.version} ${c.from} → ${c.to} (${c.reason})`);
  }
}

/** The README's agent loop, printing each step for people. Returns the trace id. */
export async function runAgent(
  td: ToolDistill,
  client: Anthropic,
  run: { model: string; system: string; task: string; maxSteps: number; taskSucceeded: () => boolean },
): Promise<string> {
  const { model: modelName, system, task, maxSteps, taskSucceeded } = run;
  const trace = td.startTrace(task);
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: task }];
  const offered = td.activeTools().map((t) => t.name);
  console.log(`distilled tools offered: ${offered.length ? offered.join(", ") : "none"}`);
  console.log(`task: ${task}\n`);
  let finished = false;
  let n = 0;
  for (let step = 0; step < maxSteps; step++) {
    const tools = [...td.tools(), ...td.activeTools(), td.proposeTool()] as Anthropic.Tool[];
    const resp = await client.messages.create({
      model: modelName,
      max_tokens: 4096,
      system,
      tools,
      messages,
    });
    trace.recordUsage(resp.usage);
    messages.push({ role: "assistant", content: resp.content });
    for (const block of resp.content) {
      if (block.type === "text" && block.text.trim()) {
        for (const line of block.text.trim().split("\n")) console.log(`  model: ${line}`);
      }
    }
    if (resp.stop_reason !== "tool_use") {
      if (trace.outcome === null) trace.setOutcome({ success: taskSucceeded() });
      const nudge = trace.distillNudge();
      if (nudge) {
        console.log(
          `  tooldistill: the run is worth distilling (${trace.baseCallCount()} base calls): nudging the agent`,
        );
        messages.push({ role: "user", content: nudge });
        continue;
      }
      finished = true;
      break;
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of resp.content) {
      if (block.type !== "tool_use") continue;
      n++;
      const out = await trace.execute(block.name, block.input);
      const input =
        block.name === "propose_distilled_tool" ? "{ code, test_inputs }" : JSON.stringify(block.input);
      console.log(`  ${String(n).padStart(2)}. ${block.name} ${input}`);
      if (block.name === "propose_distilled_tool" || out.content.startsWith("Distilled tool '")) {
        for (const line of out.content.split("\n")) console.log(`      ${line}`);
      } else {
        console.log(`      ${out.isError ? "✗" : "→"} ${clip(out.content)}`);
      }
      results.push({
        type: "tool_result",
        tool_use_id: block.id,
        content: out.content,
        is_error: out.isError,
      });
    }
    messages.push({ role: "user", content: results });
  }
  if (!finished) trace.setOutcome({ success: false });
  await trace.finish();
  return trace.id;
}
