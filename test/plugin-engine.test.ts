/**
 * The sandbox engine as shipped in the plugin: a copy of plugin/ outside the repository (no node_modules in
 * reach) records a session through its hooks, and its bundled `td` server verifies a proposal and runs the
 * distilled tool live, so the engine's .wasm beside the bundle is what runs the tool's code.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAYLOADS = fileURLToPath(new URL("./fixtures/claude-code-payloads/", import.meta.url));
const CRM = fileURLToPath(new URL("./fixtures/mcp/crm-server.ts", import.meta.url));
const SESSION = "c4f46833-8f37-418c-ab03-42c0dfb3b30d";

const TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "note_for_contact",
  description: "Add a note to a contact found by name.",
  inputSchema: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] },
  async run({ name, text }: { name: string; text: string }) {
    const contact = await call("crm__find_contact", { name });
    return call("crm__add_note", { contact_id: contact.id, text });
  },
});
`;

test("the plugin copied outside the repository verifies and runs a distilled tool on its bundled engine", {
  timeout: 120_000,
}, async (t) => {
  const plugin = join(tempDir(t, "td-engine-copy-"), "tooldistill");
  cpSync(join(ROOT, "plugin"), plugin, { recursive: true });
  const project = tempDir(t, "td-engine-project-");
  // The base server is the repository's (it needs the MCP SDK); the plugin copy has only its own files.
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { command: process.execPath, args: [CRM] } } }),
  );
  writeFileSync(
    join(project, "tooldistill.yaml"),
    "mcp_config: .mcp.json\nauto_promote: all\nmin_calls_to_distill: 2\n",
  );
  const env = {
    PATH: process.env["PATH"] ?? "",
    HOME: project,
    CLAUDE_PROJECT_DIR: project,
    CLAUDE_PLUGIN_ROOT: plugin,
  };

  const template = (name: string) => JSON.parse(readFileSync(join(PAYLOADS, `hook.${name}.json`), "utf8"));
  const hook = (file: string, payload: Record<string, unknown>) => {
    const r = spawnSync(process.execPath, [join(plugin, "dist", `${file}.js`)], {
      cwd: project,
      env,
      input: JSON.stringify({ ...payload, session_id: SESSION, cwd: project }),
      encoding: "utf8",
    });
    assert.deepEqual([r.status, r.stderr], [0, ""], file);
  };
  hook("session-start", template("SessionStart.startup"));
  hook("user-prompt-submit", {
    ...template("UserPromptSubmit"),
    prompt: "Note 'send slides' for Alan Turing",
  });
  const steps: [string, Record<string, unknown>, unknown][] = [
    ["find_contact", { name: "Turing" }, null],
    ["find_contact", { name: "Alan Turing" }, { id: "c-3", name: "Alan Turing", company: "Bletchley" }],
    [
      "add_note",
      { contact_id: "c-3", text: "send slides" },
      { note_id: "n-1", contact_id: "c-3", text: "send slides" },
    ],
  ];
  for (const [i, [tool, input, output]] of steps.entries()) {
    const common = { tool_name: `mcp__crm__${tool}`, tool_input: input, tool_use_id: `toolu_engine_${i}` };
    hook("pre-tool-use", { ...template("PreToolUse.mcp-project"), ...common });
    if (output === null) {
      hook("post-tool-use-failure", {
        ...template("PostToolUseFailure.mcp-plugin"),
        ...common,
        error: "no contact named Turing",
      });
    } else {
      hook("post-tool-use", {
        ...template("PostToolUse.mcp-project"),
        ...common,
        tool_response: [{ type: "text", text: JSON.stringify(output) }],
      });
    }
  }

  const server = spawn(process.execPath, [join(plugin, "dist", "td.js")], {
    cwd: project,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  t.after(() => server.kill());
  let stderr = "";
  server.stderr.setEncoding("utf8");
  server.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const replies = new Map<number, (msg: { result?: unknown; error?: unknown }) => void>();
  let buffer = "";
  server.stdout.setEncoding("utf8");
  server.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      if (typeof msg.id === "number") replies.get(msg.id)?.(msg);
    }
  });
  let nextId = 1;
  const request = (method: string, params: unknown) =>
    new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
      const id = nextId++;
      replies.set(id, resolve);
      server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "0" },
  });
  server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);

  // The proposal exchange follows /tooldistill:distill in a real session; the hook recorded this call's id.
  hook("pre-tool-use", {
    ...template("PreToolUse.mcp-plugin"),
    tool_name: "mcp__plugin_tooldistill_td__propose_distilled_tool",
    tool_input: { code: TOOL, test_inputs: [{ name: "Alan Turing", text: "send slides" }] },
    tool_use_id: "toolu_engine_propose",
  });
  const proposed = (await request("tools/call", {
    name: "propose_distilled_tool",
    arguments: { code: TOOL, test_inputs: [{ name: "Alan Turing", text: "send slides" }] },
    _meta: { "claudecode/toolUseId": "toolu_engine_propose" },
  })) as { result: { content: { text: string }[]; isError?: boolean } };
  const verdict = proposed.result.content[0]?.text ?? "";
  assert.match(verdict, /^verified: note_for_contact v1/, `${verdict}\n${stderr}`);

  hook("pre-tool-use", {
    ...template("PreToolUse.mcp-plugin"),
    tool_name: "mcp__plugin_tooldistill_td__note_for_contact",
    tool_input: { name: "Grace Hopper", text: "call back" },
    tool_use_id: "toolu_engine_run",
  });
  const ran = (await request("tools/call", {
    name: "note_for_contact",
    arguments: { name: "Grace Hopper", text: "call back" },
    _meta: { "claudecode/toolUseId": "toolu_engine_run" },
  })) as { result: { content: { text: string }[]; isError?: boolean } };
  assert.equal(ran.result.isError ?? false, false, ran.result.content[0]?.text);
  assert.deepEqual(JSON.parse(ran.result.content[0]?.text ?? "null"), {
    note_id: "n-1",
    contact_id: "c-2",
    text: "call back",
  });
  assert.equal(stderr, "");
});
