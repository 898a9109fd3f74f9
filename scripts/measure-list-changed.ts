/**
 * `node scripts/measure-list-changed.ts [claude binary]`: what Claude Code does with `notifications/tools/list_changed`
 * of tools it defers, measured headless and offline. A plugin server lists `alpha`; after the first prompt it
 * removes it, after the second it adds `beta` and, 300 ms later, `gamma`; each prompt is sent 1.5 s after the
 * previous result. Prints, per request, the server's tools in `tools` and what the system entries announce.
 * The figures are in docs/claude-code.md. Not part of `npm test`.
 */
// biome-ignore-all lint/suspicious/noExplicitAny: a measurement over arbitrary request JSON
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeAnthropic } from "../test/fakes/anthropic-server.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const SDK = join(root, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");
const bin = process.argv[2] ?? join(root, "node_modules", ".bin", "claude");
const dir = mkdtempSync(join(tmpdir(), "lcp-"));
const plugin = join(dir, "plugin");
mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
writeFileSync(
  join(plugin, ".claude-plugin", "plugin.json"),
  JSON.stringify({ name: "lcp", version: "0.0.0" }),
);
const ctl = join(dir, "ctl.json");
writeFileSync(ctl, JSON.stringify(["alpha"]));
writeFileSync(
  join(plugin, "s.mjs"),
  `import { Server } from "${SDK}/server/index.js";
import { StdioServerTransport } from "${SDK}/server/stdio.js";
import { ListToolsRequestSchema } from "${SDK}/types.js";
import { readFileSync } from "node:fs";
const s = new Server({ name: "s", version: "0" }, { capabilities: { tools: { listChanged: true } } });
let cur = readFileSync(${JSON.stringify(ctl)}, "utf8");
s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: JSON.parse(cur).map((n) => ({ name: n, description: "tool " + n, inputSchema: { type: "object" } })) }));
await s.connect(new StdioServerTransport());
setInterval(() => { const t = readFileSync(${JSON.stringify(ctl)}, "utf8"); if (t !== cur) { cur = t; s.sendToolListChanged(); } }, 50);
`,
);
writeFileSync(
  join(plugin, ".mcp.json"),
  JSON.stringify({
    mcpServers: { s: { type: "stdio", command: process.execPath, args: [join(plugin, "s.mjs")] } },
  }),
);
const home = join(dir, "home");
mkdirSync(join(home, ".claude"), { recursive: true });
const api = await startFakeAnthropic(() => ({ content: [{ type: "text", text: "ok" }] }));
const env: any = {};
for (const [k, v] of Object.entries(process.env)) if (!/^(CLAUDE|ANTHROPIC)/.test(k)) env[k] = v;
Object.assign(env, {
  HOME: home,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
  ANTHROPIC_BASE_URL: api.url,
  ANTHROPIC_API_KEY: "x",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  IS_SANDBOX: "1",
});
const steps: Array<() => void> = [
  () => writeFileSync(ctl, JSON.stringify([])), // after p1: remove alpha
  () => {
    writeFileSync(ctl, JSON.stringify(["beta"]));
    setTimeout(() => writeFileSync(ctl, JSON.stringify(["beta", "gamma"])), 300);
  }, // after p2: two changes 300ms apart
  () => {},
  () => {},
];
const prompts = ["p1", "p2", "p3", "p4", "p5"];
const child = spawn(
  bin,
  [
    "-p",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
    "--dangerously-skip-permissions",
    "--plugin-dir",
    plugin,
  ],
  { cwd: dir, env },
);
let buf = "";
let next = 0;
const send = () => {
  const p = prompts[next++];
  if (!p) {
    child.stdin.end();
    return;
  }
  child.stdin.write(JSON.stringify({ type: "user", message: { role: "user", content: p } }) + "\n");
};
child.stdout.on("data", (c) => {
  buf += c;
  for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
    const l = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (!l.trim()) continue;
    const e = JSON.parse(l);
    if (e.type === "result") {
      steps[next - 1]?.();
      setTimeout(send, 1500);
    }
  }
});
send();
await new Promise((r) => child.on("close", r));
for (const r of api.received) {
  const b = r.body;
  if (!(b?.tools ?? []).length) continue;
  const last = JSON.stringify(b.messages.filter((m: any) => m.role === "user").at(-1)?.content).slice(0, 40);
  const tools = b.tools
    .filter((t: any) => t.name.startsWith("mcp__"))
    .map((t: any) => t.name.replace("mcp__plugin_lcp_s__", "") + (t.defer_loading ? "(d)" : ""));
  const sys = b.messages
    .filter((m: any) => m.role === "system")
    .map((m: any) => JSON.stringify(m.content))
    .join(" ");
  const ann = (
    sys.match(
      /(no longer available|just became available|deferred tools are now available|removed)[^"\\]*(\\n[^"\\]*)?/gi,
    ) || []
  ).slice(0, 4);
  console.log(
    last,
    "tools:",
    tools.join(","),
    "| alpha in sys:",
    /mcp__plugin_lcp_s__alpha/.test(sys),
    "beta:",
    /__beta/.test(sys),
    "gamma:",
    /__gamma/.test(sys),
    "|",
    ann.join(" / "),
  );
}
await api.close();
