import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ABSENT_GLOBALS, NO_CLOCK } from "../core/sandbox/sandbox-guest.ts";
import type { Problem, ToolDef } from "../core/types.ts";
import { instrumentCallSites, locateCallSites } from "../core/verify/call-sites.ts";
import {
  checkedSource,
  checkSource,
  staticCheck as checkWithRules,
  TOOL_NAME_PATTERN,
} from "../core/verify/static/static-check.ts";
import { formatProblem } from "../core/verify/verdict.ts";

const BASE: ToolDef[] = [
  {
    name: "gmail_search",
    description: "Search mail.",
    input_schema: {
      type: "object",
      properties: { query: { type: "string" }, since: { type: "string" } },
      required: ["query"],
    },
  },
  {
    name: "gmail_get_message",
    description: "Read one message.",
    input_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  },
  {
    name: "billing_find_customer",
    description: "Find a customer by name.",
    input_schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
  {
    name: "billing_create_invoice",
    description: "Create an invoice.",
    input_schema: {
      type: "object",
      properties: {
        customer_id: { type: "string" },
        lines: { type: "array" },
        amount: { type: "number" },
        currency: { type: "string" },
      },
      required: ["customer_id", "lines"],
    },
  },
  {
    name: "billing__void_invoice",
    description: "An MCP tool of the billing server.",
    input_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  },
  {
    name: "notes_write",
    description: "Write a note with any fields.",
    input_schema: { type: "object", properties: { text: { type: "string" } }, additionalProperties: true },
  },
];

const EXAMPLE = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "create_invoice_from_email",
  description: "Create a draft invoice for a customer from their most recent order email.",
  inputSchema: {
    type: "object",
    properties: { customer: { type: "string" }, since: { type: "string", default: "1d" } },
    required: ["customer"],
  },
  async run({ customer, since = "1d" }) {
    const [msg] = await call("gmail_search", { query: \`from:\${customer} order\`, since });
    const order = await call("gmail_get_message", { id: msg.id });
    const cust = await call("billing_find_customer", { name: customer });
    return call("billing_create_invoice", { customer_id: cust.id, lines: order.lines });
  },
  check: (result) => result.status === "draft",
});
`;

/** A valid tool whose run body is `body`; the body's first line is line 8. */
function wrap(body: string): string {
  return `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "demo_tool",
  description: "A demo.",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  async run(input) {
    await call("gmail_search", { query: "x" });
${body}
  },
});
`;
}

/** A tool with the given `distilledTool({...})` members, starting at line 3. */
function withConfig(members: string): string {
  return `import { distilledTool, call } from "tooldistill";
export default distilledTool({
${members}
});
`;
}

const RUN = `  async run() {
    return call("gmail_search", { query: "x" });
  },`;

/** A problem as this file pins it: line, token and message (test/static-rules.test.ts pins the rule ids). */
type Pinned = Omit<Problem, "rule">;

/** The static check with its problems' rule ids left out. */
function staticCheck(source: string, tools: readonly ToolDef[]) {
  const result = checkWithRules(source, tools);
  return { ...result, problems: result.problems.map(({ rule: _rule, ...pinned }): Pinned => pinned) };
}

function problems(source: string): Pinned[] {
  return staticCheck(source, BASE).problems;
}

/** The single problem a body produces. */
function only(body: string): Pinned {
  const found = problems(wrap(body));
  assert.equal(found.length, 1, found.map((p) => formatProblem({ rule: "", ...p })).join("\n"));
  return found[0]!;
}

describe("staticCheck: a valid tool", () => {
  test("the reference example passes and its meta is read from the literals", () => {
    const result = staticCheck(EXAMPLE, BASE);
    assert.deepEqual(result.problems, []);
    assert.equal(result.ok, true);
    assert.deepEqual(result.meta, {
      name: "create_invoice_from_email",
      description: "Create a draft invoice for a customer from their most recent order email.",
      inputSchema: {
        type: "object",
        properties: { customer: { type: "string" }, since: { type: "string", default: "1d" } },
        required: ["customer"],
      },
      dependencies: ["billing_create_invoice", "billing_find_customer", "gmail_get_message", "gmail_search"],
      hasCheck: true,
    });
  });

  test("dependencies come from the source: sorted, unique, current base tools only", () => {
    const result = staticCheck(
      wrap(`    const go = (id: string) => call("gmail_get_message", { id });
    await go("1");
    await call("gmail_search", { query: "y" });
    await call("gmail_gone", {});`),
      BASE,
    );
    assert.deepEqual(result.meta?.dependencies, ["gmail_get_message", "gmail_search"]);
    assert.equal(result.meta?.hasCheck, false);
    assert.equal(result.ok, false);
  });

  test("TypeScript annotations, type declarations and type-only imports are fine", () => {
    const source = `import type { Input } from "tooldistill";
import { distilledTool, call, type Output } from "tooldistill";
type Row = { id: string; constructor: typeof process };
interface Page { rows: Row[] }
export type Exported = Page;
export default distilledTool({
  name: \`typed_tool\` as const,
  description: "Typed.",
  inputSchema: { type: "object", properties: { n: { minimum: -1, enum: [null, true, 1.5] } } } as const,
  async run(input: { n: number }): Promise<Output> {
    const page = (await call("gmail_search", { query: "x" })) as Page satisfies Page;
    const ids = page.rows.map((r: Row) => r.id)!;
    return ids as unknown as Output;
  },
  check(result: unknown) {
    return result !== null;
  },
});
`;
    const result = staticCheck(source, BASE);
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.meta?.inputSchema, {
      type: "object",
      properties: { n: { minimum: -1, enum: [null, true, 1.5] } },
    });
    assert.equal(result.meta?.name, "typed_tool");
  });

  test("for…of, computed access with a non-literal key, one-argument .then and spread arguments are allowed", () => {
    const found = problems(
      wrap(`    const rows = [1, 2];
    for (const r of rows) input[r];
    await call("gmail_search", { ...input });
    await call("gmail_get_message", input.args);
    await Promise.resolve(1).then((v) => v);
    const o = { process: 1, constructor: 2, module: 3 };
    const f = function (a) { return new.target ?? a; };`),
    );
    assert.deepEqual(found, []);
  });
});

describe("formatProblem and TOOL_NAME_PATTERN", () => {
  test("formatProblem prefixes the line only when there is one", () => {
    assert.equal(
      formatProblem({
        rule: "unknown-base-tool",
        line: 5,
        token: "x",
        message: "call to 'x' — no such base tool",
      }),
      "line 5: call to 'x' — no such base tool",
    );
    assert.equal(
      formatProblem({ rule: "some-base-call", message: "the tool calls no base tool" }),
      "the tool calls no base tool",
    );
  });

  test("TOOL_NAME_PATTERN accepts 3 to 36 lowercase characters starting with a letter", () => {
    assert.ok(TOOL_NAME_PATTERN.test("abc"));
    assert.ok(TOOL_NAME_PATTERN.test(`a${"b".repeat(35)}`));
    assert.ok(!TOOL_NAME_PATTERN.test(`a${"b".repeat(36)}`));
    assert.ok(!TOOL_NAME_PATTERN.test("ab"));
    assert.ok(!TOOL_NAME_PATTERN.test("1abc"));
    assert.ok(!TOOL_NAME_PATTERN.test("Abc"));
  });
});

describe("staticCheck: syntax", () => {
  test("a syntax error is one problem with its line and token, and no meta", () => {
    const result = staticCheck(wrap("    let x = ;"), BASE);
    assert.deepEqual(result.problems, [{ line: 8, token: ";", message: "syntax error: Unexpected token" }]);
    assert.equal(result.meta, null);
    assert.equal(result.ok, false);
  });

  test("'with' is a syntax error in a module", () => {
    assert.deepEqual(problems(wrap("    with (input) {}")), [
      { line: 8, token: "with", message: "syntax error: 'with' in strict mode" },
    ]);
  });
});

describe("staticCheck: imports", () => {
  test("only { distilledTool, call, notApplicable } from tooldistill; every bad import is reported", () => {
    const source = `import { distilledTool, call, helper } from "tooldistill";
import fs from "fs";
import * as td from "tooldistill";
import def from "tooldistill";
import { call as c } from "tooldistill";
import type { Foo } from "other";
${wrap("").split("\n").slice(1).join("\n")}`;
    assert.deepEqual(problems(source), [
      {
        line: 1,
        token: "helper",
        message: `import of 'helper' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
      },
      {
        line: 2,
        token: "fs",
        message: `import from 'fs' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
      },
      {
        line: 3,
        token: "td",
        message: `namespace import 'td' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
      },
      {
        line: 4,
        token: "def",
        message: `default import 'def' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
      },
      {
        line: 5,
        token: "c",
        message:
          "import of 'call' as 'c' is not allowed: import it under its own name so base calls can be read",
      },
      {
        line: 6,
        token: "other",
        message: `import from 'other' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
      },
    ]);
  });

  test("require, dynamic import() and import.meta", () => {
    assert.deepEqual(
      problems(
        wrap(`    require("fs");
    await import("fs");
    input.u = import.meta.url;`),
      ),
      [
        {
          line: 8,
          token: "require",
          message: `'require' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
        },
        {
          line: 9,
          token: "import",
          message: `dynamic import() is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
        },
        { line: 10, token: "import.meta", message: "'import.meta' is not allowed in a distilled tool" },
      ],
    );
  });

  test("import x = require(...)", () => {
    const source = `import fs = require("fs");\n${wrap("")}`;
    assert.deepEqual(problems(source), [
      {
        line: 1,
        token: "import",
        message: `'import fs =' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
      },
    ]);
  });
});

describe("staticCheck: top level", () => {
  const TOP = "only imports and one export default distilledTool({...}) are allowed at top level";

  test("top-level statements other than imports, types and the default export", () => {
    const source = `${wrap("")}const limit = 3;
function helper() {}
export const named = 1;
;`;
    assert.deepEqual(problems(source), [
      { line: 11, token: "const", message: TOP },
      { line: 12, token: "function", message: TOP },
      { line: 13, token: "export", message: TOP },
    ]);
  });

  test("a missing export default", () => {
    assert.deepEqual(problems(`import { call } from "tooldistill";\n`), [
      { message: "missing export default distilledTool({ name, description, inputSchema, run })" },
      {
        message:
          "the tool calls no base tool: a distilled tool must call at least one base tool through call(...)",
      },
    ]);
  });

  test("an export default that is not distilledTool({...})", () => {
    const result = staticCheck(
      `import { call } from "tooldistill";\nexport default wrap({ run: () => call("gmail_search", { query: "q" }) });\n`,
      BASE,
    );
    assert.deepEqual(result.problems, [
      {
        line: 2,
        token: "wrap",
        message: "export default must be distilledTool({...}) with one object literal",
      },
    ]);
    assert.equal(result.meta, null);
    assert.deepEqual(
      problems(
        `import { distilledTool, call } from "tooldistill";\nexport default distilledTool(options, call);\n`,
      ),
      [
        {
          line: 2,
          token: "distilledTool(options, call)",
          message: "export default must be distilledTool({...}) with one object literal",
        },
        { line: 2, token: "call", message: `'call' must be called directly: call("<base tool>", {...})` },
        {
          message:
            "the tool calls no base tool: a distilled tool must call at least one base tool through call(...)",
        },
      ],
    );
  });
});

describe("staticCheck: the distilledTool({...}) object", () => {
  test("unknown, duplicate, spread and computed keys", () => {
    assert.deepEqual(
      problems(
        withConfig(`  name: "demo_tool",
  description: "d",
  inputSchema: { type: "object" },
  input_schema: {},
  name: "again",
  ...extra,
  [key]: 1,
${RUN}`),
      ),
      [
        {
          line: 6,
          token: "input_schema",
          message:
            "unknown key 'input_schema' in distilledTool({...}) (did you mean 'inputSchema'?): allowed keys are name, description, inputSchema, run, check",
        },
        { line: 7, token: "name", message: "duplicate key 'name' in distilledTool({...})" },
        {
          line: 8,
          token: "...",
          message: "distilledTool({...}) accepts only plain keys: name, description, inputSchema, run, check",
        },
        {
          line: 9,
          token: "[",
          message: "distilledTool({...}) accepts only plain keys: name, description, inputSchema, run, check",
        },
      ],
    );
  });

  test("missing keys are named", () => {
    const result = staticCheck(withConfig(""), BASE);
    assert.deepEqual(result.problems, [
      { line: 2, message: "distilledTool({...}) has no 'name'" },
      { line: 2, message: "distilledTool({...}) has no 'description'" },
      { line: 2, message: "distilledTool({...}) has no 'inputSchema'" },
      { line: 2, message: "distilledTool({...}) has no 'run'" },
      {
        message:
          "the tool calls no base tool: a distilled tool must call at least one base tool through call(...)",
      },
    ]);
    assert.equal(result.meta, null);
  });

  test("name and description must be string literals", () => {
    const result = staticCheck(
      withConfig(`  name: toolName,
  description: 42,
  inputSchema: { type: "object" },
${RUN}`),
      BASE,
    );
    assert.deepEqual(result.problems, [
      {
        line: 3,
        token: "name",
        message: "'name' must be a string literal so it can be read without running the tool",
      },
      {
        line: 4,
        token: "description",
        message: "'description' must be a string literal so it can be read without running the tool",
      },
    ]);
    assert.equal(result.meta, null);
  });

  test("the name must match the pattern, avoid __ and not shadow a base tool", () => {
    const config = (name: string) =>
      withConfig(`  name: "${name}",\n  description: "d",\n  inputSchema: { type: "object" },\n${RUN}`);
    assert.deepEqual(problems(config("Bad-Name")), [
      {
        line: 3,
        token: "Bad-Name",
        message:
          "tool name 'Bad-Name' must match ^[a-z][a-z0-9_]{2,35}$ (lowercase letters, digits and _, 3 to 36 characters)",
      },
    ]);
    assert.deepEqual(problems(config("my__tool")), [
      { line: 3, token: "my__tool", message: "tool name 'my__tool' must not contain '__'" },
    ]);
    assert.deepEqual(problems(config("gmail_search")), [
      {
        line: 3,
        token: "gmail_search",
        message:
          "tool name 'gmail_search' is a base tool's name: a distilled tool must not shadow a base tool",
      },
    ]);
    // tooldistill's own tool names are reserved: an agent's list would repeat one.
    assert.deepEqual(problems(config("propose_distilled_tool")), [
      {
        line: 3,
        token: "propose_distilled_tool",
        message:
          "tool name 'propose_distilled_tool' is reserved: it is the name of a tool tooldistill itself offers to agents; choose another name",
      },
    ]);
    assert.equal(problems(config("td_refund"))[0]?.token, "td_refund");
    // A readable but invalid name still gives meta: the literals could be read.
    assert.equal(staticCheck(config("Bad-Name"), BASE).meta?.name, "Bad-Name");
  });

  test("the description must not be empty", () => {
    assert.deepEqual(
      problems(
        withConfig(`  name: "demo_tool",\n  description: "  ",\n  inputSchema: { type: "object" },\n${RUN}`),
      ),
      [{ line: 4, token: "description", message: "'description' must not be empty: say what the tool does" }],
    );
  });

  test("inputSchema must be made of literals", () => {
    const result = staticCheck(
      withConfig(`  name: "demo_tool",
  description: "d",
  inputSchema: {
    type: "object",
    properties: { a: SHARED, b: { type: \`\${t}\` }, c: [...list] },
    get d() { return 1; },
  },
${RUN}`),
      BASE,
    );
    const message =
      "'inputSchema' may contain only literals (strings, numbers, booleans, null, arrays and objects of those)";
    assert.deepEqual(result.problems, [
      { line: 7, token: "SHARED", message },
      { line: 7, token: `\`\${t}\``, message },
      { line: 7, token: "...list", message },
      { line: 8, token: "get d() { return 1; }", message },
    ]);
    assert.equal(result.meta, null);
  });

  test('inputSchema must have type: "object"', () => {
    const message = `'inputSchema' must be an object with type: "object"`;
    const config = (schema: string) =>
      withConfig(`  name: "demo_tool",\n  description: "d",\n  inputSchema: ${schema},\n${RUN}`);
    assert.deepEqual(problems(config(`{ type: "array" }`)), [{ line: 5, token: "inputSchema", message }]);
    assert.deepEqual(problems(config(`["object"]`)), [{ line: 5, token: "inputSchema", message }]);
  });

  test("run must be an async function and check a function", () => {
    const config = (run: string, check: string) =>
      withConfig(`  name: "demo_tool",
  description: "d",
  inputSchema: { type: "object" },
  ${run},
  ${check},`);
    const runMessage = "'run' must be an async function: async run(input) { ... }";
    const checkMessage = "'check' must be a function of the result: check: (result) => ...";
    const runBody = `{ return call("gmail_search", { query: "q" }); }`;
    assert.deepEqual(problems(config(`run() ${runBody}`, "check: true")), [
      { line: 6, token: "run", message: runMessage },
      { line: 7, token: "check", message: checkMessage },
    ]);
    assert.deepEqual(problems(config(`run: () => ${runBody}`, "check: (r) => !!r")), [
      { line: 6, token: "run", message: runMessage },
    ]);
    assert.deepEqual(problems(config(`get run() ${runBody}`, "check: function (r) { return r; }")), [
      { line: 6, token: "run", message: runMessage },
    ]);
    assert.deepEqual(problems(config(`run: async function () ${runBody}`, "check(r) { return r; }")), []);
  });
});

describe("staticCheck: base calls", () => {
  test("a tool must call at least one base tool", () => {
    const result = staticCheck(
      withConfig(
        `  name: "demo_tool",\n  description: "d",\n  inputSchema: { type: "object" },\n  async run() { return 1; },`,
      ),
      BASE,
    );
    assert.deepEqual(result.problems, [
      {
        message:
          "the tool calls no base tool: a distilled tool must call at least one base tool through call(...)",
      },
    ]);
    assert.deepEqual(result.meta?.dependencies, []);
  });

  test("no such base tool, with and without a suggestion", () => {
    assert.deepEqual(
      problems(
        wrap(`    await call("billing_find_customr", { name: "n" });
    await call("weather_now", {});`),
      ),
      [
        {
          line: 8,
          token: "billing_find_customr",
          message:
            "call to 'billing_find_customr' — no such base tool (did you mean 'billing_find_customer'?)",
        },
        { line: 9, token: "weather_now", message: "call to 'weather_now' — no such base tool" },
      ],
    );
  });

  test("an mcp__ prefixed name gets a did-you-mean for the library name", () => {
    assert.deepEqual(only(`    await call("mcp__billing__void_invoice", { id: "1" });`), {
      line: 8,
      token: "mcp__billing__void_invoice",
      message:
        "call to 'mcp__billing__void_invoice' — no such base tool (did you mean 'billing__void_invoice'?)",
    });
  });

  test("the tool name must be a string literal; a template without expressions counts", () => {
    const message =
      "call needs a string-literal base tool name as its first argument so dependencies can be read";
    assert.deepEqual(
      problems(
        wrap(`    await call(input.tool, {});
    await call(\`gmail_\${input.kind}\`, {});
    await call();
    await call(\`gmail_get_message\`, { id: "1" });`),
      ),
      [
        { line: 8, token: "input.tool", message },
        { line: 9, token: `\`gmail_\${input.kind}\``, message },
        { line: 10, token: "call", message },
      ],
    );
  });

  test("call must be called directly and never redeclared; distilledTool only in the default export", () => {
    assert.deepEqual(
      problems(
        wrap(`    const c = call;
    await Promise.all([1].map(call));
    const inner = (call: unknown) => call;
    distilledTool({});`),
      ),
      [
        { line: 8, token: "call", message: `'call' must be called directly: call("<base tool>", {...})` },
        { line: 9, token: "call", message: `'call' must be called directly: call("<base tool>", {...})` },
        {
          line: 10,
          token: "call",
          message: `'call' cannot be redeclared: it is imported from "tooldistill"`,
        },
        {
          line: 11,
          token: "distilledTool",
          message: "'distilledTool' may only be used as export default distilledTool({...})",
        },
      ],
    );
  });

  test("literal arguments are checked against the base tool's input schema", () => {
    assert.deepEqual(
      problems(
        wrap(`    await call("billing_create_invoice", { customer_id: "c", lines: [], amout: 3 });
    await call("billing_create_invoice", { ["customer_id"]: "c" });
    await call("gmail_get_message");`),
      ),
      [
        {
          line: 8,
          token: "amout",
          message: "call to 'billing_create_invoice' — unknown property 'amout' (did you mean 'amount'?)",
        },
        {
          line: 9,
          token: "billing_create_invoice",
          message:
            "call to 'billing_create_invoice' — missing required property 'lines' of 'billing_create_invoice'",
        },
        {
          line: 10,
          token: "gmail_get_message",
          message: "call to 'gmail_get_message' — missing required property 'id' of 'gmail_get_message'",
        },
      ],
    );
  });

  test("unknown properties are fine where the schema allows additional properties", () => {
    assert.deepEqual(problems(wrap(`    await call("notes_write", { text: "t", color: "red" });`)), []);
  });
});

describe("staticCheck: banned constructs", () => {
  const FAIL = "a failed base call must fail the tool so the agent can fall back";
  const cases: [string, string, string][] = [
    [
      '    try { await call("gmail_search", { query: "q" }); } finally {}',
      "try",
      `'try' is not allowed: ${FAIL}`,
    ],
    [
      '    await call("gmail_search", { query: "q" }).catch(() => null);',
      "catch",
      `'.catch' is not allowed: ${FAIL}`,
    ],
    [
      '    await call("gmail_search", { query: "q" }).then((r) => r, () => null);',
      "then",
      `'.then' with a rejection handler is not allowed: ${FAIL}`,
    ],
    ["    while (input) {}", "while", "'while' is not allowed: use for…of over a bounded list"],
    ["    do {} while (input);", "do", "'do' is not allowed: use for…of over a bounded list"],
    ["    for (let i = 0; i < 3; i++) {}", "for", "'for(;;)' is not allowed: use for…of over a bounded list"],
    ["    for (const k in input) {}", "for", "'for…in' is not allowed: use for…of over Object.keys(...)"],
    ["    const K = class {};", "class", "'class' is not allowed: use plain objects and functions"],
    ["    const g = function* () {};", "*", "generator functions are not allowed: return an array instead"],
    ["    const t = this;", "this", "'this' is not allowed in a distilled tool"],
    ["    const o = { m() { return super.m; } };", "super", "'super' is not allowed in a distilled tool"],
    ['    eval("1");', "eval", "'eval' is not available: a distilled tool cannot generate code from strings"],
    [
      '    new Function("return 1");',
      "Function",
      "'Function' is not available: a distilled tool cannot generate code from strings",
    ],
    ["    const a = arguments;", "arguments", "'arguments' is not allowed in a distilled tool"],
    [
      "    outer: for (const a of [1]) break outer;",
      "outer",
      "label 'outer' is not allowed: use for…of with break or return",
    ],
    ["    debugger;", "debugger", "'debugger' is not allowed in a distilled tool"],
    [
      "    enum Color { Red }",
      "enum",
      "'enum' is not allowed: non-erasable TypeScript; use an object literal",
    ],
    ["    const __secret = 1;", "__secret", "'__secret' is not allowed: names starting with __ are reserved"],
    ["    input.__proto__;", "__proto__", "'__proto__' is not allowed: names starting with __ are reserved"],
    [
      '    input["__proto__"];',
      "__proto__",
      "'__proto__' is not allowed: names starting with __ are reserved",
    ],
    [
      "    const o = { __proto__: null };",
      "__proto__",
      "'__proto__' is not allowed: names starting with __ are reserved",
    ],
    ['    const o = { "__x": 1 };', "__x", "'__x' is not allowed: names starting with __ are reserved"],
    ["    process.exit(1);", "process", "'process' is not allowed in a distilled tool"],
    ["    input[`constructor`];", "constructor", "'constructor' is not allowed in a distilled tool"],
    [
      "    const { constructor: c } = input;",
      "constructor",
      "'constructor' is not allowed in a distilled tool",
    ],
    ["    input.q.prototype;", "prototype", "'prototype' is not allowed in a distilled tool"],
    ['    input["process"];', "process", "'process' is not allowed in a distilled tool"],
  ];
  for (const [body, token, message] of cases) {
    test(`${token}: ${body.trim()}`, () => {
      assert.deepEqual(only(body), { line: 8, token, message });
    });
  }

  test("every escape hatch is named", () => {
    const names = ["globalThis", "global", "module", "Buffer", "fetch", "Reflect", "clearImmediate"];
    for (const name of names) {
      assert.deepEqual(only(`    const x = ${name};`), {
        line: 8,
        token: name,
        message: `'${name}' is not allowed in a distilled tool`,
      });
      assert.deepEqual(only(`    input.${name};`), {
        line: 8,
        token: name,
        message: `'${name}' is not allowed in a distilled tool`,
      });
    }
  });

  test("every global the sandbox leaves out is refused with the sandbox's own reason", () => {
    for (const [name, reason] of Object.entries(ABSENT_GLOBALS)) {
      const expected = { line: 8, token: name, message: `'${name}' is not available: ${reason}` };
      assert.deepEqual(only(`    const x = ${name};`), expected);
      assert.deepEqual(only(`    input.${name};`), expected);
    }
    assert.match(ABSENT_GLOBALS["setTimeout"] ?? "", /no timers/);
  });

  test("no clock and no randomness: Date.now(), new Date(), Date() and Math.random() are refused", () => {
    assert.deepEqual(only("    const t = Date.now();"), {
      line: 8,
      token: "Date.now",
      message: `'Date.now' is not available: ${NO_CLOCK}`,
    });
    assert.deepEqual(only("    const t = new Date();"), {
      line: 8,
      token: "new Date()",
      message: `'new Date()' reads the clock: ${NO_CLOCK}`,
    });
    assert.deepEqual(only("    const t = Date();"), {
      line: 8,
      token: "Date()",
      message: `'Date()' reads the clock: ${NO_CLOCK}`,
    });
    assert.deepEqual(only("    const r = Math.random();"), {
      line: 8,
      token: "Math.random",
      message:
        "'Math.random' is not available: a distilled tool has no randomness: take random values as an input or from a base tool",
    });
    // Parsing and converting times the tool was given needs no clock.
    assert.deepEqual(
      problems(wrap('    const t = Date.parse("2024-01-01T00:00:00Z") + new Date(input.at).getTime();')),
      [],
    );
  });

  test("non-erasable TypeScript: namespaces, parameter properties and decorators", () => {
    const source = `namespace Util {}
${wrap(`    const K = class { constructor(private x: number) {} };
    const D = @sealed class {};`)}`;
    assert.deepEqual(problems(source), [
      { line: 1, token: "namespace", message: "'namespace' is not allowed: non-erasable TypeScript" },
      { line: 9, token: "class", message: "'class' is not allowed: use plain objects and functions" },
      { line: 9, token: "constructor", message: "'constructor' is not allowed in a distilled tool" },
      { line: 9, token: "x", message: "parameter property 'x' is not allowed: non-erasable TypeScript" },
      { line: 10, token: "class", message: "'class' is not allowed: use plain objects and functions" },
      { line: 10, token: "@sealed", message: "decorator '@sealed' is not allowed: non-erasable TypeScript" },
    ]);
  });

  test("yield is reported with its generator", () => {
    assert.deepEqual(problems(wrap("    function* g() { yield 1; }")), [
      { line: 8, token: "*", message: "generator functions are not allowed: return an array instead" },
      { line: 8, token: "yield", message: "'yield' is not allowed: return an array instead" },
    ]);
  });
});

describe("staticCheck: reporting", () => {
  test("every problem is reported at once, sorted by line, and formats with its line", () => {
    const source = `import fs from "fs";
${wrap(`    while (input) {}
    await call("billing_find_customr", { name: "n" });`).replace("demo_tool", "Demo")}const extra = 1;
`;
    const result = staticCheck(source, BASE);
    assert.deepEqual(
      result.problems.map((p) => formatProblem({ rule: "", ...p })),
      [
        `line 1: import from 'fs' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
        "line 4: tool name 'Demo' must match ^[a-z][a-z0-9_]{2,35}$ (lowercase letters, digits and _, 3 to 36 characters)",
        "line 9: 'while' is not allowed: use for…of over a bounded list",
        "line 10: call to 'billing_find_customr' — no such base tool (did you mean 'billing_find_customer'?)",
        "line 13: only imports and one export default distilledTool({...}) are allowed at top level",
      ],
    );
    assert.equal(result.ok, false);
    assert.deepEqual(result.meta?.dependencies, ["gmail_search"]);
  });
});

describe("staticCheck: check()", () => {
  const tool = (check: string) =>
    withConfig(`  name: "demo_tool",
  description: "d",
  inputSchema: { type: "object" },
${RUN}
${check}`);
  const ASYNC =
    "'check' must not be async: an async check returns a Promise, which always counts as passing; return true or false from a plain function";

  test("an async check is refused, in every spelling, because its Promise always passes", () => {
    for (const check of [
      "  check: async (r) => r.ok,",
      "  check: async function (r) { return r.ok; },",
      "  async check(r) { return r.ok; },",
    ]) {
      assert.deepEqual(problems(tool(check)), [{ line: 9, token: "async", message: ASYNC }], check);
    }
    assert.deepEqual(problems(tool("  check: (r) => r.ok,")), []);
  });

  test("call() inside check() is refused and is not a dependency", () => {
    const found = staticCheck(
      tool(`  check: (r) => {
    const again = call("billing_find_customer", { name: "x" });
    return r.ok && again;
  },`),
      BASE,
    );
    assert.deepEqual(found.problems, [
      {
        line: 10,
        token: "call",
        message:
          "call to 'billing_find_customer' inside check() is not allowed: check looks only at the result run() returned; make base calls in run()",
      },
    ]);
    assert.deepEqual(found.meta?.dependencies, ["gmail_search"]);
  });
});

describe("staticCheck: never throws", () => {
  test("a redeclared import (Babel's scope tracker throws) is a problem with its line and token", () => {
    const source = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "demo_tool",
  description: "d",
  inputSchema: { type: "object" },
  async run() {
    return call("gmail_search", { query: "x" });
  },
});
function distilledTool() {}
`;
    const found = staticCheck(source, BASE);
    assert.equal(found.ok, false);
    assert.deepEqual(
      found.problems.find((p) => p.token === "distilledTool" && /declared twice/.test(p.message)),
      {
        line: 10,
        token: "distilledTool",
        message: `'distilledTool' is declared twice in the same scope: it is imported from "tooldistill" and cannot be declared again`,
      },
    );
  });
});

describe("one check per proposal: checkedSource", () => {
  test("the check of the same source against the same tool list is reused, with its tree", () => {
    const known = checkSource(EXAMPLE, BASE);
    assert.ok(known.ok && known.ast !== null);
    assert.equal(checkedSource(EXAMPLE, BASE, known), known);
    // Call sites read from the check's tree are the ones a parse of their own finds.
    const fresh = instrumentCallSites(EXAMPLE);
    assert.deepEqual(instrumentCallSites(EXAMPLE, locateCallSites(EXAMPLE, known.ast)), fresh);
    assert.equal(fresh.sites.length, 4);
  });

  test("any other source, or another tool list, is checked again: what is verified is what runs", () => {
    const known = checkSource(EXAMPLE, BASE);
    const other = EXAMPLE.replace(`call("gmail_get_message"`, `call("gmail_get_mesage"`);
    const again = checkedSource(other, BASE, known);
    assert.notEqual(again, known);
    assert.equal(again.source, other);
    assert.deepEqual(
      again.problems.map((p) => p.rule),
      ["unknown-base-tool"],
    );
    // The same tools in a new list (base tools re-listed since) are checked again too: a change could be inside.
    const relisted = checkedSource(EXAMPLE, [...BASE], known);
    assert.notEqual(relisted, known);
    assert.ok(relisted.ok);
    const withoutSearch = checkedSource(
      EXAMPLE,
      BASE.filter((t) => t.name !== "gmail_search"),
      known,
    );
    assert.equal(withoutSearch.ok, false);
  });

  test("a source refused before or while parsing has no tree to reuse", () => {
    assert.equal(checkSource("export default {", BASE).ast, null);
    assert.equal(checkSource("x".repeat(40_000), BASE).ast, null);
  });
});
