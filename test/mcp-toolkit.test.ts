// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} strings here are config values for the loader to expand.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, beforeEach, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { DistillError } from "../core/errors.ts";
import { loadMcpServers, type ResolvedMcpServer } from "../core/mcp/mcp-config.ts";
import { mcpContentToValue, mcpResultToValue } from "../core/mcp/mcp-result.ts";
import { MCPToolkit } from "../core/mcp/mcp-toolkit.ts";
import type { Logger } from "../core/types.ts";
import { type FixtureHttpServer, startHttpServer } from "./fixtures/mcp/http-server.ts";

const STDIO_SERVER = fileURLToPath(new URL("./fixtures/mcp/stdio-server.ts", import.meta.url));

function stdio(env: Record<string, string> = {}): ResolvedMcpServer {
  return { type: "stdio", command: process.execPath, args: [STDIO_SERVER], env };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
  };
}

/** A tool's own isError result: DistillError with code MCP_TOOL. */
function isToolError(err: unknown): err is DistillError {
  return err instanceof DistillError && err.code === "MCP_TOOL";
}

function distillError(message: string | RegExp) {
  return (err: unknown): boolean => {
    assert.ok(err instanceof DistillError, `expected a DistillError, got ${String(err)}`);
    assert.equal(err.code, "MCP");
    if (typeof message === "string") assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  };
}

let dir: string;
let toolkit: MCPToolkit | null = null;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "td-mcp-toolkit-")));
});
afterEach(async () => {
  await toolkit?.close();
  toolkit = null;
  await rm(dir, { recursive: true, force: true });
});

async function connect(
  servers: Record<string, ResolvedMcpServer>,
  extra: { env?: NodeJS.ProcessEnv; callTimeoutMs?: number; logger?: Logger } = {},
): Promise<MCPToolkit> {
  toolkit = await MCPToolkit.connect({ servers, cwd: dir, ...extra });
  return toolkit;
}

describe("mcpResultToValue / mcpContentToValue", () => {
  const text = (t: string) => ({ type: "text", text: t });

  test("a single JSON text block is the parsed value", () => {
    assert.deepEqual(mcpResultToValue({ content: [text('{"id":"c1","n":[1,2]}')] }), { id: "c1", n: [1, 2] });
    assert.equal(mcpResultToValue({ content: [text("42")] }), 42);
    assert.deepEqual(mcpContentToValue([text("[1]")]), [1]);
  });

  test("other text is the text, several blocks joined with a newline", () => {
    assert.equal(mcpResultToValue({ content: [text("hello")] }), "hello");
    assert.equal(mcpResultToValue({ content: [text('{"a":1}'), text("more")] }), '{"a":1}\nmore');
    assert.equal(
      mcpContentToValue([text("a"), { type: "image", data: "AAAA", mimeType: "image/png" }, text("b")]),
      "a\nb",
    );
  });

  test("without text: structuredContent, else null", () => {
    assert.deepEqual(mcpResultToValue({ content: [], structuredContent: { ok: true } }), { ok: true });
    assert.equal(
      mcpResultToValue({ content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] }),
      null,
    );
    assert.equal(mcpResultToValue({}), null);
    assert.equal(mcpContentToValue([]), null);
  });

  test("structuredContent wins over text, as Claude Code shows the model and its hooks only structuredContent", () => {
    assert.deepEqual(mcpResultToValue({ content: [text('{"a":1}')], structuredContent: { a: 2 } }), { a: 2 });
    assert.deepEqual(
      mcpResultToValue({ content: [text("There are 3 things.")], structuredContent: { count: 3 } }),
      { count: 3 },
    );
  });

  test("isError throws DistillError MCP_TOOL with the result's text", () => {
    assert.throws(
      () => mcpResultToValue({ content: [text("no such customer"), text("try another")], isError: true }),
      (err: unknown) => isToolError(err) && err.message === "no such customer\ntry another",
    );
    assert.throws(
      () => mcpResultToValue({ content: [], isError: true }),
      (err: unknown) =>
        isToolError(err) && err.message === "the MCP tool returned an error without a message",
    );
  });
});

describe("MCPToolkit over stdio", () => {
  test("lists tools as <server>__<tool> with their input schema and annotations", async () => {
    const tk = await connect({ local: stdio() });
    assert.deepEqual(tk.failures, []);
    const names = tk.tools.map((t) => t.name);
    assert.ok(names.includes("local__get_customer"));
    assert.ok(names.includes("local__greet"));
    const getCustomer = tk.tools.find((t) => t.name === "local__get_customer")!;
    assert.equal(getCustomer.description, "Find a customer by name.");
    assert.equal(getCustomer.input_schema["type"], "object");
    assert.deepEqual(getCustomer.input_schema["required"], ["name"]);
    assert.deepEqual(getCustomer.annotations, { readOnlyHint: true, idempotentHint: true });
    const greet = tk.tools.find((t) => t.name === "local__greet")!;
    assert.equal("annotations" in greet, false);
  });

  test("calls return structuredContent when there is some, else JSON text as a value and other text as text", async () => {
    const tk = await connect({ local: stdio() });
    assert.deepEqual(await tk.executor("local__get_customer", { name: "Acme" }), {
      id: "cust_acme",
      name: "Acme",
    });
    assert.equal(await tk.executor("local__greet", { name: "Ada" }), "hello Ada");
    assert.equal(await tk.executor("local__two_lines", {}), "first\nsecond");
    assert.deepEqual(await tk.executor("local__stats", {}), { open: 3, closed: 5 });
    assert.deepEqual(await tk.executor("local__count_summary", {}), { count: 3 });
    assert.deepEqual(await tk.executor("local__list_contacts", { page: 1 }), {
      contacts: [{ id: "c-1", name: "Ada" }],
      next_page: 2,
    });
  });

  test("an isError result throws DistillError MCP_TOOL with its text", async () => {
    const tk = await connect({ local: stdio() });
    await assert.rejects(
      async () => tk.executor("local__fail", { name: "Zed" }),
      (err: unknown) => {
        assert.ok(isToolError(err));
        assert.equal(err.message, "customer not found: Zed");
        return true;
      },
    );
  });

  test("an unknown tool throws a DistillError naming it, with a did-you-mean", async () => {
    const tk = await connect({ local: stdio() });
    await assert.rejects(
      async () => tk.executor("local__get_custmer", {}),
      distillError(
        "no MCP tool 'local__get_custmer': server 'local' does not list 'get_custmer' (did you mean 'local__get_customer'?)",
      ),
    );
    await assert.rejects(
      async () => tk.executor("mcp__local__greet", {}),
      distillError("no MCP tool 'mcp__local__greet' (did you mean 'local__greet'?)"),
    );
    await assert.rejects(async () => tk.executor("nothing", {}), distillError("no MCP tool 'nothing'"));
  });

  test("a stdio server gets the whole parent environment plus its entry's env", async () => {
    const tk = await connect(
      { local: stdio({ TD_ENTRY_VAR: "from-entry", TD_BOTH: "entry-wins" }) },
      { env: { ...process.env, TD_PARENT_VAR: "from-parent", TD_BOTH: "parent" } },
    );
    assert.equal(await tk.executor("local__env", { name: "TD_PARENT_VAR" }), "from-parent");
    assert.equal(await tk.executor("local__env", { name: "TD_ENTRY_VAR" }), "from-entry");
    assert.equal(await tk.executor("local__env", { name: "TD_BOTH" }), "entry-wins");
    assert.equal(await tk.executor("local__env", { name: "TD_UNSET_VAR" }), null);
  });

  test("without an env option, stdio servers inherit all of process.env", async () => {
    process.env["TD_MCP_TOOLKIT_PARENT"] = "inherited";
    try {
      const tk = await connect({ local: stdio() });
      assert.equal(await tk.executor("local__env", { name: "TD_MCP_TOOLKIT_PARENT" }), "inherited");
    } finally {
      delete process.env["TD_MCP_TOOLKIT_PARENT"];
    }
  });

  test("a stdio server runs in the project directory", async () => {
    const tk = await connect({ local: stdio() });
    assert.equal(await tk.executor("local__cwd", {}), dir);
  });

  test("servers that fail to start are reported in failures while the others work", async () => {
    const logger = recordingLogger();
    const tk = await connect(
      {
        local: stdio(),
        missing: { type: "stdio", command: "td-no-such-command-xyz", args: [], env: {} },
        broken: stdio({ FIXTURE_FAIL_AT_START: "1" }),
      },
      { logger },
    );
    assert.deepEqual(tk.failures, [
      { server: "missing", reason: "spawn td-no-such-command-xyz ENOENT" },
      {
        server: "broken",
        reason:
          "the server closed the connection during initialize; server stderr: fixture: starting | fixture: missing API key, giving up",
      },
    ]);
    assert.ok(tk.tools.every((t) => t.name.startsWith("local__")));
    assert.equal(await tk.executor("local__greet", { name: "Ada" }), "hello Ada");
    await assert.rejects(
      async () => tk.executor("missing__anything", {}),
      distillError(
        "cannot call 'missing__anything': mcp server 'missing' is not connected: spawn td-no-such-command-xyz ENOENT",
      ),
    );
    assert.ok(logger.lines.some((l) => l.startsWith("warn: mcp server 'missing' failed to connect")));
  });

  test("a server that dies under a call that may have side effects is reconnected but the call is not retried", async () => {
    const tk = await connect({ local: stdio() });
    const firstPid = tk.serverPid("local")!;
    assert.equal(await tk.executor("local__pid", {}), firstPid);
    await assert.rejects(
      async () => tk.executor("local__crash", {}),
      distillError(
        "mcp server 'local' lost its connection during 'local__crash'; the server was reconnected but the call " +
          "was not retried because it may have side effects (the tool is not annotated readOnlyHint). " +
          "Check whether it took effect before calling it again.",
      ),
    );
    const secondPid = await tk.executor("local__pid", {});
    assert.notEqual(secondPid, firstPid);
    assert.equal(isAlive(firstPid), false);
    assert.deepEqual(tk.failures, []);
  });

  test("a read-only call whose server dies under it is retried once on the reconnected server", async () => {
    const tk = await connect({ local: stdio() });
    const firstPid = tk.serverPid("local")!;
    const marker = join(dir, "flaky-marker");
    const result = (await tk.executor("local__flaky_read", { marker })) as {
      recovered: boolean;
      pid: number;
    };
    assert.equal(result.recovered, true);
    assert.notEqual(result.pid, firstPid);
    assert.equal(tk.serverPid("local"), result.pid);
  });

  test("a server killed between calls is restarted on the next call", async () => {
    const logger = recordingLogger();
    const tk = await connect({ local: stdio() }, { logger });
    const firstPid = tk.serverPid("local")!;
    process.kill(firstPid, "SIGKILL");
    await waitUntil(() => !isAlive(firstPid) && tk.serverPid("local") === null);
    assert.equal(await tk.executor("local__greet", { name: "again" }), "hello again");
    const secondPid = tk.serverPid("local");
    assert.ok(secondPid !== null && secondPid !== firstPid);
    assert.ok(logger.lines.includes("info: mcp server 'local' had stopped; reconnected"));
  });

  test("a call that exceeds the per-call timeout throws, and the server keeps working", async () => {
    // A timeout long enough that the quick call after it never meets it on a loaded machine.
    const tk = await connect({ local: stdio() }, { callTimeoutMs: 1500 });
    await assert.rejects(
      async () => tk.executor("local__slow", { ms: 20_000 }),
      distillError("'local__slow' timed out after 1500 ms"),
    );
    assert.equal(await tk.executor("local__greet", { name: "Ada" }), "hello Ada");
  });

  test("the probe says whether the server answers and still lists the tool, reconnecting if needed", async () => {
    const tk = await connect({
      local: stdio(),
      missing: { type: "stdio", command: "td-no-such-command-xyz", args: [], env: {} },
    });
    assert.equal(await tk.probe("local__get_customer"), true);
    assert.equal(await tk.probe("local__no_such_tool"), false);
    assert.equal(await tk.probe("missing__anything"), false);
    assert.equal(await tk.probe("unknown"), false);
    const pid = tk.serverPid("local")!;
    process.kill(pid, "SIGKILL");
    await waitUntil(() => !isAlive(pid));
    assert.equal(await tk.probe("local__get_customer"), true);
    assert.notEqual(tk.serverPid("local"), pid);
  });

  test("parallel calls share one connection", async () => {
    const tk = await connect({ local: stdio() });
    const names = ["a", "b", "c", "d", "e"];
    const results = await Promise.all(names.map((name) => tk.executor("local__greet", { name })));
    assert.deepEqual(
      results,
      names.map((name) => `hello ${name}`),
    );
  });

  test("parallel read-only calls after a kill share one restarted server", async () => {
    const tk = await connect({ local: stdio() });
    const firstPid = tk.serverPid("local")!;
    process.kill(firstPid, "SIGKILL");
    const results = await Promise.all([1, 2, 3].map(() => tk.executor("local__pid", {})));
    assert.equal(new Set(results).size, 1);
    assert.notEqual(results[0], firstPid);
    assert.equal(tk.serverPid("local"), results[0]);
  });

  test("refreshTools lists the tools again", async () => {
    const tk = await connect({ local: stdio() });
    const before = tk.tools;
    assert.deepEqual(await tk.refreshTools(), before);
  });

  test("close() stops every stdio server, leaves no process behind and is idempotent", async () => {
    const tk = await connect({ a: stdio(), b: stdio() });
    const pids = [tk.serverPid("a")!, tk.serverPid("b")!];
    assert.ok(pids.every(isAlive));
    await tk.close();
    assert.deepEqual(
      pids.filter((pid) => isAlive(pid)),
      [],
    );
    await tk.close();
    await assert.rejects(
      async () => tk.executor("a__greet", { name: "x" }),
      distillError("the MCP toolkit is closed"),
    );
    assert.equal(await tk.probe("a__greet"), false);
  });
});

describe("MCPToolkit over HTTP", () => {
  const token = "s3cret-token";
  let http: FixtureHttpServer;
  before(async () => {
    http = await startHttpServer(token);
  });
  after(async () => {
    await http.close();
  });

  async function httpServers(type: "http" | "sse", tokenValue: string) {
    return loadMcpServers({
      mcpConfigPath: null,
      inline: {
        billing: {
          type,
          url: type === "http" ? "${BILLING_URL}" : "${BILLING_SSE_URL}",
          headers: { Authorization: "Bearer ${BILLING_TOKEN}" },
        },
      },
      env: { BILLING_URL: http.url, BILLING_SSE_URL: http.sseUrl, BILLING_TOKEN: tokenValue },
    });
  }

  test("Streamable HTTP with a bearer header from ${VAR} expansion", async () => {
    const tk = await connect(await httpServers("http", token));
    assert.deepEqual(tk.failures, []);
    assert.ok(tk.tools.some((t) => t.name === "billing__get_customer"));
    assert.deepEqual(await tk.executor("billing__get_customer", { name: "Acme" }), {
      id: "cust_acme",
      name: "Acme",
    });
    await assert.rejects(async () => tk.executor("billing__fail", { name: "Zed" }), isToolError);
    assert.ok(http.received.includes(`Bearer ${token}`));
  });

  test("a wrong bearer token is reported as HTTP 401 in failures", async () => {
    const tk = await connect(await httpServers("http", "wrong"));
    assert.equal(tk.tools.length, 0);
    assert.equal(tk.failures.length, 1);
    assert.equal(tk.failures[0]?.server, "billing");
    assert.equal(
      tk.failures[0]?.reason,
      "HTTP 401: Streamable HTTP error: Error POSTing to endpoint: Unauthorized",
    );
  });

  test("after the server forgets the session, calls reconnect: read-only retried, others not", async () => {
    const tk = await connect(await httpServers("http", token));
    await http.dropSessions();
    assert.deepEqual(await tk.executor("billing__get_customer", { name: "Acme" }), {
      id: "cust_acme",
      name: "Acme",
    });
    await http.dropSessions();
    await assert.rejects(
      async () => tk.executor("billing__greet", { name: "Ada" }),
      distillError(
        /^mcp server 'billing' lost its connection during 'billing__greet'; the server was reconnected/,
      ),
    );
    assert.equal(await tk.executor("billing__greet", { name: "Ada" }), "hello Ada");
  });

  test("an unreachable server or an invalid url is reported in failures", async () => {
    const tk = await connect({
      down: { type: "http", url: "http://127.0.0.1:9/mcp", headers: {} },
      typo: { type: "http", url: "localhost:8787/mcp", headers: {} },
    });
    assert.equal(tk.failures.length, 2);
    assert.match(tk.failures[0]?.reason ?? "", /^fetch failed: /);
    assert.deepEqual(tk.failures[1], {
      server: "typo",
      reason: "url must start with http:// or https:// (got 'localhost:8787/mcp')",
    });
  });

  test("legacy SSE with a bearer header", async () => {
    const tk = await connect(await httpServers("sse", token));
    assert.deepEqual(tk.failures, []);
    assert.equal(await tk.executor("billing__greet", { name: "Ada" }), "hello Ada");
    assert.deepEqual(await tk.executor("billing__stats", {}), { open: 3, closed: 5 });
  });

  test("legacy SSE with a wrong token is reported in failures", async () => {
    const tk = await connect(await httpServers("sse", "wrong"));
    assert.deepEqual(tk.failures, [
      { server: "billing", reason: "HTTP 401: SSE error: Non-200 status code (401)" },
    ]);
  });
});

describe("MCPToolkit starting and stopping processes", () => {
  const SLOW = fileURLToPath(new URL("./fixtures/mcp/slow-start-server.ts", import.meta.url));
  const HANG = fileURLToPath(new URL("./fixtures/mcp/hang-server.ts", import.meta.url));

  test("24 servers start at most 8 at a time (maxConcurrentStarts), and all connect", {
    timeout: 60_000,
  }, async () => {
    const log = join(dir, "start.log");
    const servers: Record<string, ResolvedMcpServer> = {};
    for (let i = 0; i < 24; i++) {
      servers[`s${i}`] = {
        type: "stdio",
        command: process.execPath,
        args: [SLOW],
        env: { FIXTURE_START_LOG: log },
      };
    }
    const tk = await connect(servers);
    assert.deepEqual(tk.failures, []);
    assert.equal(tk.tools.length, 24);
    // Each process logs "start" as it begins and "ready" before it answers; a slot frees only after it answered.
    let starting = 0;
    let most = 0;
    for (const line of (await readFile(log, "utf8")).trim().split("\n")) {
      starting += line.startsWith("start ") ? 1 : -1;
      most = Math.max(most, starting);
    }
    assert.ok(most <= 8, `${most} servers were starting at once`);
    assert.ok(most >= 2, "servers still start in parallel");
    const pids = tk.pids();
    assert.equal(pids.length, 24);
    await tk.close();
    toolkit = null;
    assert.deepEqual(tk.pids(), []);
    for (const pid of pids) assert.equal(isAlive(pid), false, `server ${pid} outlived close()`);
  });

  test("a stopped connect kills a server hanging at start-up (ignoring stdin and SIGTERM) by pid, and rejects", {
    timeout: 60_000,
  }, async () => {
    const stop = new AbortController();
    const spawned: number[] = [];
    const connecting = MCPToolkit.connect({
      servers: {
        stuck: { type: "stdio", command: process.execPath, args: [HANG], env: { FIXTURE_PID_DIR: dir } },
      },
      cwd: dir,
      signal: stop.signal,
      onSpawn: (pid) => spawned.push(pid),
    });
    await waitUntil(() => spawned.length === 1 && existsSync(join(dir, String(spawned[0]))), 10_000);
    stop.abort();
    await assert.rejects(connecting, distillError("connecting to the MCP servers was stopped"));
    assert.equal(isAlive(spawned[0]!), false);
  });
});
