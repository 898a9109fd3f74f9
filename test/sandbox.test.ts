import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { DistillError } from "../core/errors.ts";
import { DEFAULT_LIMITS, Sandbox } from "../core/sandbox/sandbox.ts";
import type { SandboxRunRequest } from "../core/sandbox/types.ts";
import { toFunctionBody } from "../core/verify/module-body.ts";
import { tempDir } from "./helpers.ts";
import { failureOf, fakeHost, resultOf, toolSource } from "./sandbox-helpers.ts";

const sandbox = new Sandbox({ poolSize: 2 });
after(() => sandbox.close());

const ALL = ["echo", "fail", "slow", "big", "bad_json", "undefined"];

function run(source: string, options: Partial<SandboxRunRequest> = {}) {
  const host = fakeHost();
  const outcome = sandbox.run({
    source,
    input: {},
    allow: ALL,
    call: (tool, args) => host.call(tool, args),
    ...options,
  });
  return { host, outcome };
}

const INVOICE = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "create_invoice_from_email",
  description: "Create a draft invoice for a customer from their most recent order email.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer, since = "1d" }: { customer: string; since?: string }) {
    const [msg] = await call("gmail_search", { query: \`from:\${customer} order\`, since });
    const order = await call("gmail_get_message", { id: msg.id });
    return call("billing_create_invoice", { customer_id: 1, lines: order.lines });
  },
  check: (result: { status: string }) => result.status === "draft",
});
`;

async function invoiceHost(tool: string, args: Record<string, unknown>): Promise<unknown> {
  if (tool === "gmail_search") return [{ id: "m1", since: args["since"] }];
  if (tool === "gmail_get_message") return { lines: [{ sku: "A", qty: 2 }] };
  if (tool === "billing_create_invoice") return { status: "draft", id: 7, lines: args["lines"] };
  throw new Error(`no such tool ${tool}`);
}
const INVOICE_TOOLS = ["gmail_search", "gmail_get_message", "billing_create_invoice"];

describe("toFunctionBody", () => {
  test("strips types, binds the imports, and returns the default export last", () => {
    const body = toFunctionBody(INVOICE);
    assert.match(body, /^const \{ distilledTool, call \} = __tooldistill;\n/);
    assert.match(body, /const __tooldistill_default = distilledTool\(\{/);
    assert.match(body, /\nreturn __tooldistill_default;\n$/);
    assert.doesNotMatch(body, /import|export|: string/);
    // Line numbers of the source are kept.
    assert.equal(INVOICE.split("\n")[7]?.trim(), body.split("\n")[7]?.trim());
    assert.match(body.split("\n")[7] ?? "", /const \[msg\] = await call\("gmail_search"/);
  });

  test("keeps multi-line imports' line count, aliases and namespace imports", () => {
    const body = toFunctionBody(`import {
  call as c,
  distilledTool as dt,
} from "tooldistill";
import * as td from "tooldistill";
import type { Foo } from "tooldistill";
export default dt({ async run() { return [await c("echo", {}), typeof td.call]; } });
`);
    assert.deepEqual(body.split("\n").slice(0, 5), [
      "const { call: c, distilledTool: dt } = __tooldistill;",
      "",
      "",
      "",
      "const td = __tooldistill;",
    ]);
  });

  test("a named default function stays a declaration; code after export default still runs", async () => {
    const body = toFunctionBody(
      `export default function tool() { return helper(); }\nconst helper = () => 1;`,
    );
    assert.match(body, /^function tool\(\)/);
    assert.match(body, /return tool;\n$/);
    const anon = toFunctionBody(`export default function () { return 1 }\n(0)`);
    assert.match(anon, /^const __tooldistill_default = function \(\) \{ return 1 \};\n\(0\)/);
    const { outcome } = run(
      toolSource(`return helper(input.n);`).replace(/\n$/, "\nconst helper = (n: number) => n * 2;\n"),
      { input: { n: 21 } },
    );
    assert.equal(resultOf(await outcome), 42);
  });

  const invalid: [string, string, RegExp][] = [
    [
      "another import",
      `import fs from "node:fs";\nexport default 1;`,
      /line 1: a tool module may import only from "tooldistill" \(found "node:fs"\)/,
    ],
    [
      "no default export",
      `import { call } from "tooldistill";\nconst x = 1;`,
      /has no `export default distilledTool/,
    ],
    [
      "a named export",
      `export const x = 1;\nexport default 1;`,
      /line 1: a tool module exports only its default/,
    ],
    ["a re-export", `export * from "x";\nexport default 1;`, /exports only its default/],
    [
      "an unknown import name",
      `import { run } from "tooldistill";\nexport default 1;`,
      /exports only distilledTool, call and notApplicable \(found 'run'\)/,
    ],
    ["a default import", `import td from "tooldistill";\nexport default 1;`, /has no default export/],
    ["non-erasable TypeScript", `enum A { B }\nexport default 1;`, /not erasable.*enum/],
    ["a syntax error", `export default {`, /does not parse/],
    ["top-level await", `export default await 1;`, /cannot run as a tool/],
    ["import.meta", `export default import.meta.url;`, /cannot run as a tool/],
  ];
  for (const [what, source, message] of invalid) {
    test(`rejects ${what}`, () => {
      assert.throws(
        () => toFunctionBody(source),
        (err: unknown) =>
          err instanceof DistillError && err.code === "PROPOSAL_INVALID" && message.test(err.message),
      );
    });
  }

  test("leaves process.emitWarning as it found it", () => {
    const before = process.emitWarning;
    toFunctionBody(INVOICE);
    assert.equal(process.emitWarning, before);
  });
});

describe("runs", () => {
  test("sequential calls: result, calls with outputs, input defaults, check passed", async () => {
    const outcome = await sandbox.run({
      source: INVOICE,
      input: { customer: "acme" },
      allow: INVOICE_TOOLS,
      call: invoiceHost,
      runCheck: true,
    });
    assert.deepEqual(outcome, {
      ok: true,
      result: { status: "draft", id: 7, lines: [{ sku: "A", qty: 2 }] },
      check: "passed",
      calls: [
        {
          tool: "gmail_search",
          args: { query: "from:acme order", since: "1d" },
          ok: true,
          output: [{ id: "m1", since: "1d" }],
        },
        {
          tool: "gmail_get_message",
          args: { id: "m1" },
          ok: true,
          output: { lines: [{ sku: "A", qty: 2 }] },
        },
        {
          tool: "billing_create_invoice",
          args: { customer_id: 1, lines: [{ sku: "A", qty: 2 }] },
          ok: true,
          output: { status: "draft", id: 7, lines: [{ sku: "A", qty: 2 }] },
        },
      ],
    });
  });

  test("an input value overrides the default", async () => {
    const outcome = await sandbox.run({
      source: INVOICE,
      input: { customer: "acme", since: "7d" },
      allow: INVOICE_TOOLS,
      call: invoiceHost,
    });
    assert.equal(outcome.calls[0]?.args["since"], "7d");
    assert.equal(outcome.ok && outcome.check, "skipped");
  });

  test("parallel calls with Promise.all run at the same time, listed in request order", async () => {
    const { host, outcome } = run(
      toolSource(`
    const [a, b, c] = await Promise.all([
      call("slow", { ms: 60, n: 1 }),
      call("slow", { ms: 10, n: 2 }),
      call("echo", { n: 3 }),
    ]);
    return [a.args.n, b.args.n, c.args.n];`),
    );
    const done = await outcome;
    assert.deepEqual(resultOf(done), [1, 2, 3]);
    assert.deepEqual(
      done.calls.map((c) => [c.tool, c.args["n"], c.ok]),
      [
        ["slow", 1, true],
        ["slow", 2, true],
        ["echo", 3, true],
      ],
    );
    assert.equal(host.maxInFlight, 3);
  });

  test("results cross as JSON", async () => {
    const cases: [string, unknown][] = [
      [
        `return { a: [1, "x", null, true], d: new Date(0), u: undefined, f() {} };`,
        { a: [1, "x", null, true], d: "1970-01-01T00:00:00.000Z" },
      ],
      [`return undefined;`, null],
      [`return "text";`, "text"],
      [`const r = await call("undefined", {}); return r;`, null],
    ];
    for (const [code, expected] of cases) {
      assert.deepEqual(resultOf(await run(toolSource(code)).outcome), expected, code);
    }
    const big = failureOf(await run(toolSource(`return { n: 1n };`)).outcome);
    assert.equal(big.kind, "code_error");
    assert.match(big.message, /^the tool's result is not JSON-serialisable: TypeError: .*BigInt/i);
  });

  test("a tool that is not async still runs", async () => {
    const source = `import { distilledTool, call } from "tooldistill";
export default distilledTool({ name: "x", description: "x", inputSchema: {}, run: (input: any) => input.n + 1 });`;
    assert.equal(resultOf(await run(source, { input: { n: 1 } }).outcome), 2);
  });
});

describe("check", () => {
  const withCheck = (check: string) => toolSource(`return { status: input.status };`, `\n  check: ${check},`);
  test("passed, failed, threw, absent, skipped, async", async () => {
    const ok = await run(withCheck(`(r: any) => r.status === "draft"`), {
      input: { status: "draft" },
      runCheck: true,
    }).outcome;
    assert.equal(ok.ok && ok.check, "passed");

    const falsy = failureOf(
      await run(withCheck(`(r: any) => r.status === "draft"`), { input: { status: "sent" }, runCheck: true })
        .outcome,
    );
    assert.deepEqual(falsy, { kind: "check_failed", cause: "tool", message: "check(result) returned false" });

    const threw = failureOf(
      await run(withCheck(`(r: any) => r.missing.deep`), { input: { status: "x" }, runCheck: true }).outcome,
    );
    assert.equal(threw.kind, "check_failed");
    assert.equal(
      threw.message,
      "check(result) threw: TypeError: cannot read property 'deep' of undefined (line 10)",
    );

    const absent = await run(toolSource(`return 1;`), { runCheck: true }).outcome;
    assert.equal(absent.ok && absent.check, "absent");

    const skipped = await run(withCheck(`() => false`), { runCheck: false }).outcome;
    assert.equal(skipped.ok && skipped.check, "skipped");

    const zero = failureOf(await run(withCheck(`() => 0`), { runCheck: true }).outcome);
    assert.deepEqual(zero, { kind: "check_failed", cause: "tool", message: "check(result) returned 0" });

    // An async check would always "pass" (a promise is truthy): it fails, saying why.
    const asyncCheck = failureOf(await run(withCheck(`async () => true`), { runCheck: true }).outcome);
    assert.deepEqual(asyncCheck, {
      kind: "check_failed",
      cause: "tool",
      message: "check(result) returned a promise: check must answer at once (not async, no await)",
    });
  });

  test("the check sees the result as JSON (a copy)", async () => {
    const source = toolSource(
      `return { d: new Date(0) };`,
      `\n  check: (r: any) => typeof r.d === "string",`,
    );
    const outcome = await run(source, { runCheck: true }).outcome;
    assert.equal(outcome.ok && outcome.check, "passed");
  });

  test("a check that is not a function is a bad module", async () => {
    const failure = failureOf(
      await run(toolSource(`return 1;`, `\n  check: 5,`), { runCheck: true }).outcome,
    );
    assert.deepEqual(failure, {
      kind: "bad_module",
      cause: "tool",
      message: "the tool's check must be a function",
    });
  });
});

describe("failures", () => {
  test("a failing base call fails the run with step, tool and message; later calls do not run", async () => {
    const { host, outcome } = run(
      toolSource(`
    await call("echo", { n: 1 });
    await call("fail", { why: "billing is down" });
    await call("echo", { n: 3 });
    return "unreachable";`),
    );
    const done = await outcome;
    // The text says "down", but the tool wrote it and nothing out of band says so (base-failure.ts): the tool's.
    assert.deepEqual(failureOf(done), {
      kind: "call_failed",
      cause: "tool",
      message: "billing is down",
      step: 2,
      tool: "fail",
    });
    assert.deepEqual(done.calls, [
      { tool: "echo", args: { n: 1 }, ok: true, output: { tool: "echo", args: { n: 1 } } },
      { tool: "fail", args: { why: "billing is down" }, ok: false, error: "billing is down" },
    ]);
    assert.equal(host.log.length, 2);
  });

  const swallowers: [string, string][] = [
    [
      "Promise.allSettled",
      `const r = await Promise.allSettled([call("fail", {}), call("echo", {})]); return r.length;`,
    ],
    ["two-argument then", `return call("fail", {}).then((x) => x, () => "swallowed");`],
    [".catch", `await call("fail", {}).catch(() => {}); return "swallowed";`],
    ["try/catch", `try { await call("fail", {}); } catch { return "swallowed"; } return 1;`],
    ["an unawaited call", `call("fail", {}); return "returned before it failed";`],
  ];
  for (const [how, code] of swallowers) {
    test(`a failed call hidden with ${how} still fails the run`, async () => {
      const failure = failureOf(await run(toolSource(code)).outcome);
      assert.equal(failure.kind, "call_failed");
      assert.equal(failure.tool, "fail");
      assert.equal(failure.step, 1);
    });
  }

  test("a call the tool may not make fails the run before the host sees it", async () => {
    const { host, outcome } = run(
      toolSource(`await call("echo", {}); await call("delete_everything", { all: true });`),
      {
        allow: ["echo"],
      },
    );
    const done = await outcome;
    assert.deepEqual(failureOf(done), {
      kind: "not_allowed",
      cause: "tool",
      message: "call 2 to 'delete_everything' is not allowed: this tool may call only 'echo'",
      step: 2,
      tool: "delete_everything",
    });
    assert.deepEqual(
      host.log.map((c) => c.tool),
      ["echo"],
    );
    assert.deepEqual(done.calls[1], {
      tool: "delete_everything",
      args: { all: true },
      ok: false,
      error: "not allowed: this tool may call only 'echo'",
    });
  });

  test("a batch with a forbidden call runs none of it", async () => {
    const { host, outcome } = run(
      toolSource(`return Promise.all([call("echo", { n: 1 }), call("nope", {}), call("echo", { n: 3 })]);`),
      { allow: ["echo"] },
    );
    const done = await outcome;
    assert.equal(failureOf(done).kind, "not_allowed");
    assert.equal(failureOf(done).step, 2);
    assert.deepEqual(done.calls, [
      { tool: "echo", args: { n: 1 }, ok: false, error: "not run: the tool was stopped at step 2" },
      { tool: "nope", args: {}, ok: false, error: "not allowed: this tool may call only 'echo'" },
    ]);
    assert.equal(host.log.length, 0);
  });

  test("the call cap", async () => {
    const { host, outcome } = run(toolSource(`for (let i = 0; i < 10; i++) await call("echo", { i });`), {
      limits: { maxCalls: 3 },
    });
    const done = await outcome;
    assert.deepEqual(failureOf(done), {
      kind: "call_limit",
      cause: "tool",
      message: "the tool made more than 3 base calls and was stopped",
      step: 4,
      tool: "echo",
    });
    assert.equal(host.log.length, 3);
    assert.equal(done.calls.length, 4);
  });

  test("the default call cap is 200", async () => {
    assert.equal(DEFAULT_LIMITS.maxCalls, 200);
    const { host, outcome } = run(
      toolSource(`return Promise.all(Array.from({ length: 250 }, (_, i) => call("echo", { i })));`),
    );
    const failure = failureOf(await outcome);
    assert.equal(failure.kind, "call_limit");
    assert.equal(failure.step, 201);
    assert.equal(host.log.length, 0);
  });

  test("message caps: call arguments, call results, the tool's result", async () => {
    const limits = { maxMessageBytes: 1000 };
    const args = run(toolSource(`await call("echo", { s: "y".repeat(2000) });`), { limits });
    assert.deepEqual(failureOf(await args.outcome), {
      kind: "message_limit",
      cause: "tool",
      message: "the arguments of call 1 to 'echo' are 2008 bytes, more than the 1000-byte limit",
      step: 1,
      tool: "echo",
    });
    assert.equal(args.host.log.length, 0);

    const result = run(toolSource(`await call("big", { bytes: 5000 }); return 1;`), { limits });
    const resultDone = await result.outcome;
    // The tool asked for the 5000 bytes: an answer too large for what it asked counts against it.
    assert.deepEqual(failureOf(resultDone), {
      kind: "message_limit",
      cause: "tool",
      message: "the result of call 1 to 'big' is 5002 bytes, more than the 1000-byte limit",
      step: 1,
      tool: "big",
    });
    assert.equal(resultDone.calls[0]?.ok, false);

    const own = failureOf(await run(toolSource(`return "z".repeat(4000);`), { limits }).outcome);
    assert.deepEqual(own, {
      kind: "message_limit",
      cause: "tool",
      message: "the tool's result is 4002 bytes, more than the 1000-byte limit",
    });
  });

  test("a host result that is not JSON fails the call", async () => {
    const failure = failureOf(await run(toolSource(`return call("bad_json", {});`)).outcome);
    assert.equal(failure.kind, "call_failed");
    assert.match(
      failure.message,
      /^base tool 'bad_json' returned a value that is not JSON-serialisable: .*BigInt/,
    );
  });

  test("code errors carry the message and the tool's line, never a stack", async () => {
    const cases: [string, string][] = [
      [`throw new Error("no order found");`, "no order found (line 8)"],
      [
        `const x: any = undefined; return x.id;`,
        "TypeError: cannot read property 'id' of undefined (line 8)",
      ],
      [`throw "plain string";`, "plain string"],
      [`throw { message: 42 };`, "[object Object]"],
      [`const e = new RangeError("r"); e.stack = "secret stack"; throw e;`, "RangeError: r"],
    ];
    for (const [code, message] of cases) {
      assert.deepEqual(
        failureOf(await run(toolSource(code)).outcome),
        { kind: "code_error", cause: "tool", message },
        code,
      );
    }
  });

  test("a module that does not define a tool", async () => {
    const cases: [string, string][] = [
      [
        `import { distilledTool } from "tooldistill";\nexport default distilledTool({ name: "x" });`,
        "the tool has no run function",
      ],
      [
        `export default 5;`,
        "the module's default export must be distilledTool({ name, description, inputSchema, run, check? })",
      ],
      [`export default {`, ""],
    ];
    for (const [source, message] of cases) {
      const failure = failureOf(await run(source).outcome);
      assert.equal(failure.kind, "bad_module");
      if (message) assert.equal(failure.message, message);
    }
    const throwing = failureOf(await run(`throw new Error("at load");\nexport default 1;`).outcome);
    assert.deepEqual(throwing, {
      kind: "code_error",
      cause: "tool",
      message: "the module threw while loading: at load (line 1)",
    });
  });

  test("a promise that never settles ends the run at once", async () => {
    const started = performance.now();
    const failure = failureOf(
      await run(toolSource(`await call("echo", {}); await new Promise(() => {});`)).outcome,
    );
    assert.deepEqual(failure, {
      kind: "code_error",
      cause: "tool",
      message: "the tool's promise never settled: its code is waiting, but not on any base call",
    });
    assert.ok(performance.now() - started < 1500);
  });

  test("bad limits are a usage error", async () => {
    await assert.rejects(
      sandbox.run({ source: INVOICE, input: {}, allow: [], call: invoiceHost, limits: { cpuMs: -1 } }),
      (err: unknown) =>
        err instanceof DistillError &&
        err.code === "USAGE" &&
        /cpuMs must be a positive number/.test(err.message),
    );
    assert.throws(() => new Sandbox({ poolSize: -1 }), /poolSize/);
    assert.throws(() => new Sandbox({ maxConcurrent: 0 }), /maxConcurrent/);
    assert.throws(() => new Sandbox({ limits: { memoryMb: 8 } }), /memoryMb must be at least 32/);
  });
});

describe("limits", () => {
  test("an infinite loop hits the deadline; the parent survives and the next job works", async () => {
    const started = performance.now();
    const failure = failureOf(
      await run(toolSource(`await call("echo", {}); for (;;) {}`), { limits: { cpuMs: 300 } }).outcome,
    );
    const elapsed = performance.now() - started;
    assert.deepEqual(failure, {
      kind: "cpu",
      cause: "tool",
      message: "the tool's code ran for more than 300 ms of its own time and was stopped",
    });
    assert.ok(elapsed >= 290 && elapsed < 3000, `took ${elapsed} ms`);
    assert.equal(resultOf(await run(toolSource(`return 1;`)).outcome), 1);
  });

  test("the default deadline is 2000 ms", async () => {
    assert.equal(DEFAULT_LIMITS.cpuMs, 2000);
    const failure = failureOf(await run(toolSource(`for (;;) {}`)).outcome);
    assert.equal(
      failure.message,
      "the tool's code ran for more than 2000 ms of its own time and was stopped",
    );
  });

  test("time spent waiting for a slow base call does not count", async () => {
    const outcome = await run(toolSource(`const r = await call("slow", { ms: 3000 }); return r.args.ms;`), {
      limits: { cpuMs: 500 },
    }).outcome;
    assert.equal(resultOf(outcome), 3000);
  });

  test("busy time adds up over a run", async () => {
    // Measure one step's computing time here, then give the tool room for about three of them: two steps
    // fit, twelve do not, whatever this machine's speed.
    const spin = `let x = 0; for (const i of Array.from({ length: 300000 }, (_, k) => k)) x += i % 7;`;
    const code = (n: number) =>
      toolSource(
        `for (const s of Array.from({ length: ${n} })) { ${spin} await call("slow", { ms: 20 }); } return "done";`,
      );
    const started = process.cpuUsage();
    resultOf(await run(code(1), { limits: { cpuMs: 60_000 } }).outcome);
    const used = process.cpuUsage(started);
    const step = Math.max(5, (used.user + used.system) / 1000);
    assert.equal(resultOf(await run(code(2), { limits: { cpuMs: step * 3.5 } }).outcome), "done");
    assert.equal(failureOf(await run(code(12), { limits: { cpuMs: step * 3.5 } }).outcome).kind, "cpu");
  });

  test("a memory bomb is a memory failure; the next job works", async () => {
    const failure = failureOf(
      await run(toolSource(`const a: any[] = []; for (;;) a.push({ n: a.length, s: "x" + a.length });`), {
        limits: { cpuMs: 20_000 },
      }).outcome,
    );
    assert.deepEqual(failure, {
      kind: "memory",
      cause: "tool",
      message: "the tool used more than 64 MB of memory and was stopped",
    });
    assert.equal(resultOf(await run(toolSource(`return 2;`)).outcome), 2);
  });
});

describe("instances", () => {
  test("every run and every check gets a fresh engine instance; spare workers are made ahead", async (t) => {
    const pool = new Sandbox({ poolSize: 1 });
    t.after(() => pool.close());
    const host = fakeHost();
    const req = {
      source: toolSource(`return call("echo", {});`),
      input: {},
      allow: ["echo"],
      call: host.call,
    };
    for (let i = 0; i < 3; i++) resultOf(await pool.run(req));
    // Three runs took three instances, each made (with its prelude) before its run; a spare worker waits.
    const afterRuns = pool.stats().spawned;
    assert.ok(afterRuns >= 3, `${afterRuns} instances for 3 runs`);
    assert.ok(pool.stats().idle >= 1);
    const checked = await pool.run({
      ...req,
      source: toolSource(`return 1;`, "\n  check: (r: any) => r === 1,"),
      runCheck: true,
    });
    assert.equal(checked.ok && checked.check, "passed");
    assert.ok(pool.stats().spawned >= afterRuns + 1, "the check ran in an instance of its own");
  });

  test("a failed run leaves nothing behind: the next run works", async (t) => {
    const pool = new Sandbox({ poolSize: 1, limits: { cpuMs: 200 } });
    t.after(() => pool.close());
    const host = fakeHost();
    assert.equal(
      failureOf(await pool.run({ source: toolSource(`for (;;) {}`), input: {}, allow: [], call: host.call }))
        .kind,
      "cpu",
    );
    assert.equal(
      resultOf(await pool.run({ source: toolSource(`return 3;`), input: {}, allow: [], call: host.call })),
      3,
    );
  });

  test("runs wait for one of maxConcurrent places; their clocks do not run while they wait", async (t) => {
    const pool = new Sandbox({ poolSize: 0, maxConcurrent: 2, limits: { cpuMs: 1000 } });
    t.after(() => pool.close());
    const host = fakeHost();
    const outcomes = Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        pool.run({
          source: toolSource(`return (await call("slow", { ms: 150, n: input.n })).args.n;`),
          input: { n },
          allow: ["slow"],
          call: host.call,
        }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(pool.stats().queued, 3);
    assert.deepEqual((await outcomes).map(resultOf), [1, 2, 3, 4, 5]);
    assert.equal(host.maxInFlight, 2);
  });

  test("poolSize 0 keeps no spare", async (t) => {
    const pool = new Sandbox({ poolSize: 0 });
    t.after(() => pool.close());
    const host = fakeHost();
    const req = { source: toolSource(`return 1;`), input: {}, allow: [], call: host.call };
    await pool.run(req);
    await pool.run(req);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(pool.stats().spawned, 2);
    assert.equal(pool.stats().idle, 0);
  });

  test("close() ends a run in progress at once, even one waiting on a base call; later runs are refused", async () => {
    const pool = new Sandbox({ poolSize: 2 });
    const host = fakeHost();
    const running = pool.run({
      source: toolSource(`return call("slow", { ms: 60000 });`),
      input: {},
      allow: ["slow"],
      call: host.call,
    });
    // Once the base call is in progress (a worker's start-up is not the point here).
    while (host.log.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const closing = performance.now();
    await pool.close();
    assert.deepEqual(failureOf(await running), {
      kind: "closed",
      cause: "host",
      message: "the sandbox was closed while the tool was running",
    });
    assert.ok(performance.now() - closing < 5000);
    assert.deepEqual(pool.stats(), { spawned: pool.stats().spawned, idle: 0, busy: 0, queued: 0 });
    await assert.rejects(
      pool.run({ source: toolSource(`return 1;`), input: {}, allow: [], call: host.call }),
      /the sandbox is closed/,
    );
  });
});

describe("a process using the sandbox", () => {
  function runScript(dir: string, extra: string) {
    const script = join(dir, "use-sandbox.ts");
    const sandboxUrl = new URL("../core/sandbox/sandbox.ts", import.meta.url).href;
    writeFileSync(
      script,
      `import { Sandbox } from ${JSON.stringify(sandboxUrl)};
const source = ${JSON.stringify(toolSource(`const r: { args: { n: number } } = await call("echo", { n: input.n }); return r.args.n * 2;`))};
const sandbox = new Sandbox();
const outcome = await sandbox.run({ source, input: { n: 21 }, allow: ["echo"], call: async (tool, args) => ({ tool, args }) });
process.stdout.write(JSON.stringify(outcome.ok && outcome.result));
${extra}
// No close(): spare engine instances must not keep this process alive.
`,
    );
    return spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 20_000 });
  }

  test("prints nothing on stderr and exits without close()", (t) => {
    const child = runScript(tempDir(t, "td-sandbox-stderr-"), "");
    assert.equal(child.signal, null, "the script did not exit on its own");
    assert.equal(child.stderr, "");
    assert.equal(child.stdout, "42");
    assert.equal(child.status, 0);
  });

  test("still shows every other warning", (t) => {
    const child = runScript(
      tempDir(t, "td-sandbox-warning-"),
      `process.emitWarning("some other experimental thing", "ExperimentalWarning");`,
    );
    assert.equal(child.stdout, "42");
    assert.match(child.stderr, /ExperimentalWarning: some other experimental thing/);
    assert.doesNotMatch(child.stderr, /stripTypeScriptTypes/);
  });
});
