/**
 * What recording keeps of values it cannot keep whole: 10,000 levels of nesting (JSON.stringify and the canonical
 * form overflow the stack far earlier), cycles, and outputs over `max_output_bytes`. Driven through the store,
 * the SDK's `trace.execute`, the hook entries as processes with Claude Code's payload shapes, and replay.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { spanTraceId } from "../claude-code/session.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { MAX_RECORDED_DEPTH } from "../core/trace/recordable.ts";
import { silentLogger } from "../core/types.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const HOOKS = fileURLToPath(new URL("../hooks/", import.meta.url));
const PAYLOADS = fileURLToPath(new URL("./fixtures/claude-code-payloads/", import.meta.url));
const SESSION = "c4f46833-8f37-418c-ab03-42c0dfb3b30d";

/** `{ a: { a: … } }` nested `depth` levels, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let cur = root;
  for (let i = 0; i < depth; i++) {
    const next: Record<string, unknown> = {};
    cur["a"] = next;
    cur = next;
  }
  cur["leaf"] = true;
  return root;
}

/** How deep a value goes before the clip marker (or its leaf). */
function depthOf(value: unknown): { depth: number; end: unknown } {
  let depth = 0;
  let cur = value;
  while (typeof cur === "object" && cur !== null && "a" in cur) {
    cur = (cur as { a: unknown }).a;
    depth++;
  }
  return { depth, end: cur };
}

/** The JSON text of `nested(depth)`, written out: JSON.stringify itself overflows the stack on it. */
function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}{"leaf":true}${"}".repeat(depth)}`;
}

/** A payload's JSON text with fields replaced; `raw` fields are spliced in as JSON text. */
function payload(name: string, patch: Record<string, unknown>, raw: Record<string, string> = {}): string {
  const base = JSON.parse(readFileSync(join(PAYLOADS, `hook.${name}.json`), "utf8")) as Record<
    string,
    unknown
  >;
  const fields = { ...base, ...patch };
  for (const key of Object.keys(raw)) delete fields[key];
  const text = JSON.stringify(fields);
  const extra = Object.entries(raw).map(([k, v]) => `${JSON.stringify(k)}:${v}`);
  return extra.length === 0 ? text : `${text.slice(0, -1)},${extra.join(",")}}`;
}

/** Runs a hook entry as Claude Code does: a process with the event's JSON on stdin. */
function runHook(file: string, dir: string, input: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(HOOKS, `${file}.ts`)], {
      env: { ...process.env, CLAUDE_PROJECT_DIR: dir },
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
    child.stdin.end(input);
  });
}

function project(t: import("node:test").TestContext, yaml = "mcp_config: .mcp.json\n"): string {
  const dir = tempDir(t, "td-clip-");
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { base: { type: "stdio", command: "node", args: ["base.js"] } } }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), yaml);
  return dir;
}

test("the store records 10,000 levels of nesting clipped at its depth, and says so on the call", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t));
  t.after(() => store.close());
  await store.createTrace("t1", "deep", "sdk");
  const id = await store.appendCall(
    { traceId: "t1", tool: "x", kind: "base", args: {} },
    { output: nested(10_000) },
    1,
  );
  const [call] = await store.getCalls("t1");
  assert.equal(call?.id, id);
  const { depth, end } = depthOf(call?.output);
  assert.equal(depth, MAX_RECORDED_DEPTH);
  assert.equal(end, `[clipped: nested deeper than ${MAX_RECORDED_DEPTH} levels]`);
  assert.equal(call?.note, `nesting deeper than ${MAX_RECORDED_DEPTH} levels was clipped`);
  assert.equal(call?.clipped, true);
});

test("an output over max_output_bytes keeps its beginning and the call says how big it was and which setting", async (t) => {
  const store = SqliteRegistryStore.open(tempDir(t), { maxOutputBytes: 2048 });
  t.after(() => store.close());
  await store.createTrace("t1", "big", "sdk");
  const rows = Array.from({ length: 500 }, (_, i) => ({ row: i, text: "lorem ipsum" }));
  const id = await store.startCall({ traceId: "t1", tool: "x", kind: "base", args: {} });
  await store.finishCall(id, rows, 1);
  const [call] = await store.getCalls("t1");
  assert.equal(typeof call?.output, "string");
  assert.ok(String(call?.output).startsWith('[{"row":0,"text":"lorem ipsum"}'));
  assert.ok(String(call?.output).endsWith("… [clipped]"));
  assert.equal(call?.clipped, true);
  assert.match(
    call?.note ?? "",
    /^output clipped: [\d.]+ KB is over the 2 KB cap \(max_output_bytes in tooldistill\.yaml\); its first 4,000 characters are kept$/,
  );
  // Small outputs are untouched.
  await store.appendCall({ traceId: "t1", tool: "x", kind: "base", args: {} }, { output: { ok: 1 } }, 1);
  assert.deepEqual((await store.getCalls("t1"))[1], {
    ...(await store.getCalls("t1"))[1],
    output: { ok: 1 },
    note: null,
    clipped: false,
  });
});

test("trace.execute records a cyclic or 10,000-level result without throwing, and hands the model the value", async (t) => {
  const cyclic: Record<string, unknown> = { name: "loop" };
  cyclic["self"] = cyclic;
  const results: Record<string, unknown> = { deep: nested(10_000), cyclic };
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: (name) => results[name],
    tools: ["deep", "cyclic"].map((name) => ({ name, description: name, input_schema: { type: "object" } })),
    logger: silentLogger,
  });
  t.after(() => td.close());
  const trace = td.startTrace("odd results");
  const deep = await trace.execute("deep", { arg: nested(10_000) });
  const loop = await trace.execute("cyclic", {});
  assert.equal(deep.isError, false);
  assert.equal(loop.isError, false);
  assert.deepEqual(JSON.parse(loop.content), { name: "loop", self: "[clipped: circular reference]" });
  assert.equal(depthOf(JSON.parse(deep.content)).depth, MAX_RECORDED_DEPTH);
  const [d, c] = await sqliteOf(td).getCalls(trace.id);
  assert.equal(d?.status, "ok");
  assert.match(
    d?.note ?? "",
    /^arguments: nesting deeper than 200 levels was clipped; nesting deeper than 200 levels was clipped$/,
  );
  assert.deepEqual(c?.output, { name: "loop", self: "[clipped: circular reference]" });
  assert.equal(c?.note, "a circular reference was cut");
});

test("hook entries record 10,000-level tool_input and tool_response (Bash and MCP shapes) clipped, exit 0, quiet", {
  timeout: 60_000,
}, async (t) => {
  const dir = project(t);
  const deep = nestedJson(10_000);
  const events: Array<[string, string]> = [
    ["pre-tool-use", payload("PreToolUse.Bash", { tool_use_id: "b1", cwd: dir }, { tool_input: deep })],
    [
      "post-tool-use",
      payload("PostToolUse.Bash", { tool_use_id: "b1", cwd: dir }, { tool_input: deep, tool_response: deep }),
    ],
    [
      "pre-tool-use",
      payload("PreToolUse.mcp-project", { tool_use_id: "m1", cwd: dir }, { tool_input: deep }),
    ],
    [
      "post-tool-use",
      // The JSON text of structuredContent, as Claude Code sends it for a tool with an outputSchema.
      payload(
        "PostToolUse.mcp-project",
        { tool_use_id: "m1", cwd: dir },
        { tool_input: deep, tool_response: JSON.stringify(deep) },
      ),
    ],
  ];
  for (const [file, input] of events) {
    const r = await runHook(file, dir, input);
    assert.deepEqual([r.code, r.stderr], [0, ""], file);
  }
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { readOnly: true });
  t.after(() => store.close());
  const calls = await store.getCalls(spanTraceId(SESSION, 1));
  assert.deepEqual(
    calls.map((c) => [c.tool, c.status, c.clipped]),
    [
      ["Bash", "ok", true],
      ["base__base_echo", "ok", true],
    ],
  );
  for (const c of calls) {
    assert.equal(depthOf(c.output).depth, MAX_RECORDED_DEPTH);
    assert.equal(depthOf(c.args).depth, MAX_RECORDED_DEPTH);
    assert.equal(
      c.note,
      `arguments: nesting deeper than ${MAX_RECORDED_DEPTH} levels was clipped; nesting deeper than ${MAX_RECORDED_DEPTH} levels was clipped`,
    );
  }
});

test("a hook clips an output over the configured max_output_bytes and the trace says so", {
  timeout: 30_000,
}, async (t) => {
  const dir = project(t, "mcp_config: .mcp.json\nmax_output_bytes: 4096\n");
  const big = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => i) });
  await runHook("pre-tool-use", dir, payload("PreToolUse.mcp-project", { tool_use_id: "m2", cwd: dir }));
  const r = await runHook(
    "post-tool-use",
    dir,
    payload("PostToolUse.mcp-project", {
      tool_use_id: "m2",
      tool_response: [{ type: "text", text: big }],
      cwd: dir,
    }),
  );
  assert.deepEqual([r.code, r.stderr], [0, ""]);
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"), { readOnly: true });
  t.after(() => store.close());
  const [call] = await store.getCalls(spanTraceId(SESSION, 1));
  assert.equal(call?.clipped, true);
  assert.match(
    call?.note ?? "",
    /^output clipped: [\d.]+ KB is over the 4 KB cap \(max_output_bytes in tooldistill\.yaml\)/,
  );
});

test("replay refuses a fixture whose output was clipped, naming max_output_bytes", async (t) => {
  const big = Array.from({ length: 1000 }, (_, i) => ({ id: `r-${i}`, text: "x".repeat(20) }));
  const td = new ToolDistill({
    store: join(tempDir(t), ".tooldistill"),
    executor: (name) => (name === "list_rows" ? big : { saved: true }),
    tools: [
      { name: "list_rows", description: "Rows.", input_schema: { type: "object" } },
      {
        name: "save_row",
        description: "Save.",
        input_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      },
    ],
    maxOutputBytes: 4096,
    minCallsToDistill: 1,
    fallbackDistiller: false,
    logger: silentLogger,
  });
  t.after(() => td.close());
  const trace = td.startTrace("save the first row");
  await trace.execute("list_rows", {});
  await trace.execute("list_rows", {});
  await trace.execute("save_row", { id: "r-0" });
  trace.setOutcome({ success: true });
  const code = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "save_first_row",
  description: "Save the first row.",
  inputSchema: { type: "object", properties: {} },
  async run() {
    const rows = await call("list_rows", {});
    return call("save_row", { id: rows[0].id });
  },
});
`;
  const verdict = await trace.execute("propose_distilled_tool", { code, test_inputs: [{}] });
  assert.equal(verdict.isError, true);
  assert.match(
    verdict.content,
    /call 1 to 'list_rows': its recorded output was clipped when it was recorded \(output clipped: .* cap \(max_output_bytes in tooldistill\.yaml\).*\), so replay cannot answer with it: raise max_output_bytes in tooldistill\.yaml and record the run again/,
  );
});
