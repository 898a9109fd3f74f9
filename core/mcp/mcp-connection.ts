/**
 * One configured MCP server and its current connection: starting it (a stdio process, or Streamable HTTP / SSE),
 * listing its tools, noticing that it died, reconnecting, and stopping it. A reconnect replaces the client and the
 * transport wholesale, so a callback of an old connection can never touch the new one.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { DistillError, errorMessage } from "../errors.ts";
import type { Logger, ToolAnnotations, ToolDef } from "../types.ts";
import type { Semaphore } from "../util/semaphore.ts";
import { clip } from "../util/text.ts";
import { baseToolName } from "../util/tool-names.ts";
import type { ResolvedMcpServer } from "./mcp-config.ts";
import { connectFailureReason } from "./mcp-errors.ts";
import type { McpSdk } from "./mcp-sdk.ts";
import { stopProcess } from "./process-stop.ts";

/** What every connection of one toolkit shares: the SDK, the settings, the start bound and the stop signal. */
export interface ConnectionHost {
  readonly sdk: McpSdk;
  /** Working directory of stdio servers. */
  readonly cwd: string;
  /** Parent environment of stdio servers; each entry's `env` is added over it. */
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  readonly connectTimeoutMs: number;
  /** Bounds how many servers start at once. */
  readonly starts: Semaphore;
  /** Aborted when the toolkit closes or its caller's signal aborts: every pending start is given up. */
  readonly stop: AbortSignal;
  /** Throws once the toolkit is closing: a reconnect racing close() must not spawn a server nothing will stop. */
  assertOpen(): void;
  /** Hears the pid of a stdio server as it starts. */
  spawned(pid: number): void;
  /** Hears that a stdio server's process has exited. */
  exited(pid: number): void;
}

const CLIENT_INFO = { name: "tooldistill", version: "0.1.0" };
const STDERR_LINES = 20;
const STDERR_LINE_CHARS = 500;

/** One server and its current connection (replaced wholesale on reconnect). */
export class McpConnection {
  readonly name: string;
  readonly #config: ResolvedMcpServer;
  readonly #host: ConnectionHost;
  client: Client | null = null;
  #transport: Transport | null = null;
  /** The stdio server's process while it runs (starting included). */
  pid: number | null = null;
  /** False once the transport closed (a stdio server exited) or a request found the connection gone. */
  alive = false;
  tools: Tool[] = [];
  /** Why the last connection attempt failed; null once connected. */
  failure: string | null = null;
  #stderrTail: string[] = [];
  #connecting: Promise<void> | null = null;

  constructor(name: string, config: ResolvedMcpServer, host: ConnectionHost) {
    this.name = name;
    this.#config = config;
    this.#host = host;
  }

  /** Every listed tool as `<server>__<tool>`, with its MCP input schema and annotations. */
  toolDefs(): ToolDef[] {
    return this.tools.map((tool) => toToolDef(this.name, tool));
  }

  /** Connects unless alive; concurrent callers share one attempt. */
  ensure(): Promise<void> {
    if (this.alive) return Promise.resolve();
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  /** Lists the tools again over the current connection (nothing when there is none). */
  async relist(): Promise<void> {
    if (this.client === null) return;
    this.tools = await listAllTools(this.client, this.#host.connectTimeoutMs);
  }

  /** Asks the live server to answer within the connect timeout. */
  async ping(): Promise<void> {
    await this.client!.ping({ timeout: this.#host.connectTimeoutMs });
  }

  /** Stops for good: waits for a start under way, then closes the connection and stops the process. */
  async close(graceMs: number): Promise<void> {
    await this.#connecting?.catch(() => {});
    await this.#disconnect(graceMs);
  }

  async #open(): Promise<void> {
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

  async #start(signal: AbortSignal): Promise<void> {
    const { sdk, logger, connectTimeoutMs } = this.#host;
    this.#host.assertOpen();
    this.#stderrTail = [];
    const client = new sdk.Client(CLIENT_INFO, {
      listChanged: {
        tools: {
          autoRefresh: false,
          onChanged: () => {
            if (this.client === client) {
              this.relist().catch((err: unknown) => {
                logger.warn(`mcp server '${this.name}': re-listing tools failed: ${errorMessage(err)}`);
              });
            }
          },
        },
      },
    });
    client.onclose = () => {
      // An old connection closing after a reconnect must not mark the new one dead.
      if (this.client === client) this.alive = false;
    };
    client.onerror = (err) => {
      if (this.client === client) logger.warn(`mcp server '${this.name}': ${err.message}`);
    };
    let transport: Transport;
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
      // The SDK spawns a stdio server synchronously inside connect(): its pid is known while it starts, so a
      // server that hangs before answering initialize can still be stopped.
      if (transport instanceof sdk.StdioClientTransport && transport.pid !== null) {
        this.pid = transport.pid;
        this.#track(transport.pid, transport);
      }
      await connecting;
      this.tools = await listAllTools(client, connectTimeoutMs, signal);
      this.failure = null;
      // Alive only once listed: a concurrent ensure() must not route a call through a half-open server.
      this.alive = true;
    } catch (err) {
      this.failure = signal.aborted
        ? "connecting was stopped"
        : connectFailureReason(sdk, err, "initialize", connectTimeoutMs, this.#stderrTail);
      if (!signal.aborted) logger.warn(`mcp server '${this.name}' failed to connect: ${this.failure}`);
      // Stopping on purpose (close, or the caller's signal) must be quick: the server was never in use.
      await this.#disconnect(signal.aborted ? 200 : 1000);
      throw new DistillError("MCP", `mcp server '${this.name}' failed to connect: ${this.failure}`, {
        cause: err,
      });
    }
  }

  #newTransport(): Transport {
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
        stderr: "pipe",
      });
      let partial = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
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
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new DistillError(
        "CONFIG_INVALID",
        `url must start with http:// or https:// (got '${config.url}')`,
      );
    }
    const requestInit = { headers: config.headers };
    return config.type === "sse"
      ? new sdk.SSEClientTransport(url, { requestInit })
      : new sdk.StreamableHTTPClientTransport(url, { requestInit });
  }

  /** Keeps the last lines the server wrote on stderr: they say why a start failed. */
  #pushStderr(line: string): void {
    this.#stderrTail.push(clip(line, STDERR_LINE_CHARS));
    if (this.#stderrTail.length > STDERR_LINES) this.#stderrTail.shift();
  }

  /** Reports a started process, and its exit once the transport sees it. */
  #track(pid: number, transport: Transport): void {
    this.#host.spawned(pid);
    const prev = transport.onclose;
    transport.onclose = () => {
      this.#host.exited(pid);
      prev?.();
    };
  }

  /** Closes the current connection, if any, and makes sure a stdio child is gone, by pid. */
  async #disconnect(graceMs = 1000): Promise<void> {
    const { client, pid } = this;
    const transport = this.#transport;
    this.client = null;
    this.#transport = null;
    this.pid = null;
    this.alive = false;
    if (client === null) return;
    if (
      transport instanceof this.#host.sdk.StreamableHTTPClientTransport &&
      transport.sessionId !== undefined
    ) {
      // Lets the server free the session; a dead server must not delay closing.
      await Promise.race([transport.terminateSession().catch(() => {}), delay(1000)]);
    }
    // The SDK ends stdin and escalates on its own clock (2 s, then 2 s more); our escalation by pid runs beside it
    // on `graceMs`, so a server that ignores stdin and SIGTERM is still gone in about twice that.
    const closing = client.close().catch((err: unknown) => {
      this.#host.logger.warn(`mcp server '${this.name}': closing failed: ${errorMessage(err)}`);
    });
    if (pid !== null) {
      await stopProcess(pid, graceMs);
      this.#host.exited(pid);
    }
    await closing;
  }
}

function toToolDef(server: string, tool: Tool): ToolDef {
  const def: ToolDef = {
    name: baseToolName(server, tool.name),
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

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
