import assert from "node:assert/strict";
import { stripTypeScriptTypes } from "node:module";
import { after, describe, test } from "node:test";
import { CALL_SITE_ARG_INDEX, type CallSite, instrumentCallSites } from "../core/call-sites.ts";
import { DistillError } from "../core/errors.ts";
import { LIBRARY_PARAM, toFunctionBody } from "../core/module-body.ts";
import { Sandbox } from "../core/sandbox.ts";
import { failureOf, fakeHost, resultOf, toolSource } from "./sandbox-helpers.ts";

const sandbox = new Sandbox({ poolSize: 1 });
after(() => sandbox.close());

const IMPORT = `import { distilledTool, call } from "tooldistill";\n`;

/** Instruments `body` under the usual import and returns the instrumented body (the import line dropped). */
function instrumentBody(body: string): { body: string; sites: CallSite[] } {
  const { source, sites } = instrumentCallSites(IMPORT + body);
  assert.ok(source.startsWith(IMPORT));
  return { body: source.slice(IMPORT.length), sites };
}

/**
 * Asserts that `out` is `original` with text inserted and nothing else: same lines, each original line a
 * subsequence of its instrumented line, and every inserted character one of those an inserted argument uses.
 */
function assertOnlyInserted(original: string, out: string): void {
  const before = original.split("\n");
  const afterLines = out.split("\n");
  assert.equal(afterLines.length, before.length, "line count changed");
  before.forEach((line, i) => {
    const got = afterLines[i] ?? "";
    let at = 0;
    let inserted = "";
    for (const ch of got) {
      if (at < line.length && ch === line[at]) at++;
      else inserted += ch;
    }
    assert.equal(
      at,
      line.length,
      `line ${i + 1} lost text: ${JSON.stringify(line)} → ${JSON.stringify(got)}`,
    );
    assert.match(inserted, /^[, void0-9]*$/, `line ${i + 1} gained ${JSON.stringify(inserted)}`);
  });
}

describe("instrumentCallSites: the rewrite", () => {
  test("a call with an arguments object gets its site id as the next argument", () => {
    assert.deepEqual(instrumentBody(`await call("x", { a });\n`), {
      body: `await call("x", { a }, 1);\n`,
      sites: [{ id: 1, line: 2, tool: "x" }],
    });
  });

  test("a call with only a name gets `void 0` for its arguments; one with none gets it for both", () => {
    assert.equal(instrumentBody(`call("x");\n`).body, `call("x", void 0, 1);\n`);
    assert.equal(instrumentBody(`call();\n`).body, `call(void 0, void 0, 1);\n`);
    assert.equal(
      instrumentBody(`call( /* nothing */ );\n`).body,
      `call( /* nothing */ void 0, void 0, 1);\n`,
    );
    assert.deepEqual(instrumentBody(`call();\n`).sites, [{ id: 1, line: 2, tool: null }]);
  });

  test("trailing commas stay where they were, on one line and over several", () => {
    assert.equal(instrumentBody(`call("x", { a },);\n`).body, `call("x", { a }, 1,);\n`);
    assert.equal(instrumentBody(`call("x",);\n`).body, `call("x", void 0, 1,);\n`);
    assert.equal(
      instrumentBody(`call(\n  "x",\n  {\n    a: 1,\n  },\n);\n`).body,
      `call(\n  "x",\n  {\n    a: 1,\n  }, 1,\n);\n`,
    );
  });

  test("the id goes in third place even when the code passes more arguments, so the code cannot choose it", () => {
    assert.equal(instrumentBody(`call("x", {}, 7);\n`).body, `call("x", {}, 1, 7);\n`);
    assert.equal(instrumentBody(`call("x", {}, ...more);\n`).body, `call("x", {}, 1, ...more);\n`);
    assert.equal(CALL_SITE_ARG_INDEX, 2);
  });

  test("nested calls: ids in source order, each inserted inside its own call", () => {
    const { body, sites } = instrumentBody(`const r = await call("a", { b: await call("b", {}) });\n`);
    assert.equal(body, `const r = await call("a", { b: await call("b", {}, 2) }, 1);\n`);
    assert.deepEqual(sites, [
      { id: 1, line: 2, tool: "a" },
      { id: 2, line: 2, tool: "b" },
    ]);
    assert.equal(instrumentBody(`call("a", call("b"));\n`).body, `call("a", call("b", void 0, 2), 1);\n`);
  });

  test("arrow functions, conditionals, for…of, Promise.all and optional chaining", () => {
    const src = [
      `const get = (id: string) => call("get", { id });`,
      `const r = input.big ? await call("big", {}) : await call("small", { n: 1 });`,
      `for (const id of input.ids) await call("each", { id });`,
      `const all = await Promise.all([call("p1", {}), call("p2", { q: 2 })]);`,
      `const name = (await call("who", {}))?.profile?.name ?? "none";`,
      `const maybe = await call?.("opt", {});`,
      "",
    ].join("\n");
    const { body, sites } = instrumentBody(src);
    assert.equal(
      body,
      [
        `const get = (id: string) => call("get", { id }, 1);`,
        `const r = input.big ? await call("big", {}, 2) : await call("small", { n: 1 }, 3);`,
        `for (const id of input.ids) await call("each", { id }, 4);`,
        `const all = await Promise.all([call("p1", {}, 5), call("p2", { q: 2 }, 6)]);`,
        `const name = (await call("who", {}, 7))?.profile?.name ?? "none";`,
        `const maybe = await call?.("opt", {}, 8);`,
        "",
      ].join("\n"),
    );
    assert.deepEqual(
      sites.map((s) => [s.id, s.line, s.tool]),
      [
        [1, 2, "get"],
        [2, 3, "big"],
        [3, 3, "small"],
        [4, 4, "each"],
        [5, 5, "p1"],
        [6, 5, "p2"],
        [7, 6, "who"],
        [8, 7, "opt"],
      ],
    );
  });

  test("parenthesised and typed arguments: the id goes after the closing parenthesis or the type", () => {
    assert.equal(instrumentBody(`call("x", ({ a: 1 }));\n`).body, `call("x", ({ a: 1 }), 1);\n`);
    assert.equal(instrumentBody(`call("x", { a } as Args);\n`).body, `call("x", { a } as Args, 1);\n`);
    assert.equal(instrumentBody(`call<Flight[]>("x", {});\n`).body, `call<Flight[]>("x", {}, 1);\n`);
    assert.equal(instrumentBody(`(call)("x", {});\n`).body, `(call)("x", {}, 1);\n`);
    assert.equal(instrumentBody(`call("x", {} /* why */);\n`).body, `call("x", {}, 1 /* why */);\n`);
    assert.equal(instrumentBody(`call("x", {} // why\n);\n`).body, `call("x", {}, 1 // why\n);\n`);
  });

  test("a name that is not a literal gives the site a null tool", () => {
    assert.deepEqual(instrumentBody(`call(input.tool, {});\ncall(\`t_\${input.n}\`, {});\n`).sites, [
      { id: 1, line: 2, tool: null },
      { id: 2, line: 3, tool: null },
    ]);
    assert.deepEqual(instrumentBody("call(`plain`, {});\n").sites, [{ id: 1, line: 2, tool: "plain" }]);
  });
});

describe("instrumentCallSites: which calls are sites", () => {
  test("an alias of the import is followed", () => {
    const src = `import { distilledTool, call as c } from "tooldistill";\nawait c("x", {});\ncall("not_imported", {});\n`;
    assert.deepEqual(instrumentCallSites(src), {
      source: `import { distilledTool, call as c } from "tooldistill";\nawait c("x", {}, 1);\ncall("not_imported", {});\n`,
      sites: [{ id: 1, line: 2, tool: "x" }],
    });
  });

  test("a local binding that shadows the import and another object's .call are not sites", () => {
    const src = [
      `const helper = (call: (n: string) => string) => call("param_shadow");`,
      `function inner() { const call = (n: string) => n; return call("const_shadow"); }`,
      `const obj = { call: (n: string) => n };`,
      `obj.call("method");`,
      `fn.call(null, "x");`,
      `await call("real", {});`,
      "",
    ].join("\n");
    const { body, sites } = instrumentBody(src);
    assert.equal(body, src.replace(`call("real", {})`, `call("real", {}, 1)`));
    assert.deepEqual(sites, [{ id: 1, line: 7, tool: "real" }]);
  });

  test("a namespace import's .call is a site; its other members are not", () => {
    const src = `import * as td from "tooldistill";\nawait td.call("a", {});\nawait td["call"]("b");\nexport default td.distilledTool({});\n`;
    assert.deepEqual(instrumentCallSites(src), {
      source: `import * as td from "tooldistill";\nawait td.call("a", {}, 1);\nawait td["call"]("b", void 0, 2);\nexport default td.distilledTool({});\n`,
      sites: [
        { id: 1, line: 2, tool: "a" },
        { id: 2, line: 3, tool: "b" },
      ],
    });
  });

  test("type-only imports and `typeof call` in types are not uses", () => {
    const typeOnly = `import type { call } from "tooldistill";\ncall("x", {});\n`;
    assert.deepEqual(instrumentCallSites(typeOnly), { source: typeOnly, sites: [] });
    const { body, sites } = instrumentBody(`type Call = typeof call;\nawait call("x", {});\n`);
    assert.equal(body, `type Call = typeof call;\nawait call("x", {}, 1);\n`);
    assert.equal(sites.length, 1);
  });

  test("a source without any call has no sites and is returned unchanged", () => {
    assert.deepEqual(instrumentCallSites(`const x = 1;\n`), { source: `const x = 1;\n`, sites: [] });
  });
});

describe("instrumentCallSites: what it refuses", () => {
  const refusal = (body: string, message: RegExp) =>
    assert.throws(
      () => instrumentCallSites(IMPORT + body),
      (err: unknown) =>
        err instanceof DistillError && err.code === "PROPOSAL_INVALID" && message.test(err.message),
    );

  test("call read as a value: its calls could not be counted", () => {
    refusal(
      `const f = call;\nawait f("x", {});\n`,
      /^the tool's base calls cannot be counted: line 2: 'call' is used without being called, so its calls could not be counted: call base tools directly: call\("<base tool>", \{\.\.\.\}\)$/,
    );
    refusal(`await [call][0]("x", {});\n`, /line 2: 'call' is used without being called/);
    refusal(`await call.apply(null, ["x", {}]);\n`, /line 2: 'call' is used without being called/);
  });

  test("a spread in the name or arguments position would let the code choose the id's place", () => {
    refusal(
      `await call("x", ...rest);\n`,
      /line 2: a spread argument in call\(\.\.\.\) hides the base tool's name or arguments/,
    );
    refusal(`await call(...all);\n`, /line 2: a spread argument/);
  });

  test("a namespace import used as a value", () => {
    assert.throws(
      () => instrumentCallSites(`import * as td from "tooldistill";\nconst lib = td;\n`),
      /line 2: the namespace of "tooldistill" is used as a value/,
    );
  });

  test("the library reached through the sandbox's own names for it: the parameter, or arguments at top level", () => {
    refusal(
      `await ${LIBRARY_PARAM}.call("x", {}, 2);\n`,
      /line 2: '__tooldistill' is the sandbox's own name for the library: call base tools directly/,
    );
    refusal(`const lib = arguments[0];\n`, /line 2: 'arguments' outside a function reaches the library/);
    refusal(`const lib = () => arguments[0];\n`, /line 2: 'arguments' outside a function/);
    // A function's own arguments, a property and a parameter of that name reach nothing of the library.
    const fine = `function f() { return arguments[0]; }\nconst o = { ${LIBRARY_PARAM}: 1 };\no.${LIBRARY_PARAM};\nconst g = (${LIBRARY_PARAM}: number) => ${LIBRARY_PARAM};\n`;
    assert.deepEqual(instrumentBody(fine), { body: fine, sites: [] });
  });

  test("a source that does not parse", () => {
    assert.throws(
      () => instrumentCallSites(`${IMPORT}call("x", {);\n`),
      (err: unknown) =>
        err instanceof DistillError &&
        err.code === "PROPOSAL_INVALID" &&
        /^the tool's code does not parse: .*\(2:/.test(err.message),
    );
  });
});

/** A whole tool exercising every shape the rewrite handles. */
const TOOL = `import { distilledTool, call } from "tooldistill";

interface Flight { id: string; price: number }

export default distilledTool({
  name: "book_cheapest",
  description: "Book the cheapest flight and pay for it.",
  inputSchema: { type: "object", properties: { from: { type: "string" }, ids: { type: "array" } } },
  async run(input: { from: string; ids: string[]; big?: boolean }) {
    const flights: Flight[] = await call("flights_search", { from: input.from, });
    const [cheapest] = flights.sort((a, b) => a.price - b.price);
    const details = await Promise.all(
      input.ids.map((id) => call("flights_get", { id })),
    );
    for (const d of details) {
      await call("audit_log", { id: d.id });
    }
    const booking = input.big
      ? await call("flights_book_group", { id: cheapest!.id })
      : await call("flights_book", {
          id: cheapest!.id,
          receipt: (await call("receipts_new"))?.id ?? null,
        },);
    return { booking, paid: await call("payments_send", { amount: cheapest!.price }) };
  },
});
`;

describe("instrumentCallSites: a whole tool", () => {
  const { source, sites } = instrumentCallSites(TOOL);

  test("keeps every line and only inserts ids", () => {
    assertOnlyInserted(TOOL, source);
    assert.deepEqual(sites, [
      { id: 1, line: 10, tool: "flights_search" },
      { id: 2, line: 13, tool: "flights_get" },
      { id: 3, line: 16, tool: "audit_log" },
      { id: 4, line: 19, tool: "flights_book_group" },
      { id: 5, line: 20, tool: "flights_book" },
      { id: 6, line: 22, tool: "receipts_new" },
      { id: 7, line: 24, tool: "payments_send" },
    ]);
    const expected = TOOL.replace(`{ from: input.from, }`, `{ from: input.from, }, 1`)
      .replace(`{ id })`, `{ id }, 2)`)
      .replace(`{ id: d.id }`, `{ id: d.id }, 3`)
      .replace(`{ id: cheapest!.id })`, `{ id: cheapest!.id }, 4)`)
      .replace(`        },);`, `        }, 5,);`)
      .replace(`call("receipts_new")`, `call("receipts_new", void 0, 6)`)
      .replace(`{ amount: cheapest!.price }`, `{ amount: cheapest!.price }, 7`);
    assert.equal(source, expected);
  });

  test("the result still strips to JavaScript and becomes a function body", () => {
    const js = stripTypeScriptTypes(source, { mode: "strip" });
    assert.equal(js.split("\n").length, TOOL.split("\n").length);
    assert.doesNotThrow(() => toFunctionBody(source));
  });

  test("run as JavaScript, each call carries its site id in place CALL_SITE_ARG_INDEX", async () => {
    const seen: unknown[][] = [];
    const lib = {
      distilledTool: (definition: unknown) => definition,
      call: async (...args: unknown[]) => {
        seen.push([args[0], args[CALL_SITE_ARG_INDEX]]);
        if (args[0] === "flights_search")
          return [
            { id: "F-2", price: 9 },
            { id: "F-1", price: 5 },
          ];
        if (args[0] === "flights_get") return { id: (args[1] as { id: string }).id };
        if (args[0] === "receipts_new") return { id: "R-1" };
        return { ok: true };
      },
    };
    // The tool's own body, in this test's realm: only to read the arguments each call receives.
    const definition = new Function(LIBRARY_PARAM, toFunctionBody(source))(lib) as {
      run(input: unknown): Promise<unknown>;
    };
    await definition.run({ from: "SFO", ids: ["a", "b"] });
    assert.deepEqual(seen, [
      ["flights_search", 1],
      ["flights_get", 2],
      ["flights_get", 2],
      ["audit_log", 3],
      ["audit_log", 3],
      ["receipts_new", 6],
      ["flights_book", 5],
      ["payments_send", 7],
    ]);
  });

  test("runs in the sandbox with the same calls and result as the original", async () => {
    const host = (tool: string, args: Record<string, unknown>) =>
      Promise.resolve(
        tool === "flights_search"
          ? [
              { id: "F-2", price: 9 },
              { id: "F-1", price: 5 },
            ]
          : { tool, id: args["id"] ?? "R-1" },
      );
    const allow = [
      "flights_search",
      "flights_get",
      "audit_log",
      "flights_book",
      "receipts_new",
      "payments_send",
    ];
    const input = { from: "SFO", ids: ["a"] };
    const original = await sandbox.run({ source: TOOL, input, allow, call: host });
    const instrumented = await sandbox.run({ source, input, allow, call: host });
    assert.deepEqual(resultOf(instrumented), resultOf(original));
    assert.deepEqual(instrumented.calls, original.calls);
    assert.deepEqual(
      instrumented.calls.map((c) => c.tool),
      ["flights_search", "flights_get", "audit_log", "receipts_new", "flights_book", "payments_send"],
    );
  });

  test("given the sites, the host records each call's site; an id the code passes itself is not the one", async () => {
    const host = fakeHost();
    // The first call passes a number of its own where the id goes: instrumentation puts the id before it.
    const { source: tool, sites } = instrumentCallSites(
      toolSource(
        `    await call("echo", { n: 1 }, 2);\n    if (input.never) await call("fail", {});\n    return 1;`,
      ),
    );
    assert.match(tool, /call\("echo", \{ n: 1 \}, 1, 2\)/);
    const outcome = await sandbox.run({
      source: tool,
      input: {},
      allow: ["echo", "fail"],
      call: host.call,
      sites,
    });
    resultOf(outcome);
    assert.deepEqual(outcome.calls, [
      { tool: "echo", args: { n: 1 }, ok: true, output: { tool: "echo", args: { n: 1 } }, site: 1 },
    ]);
  });

  test("given the sites, a call without a valid id for its tool fails the run: it did not come from a site", async () => {
    const sites = [
      { id: 1, line: 8, tool: "echo" },
      { id: 2, line: 9, tool: "fail" },
    ];
    // Code that reached call() uncounted (instrumentation bypassed): each way of naming a site is refused.
    for (const [run, step] of [
      [`return ${LIBRARY_PARAM}.call("echo", {}, 1.5);`, 1],
      [`return ${LIBRARY_PARAM}.call("echo", {});`, 1],
      [`return ${LIBRARY_PARAM}.call("echo", {}, 3);`, 1],
      [`return ${LIBRARY_PARAM}.call("echo", {}, 2);`, 1],
      [`await ${LIBRARY_PARAM}.call("echo", {}, 1);\n    return ${LIBRARY_PARAM}.call("echo", {}, "2");`, 2],
    ] as const) {
      const host = fakeHost();
      const outcome = await sandbox.run({
        source: toolSource(`    ${run}`),
        input: {},
        allow: ["echo", "fail"],
        call: host.call,
        sites,
      });
      const failure = failureOf(outcome);
      assert.deepEqual(
        [failure.kind, failure.cause, failure.step, failure.message],
        [
          "code_error",
          "tool",
          step,
          `call ${step} to 'echo' did not come from a call site of the tool's code: call base tools directly: call("<base tool>", {...})`,
        ],
        run,
      );
      assert.equal(host.log.length, step - 1, "the refused call never reached the host");
      assert.equal(outcome.calls.at(-1)?.site, undefined);
    }
  });

  test("a one-argument call still sends no arguments object through the sandbox", async () => {
    const host = fakeHost();
    const { source: one } = instrumentCallSites(toolSource(`    return call("echo");`));
    const outcome = await sandbox.run({ source: one, input: {}, allow: ["echo"], call: host.call });
    assert.deepEqual(resultOf(outcome), { tool: "echo", args: {} });
    assert.deepEqual(host.log, [{ tool: "echo", args: {} }]);
  });
});
