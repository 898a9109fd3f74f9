/**
 * The library's entry point, `ToolDistill`: records runs, runs distilled tools, ingests and verifies proposals, and
 * keeps distilled tools in step with their base tools. It builds the one context the operations share and hands
 * each verb to its module; every CLI verb is a thin call of one of its methods.
 */
import { randomUUID } from "node:crypto";
import { dirname } from "node:path";
import { type Config, loadConfig } from "./config.ts";
import type { DistillContext } from "./context.ts";
import { runExposed } from "./distilled-run.ts";
import { type Distiller, PROPOSE_INPUT_SCHEMA } from "./distiller.ts";
import { fallbackDistill, rebuild } from "./distilling.ts";
import { DistillError, errorMessage } from "./errors.ts";
import { stderrLogger } from "./logger.ts";
import { importRef } from "./module-ref.ts";
import { PROPOSE_TOOL_NAME } from "./prompts.ts";
import { handleProposal } from "./proposal.ts";
import { Sandbox } from "./sandbox.ts";
import { type Settings, settingsFromOptions } from "./settings.ts";
import { Store, type VersionRecord } from "./store.ts";
import {
  type ChangeReport,
  compareSchemas,
  type HealthReport,
  health,
  onToolUpdated,
} from "./tool-changes.ts";
import { Trace, type TraceHost } from "./trace.ts";
import type { Executor, HealthProbe, Logger, ToolDef, ToolInput, TraceSource, Verdict } from "./types.ts";
import {
  deprecate,
  exposedVersions,
  promote,
  resolveVersion,
  toolDefinition,
  unavailableReason,
  verifyVersion,
} from "./versions.ts";

/** Options of `new ToolDistill(...)`: the config file's keys in camelCase, plus the objects themselves. */
export interface ToolDistillOptions extends Partial<Settings> {
  /** The store folder (`.tooldistill`). */
  store: string;
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
function toolDef(t: ToolInput): ToolDef {
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

function _checkSettings(s: Settings): void {
  const problems: string[] = [];
  if (!(s.minCallReduction > 0 && s.minCallReduction < 1))
    problems.push(`minCallReduction must be between 0 and 1, exclusive (got ${s.minCallReduction})`);
  if (!Number.isInteger(s.minCallsToDistill) || s.minCallsToDistill < 1)
    problems.push(`minCallsToDistill must be an integer ≥ 1 (got ${s.minCallsToDistill})`);
  if (!Number.isInteger(s.maxExposedTools) || s.maxExposedTools < 0)
    problems.push(`maxExposedTools must be an integer ≥ 0 (got ${s.maxExposedTools})`);
  if (!Number.isInteger(s.maxOutputBytes) || s.maxOutputBytes < 1024)
    problems.push(`maxOutputBytes must be an integer ≥ 1024 (got ${s.maxOutputBytes})`);
  if (problems.length)
    throw new DistillError("CONFIG_INVALID", `ToolDistill options: ${problems.join("; ")}`);
}

/**
 * The library's entry point: records runs, runs distilled tools, ingests and verifies proposals, and keeps
 * distilled tools in step with their base tools. Every CLI verb is a thin call of one of its methods.
 */
export class ToolDistill {
  readonly store: Store;
  readonly settings: Settings;
  readonly logger: Logger;
  readonly executor: Executor | null;
  readonly healthProbe: HealthProbe | null;
  #tools: ToolDef[];
  #byName: Map<string, ToolDef>;
  #distiller: Distiller | null;
  #sandbox: Sandbox | null;
  readonly #ownsSandbox: boolean;
  readonly #onClose: (() => Promise<void> | void) | undefined;
  /** The context every operation shares, built once. */
  readonly #ctx: DistillContext;
  /** The traces' way back in: the operations the recorder must not import itself. */
  readonly #host: TraceHost;
  /**
   * What the start-up schema comparison (`check_schemas_on_start`) found: every version it made suspect, and why.
   * Null when the comparison did not run. Each change is also warned on the logger.
   */
  readonly startupReport: ChangeReport | null;

  constructor(options: ToolDistillOptions) {
    // The same schemas as the file's keys: a wrong option gets the message a wrong line of the file gets.
    const settings = settingsFromOptions(options);
    this.settings = settings;
    this.logger = options.logger ?? stderrLogger;
    this.executor = options.executor ?? null;
    this.healthProbe = options.healthProbe ?? null;
    this.#tools = (options.tools ?? []).map(toolDef);
    this.#byName = new Map(this.#tools.map((t) => [t.name, t]));
    this.#distiller = options.distiller ?? null;
    this.#sandbox = options.sandbox ?? null;
    this.#ownsSandbox = !options.sandbox;
    this.#onClose = options.onClose;
    this.store = new Store(options.store, { maxOutputBytes: settings.maxOutputBytes, logger: this.logger });
    this.#ctx = this.#makeContext(options.onExposureChange ?? (() => {}));
    this.#host = {
      ctx: this.#ctx,
      runDistilled: (trace, name, input, opts) => runExposed(this.#ctx, trace, name, input, opts),
      propose: (trace, input, opts) => handleProposal(this.#ctx, trace.id, input, opts),
      unavailableReason: (name) => unavailableReason(this.store, name, this.settings.maxExposedTools),
      fallbackDistill: (trace) => fallbackDistill(this.#ctx, trace.id),
    };
    this.startupReport = settings.checkSchemasOnStart && options.tools ? compareSchemas(this.#ctx) : null;
    for (const c of this.startupReport?.changes ?? []) {
      this.logger.warn(
        `tooldistill: at start-up, ${c.name} v${c.version} became ${c.to} [${c.problems.join(", ")}]: ${c.reason}; ` +
          `tooldistill verify ${c.name} --version ${c.version} re-checks it against the current tools`,
      );
    }
  }

  /** Builds a ToolDistill from `tooldistill.yaml` (default: the one in the current folder). */
  static async fromConfig(path?: string, overrides: Partial<ToolDistillOptions> = {}): Promise<ToolDistill> {
    const config = await loadConfig(path);
    return ToolDistill.fromLoadedConfig(config, overrides);
  }

  /**
   * Like `fromConfig`, for a config already loaded. `startup` reaches the MCP servers' start: `signal` stops it
   * (servers still starting are killed and this rejects), `onSpawn` hears each stdio server's pid.
   */
  static async fromLoadedConfig(
    config: Config,
    overrides: Partial<ToolDistillOptions> = {},
    startup: { signal?: AbortSignal; onSpawn?: (pid: number) => void } = {},
  ): Promise<ToolDistill> {
    const options: ToolDistillOptions = { ...config.settings, store: config.store };
    if (config.executor) options.executor = await importRef<Executor>(config.executor);
    if (config.tools) options.tools = await importRef<ToolInput[]>(config.tools);
    if (config.healthProbe) options.healthProbe = await importRef<HealthProbe>(config.healthProbe);
    if (config.distiller) options.distiller = await importRef<Distiller>(config.distiller);
    if (!config.executor && (config.mcpConfig || Object.keys(config.mcpServers).length > 0)) {
      const { MCPToolkit } = await import("./mcp-toolkit.ts");
      const { loadMcpServers } = await import("./mcp-config.ts");
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
    return new ToolDistill({ ...options, ...overrides });
  }

  /**
   * Starts recording a run of `task`. A store that cannot be written is warned, not thrown: the agent runs on,
   * unrecorded.
   */
  startTrace(task: string, options: { id?: string; source?: TraceSource } = {}): Trace {
    const id = options.id ?? randomUUID();
    try {
      this.store.createTrace(id, task, options.source ?? "sdk");
    } catch (err) {
      this.logger.warn(`tooldistill: the run '${task}' is not recorded: ${errorMessage(err)}`);
    }
    return new Trace(this.#host, id, task);
  }

  /** Re-attaches to a stored trace (e.g. a Claude Code span recorded by another process). */
  openTrace(id: string): Trace {
    const t = this.store.getTrace(id);
    if (!t) throw new DistillError("NOT_FOUND", `no trace '${id}': see tooldistill traces list`);
    return new Trace(this.#host, id, t.task);
  }

  /** The exposed distilled tools in Anthropic format, by successful runs, capped by `max_exposed_tools`. */
  activeTools(): ToolDef[] {
    return exposedVersions(this.store, this.settings.maxExposedTools).map(toolDefinition);
  }

  /** The `propose_distilled_tool` definition to offer next to the base tools. */
  proposeTool(): ToolDef {
    return proposeToolDefinition();
  }

  /** Current base tools. */
  tools(): readonly ToolDef[] {
    return this.#tools;
  }

  /** Replaces the base tool list (e.g. after an MCP server re-listed its tools). */
  setTools(tools: readonly ToolInput[]): void {
    this.#tools = tools.map(toolDef);
    this.#byName = new Map(this.#tools.map((t) => [t.name, t]));
  }

  // ---- lifecycle verbs --------------------------------------------------------------------------

  /** Activates a version (default: the newest verified); a deprecated one re-passes verification first. */
  async promote(name: string, options: { version?: number } = {}): Promise<VersionRecord> {
    return promote(this.#ctx, name, options);
  }

  /** Deprecates a version (default: the active one). */
  deprecate(name: string, options: { version?: number } = {}): VersionRecord {
    return deprecate(this.#ctx, name, options);
  }

  /** Re-runs the three checks (default: the active version); `live` runs every call against the executor. */
  async verify(name: string, options: { version?: number; live?: boolean } = {}): Promise<Verdict> {
    const v = resolveVersion(this.store, name, options.version, "active");
    if (options.live && !this.executor) {
      throw new DistillError(
        "EXECUTOR",
        "verify --live needs the executor: set executor/tools or mcp_config in tooldistill.yaml",
      );
    }
    return verifyVersion(this.#ctx, v, { live: options.live ?? false });
  }

  /** Reacts to a changed or recovered base tool: re-verifies dependents, queues rebuilds for avoiders. */
  async onToolUpdated(name: string): Promise<ChangeReport> {
    return onToolUpdated(this.#ctx, name);
  }

  /** Compares the current tools with the stored dependencies and, with a probe, looks for recoveries. */
  async health(options: { probe?: boolean } = {}): Promise<HealthReport> {
    return health(this.#ctx, { probe: options.probe ?? true });
  }

  /** Asks the distiller for a better version of a tool whose avoided base tool recovered. */
  async rebuild(name: string): Promise<Verdict> {
    return rebuild(this.#ctx, name);
  }

  /** Closes the store, the sandbox pool and anything `fromConfig` opened. */
  async close(): Promise<void> {
    try {
      await this.#onClose?.();
    } finally {
      if (this.#ownsSandbox) await this.#sandbox?.close();
      this.store.close();
    }
  }

  // ---- internals --------------------------------------------------------------------------------

  #getSandbox(): Sandbox {
    this.#sandbox ??= new Sandbox();
    return this.#sandbox;
  }

  async #getDistiller(): Promise<Distiller> {
    if (!this.#distiller) {
      const { ClaudeDistiller } = await import("./claude-distiller.ts");
      this.#distiller = new ClaudeDistiller({ model: this.settings.distillerModel, logger: this.logger });
    }
    return this.#distiller;
  }

  #makeContext(exposureChanged: () => void): DistillContext {
    const self = this;
    return {
      store: this.store,
      settings: this.settings,
      logger: this.logger,
      executor: this.executor,
      healthProbe: this.healthProbe,
      get sandbox() {
        return self.#getSandbox();
      },
      tools: () => this.#tools,
      baseTool: (name) => this.#byName.get(name),
      distiller: () => this.#getDistiller(),
      exposureChanged,
    };
  }
}
