/**
 * `node scripts/measure-tool-loading.ts [claude binary]`: what loading the plugin's tools upfront costs, measured
 * on a real Claude Code headless and offline (the fake Messages API of the tests). A stand-in for the `td` server
 * (plugin `tooldistill`, server `td`) lists `propose_distilled_tool` and N distilled tools shaped like the e2e's
 * `note_for_contact`, under each way to exempt tools from deferral: none, `_meta["anthropic/alwaysLoad"]` on the
 * distilled tools only (what the plugin does), and `"alwaysLoad": true` on the server in `.mcp.json`. Prints the
 * characters of `tools` and of the system entries in the session's first request, and tokens at 4 characters
 * each (the fake's count). The figures are in docs/claude-code.md. Not part of `npm test`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { proposeToolDefinition } from "../core/internal.ts";
import { startFakeAnthropic } from "../test/fakes/anthropic-server.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = process.argv[2] ?? join(root, "node_modules", ".bin", "claude");
const SDK = join(root, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");

const distilled = (i: number) => ({
  name: `note_for_contact_${i}`,
  description: "Add a note to a CRM contact found by exact name.",
  inputSchema: {
    type: "object",
    properties: { name: { type: "string" }, text: { type: "string" } },
    required: ["name", "text"],
  },
});

function server(n: number, perTool: boolean): string {
  const p = proposeToolDefinition();
  const tools = [
    { name: p.name, description: p.description, inputSchema: p.input_schema },
    ...Array.from({ length: n }, (_, i) => ({
      ...distilled(i + 1),
      ...(perTool ? { _meta: { "anthropic/alwaysLoad": true } } : {}),
    })),
  ];
  return `import { Server } from ${JSON.stringify(join(SDK, "server", "index.js"))};
import { StdioServerTransport } from ${JSON.stringify(join(SDK, "server", "stdio.js"))};
import { ListToolsRequestSchema } from ${JSON.stringify(join(SDK, "types.js"))};
const s = new Server({ name: "td", version: "0" }, { capabilities: { tools: {} } });
s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: ${JSON.stringify(tools)} }));
await s.connect(new StdioServerTransport());
`;
}

// biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
type Json = any;

async function measure(n: number, mode: "deferred" | "per-tool" | "server") {
  const dir = mkdtempSync(join(tmpdir(), "td-measure-"));
  try {
    const plugin = join(dir, "plugin");
    mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
    writeFileSync(
      join(plugin, ".claude-plugin", "plugin.json"),
      JSON.stringify({ name: "tooldistill", version: "0.0.0" }),
    );
    writeFileSync(join(plugin, "td.mjs"), server(n, mode === "per-tool"));
    const entry = { type: "stdio", command: process.execPath, args: [join(plugin, "td.mjs")] };
    writeFileSync(
      join(plugin, ".mcp.json"),
      JSON.stringify({ mcpServers: { td: mode === "server" ? { ...entry, alwaysLoad: true } : entry } }),
    );
    const home = join(dir, "home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    const api = await startFakeAnthropic(() => ({ content: [{ type: "text", text: "ok" }] }));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(CLAUDE|ANTHROPIC)/.test(k)) env[k] = v;
    Object.assign(env, {
      HOME: home,
      PATH: `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`,
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: "sk-ant-fake",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      ...(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}),
    });
    // Not spawnSync: the fake API answers from this very process.
    const child = spawn(bin, ["-p", "hello", "--plugin-dir", plugin, "--dangerously-skip-permissions"], {
      cwd: dir,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    await api.close();
    const first = api.received.find((x) => (x.body?.tools ?? []).length > 0)?.body as Json;
    if (!first) throw new Error(`no request with tools (exit ${status}): ${stderr}`);
    const td = (first.tools as Json[]).filter((t) => t.name.startsWith("mcp__plugin_tooldistill_td__"));
    const upfront = td.filter((t) => t.defer_loading !== true).map((t) => t.name.replace(/^.*__/, ""));
    const toolsChars = JSON.stringify(first.tools).length;
    const systemChars = JSON.stringify((first.messages as Json[]).filter((m) => m.role === "system")).length;
    return {
      n,
      mode,
      toolsChars,
      toolsTokens: Math.ceil(toolsChars / 4),
      systemChars,
      upfront: upfront.length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const n of [0, 1, 5, 20])
  for (const mode of ["deferred", "per-tool", "server"] as const) rows.push(await measure(n, mode));
console.table(rows);
