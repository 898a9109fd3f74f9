import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  sessionRecorder
} from "./chunk-ICWJNCPN.js";
import "./chunk-HZDX3NIU.js";
import {
  AjvJsonSchemaValidator,
  Protocol,
  assertClientRequestTaskCapability,
  assertToolsCallTaskCapability,
  getLiteralValue,
  getObjectShape,
  mergeCapabilities,
  safeParse
} from "./chunk-7Z2IEFVZ.js";
import {
  OfferReader
} from "./chunk-6XGZWFWT.js";
import "./chunk-BD5LZ5WU.js";
import {
  loadMcpServers
} from "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import {
  ToolDistill
} from "./chunk-ASUB56OA.js";
import {
  findConfig,
  loadConfig,
  localFolder
} from "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-RTC3Y7I5.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-UEVEZT5O.js";
import "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import {
  PROPOSE_TOOL_NAME
} from "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import {
  errorMessage
} from "./chunk-WEYMVVQ3.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
  EmptyResultSchema,
  ErrorCode,
  InitializeRequestSchema,
  InitializedNotificationSchema,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  SetLevelRequestSchema
} from "./chunk-BKYE4L7D.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// server/stdio-transport.ts
var MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
var EDGE_BYTES = 512;
var TdStdioTransport = class {
  onclose;
  onerror;
  onmessage;
  #stdin;
  #stdout;
  #max;
  #log;
  #pending = [];
  #pendingBytes = 0;
  /** Set while the rest of an oversized line is skipped: its first and last bytes and how long it is. */
  #skipping = null;
  #closed = false;
  constructor(stdin, stdout, options) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.#log = options.log;
  }
  #onData = (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, nl));
      this.#endOfLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  };
  #onEnd = () => {
    void this.close();
  };
  #onError = (error) => {
    this.#log(`tooldistill td: stdin failed: ${error.message}`);
    this.onerror?.(error);
  };
  /** Adds bytes of the current line, switching to skipping once the line passes the limit. */
  #take(part) {
    if (this.#skipping) {
      this.#skipping.bytes += part.length;
      this.#skipping.tail = Buffer.concat([this.#skipping.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    this.#pending.push(part);
    this.#pendingBytes += part.length;
    if (this.#pendingBytes > this.#max) {
      const all = Buffer.concat(this.#pending);
      this.#skipping = {
        head: all.subarray(0, EDGE_BYTES),
        tail: all.subarray(-EDGE_BYTES),
        bytes: all.length
      };
      this.#pending = [];
      this.#pendingBytes = 0;
    }
  }
  #endOfLine() {
    if (this.#skipping) {
      const { head, tail, bytes } = this.#skipping;
      this.#skipping = null;
      this.#reject(oversized(head.toString("utf8"), tail.toString("utf8"), bytes, this.#max));
      return;
    }
    const line = Buffer.concat(this.#pending).toString("utf8").replace(/\r$/, "");
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line.trim() === "") return;
    let message;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (err) {
      this.#reject({
        id: idOf(line.slice(0, EDGE_BYTES), line.slice(-EDGE_BYTES)),
        code: -32700,
        message: `tooldistill td: a message is not valid JSON-RPC (${err instanceof Error ? err.message.split("\n")[0] : String(err)}); it was ignored`
      });
      return;
    }
    this.onmessage?.(message);
  }
  /** Logs a message that cannot be served and answers it with an error when its id is known. */
  #reject(r) {
    this.#log(r.id === null ? `${r.message} (no id could be read, so it gets no reply)` : r.message);
    if (r.id === null) return;
    void this.send({ jsonrpc: "2.0", id: r.id, error: { code: r.code, message: r.message } });
  }
  async start() {
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("end", this.#onEnd);
    this.#stdin.on("close", this.#onEnd);
    this.#stdin.on("error", this.#onError);
  }
  send(message) {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}
`)) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("end", this.#onEnd);
    this.#stdin.off("close", this.#onEnd);
    this.#stdin.off("error", this.#onError);
    this.onclose?.();
  }
};
function idOf(head, tail) {
  const last = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
  const first = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  const raw = last?.[1] ?? first?.[1];
  if (raw === void 0) return null;
  return JSON.parse(raw);
}
function oversized(head, tail, bytes, max) {
  const mb = (n) => `${Number((n / (1024 * 1024)).toFixed(1))} MB`;
  return {
    id: idOf(head, tail),
    code: -32600,
    message: `tooldistill td: a request of ${mb(bytes)} is over the ${mb(max)} limit of one message, so it was not run; send less in one call (a smaller input, or a reference to the data instead of the data)`
  };
}

// node_modules/@modelcontextprotocol/sdk/dist/esm/experimental/tasks/server.js
var ExperimentalServerTasks = class {
  constructor(_server) {
    this._server = _server;
  }
  /**
   * Sends a request and returns an AsyncGenerator that yields response messages.
   * The generator is guaranteed to end with either a 'result' or 'error' message.
   *
   * This method provides streaming access to request processing, allowing you to
   * observe intermediate task status updates for task-augmented requests.
   *
   * @param request - The request to send
   * @param resultSchema - Zod schema for validating the result
   * @param options - Optional request options (timeout, signal, task creation params, etc.)
   * @returns AsyncGenerator that yields ResponseMessage objects
   *
   * @experimental
   */
  requestStream(request, resultSchema, options) {
    return this._server.requestStream(request, resultSchema, options);
  }
  /**
   * Sends a sampling request and returns an AsyncGenerator that yields response messages.
   * The generator is guaranteed to end with either a 'result' or 'error' message.
   *
   * For task-augmented requests, yields 'taskCreated' and 'taskStatus' messages
   * before the final result.
   *
   * @example
   * ```typescript
   * const stream = server.experimental.tasks.createMessageStream({
   *     messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }],
   *     maxTokens: 100
   * }, {
   *     onprogress: (progress) => {
   *         // Handle streaming tokens via progress notifications
   *         console.log('Progress:', progress.message);
   *     }
   * });
   *
   * for await (const message of stream) {
   *     switch (message.type) {
   *         case 'taskCreated':
   *             console.log('Task created:', message.task.taskId);
   *             break;
   *         case 'taskStatus':
   *             console.log('Task status:', message.task.status);
   *             break;
   *         case 'result':
   *             console.log('Final result:', message.result);
   *             break;
   *         case 'error':
   *             console.error('Error:', message.error);
   *             break;
   *     }
   * }
   * ```
   *
   * @param params - The sampling request parameters
   * @param options - Optional request options (timeout, signal, task creation params, onprogress, etc.)
   * @returns AsyncGenerator that yields ResponseMessage objects
   *
   * @experimental
   */
  createMessageStream(params, options) {
    const clientCapabilities = this._server.getClientCapabilities();
    if ((params.tools || params.toolChoice) && !clientCapabilities?.sampling?.tools) {
      throw new Error("Client does not support sampling tools capability.");
    }
    if (params.messages.length > 0) {
      const lastMessage = params.messages[params.messages.length - 1];
      const lastContent = Array.isArray(lastMessage.content) ? lastMessage.content : [lastMessage.content];
      const hasToolResults = lastContent.some((c) => c.type === "tool_result");
      const previousMessage = params.messages.length > 1 ? params.messages[params.messages.length - 2] : void 0;
      const previousContent = previousMessage ? Array.isArray(previousMessage.content) ? previousMessage.content : [previousMessage.content] : [];
      const hasPreviousToolUse = previousContent.some((c) => c.type === "tool_use");
      if (hasToolResults) {
        if (lastContent.some((c) => c.type !== "tool_result")) {
          throw new Error("The last message must contain only tool_result content if any is present");
        }
        if (!hasPreviousToolUse) {
          throw new Error("tool_result blocks are not matching any tool_use from the previous message");
        }
      }
      if (hasPreviousToolUse) {
        const toolUseIds = new Set(previousContent.filter((c) => c.type === "tool_use").map((c) => c.id));
        const toolResultIds = new Set(lastContent.filter((c) => c.type === "tool_result").map((c) => c.toolUseId));
        if (toolUseIds.size !== toolResultIds.size || ![...toolUseIds].every((id) => toolResultIds.has(id))) {
          throw new Error("ids of tool_result blocks and tool_use blocks from previous message do not match");
        }
      }
    }
    return this.requestStream({
      method: "sampling/createMessage",
      params
    }, CreateMessageResultSchema, options);
  }
  /**
   * Sends an elicitation request and returns an AsyncGenerator that yields response messages.
   * The generator is guaranteed to end with either a 'result' or 'error' message.
   *
   * For task-augmented requests (especially URL-based elicitation), yields 'taskCreated'
   * and 'taskStatus' messages before the final result.
   *
   * @example
   * ```typescript
   * const stream = server.experimental.tasks.elicitInputStream({
   *     mode: 'url',
   *     message: 'Please authenticate',
   *     elicitationId: 'auth-123',
   *     url: 'https://example.com/auth'
   * }, {
   *     task: { ttl: 300000 } // Task-augmented for long-running auth flow
   * });
   *
   * for await (const message of stream) {
   *     switch (message.type) {
   *         case 'taskCreated':
   *             console.log('Task created:', message.task.taskId);
   *             break;
   *         case 'taskStatus':
   *             console.log('Task status:', message.task.status);
   *             break;
   *         case 'result':
   *             console.log('User action:', message.result.action);
   *             break;
   *         case 'error':
   *             console.error('Error:', message.error);
   *             break;
   *     }
   * }
   * ```
   *
   * @param params - The elicitation request parameters
   * @param options - Optional request options (timeout, signal, task creation params, etc.)
   * @returns AsyncGenerator that yields ResponseMessage objects
   *
   * @experimental
   */
  elicitInputStream(params, options) {
    const clientCapabilities = this._server.getClientCapabilities();
    const mode = params.mode ?? "form";
    switch (mode) {
      case "url": {
        if (!clientCapabilities?.elicitation?.url) {
          throw new Error("Client does not support url elicitation.");
        }
        break;
      }
      case "form": {
        if (!clientCapabilities?.elicitation?.form) {
          throw new Error("Client does not support form elicitation.");
        }
        break;
      }
    }
    const normalizedParams = mode === "form" && params.mode === void 0 ? { ...params, mode: "form" } : params;
    return this.requestStream({
      method: "elicitation/create",
      params: normalizedParams
    }, ElicitResultSchema, options);
  }
  /**
   * Gets the current status of a task.
   *
   * @param taskId - The task identifier
   * @param options - Optional request options
   * @returns The task status
   *
   * @experimental
   */
  async getTask(taskId, options) {
    return this._server.getTask({ taskId }, options);
  }
  /**
   * Retrieves the result of a completed task.
   *
   * @param taskId - The task identifier
   * @param resultSchema - Zod schema for validating the result
   * @param options - Optional request options
   * @returns The task result
   *
   * @experimental
   */
  async getTaskResult(taskId, resultSchema, options) {
    return this._server.getTaskResult({ taskId }, resultSchema, options);
  }
  /**
   * Lists tasks with optional pagination.
   *
   * @param cursor - Optional pagination cursor
   * @param options - Optional request options
   * @returns List of tasks with optional next cursor
   *
   * @experimental
   */
  async listTasks(cursor, options) {
    return this._server.listTasks(cursor ? { cursor } : void 0, options);
  }
  /**
   * Cancels a running task.
   *
   * @param taskId - The task identifier
   * @param options - Optional request options
   *
   * @experimental
   */
  async cancelTask(taskId, options) {
    return this._server.cancelTask({ taskId }, options);
  }
};

// node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js
var Server = class extends Protocol {
  /**
   * Initializes this server with the given name and version information.
   */
  constructor(_serverInfo, options) {
    super(options);
    this._serverInfo = _serverInfo;
    this._loggingLevels = /* @__PURE__ */ new Map();
    this.LOG_LEVEL_SEVERITY = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));
    this.isMessageIgnored = (level, sessionId) => {
      const currentLevel = this._loggingLevels.get(sessionId);
      return currentLevel ? this.LOG_LEVEL_SEVERITY.get(level) < this.LOG_LEVEL_SEVERITY.get(currentLevel) : false;
    };
    this._capabilities = options?.capabilities ?? {};
    this._instructions = options?.instructions;
    this._jsonSchemaValidator = options?.jsonSchemaValidator ?? new AjvJsonSchemaValidator();
    this.setRequestHandler(InitializeRequestSchema, (request) => this._oninitialize(request));
    this.setNotificationHandler(InitializedNotificationSchema, () => this.oninitialized?.());
    if (this._capabilities.logging) {
      this.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
        const transportSessionId = extra.sessionId || extra.requestInfo?.headers["mcp-session-id"] || void 0;
        const { level } = request.params;
        const parseResult = LoggingLevelSchema.safeParse(level);
        if (parseResult.success) {
          this._loggingLevels.set(transportSessionId, parseResult.data);
        }
        return {};
      });
    }
  }
  /**
   * Access experimental features.
   *
   * WARNING: These APIs are experimental and may change without notice.
   *
   * @experimental
   */
  get experimental() {
    if (!this._experimental) {
      this._experimental = {
        tasks: new ExperimentalServerTasks(this)
      };
    }
    return this._experimental;
  }
  /**
   * Registers new capabilities. This can only be called before connecting to a transport.
   *
   * The new capabilities will be merged with any existing capabilities previously given (e.g., at initialization).
   */
  registerCapabilities(capabilities) {
    if (this.transport) {
      throw new Error("Cannot register capabilities after connecting to transport");
    }
    this._capabilities = mergeCapabilities(this._capabilities, capabilities);
  }
  /**
   * Override request handler registration to enforce server-side validation for tools/call.
   */
  setRequestHandler(requestSchema, handler) {
    const shape = getObjectShape(requestSchema);
    const methodSchema = shape?.method;
    if (!methodSchema) {
      throw new Error("Schema is missing a method literal");
    }
    const methodValue = getLiteralValue(methodSchema);
    if (typeof methodValue !== "string") {
      throw new Error("Schema method literal must be a string");
    }
    const method = methodValue;
    if (method === "tools/call") {
      const wrappedHandler = async (request, extra) => {
        const validatedRequest = safeParse(CallToolRequestSchema, request);
        if (!validatedRequest.success) {
          const errorMessage2 = validatedRequest.error instanceof Error ? validatedRequest.error.message : String(validatedRequest.error);
          throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call request: ${errorMessage2}`);
        }
        const { params } = validatedRequest.data;
        const result = await Promise.resolve(handler(request, extra));
        if (params.task) {
          const taskValidationResult = safeParse(CreateTaskResultSchema, result);
          if (!taskValidationResult.success) {
            const errorMessage2 = taskValidationResult.error instanceof Error ? taskValidationResult.error.message : String(taskValidationResult.error);
            throw new McpError(ErrorCode.InvalidParams, `Invalid task creation result: ${errorMessage2}`);
          }
          return taskValidationResult.data;
        }
        const validationResult = safeParse(CallToolResultSchema, result);
        if (!validationResult.success) {
          const errorMessage2 = validationResult.error instanceof Error ? validationResult.error.message : String(validationResult.error);
          throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${errorMessage2}`);
        }
        return validationResult.data;
      };
      return super.setRequestHandler(requestSchema, wrappedHandler);
    }
    return super.setRequestHandler(requestSchema, handler);
  }
  assertCapabilityForMethod(method) {
    switch (method) {
      case "sampling/createMessage":
        if (!this._clientCapabilities?.sampling) {
          throw new Error(`Client does not support sampling (required for ${method})`);
        }
        break;
      case "elicitation/create":
        if (!this._clientCapabilities?.elicitation) {
          throw new Error(`Client does not support elicitation (required for ${method})`);
        }
        break;
      case "roots/list":
        if (!this._clientCapabilities?.roots) {
          throw new Error(`Client does not support listing roots (required for ${method})`);
        }
        break;
      case "ping":
        break;
    }
  }
  assertNotificationCapability(method) {
    switch (method) {
      case "notifications/message":
        if (!this._capabilities.logging) {
          throw new Error(`Server does not support logging (required for ${method})`);
        }
        break;
      case "notifications/resources/updated":
      case "notifications/resources/list_changed":
        if (!this._capabilities.resources) {
          throw new Error(`Server does not support notifying about resources (required for ${method})`);
        }
        break;
      case "notifications/tools/list_changed":
        if (!this._capabilities.tools) {
          throw new Error(`Server does not support notifying of tool list changes (required for ${method})`);
        }
        break;
      case "notifications/prompts/list_changed":
        if (!this._capabilities.prompts) {
          throw new Error(`Server does not support notifying of prompt list changes (required for ${method})`);
        }
        break;
      case "notifications/elicitation/complete":
        if (!this._clientCapabilities?.elicitation?.url) {
          throw new Error(`Client does not support URL elicitation (required for ${method})`);
        }
        break;
      case "notifications/cancelled":
        break;
      case "notifications/progress":
        break;
    }
  }
  assertRequestHandlerCapability(method) {
    if (!this._capabilities) {
      return;
    }
    switch (method) {
      case "completion/complete":
        if (!this._capabilities.completions) {
          throw new Error(`Server does not support completions (required for ${method})`);
        }
        break;
      case "logging/setLevel":
        if (!this._capabilities.logging) {
          throw new Error(`Server does not support logging (required for ${method})`);
        }
        break;
      case "prompts/get":
      case "prompts/list":
        if (!this._capabilities.prompts) {
          throw new Error(`Server does not support prompts (required for ${method})`);
        }
        break;
      case "resources/list":
      case "resources/templates/list":
      case "resources/read":
        if (!this._capabilities.resources) {
          throw new Error(`Server does not support resources (required for ${method})`);
        }
        break;
      case "tools/call":
      case "tools/list":
        if (!this._capabilities.tools) {
          throw new Error(`Server does not support tools (required for ${method})`);
        }
        break;
      case "tasks/get":
      case "tasks/list":
      case "tasks/result":
      case "tasks/cancel":
        if (!this._capabilities.tasks) {
          throw new Error(`Server does not support tasks capability (required for ${method})`);
        }
        break;
      case "ping":
      case "initialize":
        break;
    }
  }
  assertTaskCapability(method) {
    assertClientRequestTaskCapability(this._clientCapabilities?.tasks?.requests, method, "Client");
  }
  assertTaskHandlerCapability(method) {
    if (!this._capabilities) {
      return;
    }
    assertToolsCallTaskCapability(this._capabilities.tasks?.requests, method, "Server");
  }
  async _oninitialize(request) {
    const requestedVersion = request.params.protocolVersion;
    this._clientCapabilities = request.params.capabilities;
    this._clientVersion = request.params.clientInfo;
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion) ? requestedVersion : LATEST_PROTOCOL_VERSION;
    return {
      protocolVersion,
      capabilities: this.getCapabilities(),
      serverInfo: this._serverInfo,
      ...this._instructions && { instructions: this._instructions }
    };
  }
  /**
   * After initialization has completed, this will be populated with the client's reported capabilities.
   */
  getClientCapabilities() {
    return this._clientCapabilities;
  }
  /**
   * After initialization has completed, this will be populated with information about the client's name and version.
   */
  getClientVersion() {
    return this._clientVersion;
  }
  getCapabilities() {
    return this._capabilities;
  }
  async ping() {
    return this.request({ method: "ping" }, EmptyResultSchema);
  }
  // Implementation
  async createMessage(params, options) {
    if (params.tools || params.toolChoice) {
      if (!this._clientCapabilities?.sampling?.tools) {
        throw new Error("Client does not support sampling tools capability.");
      }
    }
    if (params.messages.length > 0) {
      const lastMessage = params.messages[params.messages.length - 1];
      const lastContent = Array.isArray(lastMessage.content) ? lastMessage.content : [lastMessage.content];
      const hasToolResults = lastContent.some((c) => c.type === "tool_result");
      const previousMessage = params.messages.length > 1 ? params.messages[params.messages.length - 2] : void 0;
      const previousContent = previousMessage ? Array.isArray(previousMessage.content) ? previousMessage.content : [previousMessage.content] : [];
      const hasPreviousToolUse = previousContent.some((c) => c.type === "tool_use");
      if (hasToolResults) {
        if (lastContent.some((c) => c.type !== "tool_result")) {
          throw new Error("The last message must contain only tool_result content if any is present");
        }
        if (!hasPreviousToolUse) {
          throw new Error("tool_result blocks are not matching any tool_use from the previous message");
        }
      }
      if (hasPreviousToolUse) {
        const toolUseIds = new Set(previousContent.filter((c) => c.type === "tool_use").map((c) => c.id));
        const toolResultIds = new Set(lastContent.filter((c) => c.type === "tool_result").map((c) => c.toolUseId));
        if (toolUseIds.size !== toolResultIds.size || ![...toolUseIds].every((id) => toolResultIds.has(id))) {
          throw new Error("ids of tool_result blocks and tool_use blocks from previous message do not match");
        }
      }
    }
    if (params.tools) {
      return this.request({ method: "sampling/createMessage", params }, CreateMessageResultWithToolsSchema, options);
    }
    return this.request({ method: "sampling/createMessage", params }, CreateMessageResultSchema, options);
  }
  /**
   * Creates an elicitation request for the given parameters.
   * For backwards compatibility, `mode` may be omitted for form requests and will default to `'form'`.
   * @param params The parameters for the elicitation request.
   * @param options Optional request options.
   * @returns The result of the elicitation request.
   */
  async elicitInput(params, options) {
    const mode = params.mode ?? "form";
    switch (mode) {
      case "url": {
        if (!this._clientCapabilities?.elicitation?.url) {
          throw new Error("Client does not support url elicitation.");
        }
        const urlParams = params;
        return this.request({ method: "elicitation/create", params: urlParams }, ElicitResultSchema, options);
      }
      case "form": {
        if (!this._clientCapabilities?.elicitation?.form) {
          throw new Error("Client does not support form elicitation.");
        }
        const formParams = params.mode === "form" ? params : { ...params, mode: "form" };
        const result = await this.request({ method: "elicitation/create", params: formParams }, ElicitResultSchema, options);
        if (result.action === "accept" && result.content && formParams.requestedSchema) {
          try {
            const validator = this._jsonSchemaValidator.getValidator(formParams.requestedSchema);
            const validationResult = validator(result.content);
            if (!validationResult.valid) {
              throw new McpError(ErrorCode.InvalidParams, `Elicitation response content does not match requested schema: ${validationResult.errorMessage}`);
            }
          } catch (error) {
            if (error instanceof McpError) {
              throw error;
            }
            throw new McpError(ErrorCode.InternalError, `Error validating elicitation response: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        return result;
      }
    }
  }
  /**
   * Creates a reusable callback that, when invoked, will send a `notifications/elicitation/complete`
   * notification for the specified elicitation ID.
   *
   * @param elicitationId The ID of the elicitation to mark as complete.
   * @param options Optional notification options. Useful when the completion notification should be related to a prior request.
   * @returns A function that emits the completion notification when awaited.
   */
  createElicitationCompletionNotifier(elicitationId, options) {
    if (!this._clientCapabilities?.elicitation?.url) {
      throw new Error("Client does not support URL elicitation (required for notifications/elicitation/complete)");
    }
    return () => this.notification({
      method: "notifications/elicitation/complete",
      params: {
        elicitationId
      }
    }, options);
  }
  async listRoots(params, options) {
    return this.request({ method: "roots/list", params }, ListRootsResultSchema, options);
  }
  /**
   * Sends a logging message to the client, if connected.
   * Note: You only need to send the parameters object, not the entire JSON RPC message
   * @see LoggingMessageNotification
   * @param params
   * @param sessionId optional for stateless and backward compatibility
   */
  async sendLoggingMessage(params, sessionId) {
    if (this._capabilities.logging) {
      if (!this.isMessageIgnored(params.level, sessionId)) {
        return this.notification({ method: "notifications/message", params });
      }
    }
  }
  async sendResourceUpdated(params) {
    return this.notification({
      method: "notifications/resources/updated",
      params
    });
  }
  async sendResourceListChanged() {
    return this.notification({
      method: "notifications/resources/list_changed"
    });
  }
  async sendToolListChanged() {
    return this.notification({ method: "notifications/tools/list_changed" });
  }
  async sendPromptListChanged() {
    return this.notification({ method: "notifications/prompts/list_changed" });
  }
};

// server/tool-list.ts
var ALWAYS_LOAD_META = "anthropic/alwaysLoad";
function mcpTool(t, alwaysLoad) {
  return {
    name: t.name,
    description: t.description,
    inputSchema: { ...t.input_schema, type: "object" },
    ...alwaysLoad ? { _meta: { [ALWAYS_LOAD_META]: true } } : {}
  };
}
function listedTools(offer) {
  return { tools: [mcpTool(offer.propose, false), ...offer.distilled.map((t) => mcpTool(t, true))] };
}
function listSignature(tools) {
  return tools.map((t) => `${t.name}:${t.description}`).sort().join("\n");
}

// server/td-server.ts
var TOOL_USE_ID_META = "claudecode/toolUseId";
function text(content, isError) {
  return { content: [{ type: "text", text: content }], isError };
}
var TdServer = class {
  /** The MCP server. */
  server;
  /** Resolves once the project's config and base servers are loaded (or failed to load). */
  ready;
  #options;
  #logger;
  /** Aborts a start-up still connecting to base servers. */
  #stopping = new AbortController();
  /** Every base server process started (some may have exited). */
  #pids = /* @__PURE__ */ new Set();
  /** The project's config, once read; null when there is none or it is broken (`#problem` says which). */
  #configured;
  /** Why calls cannot be served: no config, a broken one, a start that failed. */
  #problem = null;
  /** Where the list comes from until the library runs. */
  #early = null;
  #running = null;
  /** The distilled tools as the client last saw them: the library's change of them is announced, not a repeat. */
  #listed = "";
  #poll = null;
  /** The pass over spilled hook events running now: one at a time. */
  #applying = Promise.resolve();
  #closed = false;
  constructor(options) {
    this.#options = options;
    this.#logger = options.logger;
    this.server = new Server(
      { name: "td", version: "0.1.0" },
      {
        capabilities: { tools: { listChanged: true } },
        instructions: "tooldistill: distilled tools are verified shortcuts for tasks done before in this project; prefer them over repeating the base tool calls. propose_distilled_tool is used after the user runs /tooldistill:distill."
      }
    );
    this.#configured = this.#configure();
    this.ready = this.#start();
    this.server.setRequestHandler(ListToolsRequestSchema, () => this.#list());
    this.server.setRequestHandler(CallToolRequestSchema, (request) => this.#call(request.params));
  }
  /** Pids of every base server process started (some may have exited): the last resort of a forced exit. */
  pids() {
    return [...this.#pids];
  }
  /**
   * Stops everything: a start-up still connecting to base servers is abandoned, and every base server started is
   * stopped by pid (quickly: the session is over). Safe to call more than once.
   */
  async close() {
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
  async #configure() {
    const { projectDir } = this.#options;
    const path = findConfig(projectDir);
    if (path === null) {
      this.#problem = `no tooldistill.yaml in ${projectDir}: add one with mcp_config: .mcp.json and start a new session`;
      return null;
    }
    let config;
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
  async #start() {
    const config = await this.#configured;
    if (config === null || this.#closed) return;
    try {
      const servers = await loadMcpServers({
        mcpConfigPath: config.mcpConfig,
        inline: config.mcpServers
      }).catch(() => ({}));
      const td = await ToolDistill.fromLoadedConfig(
        config,
        { logger: this.#logger, onExposureChange: () => this.#announce(), ...this.#options.overrides },
        { signal: this.#stopping.signal, onSpawn: (pid) => this.#pids.add(pid) }
      );
      const recorder = sessionRecorder(td.store, localFolder(config.store, config.dir));
      this.#running = { td, recorder, baseServers: Object.keys(servers) };
      if (this.#closed) return;
      const early = this.#early;
      this.#early = null;
      await early?.close();
      await recorder.cacheBaseTools(td.tools());
      await this.#applySpills();
      if (listSignature(td.activeTools()) !== this.#listed) this.#announce();
      if (this.#closed) return;
      this.#poll = setInterval(() => void this.#applySpills(), this.#options.pollMs ?? 1e3);
      this.#poll.unref();
    } catch (err) {
      this.#problem = `tooldistill could not start: ${errorMessage(err)}`;
      if (!this.#closed) this.#logger.error(this.#problem);
    }
  }
  /** `tools/list`: nothing without a config; the library's offer, read from the store until the library runs. */
  async #list() {
    await this.#configured;
    const offer = this.#running?.td.offer() ?? await this.#early?.read();
    if (!offer) return { tools: [] };
    this.#listed = listSignature(offer.distilled);
    return listedTools(offer);
  }
  /** `tools/call`: runs a distilled tool or the proposal in the trace of the calling session's span. */
  async #call(params) {
    await this.ready;
    const running = this.#running;
    if (!running) return text(this.#problem ?? "tooldistill is not configured in this project", true);
    const { td, recorder } = running;
    const { name } = params;
    try {
      await this.#applySpills();
      const toolUseId = params._meta?.[TOOL_USE_ID_META];
      const recorded = typeof toolUseId === "string" ? await recorder.callForToolUse(toolUseId, name, this.#options.sessionId) : null;
      const traceId = recorded?.traceId ?? await this.#fallbackTrace(running);
      const trace = await td.openTrace(traceId);
      if (name === PROPOSE_TOOL_NAME) await recorder.canonicalizeTrace(traceId, td.tools());
      const r = await trace.execute(name, params.arguments ?? {}, {
        distilledOnly: true,
        ...recorded ? { callId: recorded.id } : {}
      });
      return text(r.content, r.isError);
    } catch (err) {
      this.#logger.error(
        `tooldistill td: ${name} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`
      );
      return text(`tooldistill failed: ${errorMessage(err)}`, true);
    }
  }
  /** The trace of a call no hook recorded: the environment's session's current span, else a new trace. */
  async #fallbackTrace({ td, recorder }) {
    const { sessionId } = this.#options;
    if (sessionId) return recorder.currentTrace(sessionId);
    const trace = td.startTrace("", { source: "claude-code" });
    await trace.flush();
    return trace.id;
  }
  /** Tells the client the list changed (it re-lists within milliseconds). */
  #announce() {
    if (!this.#running || this.#closed) return;
    this.#listed = listSignature(this.#running.td.activeTools());
    this.server.sendToolListChanged().catch(
      (err) => this.#logger.warn(`tooldistill td: list_changed failed: ${errorMessage(err)}`)
    );
  }
  /**
   * Hook events spilled (on SQLite while the store was locked; on PostgreSQL every one): applied before a call
   * and on every poll. One pass at a time: a poll that finds one running waits for it, then looks again.
   */
  #applySpills() {
    this.#applying = this.#applying.then(() => this.#applySpillsOnce());
    return this.#applying;
  }
  async #applySpillsOnce() {
    const running = this.#running;
    if (!running || this.#closed) return;
    try {
      const report = await running.recorder.applySpills(running.baseServers);
      for (const failed of report.failed)
        this.#logger.warn(`tooldistill td: a spilled hook event could not be applied: ${failed}`);
    } catch (err) {
      this.#logger.warn(`tooldistill td: spilled hook events not applied yet: ${errorMessage(err)}`);
    }
  }
  #stopPolling() {
    if (this.#poll) clearInterval(this.#poll);
    this.#poll = null;
  }
};
function createTdServer(options) {
  return new TdServer(options);
}

// server/main.ts
var STOP_DEADLINE_MS = 1500;
var PARENT_POLL_MS = 1e3;
var logger = {
  info: (m) => process.stderr.write(`${m}
`),
  warn: (m) => process.stderr.write(`${m}
`),
  error: (m) => process.stderr.write(`${m}
`)
};
function kill(pid) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
  }
}
async function main() {
  const td = createTdServer({
    projectDir: process.env["CLAUDE_PROJECT_DIR"] || process.cwd(),
    sessionId: process.env["CLAUDE_CODE_SESSION_ID"],
    logger
  });
  const parent = process.ppid;
  let stopping = false;
  const stop = async (why) => {
    if (stopping) return;
    stopping = true;
    logger.info(`tooldistill td: stopping: ${why}`);
    const deadline = setTimeout(() => {
      logger.warn(`tooldistill td: stopping took over ${STOP_DEADLINE_MS} ms: killing the base servers`);
      for (const pid of td.pids()) kill(pid);
      process.exit(0);
    }, STOP_DEADLINE_MS);
    try {
      await td.close();
    } catch (err) {
      logger.error(`tooldistill td: closing failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const pid of td.pids()) kill(pid);
    clearTimeout(deadline);
    process.exit(0);
  };
  const transport = new TdStdioTransport(process.stdin, process.stdout, {
    log: (message) => logger.warn(message)
  });
  td.server.onclose = () => void stop("stdin closed");
  td.server.onerror = (err) => logger.warn(`tooldistill td: ${err.message}`);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => void stop(signal));
  setInterval(() => {
    if (process.ppid !== parent) void stop(`the process that started it (pid ${parent}) is gone`);
  }, PARENT_POLL_MS).unref();
  await td.server.connect(transport);
}
export {
  PARENT_POLL_MS,
  STOP_DEADLINE_MS,
  main
};
