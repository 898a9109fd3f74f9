/**
 * The plugin's `td` MCP server's overhead per distilled call. Baseline: the same promoted tool run in-process by
 * `trace.execute`, which pays for the same sandbox run, inner base calls and recording; what is left is what the
 * server adds (JSON-RPC over an in-memory transport, request validation, the tool-use-id lookup, the exposure
 * check). Both sides complete a call row recorded beforehand, as the PreToolUse hook does in Claude Code. The base
 * calls made directly are shown for scale: the difference to them is the sandbox's and the recorder's share.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { PLUGIN_TOOL_PREFIX } from "../claude-code/plugin-names.ts";
import { spanPrefix } from "../claude-code/session.ts";
import { recordToolStart } from "../claude-code/tool-calls.ts";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import type { ToolDef } from "../core/types.ts";
import { createTdServer } from "../server/td-server.ts";
import { type Benchmark, median } from "./types.ts";

const CALLS = 200;
const SESSION = "bench-session";
const TOOLS: ToolDef[] = [
  {
    name: "crm__find_contact",
    description: "Find a contact.",
    input_schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
  {
    name: "crm__add_note",
    description: "Add a note.",
    input_schema: {
      type: "object",
      properties: { contact_id: { type: "string" }, text: { type: "string" } },
      required: ["contact_id", "text"],
    },
  },
];

function executor(name: string, args: Record<string, unknown>): unknown {
  if (name === "crm__find_contact") {
    if (args["name"] !== "Grace Hopper") throw new Error(`no contact named ${String(args["name"])}`);
    return { id: "c-2", name: args["name"] };
  }
  return { note_id: "n-1", contact_id: args["contact_id"], text: args["text"] };
}

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

const ARGS = { name: "Grace Hopper", text: "call back" };
const silent = { info() {}, warn() {}, error() {} };

export const mcpServer: Benchmark = {
  name: "mcp server overhead",
  description: `a promoted 2-call distilled tool through the td MCP server (in-memory client) vs trace.execute in-process (${CALLS} calls each, median)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "td-bench-mcp-"));
    writeFileSync(join(dir, "tooldistill.yaml"), "min_calls_to_distill: 2\nfallback_distiller: false\n");
    const lib = new ToolDistill({
      store: join(dir, ".tooldistill"),
      executor,
      tools: TOOLS,
      fallbackDistiller: false,
      minCallsToDistill: 2,
    });
    const client = new Client({ name: "bench", version: "0" });
    let td: ReturnType<typeof createTdServer> | null = null;
    try {
      // A source run with detours, a verified proposal, a promotion: the tool the server then offers.
      const source = lib.startTrace("Add a note 'call back' to Grace Hopper");
      for (const name of ["Grace", "Hopper", "Grace Hopper"])
        await source.execute("crm__find_contact", { name });
      await source.execute("crm__add_note", { contact_id: "c-2", text: "call back" });
      source.setOutcome({ success: true });
      const verdict = await source.execute(PROPOSE_TOOL_NAME, { code: TOOL, test_inputs: [ARGS] });
      if (verdict.isError) throw new Error(`bench tool was rejected:\n${verdict.content}`);
      await lib.promote("note_for_contact");
      // The server opens on the store as it now is: with the change feed's poll at a minute, a promotion made after
      // it opened would reach its list only at the next poll.
      td = createTdServer({
        projectDir: dir,
        logger: silent,
        pollMs: 60_000,
        overrides: { executor, tools: TOOLS },
      });

      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await td.server.connect(serverSide);
      await client.connect(clientSide);
      const listed = (await client.listTools()).tools.map((t) => t.name);
      if (!listed.includes("note_for_contact"))
        throw new Error(`td does not offer the tool: ${listed.join(", ")}`);

      const ctx = { baseServers: ["crm"], baseTools: TOOLS };
      let n = 0;
      // Each call completes a row recorded first, as the PreToolUse hook records it in Claude Code (not timed).
      const started = async () => {
        const toolUseId = `toolu_bench_${++n}`;
        const call = {
          sessionId: SESSION,
          toolName: `${PLUGIN_TOOL_PREFIX}note_for_contact`,
          toolInput: ARGS,
          toolUseId,
        };
        const id = await lib.store.transaction((tx) => recordToolStart(tx, call, ctx));
        const row = await lib.store.getCallByExternalId(toolUseId, spanPrefix(SESSION));
        return { toolUseId, id, traceId: row!.traceId };
      };
      const viaServer = async () => {
        const { toolUseId } = await started();
        const t0 = performance.now();
        const r = await client.callTool({
          name: "note_for_contact",
          arguments: ARGS,
          _meta: { "claudecode/toolUseId": toolUseId },
        });
        const elapsed = performance.now() - t0;
        if (r.isError) throw new Error(`td: ${JSON.stringify(r.content)}`);
        return elapsed;
      };
      const inProcess = async () => {
        const { id, traceId } = await started();
        const trace = await lib.openTrace(traceId);
        const t0 = performance.now();
        const r = await trace.execute("note_for_contact", ARGS, { callId: id });
        const elapsed = performance.now() - t0;
        if (r.isError) throw new Error(`trace.execute: ${r.content}`);
        return elapsed;
      };
      const direct = async () => {
        const t0 = performance.now();
        const contact = executor("crm__find_contact", { name: ARGS.name }) as { id: string };
        executor("crm__add_note", { contact_id: contact.id, text: ARGS.text });
        return performance.now() - t0;
      };
      // Warm both sandbox pools, the JIT and SQLite's statement caches.
      for (let i = 0; i < 20; i++) {
        await viaServer();
        await inProcess();
      }
      const server: number[] = [];
      const local: number[] = [];
      const base: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        server.push(await viaServer());
        local.push(await inProcess());
        base.push(await direct());
      }
      const s = median(server);
      const l = median(local);
      const b = median(base);
      return {
        columns: ["measure", "ms per call"],
        rows: [
          ["2 base calls made directly (executor)", b.toFixed(3)],
          ["trace.execute in-process (sandbox + recording)", l.toFixed(3)],
          ["through the td server (in-memory MCP client)", s.toFixed(3)],
          ["server overhead", (s - l).toFixed(3)],
        ],
        notes: [
          `server / in-process: ${(s / l).toFixed(2)}×; the stdio framing Claude Code adds is not included`,
        ],
      };
    } finally {
      await client.close().catch(() => {});
      await td?.close();
      await lib.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
