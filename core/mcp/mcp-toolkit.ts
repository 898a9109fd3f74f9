/**
 * Base tools served by MCP servers: connects to each server of the resolved `.mcp.json`, names the tools
 * `<server>__<tool>`, and offers the connections as an executor and a health probe. With mcp-connection.ts,
 * mcp-errors.ts and mcp-sdk.ts, the only core modules that use the MCP SDK client, which loads on `connect`.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { DistillError, errorMessage } from "../errors.ts";
import { traceContextMeta } from "../trace/telemetry.ts";
import { type Executor, type HealthProbe, type Logger, silentLogger, type ToolDef } from "../types.ts";
import { dangerousKeyProblem } from "../util/canonical.ts";
import { suggestion } from "../util/did-you-mean.ts";
import { Semaphore } from "../util/semaphore.ts";
import { splitBaseToolName } from "../util/tool-names.ts";
import type { ResolvedMcpServer } from "./mcp-config.ts";
import { type ConnectionHost, McpConnection } from "./mcp-connection.ts";
import { callFailure, connectionGone, describeFailure, isToolError } from "./mcp-errors.ts";
import { mcpResultToValue } from "./mcp-result.ts";
import { loadMcpSdk, type McpSdk } from "./mcp-sdk.ts";
import { stopProcess } from "./process-stop.ts";

/** A server that could not be connected, with the reason (spawn error, HTTP status, timeout, stderr tail). */
export interface McpServerFailure {
  server: string;
  reason: string;
}

/** Options of `MCPToolkit.connect`. */
export interface MCPToolkitOptions {
  servers: Record<string, ResolvedMcpServer>;
  /** Working directory of stdio servers: the project, as in Claude Code. */
  cwd: string;
  /** Parent environment of stdio servers (default `process.env`); each entry's `env` is added over it. */
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** Timeout of one `tools/call` (default 60000 ms). */
  callTimeoutMs?: number;
  /** Timeout of connecting to one server and listing its tools (default 30000 ms). */
  connectTimeoutMs?: number;
  /**
   * Stops connecting: servers still starting are killed by pid and `connect` rejects. The plugin's server passes
   * one so that Claude Code quitting never waits for a base server that hangs at start-up.
   */
  signal?: AbortSignal;
  /** At most this many servers start at once (default 8): thousands of configured servers never fork at once. */
  maxConcurrentStarts?: number;
  /** Hears the pid of every stdio server started, as it starts (the plugin's server keeps them to kill on exit). */
  onSpawn?: (pid: number) => void;
}

/** Options of `close`. */
export interface MCPToolkitCloseOptions {
  /**
   * How long a stdio server gets after its stdin is closed before SIGTERM, and again before SIGKILL
   * (default 1000 ms, so every server is gone within about twice that).
   */
  graceMs?: number;
}

/** Default bound of concurrent server starts. */
export const MAX_CONCURRENT_STARTS = 8;

/** The parts of a `tools/call` result that become a value. */
type CallResult = { content?: unknown[]; structuredContent?: unknown; isError?: boolean };

/** MCP servers as base tools: `tools`, `executor` and `probe` over live connections. */
export class MCPToolkit {
  readonly #servers = new Map<string, McpConnection>();
  readonly #sdk: McpSdk;
  readonly #logger: Logger;
  readonly #callTimeoutMs: number;
  /** Aborted by `close()` or the caller's signal: every pending start is given up. */
  readonly #stop = new AbortController();
  /** Every stdio server process started and not yet seen to exit. */
  readonly #pids = new Set<number>();
  #closing: Promise<void> | null = null;

  /** Calls a base tool by its library name `<server>__<tool>`; `isError` results and failures throw. */
  readonly executor: Executor = (name, args) => this.#call(name, args);
  /** True when the tool's server answers (reconnecting it if needed) and still lists the tool. */
  readonly probe: HealthProbe = (name) => this.#probe(name);

  private constructor(options: MCPToolkitOptions, sdk: McpSdk) {
    this.#sdk = sdk;
    this.#logger = options.logger ?? silentLogger;
    this.#callTimeoutMs = options.callTimeoutMs ?? 60_000;
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) this.#stop.abort(signal.reason);
      else signal.addEventListener("abort", () => this.#stop.abort(signal.reason), { once: true });
    }
    const onSpawn = options.onSpawn;
    const host: ConnectionHost = {
      sdk,
      cwd: options.cwd,
      env: options.env ?? process.env,
      logger: this.#logger,
      connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
      starts: new Semaphore(options.maxConcurrentStarts ?? MAX_CONCURRENT_STARTS),
      stop: this.#stop.signal,
      assertOpen: () => this.#assertOpen(),
      spawned: (pid) => {
        this.#pids.add(pid);
        onSpawn?.(pid);
      },
      exited: (pid) => this.#pids.delete(pid),
    };
    for (const [name, config] of Object.entries(options.servers)) {
      this.#servers.set(name, new McpConnection(name, config, host));
    }
  }

  /**
   * Connects to every server, at most `maxConcurrentStarts` starting at once; a server that fails is listed in
   * `failures`, never thrown. When `signal` aborts, the servers started so far are stopped and this rejects.
   */
  static async connect(options: MCPToolkitOptions): Promise<MCPToolkit> {
    const toolkit = new MCPToolkit(options, await loadMcpSdk());
    await Promise.all([...toolkit.#servers.values()].map((server) => server.ensure().catch(() => {})));
    if (options.signal?.aborted) {
      await toolkit.close({ graceMs: 200 });
      throw new DistillError("MCP", "connecting to the MCP servers was stopped");
    }
    return toolkit;
  }

  /** Pids of the stdio server processes this toolkit started that have not exited (starting ones included). */
  pids(): number[] {
    return [...this.#pids];
  }

  /** Every listed tool as `<server>__<tool>`, with its MCP input schema and annotations. */
  get tools(): ToolDef[] {
    return [...this.#servers.values()].flatMap((server) => server.toolDefs());
  }

  /** Servers whose last connection attempt failed, with the reason. */
  get failures(): McpServerFailure[] {
    const failures: McpServerFailure[] = [];
    for (const server of this.#servers.values()) {
      if (server.failure !== null) failures.push({ server: server.name, reason: server.failure });
    }
    return failures;
  }

  /** The pid of a stdio server's current process (null when not running): for diagnostics and tests. */
  serverPid(server: string): number | null {
    const connection = this.#servers.get(server);
    return connection?.alive ? connection.pid : null;
  }

  /** Lists every server's tools again, reconnecting servers that died or failed before. */
  async refreshTools(): Promise<ToolDef[]> {
    this.#assertOpen();
    await Promise.all(
      [...this.#servers.values()].map(async (server) => {
        try {
          await server.ensure();
          await server.relist();
        } catch (err) {
          this.#logger.warn(`mcp server '${server.name}': cannot list tools: ${errorMessage(err)}`);
        }
      }),
    );
    return this.tools;
  }

  /**
   * Closes every connection and stops every stdio server it started, by pid: stdin closed, then SIGTERM after
   * `graceMs`, then SIGKILL after `graceMs` more; servers still starting are given up at once. Resolves when every
   * process has exited. Safe to call more than once.
   */
  close(options: MCPToolkitCloseOptions = {}): Promise<void> {
    const graceMs = options.graceMs ?? 1000;
    this.#closing ??= (async () => {
      this.#stop.abort(new DistillError("MCP", "the MCP toolkit is closing"));
      await Promise.all([...this.#servers.values()].map((server) => server.close(graceMs)));
      // Anything started and not seen to exit (a child that outlived its connection) goes too.
      await Promise.all(this.pids().map((pid) => stopProcess(pid, graceMs)));
    })();
    return this.#closing;
  }

  #assertOpen(): void {
    if (this.#closing !== null) throw new DistillError("MCP", "the MCP toolkit is closed");
  }

  /** Finds the server and tool of a library name, connecting the server first when it is down. */
  async #route(name: string): Promise<{ server: McpConnection; tool: Tool }> {
    const parts = splitBaseToolName(name);
    const server = parts === null ? undefined : this.#servers.get(parts.server);
    if (parts === null || server === undefined) {
      const stripped = name.startsWith("mcp__") ? name.slice("mcp__".length) : null;
      const hint =
        stripped !== null && this.tools.some((t) => t.name === stripped)
          ? ` (did you mean '${stripped}'?)`
          : suggestion(
              name,
              this.tools.map((t) => t.name),
            );
      throw new DistillError("MCP", `no MCP tool '${name}'${hint}`);
    }
    if (!server.alive) {
      const wasConnected = server.failure === null && server.tools.length > 0;
      try {
        await server.ensure();
      } catch {
        throw new DistillError(
          "MCP",
          `cannot call '${name}': mcp server '${server.name}' is not connected: ${server.failure}`,
        );
      }
      if (wasConnected) this.#logger.info(`mcp server '${server.name}' had stopped; reconnected`);
    }
    const tool = server.tools.find((t) => t.name === parts.tool);
    if (tool === undefined) {
      const listed = server.toolDefs().map((t) => t.name);
      throw new DistillError(
        "MCP",
        `no MCP tool '${name}': server '${server.name}' does not list '${parts.tool}'${suggestion(name, listed)}`,
      );
    }
    return { server, tool };
  }

  async #call(name: string, args: Record<string, unknown>): Promise<unknown> {
    this.#assertOpen();
    // The last gate before the wire, for callers of the executor that came in by no other path.
    const dangerous = dangerousKeyProblem(args);
    if (dangerous !== null) throw new DistillError("SCHEMA", `'${name}' was not called: ${dangerous}`);
    const { server, tool } = await this.#route(name);
    const client = server.client!;
    let lost: unknown;
    try {
      return mcpResultToValue(await this.#request(client, tool.name, args));
    } catch (err) {
      if (isToolError(err) || !this.#connectionLost(server, client, err)) {
        throw callFailure(this.#sdk, name, err, this.#callTimeoutMs);
      }
      lost = err;
    }
    // The connection died under the call: whether the call took effect is unknown.
    this.#logger.warn(
      `mcp server '${server.name}' lost its connection during '${name}' (${describeFailure(this.#sdk, lost)}); reconnecting`,
    );
    // Another call may already have reconnected: only the connection that failed is dead.
    if (server.client === client) server.alive = false;
    try {
      await server.ensure();
    } catch {
      throw new DistillError(
        "MCP",
        `mcp server '${server.name}' lost its connection during '${name}' and could not be restarted: ${server.failure}`,
        { cause: lost },
      );
    }
    if (tool.annotations?.readOnlyHint !== true) {
      throw new DistillError(
        "MCP",
        `mcp server '${server.name}' lost its connection during '${name}'; the server was reconnected but ` +
          `the call was not retried because it may have side effects (the tool is not annotated ` +
          `readOnlyHint). Check whether it took effect before calling it again.`,
        { cause: lost },
      );
    }
    try {
      return mcpResultToValue(await this.#request(server.client!, tool.name, args));
    } catch (err) {
      throw callFailure(this.#sdk, name, err, this.#callTimeoutMs);
    }
  }

  async #request(client: Client, tool: string, args: Record<string, unknown>): Promise<CallResult> {
    // The base call's span travels with the request (W3C Trace Context in _meta, as the MCP spec describes).
    const meta = traceContextMeta();
    const params = Object.keys(meta).length
      ? { name: tool, arguments: args, _meta: meta }
      : { name: tool, arguments: args };
    const result = await client.callTool(params, undefined, {
      timeout: this.#callTimeoutMs,
    });
    // Servers on the 2024-10-07 protocol answer `{ toolResult }`; mcpResultToValue reads what is there.
    return result as CallResult;
  }

  /** Whether a failed request means the connection is gone: replaced, marked dead, or an error that says so. */
  #connectionLost(server: McpConnection, client: Client, err: unknown): boolean {
    if (server.client !== client || !server.alive) return true;
    return connectionGone(this.#sdk, err);
  }

  async #probe(name: string): Promise<boolean> {
    if (this.#closing !== null) return false;
    const parts = splitBaseToolName(name);
    const server = parts === null ? undefined : this.#servers.get(parts.server);
    if (parts === null || server === undefined) return false;
    try {
      if (server.alive) {
        try {
          await server.ping();
          await server.relist();
        } catch {
          server.alive = false;
        }
      }
      await server.ensure();
      return server.tools.some((tool) => tool.name === parts.tool);
    } catch (err) {
      this.#logger.warn(`health probe of '${name}': ${errorMessage(err)}`);
      return false;
    }
  }
}
