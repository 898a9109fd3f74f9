// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} strings here are config values for the loader to expand.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import { DistillError } from "../core/errors.ts";
import { loadMcpServers } from "../core/mcp/mcp-config.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "td-mcp-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function mcpJson(data: unknown): Promise<string> {
  const path = join(dir, ".mcp.json");
  await writeFile(path, typeof data === "string" ? data : JSON.stringify(data));
  return path;
}

function rejectsWith(code: string, message: string | RegExp) {
  return (err: unknown): boolean => {
    assert.ok(err instanceof DistillError, `expected a DistillError, got ${String(err)}`);
    assert.equal(err.code, code);
    if (typeof message === "string") assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  };
}

describe("loadMcpServers", () => {
  test("reads Claude Code's .mcp.json and decides each transport", async () => {
    const path = await mcpJson({
      mcpServers: {
        gmail: { type: "stdio", command: "npx", args: ["-y", "gmail-mcp"], env: { LEVEL: "debug" } },
        files: { command: "node", args: ["files.js"] },
        billing: { url: "http://localhost:8787/mcp" },
        legacy: { type: "sse", url: "http://localhost:9000/sse", headers: { "X-Key": "k" } },
      },
    });
    const servers = await loadMcpServers({ mcpConfigPath: path, inline: {}, env: {} });
    assert.deepEqual(servers, {
      gmail: { type: "stdio", command: "npx", args: ["-y", "gmail-mcp"], env: { LEVEL: "debug" } },
      files: { type: "stdio", command: "node", args: ["files.js"], env: {} },
      billing: { type: "http", url: "http://localhost:8787/mcp", headers: {} },
      legacy: { type: "sse", url: "http://localhost:9000/sse", headers: { "X-Key": "k" } },
    });
  });

  test("inline entries replace the file's entry of the same name entirely", async () => {
    const path = await mcpJson({
      mcpServers: {
        billing: { command: "billing-server", env: { TOKEN: "file" } },
        gmail: { command: "gmail-server" },
      },
    });
    const servers = await loadMcpServers({
      mcpConfigPath: path,
      inline: { billing: { type: "http", url: "http://localhost:8787/mcp" }, extra: { command: "x" } },
      env: {},
    });
    assert.deepEqual(servers, {
      billing: { type: "http", url: "http://localhost:8787/mcp", headers: {} },
      gmail: { type: "stdio", command: "gmail-server", args: [], env: {} },
      extra: { type: "stdio", command: "x", args: [], env: {} },
    });
  });

  test("without a file, only the inline entries", async () => {
    const servers = await loadMcpServers({ mcpConfigPath: null, inline: { a: { command: "a" } }, env: {} });
    assert.deepEqual(servers, { a: { type: "stdio", command: "a", args: [], env: {} } });
  });

  test("expands ${VAR} and ${VAR:-default} in command, args, env, url and headers", async () => {
    const path = await mcpJson({
      mcpServers: {
        tools: {
          command: "${TOOLS_BIN}/server",
          args: ["--port=${PORT:-8080}", "--mode=${MODE:-fast}", "plain"],
          env: { API_KEY: "${API_KEY}", REGION: "${REGION:-eu}" },
        },
        billing: {
          type: "http",
          url: "${BILLING_URL:-http://localhost:8787}/mcp",
          headers: { Authorization: "Bearer ${BILLING_TOKEN}" },
        },
      },
    });
    const servers = await loadMcpServers({
      mcpConfigPath: path,
      inline: {},
      env: { TOOLS_BIN: "/opt/tools", MODE: "safe", API_KEY: "k-1", BILLING_TOKEN: "t-2" },
    });
    assert.deepEqual(servers, {
      tools: {
        type: "stdio",
        command: "/opt/tools/server",
        args: ["--port=8080", "--mode=safe", "plain"],
        env: { API_KEY: "k-1", REGION: "eu" },
      },
      billing: {
        type: "http",
        url: "http://localhost:8787/mcp",
        headers: { Authorization: "Bearer t-2" },
      },
    });
  });

  test("a variable set to the empty string wins over its default, as in Claude Code", async () => {
    const servers = await loadMcpServers({
      mcpConfigPath: null,
      inline: { a: { command: "a", args: ["x${EMPTY:-default}y"] } },
      env: { EMPTY: "" },
    });
    assert.deepEqual(servers["a"], { type: "stdio", command: "a", args: ["xy"], env: {} });
  });

  test("uses process.env when no env is given", async () => {
    process.env["TD_MCP_CONFIG_TEST_VAR"] = "from-process";
    try {
      const servers = await loadMcpServers({
        mcpConfigPath: null,
        inline: { a: { command: "${TD_MCP_CONFIG_TEST_VAR}" } },
      });
      assert.equal(servers["a"]?.type === "stdio" && servers["a"].command, "from-process");
    } finally {
      delete process.env["TD_MCP_CONFIG_TEST_VAR"];
    }
  });

  test("an unset variable without a default is an error naming the server, variable and key", async () => {
    await assert.rejects(
      loadMcpServers({
        mcpConfigPath: null,
        inline: {
          billing: {
            type: "http",
            url: "http://localhost:8787/mcp",
            headers: { Authorization: "Bearer ${BILLING_TOKEN}" },
          },
        },
        env: {},
      }),
      rejectsWith(
        "CONFIG_INVALID",
        "mcp server 'billing': environment variable BILLING_TOKEN is not set (used in headers.Authorization); set it or write ${BILLING_TOKEN:-default}",
      ),
    );
  });

  test("every unset variable is reported at once", async () => {
    await assert.rejects(
      loadMcpServers({
        mcpConfigPath: null,
        inline: { tools: { command: "${BIN}", args: ["--a", "${A}"], env: { K: "${K}" } } },
        env: {},
      }),
      rejectsWith(
        "CONFIG_INVALID",
        [
          "mcp server 'tools': environment variable BIN is not set (used in command); set it or write ${BIN:-default}",
          "mcp server 'tools': environment variable A is not set (used in args[1]); set it or write ${A:-default}",
          "mcp server 'tools': environment variable K is not set (used in env.K); set it or write ${K:-default}",
        ].join("\n"),
      ),
    );
  });

  test("server names must not contain '__'", async () => {
    await assert.rejects(
      loadMcpServers({ mcpConfigPath: null, inline: { my__billing: { command: "b" } }, env: {} }),
      rejectsWith(
        "CONFIG_INVALID",
        "mcp server 'my__billing': a server name must not contain '__' (tools are named <server>__<tool>)",
      ),
    );
  });

  test("an entry with neither command nor url, or a wrong field type, is an error", async () => {
    const path = await mcpJson({
      mcpServers: {
        empty: {},
        bad: { command: "x", args: "--flag" },
        remote: { type: "http" },
        typo: { url: "localhost:8787/mcp" },
      },
    });
    await assert.rejects(
      loadMcpServers({ mcpConfigPath: path, inline: {}, env: {} }),
      rejectsWith(
        "CONFIG_INVALID",
        [
          "mcp server 'empty': needs a command (stdio) or a url (http, sse)",
          "mcp server 'bad': args must be an array of strings",
          "mcp server 'remote': type http needs a url",
          "mcp server 'typo': url must start with http:// or https:// (got 'localhost:8787/mcp')",
        ].join("\n"),
      ),
    );
  });

  test("a missing .mcp.json is an error naming the file", async () => {
    const path = join(dir, "nope.json");
    await assert.rejects(
      loadMcpServers({ mcpConfigPath: path, inline: {}, env: {} }),
      rejectsWith(
        "CONFIG_NOT_FOUND",
        `mcp_config: ${path} does not exist; create it or correct the mcp_config path`,
      ),
    );
  });

  test("invalid JSON is an error naming the file", async () => {
    const path = await mcpJson('{"mcpServers": {');
    await assert.rejects(
      loadMcpServers({ mcpConfigPath: path, inline: {}, env: {} }),
      rejectsWith("CONFIG_INVALID", new RegExp(`^${path.replaceAll(".", "\\.")}: invalid JSON: `)),
    );
  });

  test("a file without mcpServers is an error showing the expected format", async () => {
    const path = await mcpJson({ billing: { command: "b" } });
    await assert.rejects(
      loadMcpServers({ mcpConfigPath: path, inline: {}, env: {} }),
      rejectsWith(
        "CONFIG_INVALID",
        `${path}: expected Claude Code's format {"mcpServers": {"<name>": {...}}}`,
      ),
    );
  });
});
