import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { ToolDistill } from "../core/tool-distill/tool-distill.ts";
import { sqliteOf, tempDir } from "./helpers.ts";

const server = fileURLToPath(new URL("./fixtures/mcp/crm-server.ts", import.meta.url));

const TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "note_for_contact",
  description: "Add a note to a contact found by name.",
  inputSchema: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"] },
  async run({ name, text }: { name: string; text: string }) {
    const contact = await call("crm__find_contact", { name });
    return call("crm__add_note", { contact_id: contact.id, text });
  },
  check: (result: { note_id: string }) => typeof result.note_id === "string",
});
`;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("a trace recorded over MCP tools is distilled, verified and run like one over an in-process executor", async (t) => {
  const dir = tempDir(t);
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { type: "stdio", command: process.execPath, args: [server] } } }),
  );
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    "mcp_config: .mcp.json\nmin_calls_to_distill: 4\nfallback_distiller: false\n",
  );
  const td = await ToolDistill.fromConfig(join(dir, "tooldistill.yaml"));
  let closed = false;
  t.after(async () => {
    if (!closed) await td.close();
  });
  assert.deepEqual(
    td.tools().map((x) => x.name),
    ["crm__list_contacts", "crm__find_contact", "crm__add_note"],
  );
  assert.deepEqual(td.tools()[0]?.annotations, { readOnlyHint: true });

  const trace = td.startTrace("Add a note 'call back' to Grace Hopper");
  assert.equal((await trace.execute("crm__find_contact", { name: "Grace" })).isError, true);
  await trace.execute("crm__list_contacts", {});
  await trace.execute("crm__list_contacts", { page: 2 });
  await trace.execute("crm__find_contact", { name: "Grace Hopper" });
  const note = await trace.execute("crm__add_note", { contact_id: "c-2", text: "call back" });
  assert.deepEqual(JSON.parse(note.content), { note_id: "n-1", contact_id: "c-2", text: "call back" });
  trace.setOutcome({ success: true });
  // Schema defaults of MCP tools are applied to recorded arguments, as for in-process tools.
  assert.deepEqual((await sqliteOf(td).getCalls(trace.id))[1]?.args, { page: 1 });
  assert.ok(trace.distillNudge());

  const verdict = await trace.execute(PROPOSE_TOOL_NAME, {
    code: TOOL,
    test_inputs: [{ name: "Grace Hopper", text: "call back" }],
  });
  assert.equal(verdict.isError, false, verdict.content);
  assert.match(
    verdict.content,
    /^verified: note_for_contact v1\n2 base calls; limit 3.5 \(baseline 5 × 0.7\)/,
  );
  await td.promote("note_for_contact");
  assert.deepEqual(
    td.activeTools().map((x) => x.name),
    ["note_for_contact"],
  );

  const reuse = td.startTrace("Add a note to Alan Turing");
  const out = await reuse.execute("note_for_contact", { name: "Alan Turing", text: "send slides" });
  assert.equal(out.isError, false, out.content);
  assert.deepEqual(JSON.parse(out.content), { note_id: "n-2", contact_id: "c-3", text: "send slides" });
  const calls = await sqliteOf(td).getCalls(reuse.id);
  assert.deepEqual(
    calls.map((c) => [c.tool, c.kind, c.parentId === null ? null : "inner"]),
    [
      ["note_for_contact", "distilled", null],
      ["crm__find_contact", "base", "inner"],
      ["crm__add_note", "base", "inner"],
    ],
  );

  // What may write is the server's word: crm__add_note declares no readOnlyHint, so verify --live runs the read
  // live and answers the write from the record (the next note is still n-3 below).
  const plan = await td.planLiveVerification("note_for_contact");
  assert.deepEqual(
    plan.steps.map((s) => [s.tool, s.how]),
    [
      ["crm__find_contact", "live"],
      ["crm__add_note", "record"],
    ],
  );
  const live = await td.verify("note_for_contact", { live: true });
  assert.deepEqual(live.liveCalls, ["crm__find_contact (call 1)"]);
  assert.deepEqual(live.evidence.writes, ["crm__add_note"]);
  const third = await reuse.execute("note_for_contact", { name: "Alan Turing", text: "thanks" });
  assert.equal(JSON.parse(third.content).note_id, "n-3");

  // A failing inner MCP call takes the runtime-failure path: structured error, and (with fewer than 3 successful
  // runs, the default demotion.probation) demotion.
  const broken = await reuse.execute("note_for_contact", { name: "Nobody", text: "x" });
  assert.equal(broken.isError, true);
  assert.match(
    broken.content,
    /^Distilled tool 'note_for_contact' \(v1\) failed at step 1 of 2\.\nBase tool: crm__find_contact\nError: no contact named Nobody\n/,
  );
  assert.equal((await sqliteOf(td).getVersion("note_for_contact", 1))?.status, "suspect");

  await td.close();
  closed = true;
});

test("fromConfig closes the MCP servers it started", async (t) => {
  const dir = tempDir(t);
  writeFileSync(
    join(dir, ".mcp.json"),
    JSON.stringify({ mcpServers: { crm: { command: process.execPath, args: [server] } } }),
  );
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: .mcp.json\n");
  const td = await ToolDistill.fromConfig(join(dir, "tooldistill.yaml"));
  const trace = td.startTrace("pid");
  await trace.execute("crm__list_contacts", {});
  const { execFileSync } = await import("node:child_process");
  const pids = execFileSync("pgrep", ["-f", server], { encoding: "utf8" }).trim().split("\n").map(Number);
  assert.ok(pids.length >= 1);
  await td.close();
  for (const pid of pids) assert.equal(pidAlive(pid), false, `server pid ${pid} still alive`);
});
