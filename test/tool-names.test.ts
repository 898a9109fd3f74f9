/**
 * The naming rules of distilled tools: the library's own tool names, now and reserved for later, are refused, in
 * the name validator and at proposal (a tool named `propose_distilled_tool` once reached every agent's tool list
 * next to the real one, and the Messages API refuses a list that repeats a name).
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PROPOSE_TOOL_NAME, ToolDistill } from "../core/index.ts";
import { toolNameProblem } from "../core/util/tool-names.ts";
import { invoiceWorld } from "./fakes/invoice-tools.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

test("the library's own tool names and reserved prefixes are refused, naming the rule", () => {
  assert.equal(
    toolNameProblem("propose_distilled_tool"),
    "tool name 'propose_distilled_tool' is reserved: it is the name of a tool tooldistill itself offers to agents; choose another name",
  );
  for (const [name, prefix] of [
    ["td_refund", "td_"],
    ["tooldistill_status", "tooldistill_"],
    ["distill_refund", "distill_"],
    ["propose_distilled_tools", "propose_distilled_"],
  ]) {
    assert.equal(
      toolNameProblem(name ?? ""),
      `tool name '${name}' is reserved: names starting with '${prefix}' are kept for tooldistill's own tools; choose another name`,
    );
  }
  // Names that only resemble them stay valid.
  for (const name of ["refund_ticket", "distilled_refund", "std_lookup", "tdx_lookup", "propose_refund"]) {
    assert.equal(toolNameProblem(name), null, name);
  }
});

test("a proposal named propose_distilled_tool is rejected and nothing is stored", async (t) => {
  const dir = tempDir(t);
  const world = invoiceWorld();
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    fallbackDistiller: false,
    autoPromote: "all",
  });
  t.after(() => td.close());
  const trace = td.startTrace("search mail");
  await trace.execute("gmail_search", { query: "invoice" });
  await trace.execute("gmail_search", { query: "invoice" });
  await trace.execute("gmail_search", { query: "invoice" });
  trace.setOutcome({ success: true });
  const code = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "${PROPOSE_TOOL_NAME}",
  description: "Search mail for invoices.",
  inputSchema: { type: "object", properties: {} },
  async run() {
    return call("gmail_search", { query: "invoice" });
  },
});
`;
  const out = await trace.execute(PROPOSE_TOOL_NAME, { code, test_inputs: [{}] });
  assert.equal(out.isError, true);
  assert.equal(
    out.content,
    `rejected: the tool's name cannot be used, so nothing was stored:\nline 3: tool name '${PROPOSE_TOOL_NAME}' is reserved: it is the name of a tool tooldistill itself offers to agents; choose another name\nFix it and call ${PROPOSE_TOOL_NAME} again.`,
  );
  assert.deepEqual(await sqliteOf(td).listVersions(), []);
  assert.deepEqual(readdirSync(join(dir, ".tooldistill", "tools")), []);
  assert.deepEqual(
    td.activeTools().map((tool) => tool.name),
    [],
    "the agent's list never repeats the proposal tool's name",
  );
});
