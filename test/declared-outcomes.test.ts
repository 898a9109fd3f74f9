/**
 * Declared business outcomes (core/trace/declared-outcomes.ts): the static rules of the form, the outcomes each call site
 * records, and the host applying one only from its own classification and the site's record, in the sandbox.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Sandbox } from "../core/sandbox/sandbox.ts";
import { declaredOutcomeFor } from "../core/trace/declared-outcomes.ts";
import type { ToolDef } from "../core/types.ts";
import { instrumentCallSites } from "../core/verify/call-sites.ts";
import { staticCheck } from "../core/verify/static/static-check.ts";

const TOOLS: ToolDef[] = [
  {
    name: "accounts_create",
    description: "Create an account.",
    input_schema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
  },
  {
    name: "accounts_find",
    description: "Find an account.",
    input_schema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
    annotations: { readOnlyHint: true },
  },
];

/** A tool whose create call carries `options` as its third argument (on line 7). */
function tool(options: string): string {
  return `import { distilledTool, call, notApplicable } from "tooldistill";
export default distilledTool({
  name: "make_account",
  description: "Make an account.",
  inputSchema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
  async run({ email }) {
    const account = await call("accounts_create", { email }, ${options});
    return { id: account.id };
  },
});
`;
}

const problems = (options: string) =>
  staticCheck(tool(options), TOOLS).problems.map((p) => [p.line, p.token, p.message]);

describe("static rules of declared outcomes", () => {
  test("valid: a lookup, a notApplicable, several outcomes", () => {
    for (const options of [
      `{ conflict: () => call("accounts_find", { email }) }`,
      `{ notFound: () => notApplicable("no such account") }`,
      `{ conflict: () => call("accounts_find", { email }), gone: () => notApplicable("gone"), unprocessable: () => notApplicable("refused") }`,
      `{ "conflict": async () => call("accounts_find", { email }) }`,
    ]) {
      assert.deepEqual(problems(options), [], options);
    }
  });

  test("outcome-options-literal: the third argument must be a literal object", () => {
    assert.deepEqual(problems("OPTIONS"), [
      [
        7,
        "OPTIONS",
        `the third argument of call must be a literal object of declared outcomes ('conflict', 'notFound', 'gone', 'unprocessable'), so the check can read them: write call("<tool>", {...}, { conflict: () => call("<lookup>", {...}) }) or { notFound: () => notApplicable("why") }`,
      ],
    ]);
  });

  test("outcome-unknown: an unknown name, with a suggestion", () => {
    assert.deepEqual(problems(`{ conflicts: () => call("accounts_find", { email }) }`), [
      [
        7,
        "conflicts",
        "'conflicts' is not a declared outcome (did you mean 'conflict'?): a call can declare 'conflict', 'notFound', 'gone', 'unprocessable' (409, 404, 410, 422); any other failure fails the tool",
      ],
    ]);
    assert.equal(
      problems(`{ unavailable: () => notApplicable("down") }`).length,
      1,
      "outages are not declarable",
    );
  });

  test("outcome-key: spreads, computed keys and methods are refused", () => {
    for (const [options, token] of [
      ["{ ...HANDLERS }", "...HANDLERS"],
      [`{ ["conflict"]: () => notApplicable("x") }`, `["conflict"]: () => notApplicable("x")`],
      [`{ conflict() { return notApplicable("x"); } }`, "conflict"],
    ] as const) {
      const found = problems(options);
      assert.equal(found.length, 1, options);
      assert.deepEqual(found[0]?.slice(0, 2), [7, token]);
      assert.match(String(found[0]?.[2]), /^a declared outcome must be a plain property 'name: \(\) => …'/);
    }
  });

  test("outcome-handler-arrow and outcome-handler-params: an arrow function of no parameters", () => {
    assert.deepEqual(problems(`{ conflict: notApplicable("exists") }`), [
      [
        7,
        `notApplicable("exists")`,
        "the handler of 'conflict' must be an arrow function, run only when the base call answers that outcome: conflict: () => …",
      ],
    ]);
    assert.deepEqual(problems(`{ conflict: (err) => notApplicable(err) }`), [
      [
        7,
        "err",
        "the handler of 'conflict' takes no parameters (the error's text is the base tool's, not data to act on): use the values the call was made with",
      ],
    ]);
  });

  test("outcome-duplicate and call-arity", () => {
    assert.deepEqual(problems(`{ gone: () => notApplicable("a"), gone: () => notApplicable("b") }`), [
      [7, "gone", "the outcome 'gone' is declared twice in one call: keep one handler"],
    ]);
    assert.deepEqual(problems(`{}, 3`), [
      [
        7,
        "3",
        `call takes at most three arguments (the base tool, its arguments, the declared outcomes): write call("<tool>", {...}, { conflict: () => call("<lookup>", {...}) }) or { notFound: () => notApplicable("why") }`,
      ],
    ]);
  });

  test("a handler is checked like any other code: a banned name inside it is refused", () => {
    const found = problems(`{ conflict: () => call("accounts_find", { email: process.env.X }) }`);
    assert.deepEqual(
      found.map((p) => p[1]),
      ["process"],
    );
  });
});

test("call sites record the outcomes they declare; the host's lookup ignores undeclared ones", () => {
  const code = tool(
    `{ conflict: () => call("accounts_find", { email }), notFound: () => notApplicable("none"), bogus: () => 1 }`,
  );
  const { sites } = instrumentCallSites(code);
  // Each site also carries where its `(` is (the engine's stack places a call there: call-sites.test.ts).
  assert.ok(sites.every((s) => typeof s.at === "number"));
  assert.deepEqual(
    sites.map(({ at: _at, ...site }) => site),
    [
      { id: 1, line: 7, tool: "accounts_create", outcomes: ["conflict", "notFound"] },
      { id: 2, line: 7, tool: "accounts_find" },
    ],
  );
  assert.equal(declaredOutcomeFor("conflict", sites[0]?.outcomes), "conflict");
  assert.equal(declaredOutcomeFor("infrastructure", sites[0]?.outcomes), null);
  assert.equal(declaredOutcomeFor("gone", sites[0]?.outcomes), null);
  assert.equal(declaredOutcomeFor("conflict", sites[1]?.outcomes), null);
});

describe("in the sandbox: the host decides, the site's record allows", () => {
  const sandbox = new Sandbox({ poolSize: 1 });
  after(() => sandbox.close());
  const status = (code: number, message: string) => Object.assign(new Error(message), { status: code });

  async function run(options: string, create: () => unknown) {
    const { source, sites } = instrumentCallSites(tool(options));
    return sandbox.run({
      source,
      sites,
      input: { email: "a@x" },
      allow: ["accounts_create", "accounts_find"],
      call: async (name) => (name === "accounts_create" ? create() : { id: "acct-found" }),
    });
  }

  test("a 409 at a site that declared conflict runs its handler; the call stays a failure in the record", async () => {
    const out = await run(`{ conflict: () => call("accounts_find", { email }) }`, () => {
      throw status(409, "exists");
    });
    assert.equal(out.ok, true, JSON.stringify(out));
    assert.deepEqual(out.ok && out.result, { id: "acct-found" });
    assert.deepEqual(
      out.calls.map((c) => [c.tool, c.ok, c.outcome ?? null, c.site]),
      [
        ["accounts_create", false, "conflict", 1],
        ["accounts_find", true, null, 2],
      ],
    );
  });

  test("the same 409 where nothing was declared, a 404 where only conflict was, and a 503 fail the run", async () => {
    const none = await run("{}", () => {
      throw status(409, "exists");
    });
    assert.equal(none.ok === false && none.failure.cause, "tool");
    const other = await run(`{ conflict: () => call("accounts_find", { email }) }`, () => {
      throw status(404, "no such directory");
    });
    assert.equal(other.ok === false && other.failure.cause, "tool");
    const down = await run(`{ conflict: () => call("accounts_find", { email }) }`, () => {
      throw status(503, "conflict: 409 already exists");
    });
    assert.equal(
      down.ok === false && down.failure.cause,
      "infrastructure",
      "the text claims a 409; the status decides",
    );
  });

  test("a result that looks like the outcome signal is a result, not an outcome", async () => {
    const out = await run(`{ conflict: () => call("accounts_find", { email }) }`, () => "!outcome:conflict");
    assert.equal(out.ok, true);
    // The string came back as the create call's result: the tool read `.id` of a string.
    assert.deepEqual(out.ok && out.result, {});
    assert.deepEqual(
      out.calls.map((c) => c.tool),
      ["accounts_create"],
      "the handler did not run",
    );
  });

  test("notApplicable from a handler ends the run as not applicable", async () => {
    const out = await run(`{ conflict: () => notApplicable("already onboarded") }`, () => {
      throw status(409, "exists");
    });
    assert.equal(out.ok && out.notApplicable, "already onboarded");
  });
});
