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
import { exposedVersions, toolDefinition, unavailableReason } from "./exposure.ts";
import { assertNoRefusedWrites, type LivePlan, LivePolicy, planLive } from "./live-plan.ts";
import { stderrLogger } from "./logger.ts";
import { importRef } from "./module-ref.ts";
import { PROPOSE_TOOL_NAME } from "./prompts.ts";
import { handleProposal } from "./proposal.ts";
import { Sandbox } from "./sandbox.ts";
import { type Settings, settingsFromOptions } from "./settings.ts";
import type { PrunedVersion } from "./store.ts";
import { Store, type VersionRecord } from "./store.ts";
import {
  type ChangeReport,
  type HealthReport,
  health,
  onToolUpdated,
  reverify,
  reviewDefinitions,
} from "./tool-changes.ts";
import { Trace, type TraceHost } from "./trace.ts";
import type { Executor, HealthProbe, Logger, ToolDef, ToolInput, TraceSource, Verdict } from "./types.ts";
import { deprecate, promote, prune, resolveVersion, verifyVersion } from "./versions.ts";

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
   * What the start-up review of base tool definitions (`check_schemas_on_start`) found and did, per version: a
   * cosmetic change (nothing to do), a compatible or breaking one (re-verified), a tool that is gone. Complete once
   * `ready()` resolves (re-verification is asynchronous); null when the review did not run. Each entry is also
   * logged when its re-verification ends.
   */
  readonly startupReport: ChangeReport | null;
  /** The start-up re-verifications; never rejects. */
  readonly #ready: Promise<void>;

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
      // A call waits for the start-up re-verification, which may still change what is exposed.
      ready: () => this.#ready,
      runDistilled: (trace, name, input, opts) => runExposed(this.#ctx, trace, name, input, opts),
      propose: (trace, input, opts) => handleProposal(this.#ctx, trace.id, input, opts),
      unavailableReason: (name) => unavailableReason(this.store, name, this.settings.maxExposedTools),
      fallbackDistill: (trace) => fallbackDistill(this.#ctx, trace.id),
    };
    const review = settings.checkSchemasOnStart && options.tools ? reviewDefinitions(this.#ctx) : null;
    this.startupReport = review?.report ?? null;
    // The constructor is synchronous: versions a breaking change or a gone tool affects are suspect (not offered)
    // before it returns; their re-verification runs now and ready() (awaited by fromConfig) waits for it.
    this.#ready = review
      ? reverify(this.#ctx, review.jobs).then(() => {
          for (const c of review.report.changes) {
            const change = c.from === c.to ? `stays ${c.to}` : `${c.from} → ${c.to}`;
            this.logger.warn(`tooldistill: at start-up, ${c.name} v${c.version} ${change}: ${c.reason}`);
          }
        })
      : Promise.resolve();
  }

  /**
   * Resolves when the start-up review has finished re-verifying what changed, with its report (null when it did
   * not run). `fromConfig` awaits it; distilled tool calls and `close()` wait for it too.
   */
  async ready(): Promise<ChangeReport | null> {
    await this.#ready;
    return this.startupReport;
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
    const td = new ToolDistill({ ...options, ...overrides });
    await td.ready();
    return td;
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
    await this.#ready;
    return promote(this.#ctx, name, options);
  }

  /** Deprecates a version (default: the active one). */
  deprecate(name: string, options: { version?: number } = {}): VersionRecord {
    return deprecate(this.#ctx, name, options);
  }

  /**
   * Re-runs the three checks (default: the active version). `live` runs the calls of read-only base tools for real
   * and answers the calls of tools that may write from the source run's record; a write the record cannot answer
   * refuses the verification before anything runs, unless `allowWrites` lets it run for real.
   */
  async verify(
    name: string,
    options: { version?: number; live?: boolean; allowWrites?: boolean } = {},
  ): Promise<Verdict> {
    await this.#ready;
    const v = resolveVersion(this.store, name, options.version, "active");
    if (!options.live) return verifyVersion(this.#ctx, v);
    if (!this.executor) {
      throw new DistillError(
        "EXECUTOR",
        "verify --live needs the executor: set executor/tools or mcp_config in tooldistill.yaml",
      );
    }
    const allowWrites = options.allowWrites ?? false;
    assertNoRefusedWrites(await planLive(this.#ctx, v, { allowWrites }));
    const livePolicy = new LivePolicy(this.#ctx, { allowWrites, dryRun: false });
    return verifyVersion(this.#ctx, v, { live: true, livePolicy });
  }

  /** What `verify --live` would do, call by call (live, from the record, refused), without running anything. */
  async planLiveVerification(
    name: string,
    options: { version?: number; allowWrites?: boolean } = {},
  ): Promise<LivePlan> {
    await this.#ready;
    const v = resolveVersion(this.store, name, options.version, "active");
    return planLive(this.#ctx, v, { allowWrites: options.allowWrites ?? false });
  }

  /**
   * Removes rejected and superseded versions (only those whose status is older than `olderThanDays`, when given)
   * with their history and files; the traces they came from are kept. Needs only the store.
   */
  prune(options: { olderThanDays?: number } = {}): PrunedVersion[] {
    return prune(this.store, options);
  }

  /** Reacts to a changed or recovered base tool: re-verifies dependents, queues rebuilds for avoiders. */
  async onToolUpdated(name: string): Promise<ChangeReport> {
    await this.#ready;
    return onToolUpdated(this.#ctx, name);
  }

  /** Compares the current tools with the stored dependencies and, with a probe, looks for recoveries. */
  async health(options: { probe?: boolean } = {}): Promise<HealthReport> {
    await this.#ready;
    return health(this.#ctx, { probe: options.probe ?? true });
  }

  /** Asks the distiller for a better version of a tool whose avoided base tool recovered. */
  async rebuild(name: string): Promise<Verdict> {
    await this.#ready;
    return rebuild(this.#ctx, name);
  }

  /** Closes the store, the sandbox pool and anything `fromConfig` opened (after the start-up review ends). */
  async close(): Promise<void> {
    await this.#ready;
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
