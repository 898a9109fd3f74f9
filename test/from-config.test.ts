import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const TOOLS_MODULE = `
export const TOOLS = [
  { name: "lookup", description: "Look up a key.", input_schema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] } },
  { name: "store_value", description: "Store a value.", input_schema: { type: "object", properties: { key: { type: "string" }, value: {} }, required: ["key", "value"] } },
];
export async function executeTool(name: string, args: Record<string, unknown>): Promise<unknown> {
  if (name === "lookup") return { key: args["key"], value: 42 };
  if (name === "store_value") return { ok: true };
  throw new Error("unknown tool " + name);
}
export const probe = (name: string): boolean => name === "lookup";
`;

const DISTILLER_MODULE = `
export const DISTILLER = {
  calls: 0,
  async distill(request: { reason: string; calls: { tool: string }[] }) {
    DISTILLER.calls++;
    return {
      code: [
        'import { distilledTool, call } from "tooldistill";',
        "export default distilledTool({",
        '  name: "copy_value",',
        '  description: "Copy a value from one key to another.",',
        '  inputSchema: { type: "object", properties: { from: { type: "string" }, to: { type: "string" } }, required: ["from", "to"] },',
        "  async run({ from, to }: { from: string; to: string }) {",
        '    const got = await call("lookup", { key: from });',
        '    return call("store_value", { key: to, value: got.value });',
        "  },",
        "});",
      ].join("\\n"),
      test_inputs: [{ from: "a", to: "b" }],
    };
  },
};
`;

test("fromConfig imports a .ts executor, tools, health probe and custom distiller from path#export", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "tools.ts"), TOOLS_MODULE);
  writeFileSync(join(dir, "distill.ts"), DISTILLER_MODULE);
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    [
      "store: ./state",
      "executor: ./tools.ts#executeTool",
      "tools: ./tools.ts#TOOLS",
      "health_probe: ./tools.ts#probe",
      "distiller: ./distill.ts#DISTILLER",
      "min_calls_to_distill: 3",
      "auto_promote: all",
    ].join("\n"),
  );
  const td = await ToolDistill.fromConfig(join(dir, "tooldistill.yaml"));
  t.after(() => td.close());
  assert.equal(sqliteOf(td).location, join(dir, "state"));
  assert.equal(td.settings.minCallsToDistill, 3);
  const trace = td.startTrace("copy a to b");
  await trace.execute("lookup", { key: "a" });
  await trace.execute("lookup", { key: "c" });
  await trace.execute("store_value", { key: "b", value: 42 });
  trace.setOutcome({ success: true });
  // The agent does not propose: finish() runs the configured distiller once.
  await trace.finish();
  const mod = (await import(join(dir, "distill.ts"))) as { DISTILLER: { calls: number } };
  assert.equal(mod.DISTILLER.calls, 1);
  assert.equal((await trace.record()).note, "fallback distiller: copy_value v1 active");
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["copy_value"],
  );
  const health = await td.health();
  assert.deepEqual(health.probed, []);
});
