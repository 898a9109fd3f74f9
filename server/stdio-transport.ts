/**
 * The `td` server's stdio transport. The SDK's StdioServerTransport ignores the end of stdin (so the server
 * outlived Claude Code) and, on a message over its 10 MB buffer, closes silently (so the server exited with code 0
 * and nothing on stderr). This one ends when stdin ends or closes, answers an oversized request with a JSON-RPC
 * error naming the limit and goes on serving, answers a line that is not JSON-RPC with a parse error, and logs
 * every transport problem.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** The largest message the server reads; the same 10 MB as the SDK, but one over it is refused, not fatal. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How much of an oversized line is kept to find its id (Claude Code writes `"id"` last). */
const EDGE_BYTES = 512;

/** Options of the transport. */
export interface StdioTransportOptions {
  maxMessageBytes?: number;
  /** Where transport problems are reported (the server's stderr). */
  log: (message: string) => void;
}

/** A message that could not be read, and the id to answer, when one could be found. */
type Rejected = { id: string | number | null; message: string; code: number };

/** JSON-RPC over newline-delimited stdio, bounded per message rather than per buffer. */
export class TdStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #max: number;
  readonly #log: (message: string) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set while the rest of an oversized line is skipped: its first and last bytes and how long it is. */
  #skipping: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  #closed = false;

  constructor(stdin: Readable, stdout: Writable, options: StdioTransportOptions) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.#log = options.log;
  }

  readonly #onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, nl));
      this.#endOfLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  };

  readonly #onEnd = () => {
    void this.close();
  };

  readonly #onError = (error: Error) => {
    this.#log(`tooldistill td: stdin failed: ${error.message}`);
    this.onerror?.(error);
  };

  /** Adds bytes of the current line, switching to skipping once the line passes the limit. */
  #take(part: Buffer): void {
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
        bytes: all.length,
      };
      this.#pending = [];
      this.#pendingBytes = 0;
    }
  }

  #endOfLine(): void {
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
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (err) {
      this.#reject({
        id: idOf(line.slice(0, EDGE_BYTES), line.slice(-EDGE_BYTES)),
        code: -32700,
        message: `tooldistill td: a message is not valid JSON-RPC (${err instanceof Error ? err.message.split("\n")[0] : String(err)}); it was ignored`,
      });
      return;
    }
    this.onmessage?.(message);
  }

  /** Logs a message that cannot be served and answers it with an error when its id is known. */
  #reject(r: Rejected): void {
    this.#log(r.id === null ? `${r.message} (no id could be read, so it gets no reply)` : r.message);
    if (r.id === null) return;
    void this.send({ jsonrpc: "2.0", id: r.id, error: { code: r.code, message: r.message } });
  }

  async start(): Promise<void> {
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("end", this.#onEnd);
    this.#stdin.on("close", this.#onEnd);
    this.#stdin.on("error", this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("end", this.#onEnd);
    this.#stdin.off("close", this.#onEnd);
    this.#stdin.off("error", this.#onError);
    this.onclose?.();
  }
}

/** The id of a request whose whole text cannot be read: Claude Code writes it last; other clients write it first. */
function idOf(head: string, tail: string): string | number | null {
  const last = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
  const first = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  const raw = last?.[1] ?? first?.[1];
  if (raw === undefined) return null;
  return JSON.parse(raw) as string | number;
}

function oversized(head: string, tail: string, bytes: number, max: number): Rejected {
  const mb = (n: number) => `${Number((n / (1024 * 1024)).toFixed(1))} MB`;
  return {
    id: idOf(head, tail),
    code: -32600,
    message:
      `tooldistill td: a request of ${mb(bytes)} is over the ${mb(max)} limit of one message, so it was not run; ` +
      "send less in one call (a smaller input, or a reference to the data instead of the data)",
  };
}
