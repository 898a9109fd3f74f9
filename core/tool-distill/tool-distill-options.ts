/**
 * What a ToolDistill is made from: its options, the base tool definitions as the library keeps them, and the
 * options a loaded tooldistill.yaml gives (its modules imported, its MCP servers connected).
 */
import { dirname } from "node:path";
import type { Config } from "../config/config.ts";
import { importRef } from "../config/module-ref.ts";
import type { Settings } from "../config/settings.ts";
import { type Distiller, PROPOSE_INPUT_SCHEMA } from "../distill/distiller.ts";
import { PROPOSE_TOOL_NAME } from "../distill/prompts.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { RegistryStore } from "../store/registry-store.ts";
import type { Executor, HealthProbe, Logger, ToolDef, ToolInput } from "../types.ts";

/** Options of `new ToolDistill(...)`: the config file's keys in camelCase, plus the objects themselves. */
export interface ToolDistillOptions extends Partial<Settings> {
  /**
   * The registry: a folder (`.tooldistill`, the embedded SQLite store), a `postgres://` URL (only through
   * `ToolDistill.open` or `fromConfig`, which can wait for the connection), or a RegistryStore already open, which
   * the ToolDistill then owns (its `close()` closes it).
   */
  store: string | RegistryStore;
  /** Runs a base tool; required to record runs and run distilled tools. */
  executor?: Executor;
  /** Anthropic-format base tool definitions (`Anthropic.Tool[]` as you pass them to the Messages API). */
  tools?: ToolInput[];
  /** Says whether an avoided tool has recovered; used only by `health()`. */
  healthProbe?: HealthProbe;
  /** A custom distiller; by default ClaudeDistiller with `distillerModel`. */
  distiller?: Distiller;
  /**
   * Where warnings and errors go: start-up changes of `check_schemas_on_start`, fallback distiller failures,
   * store problems met while recording. Default: stderr (`stderrLogger`); `silentLogger` drops them.
   */
  logger?: Logger;
  /** Share a sandbox pool between instances (e.g. tests); by default one is made on first use. */
  sandbox?: Sandbox;
  /** Hears every change of the set `activeTools()` returns (the plugin announces it to Claude Code). */
  onExposureChange?: () => void;
  /** Releases what `fromConfig` opened (e.g. MCP connections) on `close()`. */
  onClose?: () => Promise<void> | void;
}

/** A caller's tool as the library keeps it: a missing description is "" (the Anthropic SDK makes it optional). */
export function toolDef(t: ToolInput): ToolDef {
  const def: ToolDef = { name: t.name, description: t.description ?? "", input_schema: t.input_schema };
  if (t.annotations !== undefined) def.annotations = t.annotations;
  return def;
}

/** The `propose_distilled_tool` definition (the same for every ToolDistill). */
export function proposeToolDefinition(): ToolDef {
  return {
    name: PROPOSE_TOOL_NAME,
    description:
      "Propose a distilled tool: a TypeScript module that calls the base tools in a fixed, known-good sequence, " +
      "so the next run of this kind of task needs one call. The library checks the code statically, replays it " +
      "against the responses recorded in this run, and checks it uses fewer base calls; the verdict says what to fix.",
    input_schema: PROPOSE_INPUT_SCHEMA,
  };
}

/**
 * The options a loaded config gives, before `overrides`. `startup` reaches the MCP servers' start: `signal` stops
 * it, `onSpawn` hears each stdio server's pid; the options' `onClose` stops the servers it started.
 */
export async function optionsFromConfig(
  config: Config,
  overrides: Partial<ToolDistillOptions>,
  startup: { signal?: AbortSignal; onSpawn?: (pid: number) => void },
): Promise<ToolDistillOptions> {
  const options: ToolDistillOptions = { ...config.settings, store: config.store };
  if (config.executor) options.executor = await importRef<Executor>(config.executor);
  if (config.tools) options.tools = await importRef<ToolInput[]>(config.tools);
  if (config.healthProbe) options.healthProbe = await importRef<HealthProbe>(config.healthProbe);
  if (config.distiller) options.distiller = await importRef<Distiller>(config.distiller);
  if (!config.executor && (config.mcpConfig || Object.keys(config.mcpServers).length > 0)) {
    const { MCPToolkit } = await import("../mcp/mcp-toolkit.ts");
    const { loadMcpServers } = await import("../mcp/mcp-config.ts");
    const servers = await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers });
    const toolkit = await MCPToolkit.connect({
      servers,
      cwd: config.path ? dirname(config.path) : config.dir,
      ...(overrides.logger ? { logger: overrides.logger } : {}),
      ...(startup.signal ? { signal: startup.signal } : {}),
      ...(startup.onSpawn ? { onSpawn: startup.onSpawn } : {}),
    });
    options.executor = toolkit.executor;
    options.tools = toolkit.tools;
    options.healthProbe ??= toolkit.probe;
    options.onClose = () => toolkit.close(startup.signal?.aborted ? { graceMs: 200 } : {});
  }
  return options;
}
