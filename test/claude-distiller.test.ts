import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import Anthropic from "@anthropic-ai/sdk";
import { ClaudeDistiller } from "../core/distill/claude-distiller.ts";
import {
  type DistillRequest,
  PROPOSE_INPUT_SCHEMA,
  PROPOSE_TOOL_NAME,
  type Proposal,
  proposalPrompt,
} from "../core/distill/distiller.ts";
import { DistillError } from "../core/errors.ts";
import type { CallRecord, Verdict } from "../core/types.ts";
import { verdictText } from "../core/verify/verdict.ts";
import { type FakeAnthropic, type FakeReply, startFakeAnthropic } from "./fakes/anthropic-server.ts";

const MODEL = "claude-test-1";
const KEY = "sk-test-key";

const CODE_A = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "create_invoice_from_email",
  description: "Create a draft invoice.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer }) {
    const cust = await call("billing_find_customer", { name: customer });
    return call("billing_create_invoice", { customer_id: cust.id, lines: [] });
  },
});
`;
const CODE_B = CODE_A.replace("Create a draft invoice.", "Create a draft invoice from an email.");
const CODE_C = CODE_A.replace("Create a draft invoice.", "Third try.");

function call(partial: Partial<CallRecord> & Pick<CallRecord, "id" | "seq" | "tool">): CallRecord {
  return {
    traceId: "t-1",
    parentId: null,
    kind: "base",
    args: {},
    status: "ok",
    output: null,
    error: null,
    latencyMs: 5,
    version: null,
    note: null,
    clipped: false,
    failure: null,
    ...partial,
  };
}

function request(overrides: Partial<DistillRequest> = {}): DistillRequest {
  return {
    trace: {
      id: "t-1",
      task: "Invoice ACME for their latest order email",
      source: "sdk",
      outcome: true,
      usage: {
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
      startedAt: "2026-01-01T00:00:00.000Z",
      endedAt: "2026-01-01T00:01:00.000Z",
      note: null,
    },
    calls: [
      call({
        id: 1,
        seq: 1,
        tool: "billing_find_customer",
        args: { name: "ACME" },
        output: { id: "cus_1", name: "ACME" },
      }),
      call({
        id: 2,
        seq: 2,
        tool: "billing_import_from_email",
        args: { customer_id: "cus_1" },
        status: "error",
        output: null,
        error: "service unavailable (503)",
      }),
      call({
        id: 3,
        seq: 3,
        tool: "create_invoice_from_email",
        kind: "distilled",
        args: { customer: "ACME" },
      }),
      call({
        id: 4,
        seq: 4,
        parentId: 3,
        tool: "billing_create_invoice",
        args: { customer_id: "cus_1", lines: [] },
        output: { id: "inv_9", status: "draft" },
      }),
    ],
    tools: [
      {
        name: "billing_find_customer",
        description: "Find a customer by name.",
        input_schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
      {
        name: "billing_create_invoice",
        description: "Create a draft invoice.",
        input_schema: {
          type: "object",
          properties: { customer_id: { type: "string" }, lines: { type: "array" } },
          required: ["customer_id", "lines"],
        },
      },
    ],
    reason: "fallback",
    ...overrides,
  };
}

function verdict(overrides: Partial<Verdict> = {}): Verdict {
  return {
    name: "create_invoice_from_email",
    version: 2,
    status: "verified",
    checks: {
      static: { ok: true, problems: [] },
      replay: { ok: true, problems: [] },
      efficiency: { ok: true, problems: [] },
    },
    calls: null,
    baseline: null,
    limit: null,
    liveCalls: [],
    evidence: { callSites: null, literals: null, runs: null, writes: [], promotion: null },
    ...overrides,
  };
}

const rejected = verdict({
  status: "draft",
  checks: {
    static: {
      ok: false,
      problems: [
        { rule: "unknown-base-tool", line: 5, token: "billing_find_customr", message: "no such base tool" },
      ],
    },
    replay: { ok: true, problems: [] },
    efficiency: { ok: true, problems: [] },
  },
});

function proposalReply(code: string, testInputs: unknown = [{ customer: "ACME" }]): FakeReply {
  return {
    content: [
      { type: "text", text: "Here is the tool." },
      { type: "tool_use", name: PROPOSE_TOOL_NAME, input: { code, test_inputs: testInputs } },
    ],
  };
}

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function serve(...replies: FakeReply[]): Promise<FakeAnthropic> {
  let i = 0;
  fake = await startFakeAnthropic(() => {
    const reply = replies[Math.min(i++, replies.length - 1)];
    assert.ok(reply, "the test gave the fake no reply");
    return reply;
  });
  return fake;
}

function distiller(url: string): ClaudeDistiller {
  return new ClaudeDistiller({ model: MODEL, apiKey: KEY, baseURL: url, maxRetries: 0 });
}

async function rejectsWith(promise: Promise<unknown>, message: string | RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof DistillError, `expected a DistillError, got ${String(err)}`);
    assert.equal(err.code, "DISTILLER");
    if (typeof message === "string") assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

describe("ClaudeDistiller", () => {
  test("forces propose_distilled_tool and returns its input as the proposal", async () => {
    const server = await serve(proposalReply(CODE_A));
    const proposal = await distiller(server.url).distill(request());

    assert.deepEqual(proposal, { code: CODE_A, test_inputs: [{ customer: "ACME" }] });
    assert.equal(server.received.length, 1);
    const { body, headers, path } = server.received[0]!;
    assert.equal(path, "/v1/messages");
    assert.equal(body.model, MODEL);
    assert.deepEqual(body.tool_choice, { type: "tool", name: PROPOSE_TOOL_NAME });
    assert.equal(body.tools.length, 1);
    assert.equal(body.tools[0].name, PROPOSE_TOOL_NAME);
    assert.deepEqual(body.tools[0].input_schema, PROPOSE_INPUT_SCHEMA);
    assert.ok(`${headers["x-api-key"] ?? ""} ${headers.authorization ?? ""}`.includes(KEY));
    assert.equal(body.messages.length, 1);
    const prompt: string = body.messages[0].content;
    assert.equal(prompt, proposalPrompt(request()));
    assert.ok(prompt.includes("Invoice ACME for their latest order email"));
    assert.ok(prompt.includes('#1 billing_find_customer {"name":"ACME"}'));
  });

  test("a rebuild sends a rejected verdict back as an error tool_result and returns the verified retry", async () => {
    const server = await serve(proposalReply(CODE_A), proposalReply(CODE_B));
    const seen: Proposal[] = [];
    const proposal = await distiller(server.url).distill(request({ reason: "rebuild" }), async (p) => {
      seen.push(p);
      return seen.length === 1 ? rejected : verdict();
    });

    assert.equal(proposal?.code, CODE_B);
    assert.deepEqual(
      seen.map((p) => p.code),
      [CODE_A, CODE_B],
    );
    assert.equal(server.received.length, 2);
    const messages = server.received[1]!.body.messages;
    assert.equal(messages.length, 3);
    const toolUse = messages[1].content.find((b: { type: string }) => b.type === "tool_use");
    assert.equal(messages[1].role, "assistant");
    assert.equal(toolUse.input.code, CODE_A);
    assert.equal(messages[2].role, "user");
    assert.deepEqual(messages[2].content, [
      { type: "tool_result", tool_use_id: toolUse.id, content: verdictText(rejected), is_error: true },
    ]);
    assert.deepEqual(server.received[1]!.body.tool_choice, { type: "tool", name: PROPOSE_TOOL_NAME });
  });

  test("a rebuild stops after three attempts and returns the last proposal", async () => {
    const server = await serve(proposalReply(CODE_A), proposalReply(CODE_B), proposalReply(CODE_C));
    let verifications = 0;
    const proposal = await distiller(server.url).distill(request({ reason: "rebuild" }), async () => {
      verifications++;
      return rejected;
    });
    assert.equal(proposal?.code, CODE_C);
    assert.equal(verifications, 3);
    assert.equal(server.received.length, 3);
    assert.equal(server.received[2]!.body.messages.length, 5);
  });

  test("a retry that fails keeps the earlier proposal", async () => {
    const server = await serve(proposalReply(CODE_A), { content: [{ type: "text", text: "I give up." }] });
    const proposal = await distiller(server.url).distill(
      request({ reason: "rebuild" }),
      async () => rejected,
    );
    assert.equal(proposal?.code, CODE_A);
    assert.equal(server.received.length, 2);
  });

  test("a fallback asks once and leaves verification to the caller", async () => {
    const server = await serve(proposalReply(CODE_A));
    let verifications = 0;
    const proposal = await distiller(server.url).distill(request({ reason: "fallback" }), async () => {
      verifications++;
      return rejected;
    });
    assert.equal(proposal?.code, CODE_A);
    assert.equal(verifications, 0);
    assert.equal(server.received.length, 1);
  });

  test("no API key fails before any request", async () => {
    const server = await serve(proposalReply(CODE_A));
    const saved = process.env["ANTHROPIC_API_KEY"];
    delete process.env["ANTHROPIC_API_KEY"];
    try {
      const d = new ClaudeDistiller({ model: MODEL, baseURL: server.url, maxRetries: 0 });
      await rejectsWith(
        d.distill(request()),
        "ANTHROPIC_API_KEY is not set: the distiller calls the Claude API. Export it in your shell " +
          "(the CLI does not read .env files) or configure a custom distiller.",
      );
    } finally {
      if (saved !== undefined) process.env["ANTHROPIC_API_KEY"] = saved;
    }
    assert.equal(server.received.length, 0);
  });

  test("the key falls back to ANTHROPIC_API_KEY", async () => {
    const server = await serve(proposalReply(CODE_A));
    const saved = process.env["ANTHROPIC_API_KEY"];
    process.env["ANTHROPIC_API_KEY"] = "sk-from-env";
    try {
      await new ClaudeDistiller({ model: MODEL, baseURL: server.url, maxRetries: 0 }).distill(request());
    } finally {
      if (saved === undefined) delete process.env["ANTHROPIC_API_KEY"];
      else process.env["ANTHROPIC_API_KEY"] = saved;
    }
    const { headers } = server.received[0]!;
    assert.ok(`${headers["x-api-key"] ?? ""} ${headers.authorization ?? ""}`.includes("sk-from-env"));
  });

  test("an unreachable API names the URL and the cause", async () => {
    const server = await serve(proposalReply(CODE_A));
    const url = server.url;
    await server.close();
    fake = undefined;
    await rejectsWith(
      distiller(url).distill(request()),
      new RegExp(`^could not reach the Claude API at ${url.replaceAll(".", "\\.")}/?: .*ECONNREFUSED`),
    );
  });

  test("an answer without the tool call is an error", async () => {
    const server = await serve({ content: [{ type: "text", text: "Sure, here is some code." }] });
    await rejectsWith(
      distiller(server.url).distill(request()),
      "the model answered without calling propose_distilled_tool (stop_reason: end_turn); " +
        "try again, or set distiller_model to a model that supports tool use",
    );
  });

  test("a malformed tool call counts as no tool call", async () => {
    const server = await serve(proposalReply(CODE_A, "ACME"));
    await rejectsWith(
      distiller(server.url).distill(request()),
      "the model answered without calling propose_distilled_tool properly: invalid proposal: 'test_inputs' must be an array of input objects taken from this run; try again",
    );
  });

  test("429 says to try later", async () => {
    const server = await serve({ status: 429, error: { type: "rate_limit_error", message: "slow down" } });
    await rejectsWith(
      distiller(server.url).distill(request()),
      "rate limited by the Claude API (429); try again later",
    );
    assert.equal(server.received.length, 1);
  });

  test("401 says to check the key", async () => {
    const server = await serve({
      status: 401,
      error: { type: "authentication_error", message: "invalid x-api-key" },
    });
    await rejectsWith(
      distiller(server.url).distill(request()),
      "the Claude API rejected the API key (401: invalid x-api-key); check ANTHROPIC_API_KEY",
    );
  });

  test("other API errors carry status and message", async () => {
    const server = await serve({ status: 404, error: { type: "not_found_error", message: "model: nope" } });
    await rejectsWith(
      distiller(server.url).distill(request()),
      `the Claude API answered 404: model: nope; check that distiller_model '${MODEL}' names a model your key can use`,
    );
  });

  test("a slow API times out with the limit named", async () => {
    fake = await startFakeAnthropic(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      return proposalReply(CODE_A);
    });
    const d = new ClaudeDistiller({
      model: MODEL,
      apiKey: KEY,
      baseURL: fake.url,
      maxRetries: 0,
      timeoutMs: 100,
    });
    await rejectsWith(
      d.distill(request()),
      new RegExp(
        `^the Claude API at ${fake.url.replaceAll(".", "\\.")}/? did not answer within 100 ms; try again later$`,
      ),
    );
  });

  test("an injected client is used as is", async () => {
    const server = await serve(proposalReply(CODE_A));
    const client = new Anthropic({ apiKey: "sk-injected", baseURL: server.url, maxRetries: 0 });
    const proposal = await new ClaudeDistiller({ model: MODEL, client }).distill(request());
    assert.equal(proposal?.code, CODE_A);
  });
});

describe("fake Anthropic server", () => {
  test("streams a message the SDK reassembles", async () => {
    const server = await serve(proposalReply(CODE_A));
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const message = await client.messages
      .stream({ model: MODEL, max_tokens: 100, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    assert.equal(message.stop_reason, "tool_use");
    assert.deepEqual(message.content[0], { type: "text", text: "Here is the tool." });
    const block = message.content[1];
    assert.ok(block?.type === "tool_use");
    assert.deepEqual(block.input, { code: CODE_A, test_inputs: [{ customer: "ACME" }] });
    assert.equal(server.received[0]!.body.stream, true);
  });

  test("answers HEAD / with 200", async () => {
    const server = await serve(proposalReply(CODE_A));
    const res = await fetch(`${server.url}/`, { method: "HEAD" });
    assert.equal(res.status, 200);
  });
});

describe("verdictText", () => {
  test("verified and waiting for promote, with the efficiency line", () => {
    assert.equal(
      verdictText(verdict({ calls: 4, baseline: 12, limit: 8.4 })),
      [
        "verified: create_invoice_from_email v2",
        "4 base calls; limit 8.4 (baseline 12 × 0.7)",
        "create_invoice_from_email v2 is verified and waits for promote (tooldistill promote create_invoice_from_email).",
      ].join("\n"),
    );
  });

  test("verified and active", () => {
    assert.equal(
      verdictText(verdict({ status: "active", calls: 3, baseline: 17, limit: 11.9 })),
      [
        "verified: create_invoice_from_email v2",
        "3 base calls; limit 11.9 (baseline 17 × 0.7)",
        "create_invoice_from_email v2 is active: agents can call it now.",
      ].join("\n"),
    );
  });

  test("rejected names the first failing check and lists its problems; later checks did not run", () => {
    const v = verdict({
      status: "draft",
      checks: {
        static: { ok: true, problems: [] },
        replay: {
          ok: false,
          problems: [
            { rule: "replay-mismatch", message: "call 2 billing_create_invoice: no recorded call matches" },
            { rule: "replay-mismatch", line: 7, message: "check() returned false" },
          ],
        },
        efficiency: {
          ok: false,
          problems: [{ rule: "call-limit", message: "9 base calls is over the limit 8.4" }],
        },
      },
      calls: 9,
      baseline: 12,
      limit: 12 * 0.7,
      liveCalls: ["billing_import_from_email", "gmail_search"],
    });
    assert.equal(
      verdictText(v),
      [
        "rejected: create_invoice_from_email v2: replay check failed",
        "- call 2 billing_create_invoice: no recorded call matches",
        "- line 7: check() returned false",
        "9 base calls; limit 8.4 (baseline 12 × 0.7)",
        "ran live: billing_import_from_email, gmail_search",
        "Fix the problems above and call propose_distilled_tool again with the whole corrected code.",
      ].join("\n"),
    );
  });

  test("static failure without call counts", () => {
    assert.equal(
      verdictText(rejected),
      [
        "rejected: create_invoice_from_email v2: static check failed",
        "- line 5: no such base tool",
        "Fix the problems above and call propose_distilled_tool again with the whole corrected code.",
      ].join("\n"),
    );
  });

  test("limits keep up to two decimals", () => {
    const text = verdictText(verdict({ calls: 5, baseline: 9, limit: 9 * 0.65 }));
    assert.ok(text.includes("5 base calls; limit 5.85 (baseline 9 × 0.65)"), text);
  });
});

describe("proposalPrompt", () => {
  test("shows the task, the calls with failures and inner calls, the tools and the rules", () => {
    const prompt = proposalPrompt(request());
    assert.ok(prompt.includes("## Task of the run\nInvoice ACME for their latest order email"));
    assert.ok(prompt.includes("4 recorded, 2 top-level base tool calls"), prompt);
    assert.ok(
      prompt.includes('#1 billing_find_customer {"name":"ACME"}\n   → ok: {"id":"cus_1","name":"ACME"}'),
    );
    assert.ok(
      prompt.includes(
        '#2 billing_import_from_email {"customer_id":"cus_1"}\n   → FAILED: service unavailable (503)',
      ),
    );
    assert.ok(prompt.includes('#3 create_invoice_from_email [distilled] {"customer":"ACME"}'));
    assert.ok(
      prompt.includes(
        '   inside #3 create_invoice_from_email: #4 billing_create_invoice {"customer_id":"cus_1","lines":[]}',
      ),
      prompt,
    );
    assert.ok(prompt.includes("- billing_find_customer: Find a customer by name."));
    assert.ok(prompt.includes('input_schema: {"type":"object","properties":{"name":{"type":"string"}}'));
    assert.ok(prompt.includes('call("<literal base tool name>"'));
    assert.ok(prompt.includes("try/catch/finally"));
    assert.ok(prompt.includes("test_inputs"));
    assert.ok(prompt.includes("did not propose a tool"));
  });

  test("a rebuild shows the note and the version it replaces", () => {
    const prompt = proposalPrompt(
      request({
        reason: "rebuild",
        note: "billing_import_from_email has recovered: it answered the health probe",
        replacing: { name: "create_invoice_from_email", version: 2, code: CODE_A },
      }),
    );
    assert.ok(prompt.includes("has recovered"));
    assert.ok(prompt.includes("Note: billing_import_from_email has recovered: it answered the health probe"));
    assert.ok(prompt.includes("## The version being replaced: create_invoice_from_email v2"));
    assert.ok(prompt.includes(`\`\`\`ts\n${CODE_A.trimEnd()}\n\`\`\``));
    assert.ok(prompt.includes("fewer base calls than the version it replaces"));
  });

  test("a replacement asks for the same name", () => {
    const prompt = proposalPrompt(
      request({
        reason: "replacement",
        replacing: { name: "create_invoice_from_email", version: 1, code: CODE_A },
      }),
    );
    assert.ok(prompt.includes("The distilled tool 'create_invoice_from_email' failed at run time"));
    assert.ok(prompt.includes("Keep the name 'create_invoice_from_email'"));
  });

  test("long outputs are clipped", () => {
    const big = { rows: "x".repeat(5000) };
    const prompt = proposalPrompt(
      request({ calls: [call({ id: 1, seq: 1, tool: "billing_find_customer", output: big })] }),
    );
    assert.ok(prompt.includes("more characters)"));
    assert.ok(prompt.length < 10_000 + proposalPrompt(request({ calls: [] })).length);
  });
});
