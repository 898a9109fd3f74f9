/**
 * The plugin's MCP server `td`: offers `propose_distilled_tool` and the exposed distilled tools to Claude Code,
 * runs distilled tools against the project's MCP servers through the toolkit, and announces every change of
 * the exposed set with `notifications/tools/list_changed`. A thin adapter: what is offered and what a call may run
 * are the library's answers (`ToolDistill.offer()`, `execute`'s `distilledOnly`); this adds Claude Code's part
 * (the session a call belongs to, the hooks' spilled events, the MCP form of the list). Besides core's MCP toolkit
 * (whose client side core/mcp/mcp-sdk.ts loads), the only importer of the MCP SDK.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type SessionRecorder, sessionRecorder } from "../claude-code/session-recorder.ts";
import type { Config, Logger, ToolDistillOptions } from "../core/index.ts";
import { loadConfig, PROPOSE_TOOL_NAME, ToolDistill } from "../core/index.ts";
import { errorMessage, findConfig, loadMcpServers, localFolder, OfferReader } from "../core/internal.ts";
import { listedTools, listSignature, type McpTool } from "./tool-list.ts";

export { ALWAYS_LOAD_META } from "./tool-list.ts";

/** Options of the `td` server. */
export interface TdServerOptions {
  /** The project (Claude Code's `CLAUDE_PROJECT_DIR`); tooldistill.yaml is looked up there. */
  projectDir: string;
  /** Claude Code's session id from the environment: only a fallback, it goes stale after /clear. */
  sessionId?: string | undefined;
  logger: Logger;
  /**
   * How often spill files of hooks are looked for (default 1000 ms; on a PostgreSQL store every hook event is
   * spilled). Changes of the exposed tools, by any process on the same registry, come by the change feed.
   */
  pollMs?: number;
  /** Extra ToolDistill options (tests inject an executor and tools instead of MCP servers). */
  overrides?: Partial<ToolDistillOptions>;
}

const TOOL_USE_ID_META = "claudecode/toolUseId";

function text(content: string, isError: boolean): CallToolResult {
  return { content: [{ type: "text", text: content }], isError };
}

/** The library once it runs, and what it records of Claude Code's sessions. */
interface Running {
  td: ToolDistill;
  recorder: SessionRecorder;
  /** The project's MCP servers: what the spilled hook events' tool names are read against. */
  baseServers: readonly string[];
}

/**
 * A `td` server for one project: connect `server` to a transport. Loading the config and the base servers starts
 * at once, in the background; until the library runs, the list comes from the store read-only, because Claude
 * Code does not wait long for a server's tool list and base servers may take seconds to start.
 */
export class TdServer {
  /** The MCP server. */
  readonly server: Server;
  /** Resolves once the project's config and base servers are loaded (or failed to load). */
  readonly ready: Promise<void>;
  readonly #options: TdServerOptions;
  readonly #logger: Logger;
  /** Aborts a start-up still connecting to base servers. */
  readonly #stopping = new AbortController();
  /** Every base server process started (some may have exited). */
  readonly #pids = new Set<number>();
  /** The project's config, once read; null when there is none or it is broken (`#problem` says which). */
  readonly #configured: Promise<Config | null>;
  /** Why calls cannot be served: no config, a broken one, a start that failed. */
  #problem: string | null = null;
  /** Where the list comes from until the library runs. */
  #early: OfferReader | null = null;
  #running: Running | null = null;
  /** The distilled tools as the client last saw them: the library's change of them is announced, not a repeat. */
  #listed = "";
  #poll: NodeJS.Timeout | null = null;
  /** The pass over spilled hook events running now: one at a time. */
  #applying: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(options: TdServerOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.server = new Server(
      { name: "td", version: "0.1.0" },
      {
        capabilities: { tools: { listChanged: true } },
        instructions:
          "tooldistill: distilled tools are verified shortcuts for tasks done before in this project; prefer them over " +
          "repeating the base tool calls. propose_distilled_tool is used after the user runs /tooldistill:distill.",
      },
    );
    this.#configured = this.#configure();
    this.ready = this.#start();
    this.server.setRequestHandler(ListToolsRequestSchema, () => this.#list());
    this.server.setRequestHandler(CallToolRequestSchema, (request) => this.#call(request.params));
  }

  /** Pids of every base server process started (some may have exited): the last resort of a forced exit. */
  pids(): number[] {
    return [...this.#pids];
  }

  /**
   * Stops everything: a start-up still connecting to base servers is abandoned, and every base server started is
   * stopped by pid (quickly: the session is over). Safe to call more than once.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopPolling();
    this.#stopping.abort();
    await this.ready;
    this.#stopPolling();
    await this.#applying;
    await this.#early?.close();
    await this.#running?.td.close();
    await this.server.close();
  }

  /** Reads the config and opens the store for the first list; nothing here waits on a base server. */
  async #configure(): Promise<Config | null> {
    const { projectDir } = this.#options;
    const path = findConfig(projectDir);
    if (path === null) {
      this.#problem = `no tooldistill.yaml in ${projectDir}: add one with mcp_config: .mcp.json and start a new session`;
      return null;
    }
    let config: Config;
    try {
      config = await loadConfig(path);
    } catch (err) {
      this.#problem = `tooldistill could not start: ${errorMessage(err)}`;
      this.#logger.error(this.#problem);
      return null;
    }
    this.#early = await OfferReader.open(config, this.#logger);
    return config;
  }

  /** Connects the base servers and opens the library; then applies what the hooks spilled, and keeps doing so. */
  async #start(): Promise<void> {
    const config = await this.#configured;
    if (config === null || this.#closed) return;
    try {
      const servers = await loadMcpServers({
        mcpConfigPath: config.mcpConfig,
        inline: config.mcpServers,
      }).catch(() => ({}));
      const td = await ToolDistill.fromLoadedConfig(
        config,
        { logger: this.#logger, onExposureChange: () => this.#announce(), ...this.#options.overrides },
        { signal: this.#stopping.signal, onSpawn: (pid) => this.#pids.add(pid) },
      );
      const recorder = sessionRecorder(td.store, localFolder(config.store, config.dir));
      this.#running = { td, recorder, baseServers: Object.keys(servers) };
      if (this.#closed) return;
      const early = this.#early;
      this.#early = null;
      await early?.close();
      // The hooks never start MCP servers: they read base tool schemas (for defaults) from this cache.
      await recorder.cacheBaseTools(td.tools());
      await this.#applySpills();
      // The set listed early may have changed while the base servers connected; later changes, by this process or
      // any other, reach `#announce` through the library's change feed (onExposureChange).
      if (listSignature(td.activeTools()) !== this.#listed) this.#announce();
      if (this.#closed) return;
      this.#poll = setInterval(() => void this.#applySpills(), this.#options.pollMs ?? 1000);
      this.#poll.unref();
    } catch (err) {
      this.#problem = `tooldistill could not start: ${errorMessage(err)}`;
      if (!this.#closed) this.#logger.error(this.#problem);
    }
  }

  /** `tools/list`: nothing without a config; the library's offer, read from the store until the library runs. */
  async #list(): Promise<{ tools: McpTool[] }> {
    await this.#configured;
    const offer = this.#running?.td.offer() ?? (await this.#early?.read());
    if (!offer) return { tools: [] };
    this.#listed = listSignature(offer.distilled);
    return listedTools(offer);
  }

  /** `tools/call`: runs a distilled tool or the proposal in the trace of the calling session's span. */
  async #call(params: CallToolRequest["params"]): Promise<CallToolResult> {
    await this.ready;
    const running = this.#running;
    if (!running) return text(this.#problem ?? "tooldistill is not configured in this project", true);
    const { td, recorder } = running;
    const { name } = params;
    try {
      // The PreToolUse hook of this very call may have spilled its record.
      await this.#applySpills();
      const toolUseId = params._meta?.[TOOL_USE_ID_META];
      // The PreToolUse hook recorded this call under its tool_use_id: that row names the calling session's span,
      // which the server's own CLAUDE_CODE_SESSION_ID cannot (it goes stale after /clear).
      const recorded =
        typeof toolUseId === "string"
          ? await recorder.callForToolUse(toolUseId, name, this.#options.sessionId)
          : null;
      const traceId = recorded?.traceId ?? (await this.#fallbackTrace(running));
      const trace = await td.openTrace(traceId);
      if (name === PROPOSE_TOOL_NAME) await recorder.canonicalizeTrace(traceId, td.tools());
      // Claude Code runs the base tools itself: through td only what td offers runs, anything else is refused.
      const r = await trace.execute(name, params.arguments ?? {}, {
        distilledOnly: true,
        ...(recorded ? { callId: recorded.id } : {}),
      });
      return text(r.content, r.isError);
    } catch (err) {
      this.#logger.error(
        `tooldistill td: ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      return text(`tooldistill failed: ${errorMessage(err)}`, true);
    }
  }

  /** The trace of a call no hook recorded: the environment's session's current span, else a new trace. */
  async #fallbackTrace({ td, recorder }: Running): Promise<string> {
    const { sessionId } = this.#options;
    if (sessionId) return recorder.currentTrace(sessionId);
    const trace = td.startTrace("", { source: "claude-code" });
    await trace.flush();
    return trace.id;
  }

  /** Tells the client the list changed (it re-lists within milliseconds). */
  #announce(): void {
    if (!this.#running || this.#closed) return;
    this.#listed = listSignature(this.#running.td.activeTools());
    this.server
      .sendToolListChanged()
      .catch((err: unknown) =>
        this.#logger.warn(`tooldistill td: list_changed failed: ${errorMessage(err)}`),
      );
  }

  /**
   * Hook events spilled (on SQLite while the store was locked; on PostgreSQL every one): applied before a call
   * and on every poll. One pass at a time: a poll that finds one running waits for it, then looks again.
   */
  #applySpills(): Promise<void> {
    this.#applying = this.#applying.then(() => this.#applySpillsOnce());
    return this.#applying;
  }

  async #applySpillsOnce(): Promise<void> {
    const running = this.#running;
    if (!running || this.#closed) return;
    try {
      const report = await running.recorder.applySpills(running.baseServers);
      for (const failed of report.failed)
        this.#logger.warn(`tooldistill td: a spilled hook event could not be applied: ${failed}`);
    } catch (err) {
      // Still locked: the next poll, call or hook applies them.
      this.#logger.warn(`tooldistill td: spilled hook events not applied yet: ${errorMessage(err)}`);
    }
  }

  #stopPolling(): void {
    if (this.#poll) clearInterval(this.#poll);
    this.#poll = null;
  }
}

/** Creates the `td` server for a project (see `TdServer`). */
export function createTdServer(options: TdServerOptions): TdServer {
  return new TdServer(options);
}
