/**
 * The plugin's MCP server `td`: offers `propose_distilled_tool` and the exposed distilled tools to Claude Code,
 * runs distilled tools against the project's MCP servers through the toolkit, and announces every change of
 * the exposed set with `notifications/tools/list_changed`. Besides core's MCP toolkit (whose client side
 * core/mcp/mcp-sdk.ts loads), the only importer of the MCP SDK.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { type SessionRecorder, sessionRecorder } from "../claude-code/session-recorder.ts";
import type { Logger, ToolDef } from "../core/index.ts";
import {
  type Config,
  loadConfig,
  PROPOSE_TOOL_NAME,
  type RegistryStore,
  ToolDistill,
  type ToolDistillOptions,
} from "../core/index.ts";
import {
  errorMessage,
  exposedVersions,
  findConfig,
  loadMcpServers,
  localFolder,
  proposeToolDefinition,
  SqliteRegistryStore,
  toolDefinition,
  unavailableReason,
} from "../core/internal.ts";

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

/** A running `td` server: connect it to a transport; `close` stops polling and releases the base servers. */
export interface TdServer {
  server: Server;
  /** Resolves once the project's config and base servers are loaded (or failed to load). */
  ready: Promise<void>;
  /**
   * Stops everything: a start-up still connecting to base servers is abandoned, and every base server started is
   * stopped by pid (quickly: the session is over). Safe to call more than once.
   */
  close(): Promise<void>;
  /** Pids of every base server process started (some may have exited): the last resort of a forced exit. */
  pids(): number[];
}

const TOOL_USE_ID_META = "claudecode/toolUseId";

function text(content: string, isError: boolean): CallToolResult {
  return { content: [{ type: "text", text: content }], isError };
}

/**
 * Claude Code (2.1.332 and later) defers MCP tools behind `ToolSearch` unless a tool's `_meta` carries this: the
 * model then sees the tool's schema from the session's first request. Older releases ignore it (they load every
 * tool upfront anyway). See docs/claude-code.md for what it costs and why the proposal tool stays deferred.
 */
export const ALWAYS_LOAD_META = "anthropic/alwaysLoad";

/** The MCP form of a tool; `alwaysLoad` exempts it from Claude Code's deferral. */
function mcpTool(
  t: ToolDef,
  alwaysLoad = false,
): {
  name: string;
  description: string;
  inputSchema: { type: "object"; [k: string]: unknown };
  _meta?: Record<string, unknown>;
} {
  return {
    name: t.name,
    description: t.description,
    inputSchema: { ...t.input_schema, type: "object" },
    ...(alwaysLoad ? { _meta: { [ALWAYS_LOAD_META]: true } } : {}),
  };
}

/**
 * The tool list: `propose_distilled_tool` stays deferred (it is only needed after /tooldistill:distill, whose
 * context tells the model to load it with ToolSearch), every distilled tool is loaded upfront, because a
 * shortcut the model has to search for is one it rarely calls.
 */
function listed(propose: ToolDef, distilled: readonly ToolDef[]) {
  return { tools: [mcpTool(propose), ...distilled.map((t) => mcpTool(t, true))] };
}

/** A fingerprint of a tool list as Claude Code sees it: names and descriptions. */
function listSignature(tools: readonly ToolDef[]): string {
  return tools
    .map((t) => `${t.name}:${t.description}`)
    .sort()
    .join("\n");
}

/** A new trace for a call that names no session, once its row is written. */
async function startedTrace(td: ToolDistill): Promise<string> {
  const trace = td.startTrace("", { source: "claude-code" });
  await trace.flush();
  return trace.id;
}

/** Creates the `td` server for a project. Loading the config and the base servers starts at once, in the background. */
export function createTdServer(options: TdServerOptions): TdServer {
  const { logger } = options;
  const server = new Server(
    { name: "td", version: "0.1.0" },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        "tooldistill: distilled tools are verified shortcuts for tasks done before in this project; prefer them over " +
        "repeating the base tool calls. propose_distilled_tool is used after the user runs /tooldistill:distill.",
    },
  );
  let td: ToolDistill | null = null;
  let recorder: SessionRecorder | null = null;
  let baseServers: string[] = [];
  let problem: string | null = null;
  let signature = "";
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const stopping = new AbortController();
  const pids = new Set<number>();

  const announce = () => {
    if (!td || closed) return;
    signature = listSignature(td.activeTools());
    server
      .sendToolListChanged()
      .catch((err: unknown) => logger.warn(`tooldistill td: list_changed failed: ${errorMessage(err)}`));
  };

  /**
   * Hook events spilled (on SQLite while the store was locked; on PostgreSQL every one): applied before a call
   * and on every poll. One pass at a time: a poll that finds one running waits for it, then looks again.
   */
  let applying: Promise<void> = Promise.resolve();
  const applySpills = () => {
    applying = applying.then(applySpillsOnce);
    return applying;
  };
  const applySpillsOnce = async () => {
    if (!recorder || closed) return;
    try {
      const report = await recorder.applySpills(baseServers);
      for (const failed of report.failed)
        logger.warn(`tooldistill td: a spilled hook event could not be applied: ${failed}`);
    } catch (err) {
      // Still locked: the next poll, call or hook applies them.
      logger.warn(`tooldistill td: spilled hook events not applied yet: ${errorMessage(err)}`);
    }
  };

  // Claude Code does not wait long for a server's tool list before the first request, and base servers may take
  // seconds to start: the list comes from the store (read-only) as soon as the config is read, and the base
  // servers connect behind it.
  let config: Config | null = null;
  let early: RegistryStore | null = null;
  // A list being read from it when the library takes over finishes before the early store closes.
  let earlyReads: Promise<unknown> = Promise.resolve();
  const closeEarly = async () => {
    const open = early;
    early = null;
    await earlyReads;
    await open?.close();
  };
  const configured = (async () => {
    const configPath = findConfig(options.projectDir);
    if (configPath === null) {
      problem = `no tooldistill.yaml in ${options.projectDir}: add one with mcp_config: .mcp.json and start a new session`;
      return;
    }
    try {
      config = await loadConfig(configPath);
    } catch (err) {
      problem = `tooldistill could not start: ${errorMessage(err)}`;
      logger.error(problem);
      return;
    }
    if (existsSync(join(config.store, "registry.db"))) {
      try {
        early = SqliteRegistryStore.open(config.store, { readOnly: true, checkInvariants: false, logger });
      } catch (err) {
        logger.warn(`tooldistill td: cannot read the store yet: ${errorMessage(err)}`);
      }
    }
  })();

  const ready = (async () => {
    await configured;
    const loaded = config as Config | null;
    if (loaded === null || closed) return;
    try {
      baseServers = Object.keys(
        await loadMcpServers({ mcpConfigPath: loaded.mcpConfig, inline: loaded.mcpServers }).catch(
          () => ({}),
        ),
      );
      td = await ToolDistill.fromLoadedConfig(
        loaded,
        { logger, onExposureChange: announce, ...options.overrides },
        { signal: stopping.signal, onSpawn: (pid) => pids.add(pid) },
      );
      if (closed) return;
      const own = td;
      await closeEarly();
      recorder = sessionRecorder(own.store, localFolder(loaded.store, loaded.dir));
      // The hooks never start MCP servers: they read base tool schemas (for defaults) from this cache.
      await recorder.cacheBaseTools(own.tools());
      await applySpills();
      // The set listed early may have changed while the base servers connected; later changes, by this process or
      // any other, reach `announce` through the library's change feed (onExposureChange).
      if (listSignature(own.activeTools()) !== signature) announce();
      timer = setInterval(() => void applySpills(), options.pollMs ?? 1000);
      timer.unref();
    } catch (err) {
      problem = `tooldistill could not start: ${errorMessage(err)}`;
      if (!closed) logger.error(problem);
    }
  })();

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await configured;
    if (td) {
      const active = td.activeTools();
      signature = listSignature(active);
      return listed(td.proposeTool(), active);
    }
    const loaded = config as Config | null;
    if (loaded === null) return { tools: [] };
    const max = loaded.settings.maxExposedTools;
    const read = early ? exposedVersions(early, max) : Promise.resolve([]);
    earlyReads = Promise.allSettled([earlyReads, read]);
    const exposed = (await read).map(toolDefinition);
    signature = listSignature(exposed);
    return listed(proposeToolDefinition(), exposed);
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    await ready;
    if (!td) return text(problem ?? "tooldistill is not configured in this project", true);
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    // The PreToolUse hook of this very call may have spilled its record.
    await applySpills();
    const toolUseId = request.params._meta?.[TOOL_USE_ID_META];
    const sessions = recorder as SessionRecorder;
    // The PreToolUse hook recorded this call under its tool_use_id: that row names the calling session's span,
    // which the server's own CLAUDE_CODE_SESSION_ID cannot (it goes stale after /clear).
    const recorded =
      typeof toolUseId === "string"
        ? await sessions.callForToolUse(toolUseId, name, options.sessionId)
        : null;
    const sessionId = options.sessionId;
    const traceId =
      recorded?.traceId ?? (sessionId ? await sessions.currentTrace(sessionId) : await startedTrace(td));
    const callOptions = recorded ? { callId: recorded.id } : {};
    try {
      const trace = await td.openTrace(traceId);
      if (name === PROPOSE_TOOL_NAME) {
        const tools = td.tools();
        await sessions.canonicalizeTrace(traceId, tools);
        const r = await trace.execute(name, args, callOptions);
        return text(r.content, r.isError);
      }
      // Read now, not from the set in memory: another process may have changed it a moment ago.
      const exposed = await exposedVersions(td.store, td.settings.maxExposedTools);
      if (!exposed.some((v) => v.name === name)) {
        return text(
          (await unavailableReason(td.store, name, td.settings.maxExposedTools)) ??
            `there is no distilled tool '${name}' in this project; complete the task with the base tools`,
          true,
        );
      }
      const r = await trace.execute(name, args, callOptions);
      return text(r.content, r.isError);
    } catch (err) {
      logger.error(
        `tooldistill td: ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      return text(`tooldistill failed: ${errorMessage(err)}`, true);
    }
  });

  return {
    server,
    ready,
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      stopping.abort();
      await ready;
      await applying;
      await closeEarly();
      await td?.close();
      await server.close();
    },
    pids: () => [...pids],
  };
}
