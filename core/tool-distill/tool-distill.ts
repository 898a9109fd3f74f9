import { randomUUID } from "node:crypto";
import { fingerprintOnce } from "../base-tools/fingerprint.ts";
import { health, onToolUpdated } from "../base-tools/tool-changes.ts";
import type { ChangeReport, HealthReport } from "../base-tools/types.ts";
import { type Config, loadConfig } from "../config/config.ts";
import { type Settings, settingsFromOptions } from "../config/settings.ts";
import type { Distiller } from "../distill/distiller.ts";
import { rebuild } from "../distill/rebuild.ts";
import { DistillError, errorMessage } from "../errors.ts";
import { toolDefinition } from "../lifecycle/exposure.ts";
import { ExposureCache, type StartupLook, startupCandidates } from "../lifecycle/exposure-cache.ts";
import { resolveVersion } from "../lifecycle/version-lookup.ts";
import { deprecate, promote, prune, verifyVersion } from "../lifecycle/versions.ts";
import { buildReport, type Report, type ReportOptions } from "../report/report.ts";
import { Sandbox } from "../sandbox/sandbox.ts";
import type { PrunedVersion, VersionRecord } from "../store/records.ts";
import { openRegistryStore } from "../store/registry-open.ts";
import type { RegistryStore } from "../store/registry-store.ts";
import { SqliteRegistryStore } from "../store/sqlite/sqlite-registry-store.ts";
import { isPostgresUrl } from "../store/store-url.ts";
import { queueTraceWrite, Trace, type TraceHost } from "../trace/trace.ts";
import { loadTrace } from "../trace/trace-state.ts";
import type { Executor, HealthProbe, Logger, ToolDef, ToolInput, TraceSource, Verdict } from "../types.ts";
import { stderrLogger } from "../util/logger.ts";
import {
  type LiveOptions,
  type LivePlan,
  liveSetup,
  planLive,
  verifyLive,
} from "../verify/replay/live-plan.ts";
import type { DistillContext } from "./context.ts";
import type { DistilledOffer } from "./offer.ts";
import { startUp } from "./start-up.ts";
import {
  optionsFromConfig,
  proposeToolDefinition,
  type ToolDistillOptions,
  toolDef,
} from "./tool-distill-options.ts";
import { traceHost } from "./trace-host.ts";

export type { ToolDistillOptions } from "./tool-distill-options.ts";
export { proposeToolDefinition } from "./tool-distill-options.ts";

/**
 * The library's entry point: records runs, runs distilled tools, ingests and verifies proposals, and keeps
 * distilled tools in step with their base tools. Every CLI verb is a thin call of one of its methods.
 */
export class ToolDistill {
  /** The registry (SQLite or PostgreSQL): the library's async store interface. */
  readonly store: RegistryStore;
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
  /** What `activeTools()` serves. */
  readonly #exposure: ExposureCache;
  /**
   * What the start-up review of base tool definitions (`check_schemas_on_start`) found and did, per version: a
   * cosmetic change (nothing to do), a compatible or breaking one (re-verified), a tool that is gone. Complete once
   * `ready()` resolves (the review and re-verification run once the store is open); null when the review does not
   * run. Each entry is also logged when its re-verification ends.
   */
  readonly startupReport: ChangeReport | null;
  /** The start-up review and the change feed's start; never rejects. */
  readonly #ready: Promise<void>;

  /**
   * Opens the registry and starts. A folder store opens synchronously; a `postgres://` URL cannot: use
   * `await ToolDistill.open({...})` or `await ToolDistill.fromConfig()` for it.
   */
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
    if (typeof options.store === "string" && isPostgresUrl(options.store)) {
      throw new DistillError(
        "USAGE",
        "new ToolDistill({ store }) cannot open a postgres:// store: connecting takes time. Use `await ToolDistill.open({ store, ... })` (same options) or `await ToolDistill.fromConfig()`.",
      );
    }
    this.store =
      typeof options.store === "string"
        ? SqliteRegistryStore.open(options.store, {
            maxOutputBytes: settings.maxOutputBytes,
            logger: this.logger,
          })
        : options.store;
    this.#ctx = this.#makeContext();
    this.#exposure = new ExposureCache(
      this.store,
      settings.maxExposedTools,
      this.logger,
      options.onExposureChange ?? (() => {}),
    );
    // A call waits for the start-up re-verification, which may still change what is exposed.
    this.#host = traceHost(this.#ctx, this.#exposure, () => this.#ready);
    const review = settings.checkSchemasOnStart && options.tools !== undefined;
    this.startupReport = review ? { changes: [], messages: [] } : null;
    // The embedded store is read now, so `activeTools()` answers as soon as the constructor returns; versions a
    // breaking change or a gone base tool affects are left out until the review has re-verified them.
    // One hash per current definition for the whole start: the seed and the review read the same ones.
    const look: StartupLook = { fingerprintOf: fingerprintOnce() };
    if (this.store instanceof SqliteRegistryStore) {
      const store = this.store;
      this.#exposure.seed(
        startupCandidates((q) => store.readNow(q), review ? this.#ctx.baseTool : null, look),
      );
    }
    this.#ready = startUp({
      store: this.store,
      ctx: this.#ctx,
      exposure: this.#exposure,
      report: this.startupReport,
      logger: this.logger,
      look,
    });
  }

  /**
   * Opens the registry `options.store` names (a folder or a `postgres://` URL; see `new ToolDistill`) and waits
   * until the library is ready (the start-up review has ended).
   */
  static async open(options: ToolDistillOptions): Promise<ToolDistill> {
    if (typeof options.store !== "string") {
      const td = new ToolDistill(options);
      await td.ready();
      return td;
    }
    const settings = settingsFromOptions(options);
    const store = await openRegistryStore(options.store, {
      maxOutputBytes: settings.maxOutputBytes,
      poolSize: settings.storePoolSize,
      connectTimeoutMs: settings.storeConnectTimeoutMs,
      logger: options.logger ?? stderrLogger,
    });
    let td: ToolDistill;
    try {
      td = new ToolDistill({ ...options, store });
    } catch (err) {
      await store.close();
      throw err;
    }
    await td.ready();
    return td;
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
    const options = await optionsFromConfig(config, overrides, startup);
    try {
      return await ToolDistill.open({ ...options, ...overrides });
    } catch (err) {
      await options.onClose?.();
      throw err;
    }
  }

  /**
   * Starts recording a run of `task`. A store that cannot be written is warned, not thrown: the agent runs on,
   * unrecorded.
   */
  startTrace(task: string, options: { id?: string; source?: TraceSource } = {}): Trace {
    const id = options.id ?? randomUUID();
    const trace = new Trace(this.#host, id, task);
    // The row is written first in the trace's write queue; everything the trace does next waits for it.
    const source = options.source ?? "sdk";
    queueTraceWrite(
      trace,
      () => this.store.createTrace(id, task, source),
      (err) => this.logger.warn(`tooldistill: the run '${task}' is not recorded: ${errorMessage(err)}`),
    );
    return trace;
  }

  /** Re-attaches to a stored trace (e.g. a Claude Code span recorded by another process), reading its state. */
  async openTrace(id: string): Promise<Trace> {
    const t = await loadTrace(this.#ctx, id);
    if (!t) throw new DistillError("NOT_FOUND", `no trace '${id}': see tooldistill traces list`);
    return new Trace(this.#host, id, t.task, t.state);
  }

  /**
   * The exposed distilled tools in Anthropic format, by successful runs, capped by `max_exposed_tools`. Served
   * from memory: kept in step with this process's changes and, through the store's change feed, with every other
   * process's.
   */
  activeTools(): ToolDef[] {
    return this.#exposure.versions().map(toolDefinition);
  }

  /** The `propose_distilled_tool` definition to offer next to the base tools. */
  proposeTool(): ToolDef {
    return proposeToolDefinition();
  }

  /**
   * What a client that runs the base tools itself lists (the plugin's td server): `proposeTool()` and
   * `activeTools()`. Its calls go through `execute` with `distilledOnly`, which refuses anything else with why.
   */
  offer(): DistilledOffer {
    return { propose: this.proposeTool(), distilled: this.activeTools() };
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

  /**
   * Activates a version (default: the newest verified, else the active one, which is returned unchanged); a
   * deprecated one re-passes verification first.
   */
  async promote(name: string, options: { version?: number } = {}): Promise<VersionRecord> {
    await this.#ready;
    return promote(this.#ctx, name, options);
  }

  /** Deprecates a version (default: the active one). */
  deprecate(name: string, options: { version?: number } = {}): Promise<VersionRecord> {
    return deprecate(this.#ctx, name, options);
  }

  /**
   * Re-runs the three checks (default: the active version, else the newest suspect one). `live` runs the calls of
   * read-only base tools for real and answers the calls of tools that may write from the source run's record (it
   * needs the executor); a write the record cannot answer
   * refuses the verification before anything runs, unless `allowWrites` lets it run for real. `input` (or the input
   * of the run `trace`) replaces the test inputs; a write the tool's recorded runs already sent is never repeated.
   */
  async verify(
    name: string,
    options: { version?: number; live?: boolean } & LiveOptions = {},
  ): Promise<Verdict> {
    await this.#ready;
    const v = await resolveVersion(this.store, name, options.version, "active-or-suspect");
    return options.live ? verifyLive(this.#ctx, v, options) : verifyVersion(this.#ctx, v);
  }

  /** What `verify --live` would do, call by call (live, from the record, refused), without running anything. */
  async planLiveVerification(
    name: string,
    options: { version?: number } & LiveOptions = {},
  ): Promise<LivePlan> {
    await this.#ready;
    const v = await resolveVersion(this.store, name, options.version, "active-or-suspect");
    const setup = await liveSetup(this.#ctx, v, options);
    return planLive(this.#ctx, v, { allowWrites: options.allowWrites ?? false, setup });
  }

  /**
   * Removes rejected and superseded versions (only those whose status is older than `olderThanDays`, when given)
   * with their history and files; the traces they came from are kept. Needs only the store.
   */
  prune(options: { olderThanDays?: number } = {}): Promise<PrunedVersion[]> {
    return prune(this.store, options);
  }

  /** What distilled tools did and saved (runs, savings with their basis, timeline, failures); reads only. */
  report(options: ReportOptions = {}): Promise<Report> {
    return buildReport(this.store, options);
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
      await this.#exposure.close();
      await this.store.close();
    }
  }

  // ---- internals --------------------------------------------------------------------------------

  #getSandbox(): Sandbox {
    this.#sandbox ??= new Sandbox();
    return this.#sandbox;
  }

  async #getDistiller(): Promise<Distiller> {
    if (!this.#distiller) {
      const { ClaudeDistiller } = await import("../distill/claude-distiller.ts");
      this.#distiller = new ClaudeDistiller({ model: this.settings.distillerModel, logger: this.logger });
    }
    return this.#distiller;
  }

  #makeContext(): DistillContext {
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
      exposureChanged: () => this.#exposure.refresh(),
    };
  }
}
