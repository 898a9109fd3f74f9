/**
 * The MCP SDK's client side, loaded when the first toolkit connects: importing it (its transports and zod schemas)
 * takes about 100 ms, which a program that imports the library but never connects to an MCP server should not
 * pay. Only types are imported statically; the toolkit's modules use the values through `McpSdk`.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** The SDK's classes and codes the toolkit uses at run time. */
export interface McpSdk {
  Client: typeof Client;
  SSEClientTransport: typeof SSEClientTransport;
  SseError: typeof SseError;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  StreamableHTTPError: typeof StreamableHTTPError;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
}

let loading: Promise<McpSdk> | undefined;

/** The SDK's client side, imported once per process on first use. */
export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([client, sse, stdio, http, types]) => ({
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  }));
  return loading;
}
