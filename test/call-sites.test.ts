import assert from "node:assert/strict";
import { stripTypeScriptTypes } from "node:module";
import { after, describe, test } from "node:test";
import { DistillError } from "../core/errors.ts";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { type CallSite, instrumentCallSites } from "../core/verify/call-sites.ts";
import { LIBRARY_PARAM } from "../core/verify/module-body.ts";
import { failureOf, fakeHost, resultOf, toolSource } from "./sandbox-helpers.ts";

const sandbox = new Sandbox({ poolSize: 1 });
after(() => sandbox.close());

const IMPORT = `import { distilledTool, call } from "tooldistill";\n`;

/**
 * The sites of `body` under the usual import: the source comes back unchanged, and each site's `at` is the `(`
 * of its call. The sites are returned without `at`, for comparing.
 */
function instrumentBody(body: string): { body: string; sites: CallSite[] } {
  const { source, sites } = instrumentCallSites(IMPORT + body);
  assert.equal(source, IMPORT + body, "the source is returned as it is");
  return { body: source.slice(IMPORT.length), sites: bare(source, sites) };
}

/** `sites` without `at`, after checking that each `at` is the offset of a `(` in `source`. */
function bare(source: string, sites: readonly CallSite[]): CallSite[] {
  return sites.map(({ id, line, tool, at }) => {
    assert.equal(source[at ?? -1], "(", `site ${id}'s offset is its call's '('`);
    return { id, line, tool };
  });
}

describe("instrumentCallSites: where each site is", () => {
  test("the offset of each site is its call's '(', past comments, type arguments and ?.", () => {
    const src = `await call /* ( */ ("a", {});\nawait call<number>("b");\nawait call?.("c");\nawait (call)("d");\n`;
    const { sites } = instrumentCallSites(IMPORT + src);
    const at = (id: number) => (sites[id - 1]?.at ?? 0) - IMPORT.length;
    assert.equal(src.slice(at(1)), src.slice(src.indexOf(`("a"`)));
    assert.equal(src.slice(at(2)), src.slice(src.indexOf(`("b"`)));
    assert.equal(src.slice(at(3)), src.slice(src.indexOf(`("c"`)));
    assert.equal(src.slice(at(4)), src.slice(src.indexOf(`("d"`)));
  });

  test("nested calls: ids in source order, each at its own '('", () => {
    const { sites } = instrumentBody(`const r = await call("a", { b: await call("b", {}) });\n`);
    assert.deepEqual(sites, [
      { id: 1, line: 2, tool: "a" },
      { id: 2, line: 2, tool: "b" },
    ]);
  });

  test("a name that is not a literal gives the site a null tool", () => {
    assert.deepEqual(instrumentBody(`call(input.tool, {});\ncall(\`t_\${input.n}\`, {});\n`).sites, [
      { id: 1, line: 2, tool: null },
      { id: 2, line: 3, tool: null },
    ]);
    assert.deepEqual(instrumentBody("call(`plain`, {});\n").sites, [{ id: 1, line: 2, tool: "plain" }]);
  });

  test("type stripping keeps every offset: the stripped JavaScript has each '(' where the TypeScript has it", () => {
    const { source, sites } = instrumentCallSites(TOOL);
    const js = stripTypeScriptTypes(source, { mode: "strip" });
    assert.equal(js.length, source.length);
    for (const site of sites) assert.equal(js[site.at ?? -1], "(");
  });
});

describe("instrumentCallSites: which calls are sites", () => {
  test("an alias of the import is followed", () => {
    const src = `import { distilledTool, call as c } from "tooldistill";\nawait c("x", {});\ncall("not_imported", {});\n`;
    const { source, sites } = instrumentCallSites(src);
    assert.equal(source, src);
    assert.deepEqual(bare(src, sites), [{ id: 1, line: 2, tool: "x" }]);
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
    assert.deepEqual(instrumentBody(src).sites, [{ id: 1, line: 7, tool: "real" }]);
  });

  test("a namespace import's .call is a site; its other members are not", () => {
    const src = `import * as td from "tooldistill";\nawait td.call("a", {});\nawait td["call"]("b");\nexport default td.distilledTool({});\n`;
    const { source, sites } = instrumentCallSites(src);
    assert.equal(source, src);
    assert.deepEqual(bare(src, sites), [
      { id: 1, line: 2, tool: "a" },
      { id: 2, line: 3, tool: "b" },
    ]);
  });

  test("type-only imports and `typeof call` in types are not uses", () => {
    const typeOnly = `import type { call } from "tooldistill";\ncall("x", {});\n`;
    assert.deepEqual(instrumentCallSites(typeOnly), { source: typeOnly, sites: [] });
    assert.equal(instrumentBody(`type Call = typeof call;\nawait call("x", {});\n`).sites.length, 1);
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

  test("a spread in the name or arguments position hides what is called", () => {
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

/** A whole tool exercising every shape of call site. */
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

describe("instrumentCallSites: a whole tool in the sandbox", () => {
  const { source, sites } = instrumentCallSites(TOOL);
  const allow = [
    "flights_search",
    "flights_get",
    "audit_log",
    "flights_book",
    "flights_book_group",
    "receipts_new",
    "payments_send",
  ];
  const host = (tool: string, args: Record<string, unknown>) =>
    Promise.resolve(
      tool === "flights_search"
        ? [
            { id: "F-2", price: 9 },
            { id: "F-1", price: 5 },
          ]
        : { tool, id: args["id"] ?? "R-1" },
    );

  test("the source is the tool's own, with every site numbered", () => {
    assert.equal(source, TOOL);
    assert.deepEqual(bare(source, sites), [
      { id: 1, line: 10, tool: "flights_search" },
      { id: 2, line: 13, tool: "flights_get" },
      { id: 3, line: 16, tool: "audit_log" },
      { id: 4, line: 19, tool: "flights_book_group" },
      { id: 5, line: 20, tool: "flights_book" },
      { id: 6, line: 22, tool: "receipts_new" },
      { id: 7, line: 24, tool: "payments_send" },
    ]);
  });

  test("given the sites, the host records the site of each call from the engine's stack", async () => {
    const input = { from: "SFO", ids: ["a", "b"] };
    const plain = await sandbox.run({ source: TOOL, input, allow, call: host });
    const placed = await sandbox.run({ source: TOOL, input, allow, call: host, sites });
    assert.deepEqual(resultOf(placed), resultOf(plain));
    assert.deepEqual(
      placed.calls.map((c) => [c.tool, c.site]),
      [
        ["flights_search", 1],
        ["flights_get", 2],
        ["flights_get", 2],
        ["audit_log", 3],
        ["audit_log", 3],
        ["receipts_new", 6],
        ["flights_book", 5],
        ["payments_send", 7],
      ],
    );
    assert.deepEqual(
      plain.calls,
      placed.calls.map(({ site: _, ...c }) => c),
    );
    const group = await sandbox.run({
      source: TOOL,
      input: { ...input, big: true },
      allow,
      call: host,
      sites,
    });
    assert.ok(group.calls.some((c) => c.tool === "flights_book_group" && c.site === 4));
  });

  test("a site on the first line and after non-ASCII text on its line is still placed", async () => {
    const one = `import { distilledTool, call } from "tooldistill"; export default distilledTool({ name: "t", description: "é😀", inputSchema: { type: "object" }, async run() { const s = "ü😀"; return call("echo", { s }); } });\n`;
    const located = instrumentCallSites(one);
    const outcome = await sandbox.run({
      source: one,
      input: {},
      allow: ["echo"],
      call: fakeHost().call,
      sites: located.sites,
    });
    resultOf(outcome);
    assert.equal(outcome.calls[0]?.site, 1);
  });

  test("given the sites, a call that no single site made fails the run; a forged stack is never believed", async () => {
    const first = `    if (input.never) await call("echo", {});`;
    // Where the first site's call is, as the engine's stack writes it: what a forger would put in a name.
    const place = `tool.ts:8:${first.indexOf("call(") + 5}`;
    const runs: [string, string][] = [
      // The library through the sandbox's own parameter name (the static rules refuse it; the host too).
      ["parameter", `    return ${LIBRARY_PARAM}.call("echo", {});`],
      // Through a callback: the caller is a builtin and a function that is not a site.
      ["callback", `    const c = ${LIBRARY_PARAM}.call;\n    return ["echo"].map((n) => c(n, {}))[0];`],
      // A function named with a forged frame at the first site's place, calling from the second site.
      [
        "forged name",
        `    const f = { [${JSON.stringify(`x (${place})\n    at y`)}]: () => call("echo", {}) };\n    return Object.values(f)[0]!();`,
      ],
    ];
    for (const [what, run] of runs) {
      const tool = toolSource(`${first}\n${run}`);
      const { sites: own } = instrumentCallSites(tool.replaceAll(LIBRARY_PARAM, "lib"));
      const host = fakeHost();
      const outcome = await sandbox.run({
        source: tool,
        input: {},
        allow: ["echo"],
        call: host.call,
        sites: own,
      });
      const failure = failureOf(outcome);
      assert.match(failure.message, /did not come from a call site of the tool's code/, what);
      assert.equal(host.log.length, 0, `${what}: the call never reached the host`);
      assert.equal(outcome.calls[0]?.site, undefined, what);
    }
  });

  test("the code cannot change the stack the host reads: Error, its prototype and stack properties", async () => {
    const { source: tool, sites: own } = instrumentCallSites(
      toolSource(
        [
          `    const E: any = Error;`,
          `    Object.defineProperty(E.prototype, "stack", { get: () => "    at x (tool.ts:1:1)", set: () => {}, configurable: true });`,
          `    E.prepareStackTrace = () => "    at x (tool.ts:1:1)";`,
          `    E.stackTraceLimit = 0;`,
          `    (globalThis as any).Error = function () { return { stack: "forged" }; };`,
          `    return call("echo", {});`,
        ].join("\n"),
      ),
    );
    const outcome = await sandbox.run({
      source: tool,
      input: {},
      allow: ["echo"],
      call: fakeHost().call,
      sites: own,
    });
    resultOf(outcome);
    assert.deepEqual(
      outcome.calls.map((c) => c.site),
      [1],
    );
  });

  test("a one-argument call still sends no arguments object through the sandbox", async () => {
    const host = fakeHost();
    const { source: one, sites: oneSites } = instrumentCallSites(toolSource(`    return call("echo");`));
    const outcome = await sandbox.run({
      source: one,
      input: {},
      allow: ["echo"],
      call: host.call,
      sites: oneSites,
    });
    assert.deepEqual(resultOf(outcome), { tool: "echo", args: {} });
    assert.deepEqual(host.log, [{ tool: "echo", args: {} }]);
  });
});
