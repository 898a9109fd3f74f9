import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  mcpResultToValue,
  traceContextMeta
} from "./chunk-FCTBTAFV.js";
import {
  suggestion
} from "./chunk-PA5A5OBP.js";
import {
  stopProcess
} from "./chunk-QNKRPA2X.js";
import {
  baseToolName,
  splitBaseToolName
} from "./chunk-7GUC6VD2.js";
import {
  clip
} from "./chunk-DFWB4XA7.js";
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import {
  dangerousKeyProblem
} from "./chunk-6YXHXBUL.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/util/semaphore.ts
var Semaphore = class {
  #free;
  #waiting = [];
  /** At most `size` holders at once (at least 1). */
  constructor(size) {
    this.#free = Math.max(1, size);
  }
  /** Waits for a free place; rejects with the signal's reason when it aborts first. */
  async enter(signal) {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise((resolve, reject) => {
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
  /** Gives a place back, to the longest waiter if there is one. */
  leave() {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
};

// core/mcp/mcp-errors.ts
function isToolError(err) {
  return err instanceof DistillError && err.code === "MCP_TOOL";
}
function describeFailure(sdk, err) {
  if ((err instanceof sdk.StreamableHTTPError || err instanceof sdk.SseError) && err.code !== void 0) {
    return `HTTP ${err.code}: ${err.message}`;
  }
  if (err instanceof TypeError && err.message === "fetch failed" && err.cause instanceof Error) {
    return `fetch failed: ${err.cause.message}`;
  }
  return errorMessage(err);
}
function connectionGone(sdk, err) {
  if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.ConnectionClosed) return true;
  if (err instanceof TypeError && err.message === "fetch failed") return true;
  if (err instanceof sdk.StreamableHTTPError && err.code === 404) return true;
  return err instanceof Error && err.message === "Not connected";
}
function callFailure(sdk, name, err, callTimeoutMs) {
  if (err instanceof DistillError) return err;
  if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.RequestTimeout) {
    return new DistillError("MCP", `'${name}' timed out after ${callTimeoutMs} ms`, { cause: err });
  }
  return new DistillError("MCP", `'${name}' failed: ${describeFailure(sdk, err)}`, { cause: err });
}
function connectFailureReason(sdk, err, step, connectTimeoutMs, stderrTail) {
  let reason;
  if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.RequestTimeout) {
    reason = `timed out after ${connectTimeoutMs} ms waiting for ${step}`;
  } else if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.ConnectionClosed) {
    reason = `the server closed the connection during ${step}`;
  } else {
    reason = describeFailure(sdk, err);
  }
  const tail = stderrTail.filter((line) => line.trim() !== "");
  return tail.length === 0 ? reason : `${reason}; server stderr: ${tail.join(" | ")}`;
}

// core/mcp/mcp-connection.ts
var CLIENT_INFO = { name: "tooldistill", version: "0.1.0" };
var STDERR_LINES = 20;
var STDERR_LINE_CHARS = 500;
var McpConnection = class {
  name;
  #config;
  #host;
  client = null;
  #transport = null;
  /** The stdio server's process while it runs (starting included). */
  pid = null;
  /** False once the transport closed (a stdio server exited) or a request found the connection gone. */
  alive = false;
  tools = [];
  /** Why the last connection attempt failed; null once connected. */
  failure = null;
  #stderrTail = [];
  #connecting = null;
  constructor(name, config, host) {
    this.name = name;
    this.#config = config;
    this.#host = host;
  }
  /** Every listed tool as `<server>__<tool>`, with its MCP input schema and annotations. */
  toolDefs() {
    return this.tools.map((tool) => toToolDef(this.name, tool));
  }
  /** Connects unless alive; concurrent callers share one attempt. */
  ensure() {
    if (this.alive) return Promise.resolve();
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }
  /** Lists the tools again over the current connection (nothing when there is none). */
  async relist() {
    if (this.client === null) return;
    this.tools = await listAllTools(this.client, this.#host.connectTimeoutMs);
  }
  /** Asks the live server to answer within the connect timeout. */
  async ping() {
    await this.client.ping({ timeout: this.#host.connectTimeoutMs });
  }
  /** Stops for good: waits for a start under way, then closes the connection and stops the process. */
  async close(graceMs) {
    await this.#connecting?.catch(() => {
    });
    await this.#disconnect(graceMs);
  }
  async #open() {
    this.#host.assertOpen();
    await this.#disconnect();
    const signal = this.#host.stop;
    try {
      await this.#host.starts.enter(signal);
    } catch {
      this.failure = "connecting was stopped before the server started";
      throw new DistillError("MCP", `mcp server '${this.name}' was not started: ${this.failure}`);
    }
    try {
      await this.#start(signal);
    } finally {
      this.#host.starts.leave();
    }
  }
  async #start(signal) {
    const { sdk, logger, connectTimeoutMs } = this.#host;
    this.#host.assertOpen();
    this.#stderrTail = [];
    const client = new sdk.Client(CLIENT_INFO, {
      listChanged: {
        tools: {
          autoRefresh: false,
          onChanged: () => {
            if (this.client === client) {
              this.relist().catch((err) => {
                logger.warn(`mcp server '${this.name}': re-listing tools failed: ${errorMessage(err)}`);
              });
            }
          }
        }
      }
    });
    client.onclose = () => {
      if (this.client === client) this.alive = false;
    };
    client.onerror = (err) => {
      if (this.client === client) logger.warn(`mcp server '${this.name}': ${err.message}`);
    };
    let transport;
    try {
      transport = this.#newTransport();
    } catch (err) {
      this.failure = errorMessage(err);
      throw new DistillError("MCP", `mcp server '${this.name}' failed to connect: ${this.failure}`);
    }
    this.client = client;
    this.#transport = transport;
    try {
      const connecting = client.connect(transport, { timeout: connectTimeoutMs, signal });
      if (transport instanceof sdk.StdioClientTransport && transport.pid !== null) {
        this.pid = transport.pid;
        this.#track(transport.pid, transport);
      }
      await connecting;
      this.tools = await listAllTools(client, connectTimeoutMs, signal);
      this.failure = null;
      this.alive = true;
    } catch (err) {
      this.failure = signal.aborted ? "connecting was stopped" : connectFailureReason(sdk, err, "initialize", connectTimeoutMs, this.#stderrTail);
      if (!signal.aborted) logger.warn(`mcp server '${this.name}' failed to connect: ${this.failure}`);
      await this.#disconnect(signal.aborted ? 200 : 1e3);
      throw new DistillError("MCP", `mcp server '${this.name}' failed to connect: ${this.failure}`, {
        cause: err
      });
    }
  }
  #newTransport() {
    const { sdk } = this.#host;
    const config = this.#config;
    if (config.type === "stdio") {
      const transport = new sdk.StdioClientTransport({
        command: config.command,
        args: config.args,
        // The SDK's default passes only a handful of variables; Claude Code passes the whole parent env.
        env: { ...definedOnly(this.#host.env), ...config.env },
        cwd: this.#host.cwd,
        // Piped, never inherited: the caller's stdout/stderr may be a protocol stream (hooks, plugin server).
        stderr: "pipe"
      });
      let partial = "";
      transport.stderr?.on("data", (chunk) => {
        const lines = (partial + chunk.toString("utf8")).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) this.#pushStderr(line);
        if (partial.length > STDERR_LINE_CHARS) {
          this.#pushStderr(partial);
          partial = "";
        }
      });
      transport.stderr?.on("end", () => {
        if (partial !== "") this.#pushStderr(partial);
        partial = "";
      });
      return transport;
    }
    const url = URL.parse(config.url);
    if (url === null || url.protocol !== "http:" && url.protocol !== "https:") {
      throw new DistillError(
        "CONFIG_INVALID",
        `url must start with http:// or https:// (got '${config.url}')`
      );
    }
    const requestInit = { headers: config.headers };
    return config.type === "sse" ? new sdk.SSEClientTransport(url, { requestInit }) : new sdk.StreamableHTTPClientTransport(url, { requestInit });
  }
  /** Keeps the last lines the server wrote on stderr: they say why a start failed. */
  #pushStderr(line) {
    this.#stderrTail.push(clip(line, STDERR_LINE_CHARS));
    if (this.#stderrTail.length > STDERR_LINES) this.#stderrTail.shift();
  }
  /** Reports a started process, and its exit once the transport sees it. */
  #track(pid, transport) {
    this.#host.spawned(pid);
    const prev = transport.onclose;
    transport.onclose = () => {
      this.#host.exited(pid);
      prev?.();
    };
  }
  /** Closes the current connection, if any, and makes sure a stdio child is gone, by pid. */
  async #disconnect(graceMs = 1e3) {
    const { client, pid } = this;
    const transport = this.#transport;
    this.client = null;
    this.#transport = null;
    this.pid = null;
    this.alive = false;
    if (client === null) return;
    if (transport instanceof this.#host.sdk.StreamableHTTPClientTransport && transport.sessionId !== void 0) {
      await Promise.race([transport.terminateSession().catch(() => {
      }), delay(1e3)]);
    }
    const closing = client.close().catch((err) => {
      this.#host.logger.warn(`mcp server '${this.name}': closing failed: ${errorMessage(err)}`);
    });
    if (pid !== null) {
      await stopProcess(pid, graceMs);
      this.#host.exited(pid);
    }
    await closing;
  }
};
function toToolDef(server, tool) {
  const def = {
    name: baseToolName(server, tool.name),
    description: tool.description ?? "",
    input_schema: tool.inputSchema
  };
  if (tool.annotations !== void 0) {
    const annotations = {};
    const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
    if (title !== void 0) annotations.title = title;
    if (readOnlyHint !== void 0) annotations.readOnlyHint = readOnlyHint;
    if (destructiveHint !== void 0) annotations.destructiveHint = destructiveHint;
    if (idempotentHint !== void 0) annotations.idempotentHint = idempotentHint;
    if (openWorldHint !== void 0) annotations.openWorldHint = openWorldHint;
    def.annotations = annotations;
  }
  return def;
}
async function listAllTools(client, timeout, signal) {
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor === void 0 ? {} : { cursor }, {
      timeout,
      ...signal ? { signal } : {}
    });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== void 0);
  return tools;
}
function definedOnly(env) {
  const out = {};
  for (const [key, value] of Object.entries(env)) if (value !== void 0) out[key] = value;
  return out;
}
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

// core/mcp/mcp-sdk.ts
var loading;
function loadMcpSdk() {
  loading ??= Promise.all([
    import("./client-IRZBPKAH.js"),
    import("./sse-YCNSI73O.js"),
    import("./stdio-JLM7EEFB.js"),
    import("./streamableHttp-OY2GZOWU.js"),
    import("./types-GNAVOUMG.js")
  ]).then(([client, sse, stdio, http, types]) => ({
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode
  }));
  return loading;
}

// core/mcp/mcp-toolkit.ts
var MAX_CONCURRENT_STARTS = 8;
var MCPToolkit = class _MCPToolkit {
  #servers = /* @__PURE__ */ new Map();
  #sdk;
  #logger;
  #callTimeoutMs;
  /** Aborted by `close()` or the caller's signal: every pending start is given up. */
  #stop = new AbortController();
  /** Every stdio server process started and not yet seen to exit. */
  #pids = /* @__PURE__ */ new Set();
  #closing = null;
  /** Calls a base tool by its library name `<server>__<tool>`; `isError` results and failures throw. */
  executor = (name, args) => this.#call(name, args);
  /** True when the tool's server answers (reconnecting it if needed) and still lists the tool. */
  probe = (name) => this.#probe(name);
  constructor(options, sdk) {
    this.#sdk = sdk;
    this.#logger = options.logger ?? silentLogger;
    this.#callTimeoutMs = options.callTimeoutMs ?? 6e4;
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) this.#stop.abort(signal.reason);
      else signal.addEventListener("abort", () => this.#stop.abort(signal.reason), { once: true });
    }
    const onSpawn = options.onSpawn;
    const host = {
      sdk,
      cwd: options.cwd,
      env: options.env ?? process.env,
      logger: this.#logger,
      connectTimeoutMs: options.connectTimeoutMs ?? 3e4,
      starts: new Semaphore(options.maxConcurrentStarts ?? MAX_CONCURRENT_STARTS),
      stop: this.#stop.signal,
      assertOpen: () => this.#assertOpen(),
      spawned: (pid) => {
        this.#pids.add(pid);
        onSpawn?.(pid);
      },
      exited: (pid) => this.#pids.delete(pid)
    };
    for (const [name, config] of Object.entries(options.servers)) {
      this.#servers.set(name, new McpConnection(name, config, host));
    }
  }
  /**
   * Connects to every server, at most `maxConcurrentStarts` starting at once; a server that fails is listed in
   * `failures`, never thrown. When `signal` aborts, the servers started so far are stopped and this rejects.
   */
  static async connect(options) {
    const toolkit = new _MCPToolkit(options, await loadMcpSdk());
    await Promise.all([...toolkit.#servers.values()].map((server) => server.ensure().catch(() => {
    })));
    if (options.signal?.aborted) {
      await toolkit.close({ graceMs: 200 });
      throw new DistillError("MCP", "connecting to the MCP servers was stopped");
    }
    return toolkit;
  }
  /** Pids of the stdio server processes this toolkit started that have not exited (starting ones included). */
  pids() {
    return [...this.#pids];
  }
  /** Every listed tool as `<server>__<tool>`, with its MCP input schema and annotations. */
  get tools() {
    return [...this.#servers.values()].flatMap((server) => server.toolDefs());
  }
  /** Servers whose last connection attempt failed, with the reason. */
  get failures() {
    const failures = [];
    for (const server of this.#servers.values()) {
      if (server.failure !== null) failures.push({ server: server.name, reason: server.failure });
    }
    return failures;
  }
  /** The pid of a stdio server's current process (null when not running): for diagnostics and tests. */
  serverPid(server) {
    const connection = this.#servers.get(server);
    return connection?.alive ? connection.pid : null;
  }
  /** Lists every server's tools again, reconnecting servers that died or failed before. */
  async refreshTools() {
    this.#assertOpen();
    await Promise.all(
      [...this.#servers.values()].map(async (server) => {
        try {
          await server.ensure();
          await server.relist();
        } catch (err) {
          this.#logger.warn(`mcp server '${server.name}': cannot list tools: ${errorMessage(err)}`);
        }
      })
    );
    return this.tools;
  }
  /**
   * Closes every connection and stops every stdio server it started, by pid: stdin closed, then SIGTERM after
   * `graceMs`, then SIGKILL after `graceMs` more; servers still starting are given up at once. Resolves when every
   * process has exited. Safe to call more than once.
   */
  close(options = {}) {
    const graceMs = options.graceMs ?? 1e3;
    this.#closing ??= (async () => {
      this.#stop.abort(new DistillError("MCP", "the MCP toolkit is closing"));
      await Promise.all([...this.#servers.values()].map((server) => server.close(graceMs)));
      await Promise.all(this.pids().map((pid) => stopProcess(pid, graceMs)));
    })();
    return this.#closing;
  }
  #assertOpen() {
    if (this.#closing !== null) throw new DistillError("MCP", "the MCP toolkit is closed");
  }
  /** Finds the server and tool of a library name, connecting the server first when it is down. */
  async #route(name) {
    const parts = splitBaseToolName(name);
    const server = parts === null ? void 0 : this.#servers.get(parts.server);
    if (parts === null || server === void 0) {
      const stripped = name.startsWith("mcp__") ? name.slice("mcp__".length) : null;
      const hint = stripped !== null && this.tools.some((t) => t.name === stripped) ? ` (did you mean '${stripped}'?)` : suggestion(
        name,
        this.tools.map((t) => t.name)
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
          `cannot call '${name}': mcp server '${server.name}' is not connected: ${server.failure}`
        );
      }
      if (wasConnected) this.#logger.info(`mcp server '${server.name}' had stopped; reconnected`);
    }
    const tool = server.tools.find((t) => t.name === parts.tool);
    if (tool === void 0) {
      const listed = server.toolDefs().map((t) => t.name);
      throw new DistillError(
        "MCP",
        `no MCP tool '${name}': server '${server.name}' does not list '${parts.tool}'${suggestion(name, listed)}`
      );
    }
    return { server, tool };
  }
  async #call(name, args) {
    this.#assertOpen();
    const dangerous = dangerousKeyProblem(args);
    if (dangerous !== null) throw new DistillError("SCHEMA", `'${name}' was not called: ${dangerous}`);
    const { server, tool } = await this.#route(name);
    const client = server.client;
    let lost;
    try {
      return mcpResultToValue(await this.#request(client, tool.name, args));
    } catch (err) {
      if (isToolError(err) || !this.#connectionLost(server, client, err)) {
        throw callFailure(this.#sdk, name, err, this.#callTimeoutMs);
      }
      lost = err;
    }
    this.#logger.warn(
      `mcp server '${server.name}' lost its connection during '${name}' (${describeFailure(this.#sdk, lost)}); reconnecting`
    );
    if (server.client === client) server.alive = false;
    try {
      await server.ensure();
    } catch {
      throw new DistillError(
        "MCP",
        `mcp server '${server.name}' lost its connection during '${name}' and could not be restarted: ${server.failure}`,
        { cause: lost }
      );
    }
    if (tool.annotations?.readOnlyHint !== true) {
      throw new DistillError(
        "MCP",
        `mcp server '${server.name}' lost its connection during '${name}'; the server was reconnected but the call was not retried because it may have side effects (the tool is not annotated readOnlyHint). Check whether it took effect before calling it again.`,
        { cause: lost }
      );
    }
    try {
      return mcpResultToValue(await this.#request(server.client, tool.name, args));
    } catch (err) {
      throw callFailure(this.#sdk, name, err, this.#callTimeoutMs);
    }
  }
  async #request(client, tool, args) {
    const meta = traceContextMeta();
    const params = Object.keys(meta).length ? { name: tool, arguments: args, _meta: meta } : { name: tool, arguments: args };
    const result = await client.callTool(params, void 0, {
      timeout: this.#callTimeoutMs
    });
    return result;
  }
  /** Whether a failed request means the connection is gone: replaced, marked dead, or an error that says so. */
  #connectionLost(server, client, err) {
    if (server.client !== client || !server.alive) return true;
    return connectionGone(this.#sdk, err);
  }
  async #probe(name) {
    if (this.#closing !== null) return false;
    const parts = splitBaseToolName(name);
    const server = parts === null ? void 0 : this.#servers.get(parts.server);
    if (parts === null || server === void 0) return false;
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
};

export {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
};
