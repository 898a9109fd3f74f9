/**
 * Base tools served by MCP servers: connects to each server of the resolved `.mcp.json`, names the
 * tools `<server>__<tool>`, and offers the connections as an executor and a health probe.
 * The only core module that imports the MCP SDK client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { suggestion } from "./did-you-mean.ts";
import { DistillError, errorMessage } from "./errors.ts";
import type { ResolvedMcpServer } from "./mcp-config.ts";
import { McpToolError, mcpResultToValue } from "./mcp-result.ts";
import {
  type Executor,
  type HealthProbe,
  type Logger,
  silentLogger,
  type ToolAnnotations,
  type ToolDef,
} from "./types.ts";

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

/** A counting semaphore: the bound on servers starting at once. */
class Gate {
  #free: number;
  readonly #waiting: Array<() => void> = [];
  constructor(size: number) {
    this.#free = Math.max(1, size);
  }
  async enter(signal: AbortSignal): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.#waiting.indexOf(go);
        if (i >= 0) this.#waiting.splice(i, 1);
        reject(signal.reason);
      };
      const go = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      this.#waiting.push(go);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
  leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

/** The parts of a `tools/call` result that become a value. */
type CallResult = { content?: unknown[]; structuredContent?: unknown; isError?: boolean };

const CLIENT_INFO = { name: "tooldistill", version: "0.1.0" };
const STDERR_LINES = 20;
const STDERR_LINE_CHARS = 500;

/** One configured server and its current connection (replaced wholesale on reconnect). */
interface ServerState {
  name: string;
  config: ResolvedMcpServer;
  client: Client | null;
  transport: Transport | null;
  pid: number | null;
  /** False once the transport closed (a stdio server exited) or a request found the connection gone. */
  alive: boolean;
  tools: Tool[];
  failure: string | null;
  stderrTail: string[];
  connecting: Promise<void> | null;
}

/** MCP servers as base tools: `tools`, `executor` and `probe` over live connections. */
export class MCPToolkit {
  readonly #servers = new Map<string, ServerState>();
  readonly #cwd: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #logger: Logger;
  readonly #callTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #gate: Gate;
  readonly #onSpawn: ((pid: number) => void) | undefined;
  /** Aborted by `close()` or the caller's signal: every pending start is given up. */
  readonly #stop = new AbortController();
  /** Every stdio server process started and not yet seen to exit. */
  readonly #pids = new Set<number>();
  #closing: Promise<void> | null = null;

  /** Calls a base tool by its library name `<server>__<tool>`; `isError` results and failures throw. */
  readonly executor: Executor = (name, args) => this.#call(name, args);
  /** True when the tool's server answers (reconnecting it if needed) and still lists the tool. */
  readonly probe: HealthProbe = (name) => this.#probe(name);

  private constructor(options: MCPToolkitOptions) {
    this.#cwd = options.cwd;
    this.#env = options.env ?? process.env;
    this.#logger = options.logger ?? silentLogger;
    this.#callTimeoutMs = options.callTimeoutMs ?? 60_000;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.#gate = new Gate(options.maxConcurrentStarts ?? MAX_CONCURRENT_STARTS);
    this.#onSpawn = options.onSpawn;
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) this.#stop.abort(signal.reason);
      else signal.addEventListener("abort", () => this.#stop.abort(signal.reason), { once: true });
    }
    for (const [name, config] of Object.entries(options.servers)) {
      this.#servers.set(name, {
        name,
        config,
        client: null,
        transport: null,
        pid: null,
        alive: false,
        tools: [],
        failure: null,
        stderrTail: [],
        connecting: null,
      });
    }
  }

  /**
   * Connects to every server, at most `maxConcurrentStarts` starting at once; a server that fails is listed in
   * `failures`, never thrown. When `signal` aborts, the servers started so far are stopped and this rejects.
   */
  static async connect(options: MCPToolkitOptions): Promise<MCPToolkit> {
    const toolkit = new MCPToolkit(options);
    await Promise.all([...toolkit.#servers.values()].map((state) => toolkit.#ensure(state).catch(() => {})));
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
    const defs: ToolDef[] = [];
    for (const state of this.#servers.values()) {
      for (const tool of state.tools) defs.push(toToolDef(state.name, tool));
    }
    return defs;
  }

  /** Servers whose last connection attempt failed, with the reason. */
  get failures(): McpServerFailure[] {
    const failures: McpServerFailure[] = [];
    for (const state of this.#servers.values()) {
      if (state.failure !== null) failures.push({ server: state.name, reason: state.failure });
    }
    return failures;
  }

  /** The pid of a stdio server's current process (null when not running): for diagnostics and tests. */
  serverPid(server: string): number | null {
    const state = this.#servers.get(server);
    return state?.alive ? state.pid : null;
  }

  /** Lists every server's tools again, reconnecting servers that died or failed before. */
  async refreshTools(): Promise<ToolDef[]> {
    this.#assertOpen();
    await Promise.all(
      [...this.#servers.values()].map(async (state) => {
        try {
          await this.#ensure(state);
          await this.#relist(state);
        } catch (err) {
          this.#logger.warn(`mcp server '${state.name}': cannot list tools: ${errorMessage(err)}`);
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
      await Promise.all(
        [...this.#servers.values()].map(async (state) => {
          await state.connecting?.catch(() => {});
          await this.#disconnect(state, graceMs);
        }),
      );
      // Anything started and not seen to exit (a child that outlived its connection) goes too.
      await Promise.all(this.pids().map((pid) => stopProcess(pid, graceMs)));
    })();
    return this.#closing;
  }

  #assertOpen(): void {
    if (this.#closing !== null) throw new DistillError("MCP", "the MCP toolkit is closed");
  }

  /** Connects `state` unless it is alive; concurrent callers share one attempt. */
  #ensure(state: ServerState): Promise<void> {
    if (state.alive) return Promise.resolve();
    state.connecting ??= this.#open(state).finally(() => {
      state.connecting = null;
    });
    return state.connecting;
  }

  async #open(state: ServerState): Promise<void> {
    // A reconnect racing close() must not spawn a server that nothing will stop.
    this.#assertOpen();
    await this.#disconnect(state);
    const signal = this.#stop.signal;
    try {
      await this.#gate.enter(signal);
    } catch {
      state.failure = "connecting was stopped before the server started";
      throw new DistillError("MCP", `mcp server '${state.name}' was not started: ${state.failure}`);
    }
    try {
      await this.#start(state, signal);
    } finally {
      this.#gate.leave();
    }
  }

  async #start(state: ServerState, signal: AbortSignal): Promise<void> {
    this.#assertOpen();
    state.stderrTail = [];
    const client = new Client(CLIENT_INFO, {
      listChanged: {
        tools: {
          autoRefresh: false,
          onChanged: () => {
            if (state.client === client) {
              this.#relist(state).catch((err: unknown) => {
                this.#logger.warn(
                  `mcp server '${state.name}': re-listing tools failed: ${errorMessage(err)}`,
                );
              });
            }
          },
        },
      },
    });
    client.onclose = () => {
      // An old connection closing after a reconnect must not mark the new one dead.
      if (state.client === client) state.alive = false;
    };
    client.onerror = (err) => {
      if (state.client === client) this.#logger.warn(`mcp server '${state.name}': ${err.message}`);
    };
    let transport: Transport;
    try {
      transport = this.#transport(state);
    } catch (err) {
      state.failure = errorMessage(err);
      throw new DistillError("MCP", `mcp server '${state.name}' failed to connect: ${state.failure}`);
    }
    state.client = client;
    state.transport = transport;
    try {
      const connecting = client.connect(transport, { timeout: this.#connectTimeoutMs, signal });
      // The SDK spawns a stdio server synchronously inside connect(): its pid is known while it starts, so a
      // server that hangs before answering initialize can still be stopped.
      if (transport instanceof StdioClientTransport && transport.pid !== null) {
        state.pid = transport.pid;
        this.#track(transport.pid, transport);
      }
      await connecting;
      state.tools = await listAllTools(client, this.#connectTimeoutMs, signal);
      state.failure = null;
      // Alive only once listed: a concurrent #ensure must not route a call through a half-open server.
      state.alive = true;
    } catch (err) {
      state.failure = signal.aborted ? "connecting was stopped" : this.#reason(state, err, "initialize");
      if (!signal.aborted)
        this.#logger.warn(`mcp server '${state.name}' failed to connect: ${state.failure}`);
      // Stopping on purpose (close, or the caller's signal) must be quick: the server was never in use.
      await this.#disconnect(state, signal.aborted ? 200 : 1000);
      throw new DistillError("MCP", `mcp server '${state.name}' failed to connect: ${state.failure}`, {
        cause: err,
      });
    }
  }

  #transport(state: ServerState): Transport {
    const config = state.config;
    if (config.type === "stdio") {
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args,
        // The SDK's default passes only a handful of variables; Claude Code passes the whole parent env.
        env: { ...definedOnly(this.#env), ...config.env },
        cwd: this.#cwd,
        // Piped, never inherited: the caller's stdout/stderr may be a protocol stream (hooks, plugin server).
        stderr: "pipe",
      });
      let partial = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
        const lines = (partial + chunk.toString("utf8")).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) pushTail(state.stderrTail, line);
        if (partial.length > STDERR_LINE_CHARS) {
          pushTail(state.stderrTail, partial);
          partial = "";
        }
      });
      transport.stderr?.on("end", () => {
        if (partial !== "") pushTail(state.stderrTail, partial);
        partial = "";
      });
      return transport;
    }
    const url = URL.parse(config.url);
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new Error(`url must start with http:// or https:// (got '${config.url}')`);
    }
    const requestInit = { headers: config.headers };
    return config.type === "sse"
      ? new SSEClientTransport(url, { requestInit })
      : new StreamableHTTPClientTransport(url, { requestInit });
  }

  /** Forgets a pid once its process has exited. */
  #track(pid: number, transport: StdioClientTransport): void {
    this.#pids.add(pid);
    this.#onSpawn?.(pid);
    const prev = transport.onclose;
    transport.onclose = () => {
      this.#pids.delete(pid);
      prev?.();
    };
  }

  /** Closes the current connection of `state`, if any, and makes sure a stdio child is gone, by pid. */
  async #disconnect(state: ServerState, graceMs = 1000): Promise<void> {
    const { client, transport, pid } = state;
    state.client = null;
    state.transport = null;
    state.pid = null;
    state.alive = false;
    if (client === null) return;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
      // Lets the server free the session; a dead server must not delay closing.
      await Promise.race([transport.terminateSession().catch(() => {}), delay(1000)]);
    }
    // The SDK ends stdin and escalates on its own clock (2 s, then 2 s more); our escalation by pid runs beside it
    // on `graceMs`, so a server that ignores stdin and SIGTERM is still gone in about twice that.
    const closing = client.close().catch((err: unknown) => {
      this.#logger.warn(`mcp server '${state.name}': closing failed: ${errorMessage(err)}`);
    });
    if (pid !== null) {
      await stopProcess(pid, graceMs);
      this.#pids.delete(pid);
    }
    await closing;
  }

  async #relist(state: ServerState): Promise<void> {
    if (state.client === null) return;
    state.tools = await listAllTools(state.client, this.#connectTimeoutMs);
  }

  /** Finds the server and tool of a library name, connecting the server first when it is down. */
  async #route(name: string): Promise<{ state: ServerState; tool: Tool }> {
    const sep = name.indexOf("__");
    const state = sep > 0 ? this.#servers.get(name.slice(0, sep)) : undefined;
    if (state === undefined) {
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
    if (!state.alive) {
      const wasConnected = state.failure === null && state.tools.length > 0;
      try {
        await this.#ensure(state);
      } catch {
        throw new DistillError(
          "MCP",
          `cannot call '${name}': mcp server '${state.name}' is not connected: ${state.failure}`,
        );
      }
      if (wasConnected) this.#logger.info(`mcp server '${state.name}' had stopped; reconnected`);
    }
    const toolName = name.slice(sep + 2);
    const tool = state.tools.find((t) => t.name === toolName);
    if (tool === undefined) {
      const listed = state.tools.map((t) => `${state.name}__${t.name}`);
      throw new DistillError(
        "MCP",
        `no MCP tool '${name}': server '${state.name}' does not list '${toolName}'${suggestion(name, listed)}`,
      );
    }
    return { state, tool };
  }

  async #call(name: string, args: Record<string, unknown>): Promise<unknown> {
    this.#assertOpen();
    const { state, tool } = await this.#route(name);
    const client = state.client!;
    let lost: unknown;
    try {
      const result = await this.#request(client, tool.name, args);
      return mcpResultToValue(result);
    } catch (err) {
      if (err instanceof McpToolError || !this.#connectionLost(state, client, err)) {
        throw this.#callError(name, err);
      }
      lost = err;
    }
    // The connection died under the call: whether the call took effect is unknown.
    this.#logger.warn(
      `mcp server '${state.name}' lost its connection during '${name}' (${describe(lost)}); reconnecting`,
    );
    // Another call may already have reconnected: only the connection that failed is dead.
    if (state.client === client) state.alive = false;
    try {
      await this.#ensure(state);
    } catch {
      throw new DistillError(
        "MCP",
        `mcp server '${state.name}' lost its connection during '${name}' and could not be restarted: ${state.failure}`,
        { cause: lost },
      );
    }
    if (tool.annotations?.readOnlyHint !== true) {
      throw new DistillError(
        "MCP",
        `mcp server '${state.name}' lost its connection during '${name}'; the server was reconnected but ` +
          `the call was not retried because it may have side effects (the tool is not annotated ` +
          `readOnlyHint). Check whether it took effect before calling it again.`,
        { cause: lost },
      );
    }
    try {
      return mcpResultToValue(await this.#request(state.client!, tool.name, args));
    } catch (err) {
      throw this.#callError(name, err);
    }
  }

  async #request(client: Client, tool: string, args: Record<string, unknown>): Promise<CallResult> {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: this.#callTimeoutMs,
    });
    // Servers on the 2024-10-07 protocol answer `{ toolResult }`; mcpResultToValue reads what is there.
    return result as CallResult;
  }

  /** Whether a failed request means the connection is gone (as opposed to a tool or protocol error). */
  #connectionLost(state: ServerState, client: Client, err: unknown): boolean {
    if (state.client !== client || !state.alive) return true;
    if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) return true;
    // HTTP: the server is unreachable, or it restarted and forgot our session.
    if (err instanceof TypeError && err.message === "fetch failed") return true;
    if (err instanceof StreamableHTTPError && err.code === 404) return true;
    return err instanceof Error && err.message === "Not connected";
  }

  #callError(name: string, err: unknown): Error {
    if (err instanceof DistillError || err instanceof McpToolError) return err;
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      return new DistillError("MCP", `'${name}' timed out after ${this.#callTimeoutMs} ms`, { cause: err });
    }
    return new DistillError("MCP", `'${name}' failed: ${describe(err)}`, { cause: err });
  }

  #reason(state: ServerState, err: unknown, step: string): string {
    let reason: string;
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
      reason = `timed out after ${this.#connectTimeoutMs} ms waiting for ${step}`;
    } else if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
      reason = `the server closed the connection during ${step}`;
    } else {
      reason = describe(err);
    }
    const tail = state.stderrTail.filter((line) => line.trim() !== "");
    return tail.length === 0 ? reason : `${reason}; server stderr: ${tail.join(" | ")}`;
  }

  async #probe(name: string): Promise<boolean> {
    if (this.#closing !== null) return false;
    const sep = name.indexOf("__");
    const state = sep > 0 ? this.#servers.get(name.slice(0, sep)) : undefined;
    if (state === undefined) return false;
    try {
      if (state.alive) {
        try {
          await state.client!.ping({ timeout: this.#connectTimeoutMs });
          await this.#relist(state);
        } catch {
          state.alive = false;
        }
      }
      await this.#ensure(state);
      return state.tools.some((tool) => tool.name === name.slice(sep + 2));
    } catch (err) {
      this.#logger.warn(`health probe of '${name}': ${errorMessage(err)}`);
      return false;
    }
  }
}

function toToolDef(server: string, tool: Tool): ToolDef {
  const def: ToolDef = {
    name: `${server}__${tool.name}`,
    description: tool.description ?? "",
    input_schema: tool.inputSchema as ToolDef["input_schema"],
  };
  if (tool.annotations !== undefined) {
    const annotations: ToolAnnotations = {};
    const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
    if (title !== undefined) annotations.title = title;
    if (readOnlyHint !== undefined) annotations.readOnlyHint = readOnlyHint;
    if (destructiveHint !== undefined) annotations.destructiveHint = destructiveHint;
    if (idempotentHint !== undefined) annotations.idempotentHint = idempotentHint;
    if (openWorldHint !== undefined) annotations.openWorldHint = openWorldHint;
    def.annotations = annotations;
  }
  return def;
}

async function listAllTools(client: Client, timeout: number, signal?: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
      timeout,
      ...(signal ? { signal } : {}),
    });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function describe(err: unknown): string {
  if ((err instanceof StreamableHTTPError || err instanceof SseError) && err.code !== undefined) {
    return `HTTP ${err.code}: ${err.message}`;
  }
  if (err instanceof TypeError && err.message === "fetch failed" && err.cause instanceof Error) {
    return `fetch failed: ${err.cause.message}`;
  }
  return errorMessage(err);
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function pushTail(tail: string[], line: string): void {
  tail.push(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line);
  if (tail.length > STDERR_LINES) tail.shift();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Waits until `pid` has exited, sending SIGTERM after `graceMs` and SIGKILL after `graceMs` more; gives up
 * shortly after the SIGKILL (the kernel reaps it; its parent may be us, reaping through the SDK).
 */
async function stopProcess(pid: number, graceMs: number): Promise<void> {
  const start = Date.now();
  let signal: NodeJS.Signals | null = null;
  while (isRunning(pid)) {
    const waited = Date.now() - start;
    const next: NodeJS.Signals | null =
      waited >= 2 * graceMs ? "SIGKILL" : waited >= graceMs ? "SIGTERM" : null;
    if (next !== null && next !== signal) {
      signal = next;
      try {
        process.kill(pid, next);
      } catch {
        return;
      }
    }
    if (signal === "SIGKILL" && waited >= 2 * graceMs + 1000) return;
    // A timer that holds the event loop: waiting for a child to go must not let the process end first.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM means it exists but is not ours to signal: it is still running.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
