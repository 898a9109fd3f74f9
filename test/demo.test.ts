import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { SqliteRegistryStore } from "../core/internal.ts";
import { MCPToolkit } from "../core/mcp/mcp-toolkit.ts";
import { prepareWorkDir, runDemo, type StepReport } from "../examples/demo.ts";
import { incidentPolicy } from "../examples/incident_agent/scripted.ts";
import { REPO_ROOT, runNumbers, SCRIPTED_ENV, STATE_ENV } from "../examples/shared/runner-kit.ts";
import { readConversation } from "../examples/shared/scripted-model.ts";
import { startFakeAnthropic } from "./fakes/anthropic-server.ts";
import { tempDir } from "./helpers.ts";

/** `name vN status (problems)` for every version after a step. */
function statuses(r: StepReport): string[] {
  return r.versions.map(
    (v) => `v${v.version} ${v.status}${v.problems.length ? ` (${v.problems.join(",")})` : ""}`,
  );
}

test("incident demo: the four scripted steps and every number they print", async (t) => {
  const dir = tempDir(t, "td-demo-incident-");
  const [discovery, reuse, rebuild, schema] = await runDemo("incident", { dir });
  assert.ok(discovery && reuse && rebuild && schema);

  // 1. Discovery with the rollback down: 17 top-level base calls, 4 of them failed; proposal → verified → active.
  assert.match(discovery.output, /^ {2}model: \[scripted model\] This is an offline stand-in for Claude/m);
  assert.equal(discovery.run?.topLevelBaseCalls, 17);
  assert.equal(discovery.run?.failedBaseCalls, 4);
  assert.equal(discovery.run?.innerCalls, 0);
  assert.equal(discovery.run?.proposals, 1);
  assert.equal(discovery.run?.outcome, true);
  assert.ok((discovery.run?.tokens ?? 0) > 20_000, `tokens: ${discovery.run?.tokens}`);
  assert.deepEqual(statuses(discovery), ["v1 active"]);
  assert.equal(discovery.versions[0]?.name, "mitigate_upstream_deploy");
  assert.equal(discovery.versions[0]?.calls, 9);
  assert.equal(discovery.versions[0]?.baseline, 17);
  assert.match(
    discovery.output,
    /verified: mitigate_upstream_deploy v1\n\s+9 base calls; limit 11\.9 \(baseline 17 × 0\.7\)/,
  );

  // 2. Reuse: one top-level call, the distilled tool, with 9 base calls inside; far fewer tokens.
  assert.equal(reuse.run?.topLevelBaseCalls, 0);
  assert.deepEqual(reuse.run?.distilledCalls, [
    { tool: "mitigate_upstream_deploy", version: 1, ok: true, innerCalls: 9 },
  ]);
  assert.equal(reuse.run?.innerCalls, 9);
  assert.equal(reuse.run?.outcome, true);
  assert.ok((reuse.run?.tokens ?? Infinity) < (discovery.run?.tokens ?? 0) / 5);
  assert.deepEqual(statuses(reuse), ["v1 active"]);

  // 3. tool-updated + rebuild: v2 uses the recovered rollback (7 calls, two of them run live), v1 is replaced.
  assert.equal(rebuild.run, null);
  assert.match(rebuild.output, /v1: active → suspect \[avoided_tool_recovered\].*queued for rebuild/);
  assert.deepEqual(statuses(rebuild), ["v1 deprecated (avoided_tool_recovered)", "v2 active"]);
  assert.equal(rebuild.versions[1]?.calls, 7);
  assert.deepEqual(rebuild.versions[1]?.liveCalls, ["deploys_rollback (call 6)", "alerts_annotate (call 7)"]);

  // 4. Advertised schema change: the library classifies it at start-up (breaking) and its re-verification
  //    deprecates v2 before any call, with no code in the example; the fallback run with the base tools takes 13
  //    calls and its proposal becomes v3.
  assert.match(
    schema.output,
    /start-up: mitigate_upstream_deploy v2 active → deprecated \(base tool 'deploys_rollback' changed \(breaking\): input: 'reason' is now required; reason was added \(required\); re-verified: static check failed: call to 'deploys_rollback' — missing required property 'reason' of 'deploys_rollback'\)/,
  );
  assert.match(schema.output, /distilled tools offered: none/);
  assert.equal(schema.run?.topLevelBaseCalls, 13);
  assert.equal(schema.run?.failedBaseCalls, 2);
  assert.deepEqual(schema.run?.distilledCalls, []);
  assert.deepEqual(statuses(schema), [
    "v1 deprecated (avoided_tool_recovered)",
    "v2 deprecated (schema_changed)",
    "v3 active",
  ]);
  assert.equal(
    schema.versions[1]?.lastChange,
    "re-verification after 'deploys_rollback' changed failed: static check failed: call to 'deploys_rollback' — missing required property 'reason' of 'deploys_rollback'",
  );
  assert.equal(schema.versions[2]?.calls, 7);
  assert.equal(schema.versions[2]?.baseline, 17, "inherits the larger baseline of v1");
});

test("invoice demo: the four scripted steps, the structured error and every number they print", async (t) => {
  const dir = tempDir(t, "td-demo-invoice-");
  const [discovery, reuse, rebuild, currency] = await runDemo("invoice", { dir });
  assert.ok(discovery && reuse && rebuild && currency);

  assert.equal(discovery.run?.topLevelBaseCalls, 9);
  assert.equal(discovery.run?.failedBaseCalls, 2);
  assert.deepEqual(statuses(discovery), ["v1 active"]);
  assert.equal(discovery.versions[0]?.name, "create_invoice_from_email");
  assert.equal(discovery.versions[0]?.calls, 4);
  assert.equal(discovery.versions[0]?.baseline, 9);

  assert.equal(reuse.run?.topLevelBaseCalls, 0);
  assert.deepEqual(reuse.run?.distilledCalls, [
    { tool: "create_invoice_from_email", version: 1, ok: true, innerCalls: 4 },
  ]);

  assert.deepEqual(statuses(rebuild), ["v1 deprecated (avoided_tool_recovered)", "v2 active"]);
  assert.equal(rebuild.versions[1]?.calls, 2);
  assert.deepEqual(rebuild.versions[1]?.liveCalls, ["billing_import_from_email (call 2)"]);

  // The schema did not change, so nothing is caught at start-up: the run hits the structured error and falls back.
  assert.doesNotMatch(currency.output, /start-up:/);
  assert.deepEqual(currency.run?.distilledCalls, [
    { tool: "create_invoice_from_email", version: 2, ok: false, innerCalls: 2 },
  ]);
  assert.equal(
    currency.structuredError?.split("\n").slice(0, 4).join("\n"),
    [
      "Distilled tool 'create_invoice_from_email' (v2) failed at step 2 of 2.",
      "Base tool: billing_import_from_email",
      "Error: missing required property 'currency'",
      "This distilled tool has been disabled. Complete the task using the base tools directly.",
    ].join("\n"),
  );
  assert.equal(currency.run?.topLevelBaseCalls, 2);
  assert.equal(currency.run?.outcome, true);
  assert.deepEqual(statuses(currency), [
    "v1 deprecated (avoided_tool_recovered)",
    // v3 replaces v2, held back for its runtime failure: replay alone does not activate it, even under
    // auto_promote: all; it waits for a live pass or a person (docs/lifecycle.md, "Demotion is not evaded").
    "v2 suspect (runtime_failure)",
    "v3 verified",
  ]);
  assert.equal(currency.versions[2]?.calls, 3);
  assert.equal(currency.versions[2]?.baseline, 9);
});

test("run.ts takes the real-model path with ANTHROPIC_API_KEY, reaching a fake Messages API via ANTHROPIC_BASE_URL", async (t) => {
  const dir = tempDir(t, "td-demo-real-");
  const fake = await startFakeAnthropic(({ body }) => {
    const turn = incidentPolicy(body);
    return {
      content: [
        { type: "text", text: turn.text },
        ...(turn.calls ?? []).map((c) => ({ type: "tool_use" as const, name: c.name, input: c.input })),
      ],
      usage: { input_tokens: 1000, output_tokens: 100 },
    };
  });
  t.after(() => fake.close());
  const { config, env, runner } = prepareWorkDir("incident", dir);
  delete env[SCRIPTED_ENV];
  // Asynchronous: the fake answers from this process, so it must not be blocked while the runner waits for it.
  const r = await promisify(execFile)(
    process.execPath,
    [runner, "--alert", "A-1042", "--outage", "--config", config],
    {
      cwd: dir,
      env: { ...env, ANTHROPIC_API_KEY: "sk-test-key", ANTHROPIC_BASE_URL: fake.url },
      encoding: "utf8",
    },
  );
  assert.match(r.stdout, /^model: claude-sonnet-5-5 \(real model at http:\/\/127\.0\.0\.1:\d+\)$/m);
  assert.doesNotMatch(r.stdout, /\[scripted model\]/);
  const requests = fake.received.filter((x) => x.path.endsWith("/messages"));
  assert.equal(requests.length, 20, "17 tool turns, the final answer, the proposal and the closing turn");
  const headers = requests[0]?.headers ?? {};
  assert.match(
    String(headers["x-api-key"] ?? headers["authorization"]),
    /sk-test-key/,
    "the key from the environment",
  );
  assert.equal(requests[0]?.body.model, "claude-sonnet-5-5");
  // The last request carries the whole conversation: the nudge and the verdict of the proposal.
  const last = readConversation(requests.at(-1)!.body);
  assert.match(last.steps.at(-1)?.result ?? "", /^verified: mitigate_upstream_deploy v1/);
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  t.after(() => store.close());
  const trace = (await store.listTraces())[0]!;
  const n = await runNumbers(store, trace.id);
  assert.equal(n.topLevelBaseCalls, 17);
  assert.equal(n.tokens, 20 * 1100, "usage is recorded from every response");
  assert.equal((await store.getVersion("mitigate_upstream_deploy", 1))?.status, "active");
});

for (const example of ["incident", "invoice"] as const) {
  test(`${example} claude_code project: its MCP server starts from .mcp.json and lists the fake tools`, async (t) => {
    const dir = tempDir(t, `td-demo-mcp-${example}-`);
    const project = join(REPO_ROOT, "examples", `${example}_agent`, "claude_code");
    const { loadMcpServers } = await import("../core/mcp/mcp-config.ts");
    const servers = await loadMcpServers({ mcpConfigPath: join(project, ".mcp.json"), inline: {} });
    process.env[STATE_ENV] = join(dir, "switches.json");
    t.after(() => {
      delete process.env[STATE_ENV];
    });
    const toolkit = await MCPToolkit.connect({ servers, cwd: project });
    t.after(() => toolkit.close());
    assert.deepEqual(toolkit.failures, []);
    const names = toolkit.tools.map((x) => x.name);
    if (example === "incident") {
      assert.deepEqual(names, [
        "incident__alerts_get",
        "incident__alerts_annotate",
        "incident__services_get",
        "incident__deploys_list",
        "incident__deploys_get",
        "incident__deploys_create",
        "incident__deploys_rollback",
      ]);
      // The undocumented env filter reaches the fake through the MCP server's schema.
      const page = (await toolkit.executor("incident__deploys_list", {
        service_id: "svc-prod-payments-gateway",
        env: "prod",
      })) as { deploys: { env: string; seq: number }[] };
      assert.deepEqual(
        page.deploys.map((d) => `${d.env} ${d.seq}`),
        ["prod 418", "prod 417", "prod 416"],
      );
    } else {
      assert.equal(names.length, 6);
      assert.ok(names.includes("invoice__billing_import_from_email"));
      await assert.rejects(
        async () => toolkit.executor("invoice__billing_find_customer", { name: "Nobody" }),
        /404 no customer/,
      );
    }
  });
}
