/**
 * The static check's rule tester, as ESLint's RuleTester: per rule, valid sources (no problem of that rule) and
 * invalid ones with the `{ rule, line }` of each problem that rule reports (the message where it matters). A rule
 * in core/verify/static/rules/index.ts without both kinds of case, or a message no case reaches, fails here, and
 * so does a rule docs/verification.md does not list.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import type { ToolDef } from "../core/types.ts";
import { RULES } from "../core/verify/static/rules/index.ts";
import { CHECK_PROBLEM_IDS, staticCheck } from "../core/verify/static/static-check.ts";

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
    name: "notes_write",
    description: "Write a note with any fields.",
    input_schema: { type: "object", properties: { text: { type: "string" } }, additionalProperties: true },
  },
];

/** A valid tool whose run body is `body`; the body's first line is line 8. */
function run(body: string): string {
  return `import { distilledTool, call, notApplicable } from "tooldistill";
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

/** A tool with the given `distilledTool({...})` members, the first on line 3. */
function config(members: string): string {
  return `import { distilledTool, call } from "tooldistill";
export default distilledTool({
${members}
});
`;
}

const NAME = `  name: "demo_tool",`;
const DESCRIPTION = `  description: "A demo.",`;
const SCHEMA = `  inputSchema: { type: "object" },`;
const RUN = `  async run() { return call("gmail_search", { query: "x" }); },`;

/** A source with `top` before a valid tool: `top`'s first line is line 1, the tool follows it. */
function before(top: string): string {
  return `${top}\n${run("")}`;
}

interface Invalid {
  code: string;
  /** The problems of this rule, in source order: the line (absent: of the whole module) and the message. */
  errors: { line?: number; message?: string | RegExp }[];
}

interface Cases {
  valid: string[];
  invalid: Invalid[];
}

const CASES: Record<string, Cases> = {
  "import-from-tooldistill": {
    valid: [run(""), before(`import type { Thing } from "tooldistill";`)],
    invalid: [
      {
        code: before(`import { readFileSync } from "node:fs";`),
        errors: [
          {
            line: 1,
            message: `import from 'node:fs' is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
          },
        ],
      },
      { code: before(`import td from "tooldistill";`), errors: [{ line: 1 }] },
      { code: before(`import * as td from "tooldistill";`), errors: [{ line: 1 }] },
      { code: before(`import { secret } from "tooldistill";`), errors: [{ line: 1 }] },
      {
        code: before(`import { call as c } from "tooldistill";`),
        errors: [
          {
            line: 1,
            message:
              "import of 'call' as 'c' is not allowed: import it under its own name so base calls can be read",
          },
        ],
      },
      { code: before(`import fs = require("fs");`), errors: [{ line: 1 }] },
    ],
  },
  "module-shape": {
    valid: [run(""), before("type Row = { id: string };\nexport type { Row };\n;")],
    invalid: [
      { code: before("const x = 1;"), errors: [{ line: 1 }] },
      { code: before("export const y = 2;"), errors: [{ line: 1 }] },
      {
        code: `import { call } from "tooldistill";\nexport default { run: () => call("gmail_search", { query: "x" }) };\n`,
        errors: [{ line: 2, message: "export default must be distilledTool({...}) with one object literal" }],
      },
      {
        code: `import { call } from "tooldistill";\n`,
        errors: [
          { message: "missing export default distilledTool({ name, description, inputSchema, run })" },
        ],
      },
    ],
  },
  "config-keys": {
    valid: [config([NAME, DESCRIPTION, SCHEMA, RUN, "  check: (r) => !!r,"].join("\n"))],
    invalid: [
      { code: config([NAME, DESCRIPTION, SCHEMA, RUN, "  ...extra,"].join("\n")), errors: [{ line: 7 }] },
      {
        code: config([NAME, DESCRIPTION, SCHEMA, RUN, "  chek: (r) => !!r,"].join("\n")),
        errors: [
          {
            line: 7,
            message:
              "unknown key 'chek' in distilledTool({...}) (did you mean 'check'?): allowed keys are name, description, inputSchema, run, check",
          },
        ],
      },
      { code: config([NAME, NAME, DESCRIPTION, SCHEMA, RUN].join("\n")), errors: [{ line: 4 }] },
      {
        code: config([NAME, SCHEMA, RUN].join("\n")),
        errors: [{ line: 2, message: "distilledTool({...}) has no 'description'" }],
      },
    ],
  },
  "literal-metadata": {
    valid: [run("")],
    invalid: [
      {
        code: config(["  name: `demo_${1}`,", DESCRIPTION, SCHEMA, RUN].join("\n")),
        errors: [
          { line: 3, message: "'name' must be a string literal so it can be read without running the tool" },
        ],
      },
      { code: config([NAME, `  description: "  ",`, SCHEMA, RUN].join("\n")), errors: [{ line: 4 }] },
    ],
  },
  "tool-name": {
    valid: [run("")],
    invalid: [
      { code: config([`  name: "Bad-Name",`, DESCRIPTION, SCHEMA, RUN].join("\n")), errors: [{ line: 3 }] },
      {
        code: config([`  name: "gmail_search",`, DESCRIPTION, SCHEMA, RUN].join("\n")),
        errors: [
          {
            line: 3,
            message:
              "tool name 'gmail_search' is a base tool's name: a distilled tool must not shadow a base tool",
          },
        ],
      },
    ],
  },
  "input-schema": {
    valid: [run("")],
    invalid: [
      {
        code: config(
          [NAME, DESCRIPTION, `  inputSchema: { type: "object", properties: input },`, RUN].join("\n"),
        ),
        errors: [{ line: 5 }],
      },
      {
        code: config([NAME, DESCRIPTION, `  inputSchema: { type: "array" },`, RUN].join("\n")),
        errors: [{ line: 5, message: `'inputSchema' must be an object with type: "object"` }],
      },
      {
        code: config(
          [NAME, DESCRIPTION, `  inputSchema: { type: "object", pattern: "(?=a)b" },`, RUN].join("\n"),
        ),
        errors: [{ line: 5 }],
      },
    ],
  },
  "config-functions": {
    valid: [config([NAME, DESCRIPTION, SCHEMA, RUN, "  check(r) { return r.ok; },"].join("\n"))],
    invalid: [
      {
        code: config(
          [NAME, DESCRIPTION, SCHEMA, `  run() { return call("gmail_search", { query: "x" }); },`].join("\n"),
        ),
        errors: [{ line: 6, message: "'run' must be an async function: async run(input) { ... }" }],
      },
      { code: config([NAME, DESCRIPTION, SCHEMA, RUN, "  check: true,"].join("\n")), errors: [{ line: 7 }] },
      {
        code: config([NAME, DESCRIPTION, SCHEMA, RUN, "  async check(r) { return r; },"].join("\n")),
        errors: [{ line: 7 }],
      },
      {
        code: config([NAME, DESCRIPTION, SCHEMA, RUN, "  *check(r) { return r; },"].join("\n")),
        errors: [{ line: 7 }],
      },
    ],
  },
  "no-escape-hatch": {
    valid: [run("    const o = { process: 1, constructor: 2 };\n    return o;")],
    invalid: [
      {
        code: run("    const __x = 1;"),
        errors: [{ line: 8, message: "'__x' is not allowed: names starting with __ are reserved" }],
      },
      { code: run(`    const fs = require("fs");`), errors: [{ line: 8 }] },
      {
        code: run("    return input.constructor;"),
        errors: [{ line: 8, message: "'constructor' is not allowed in a distilled tool" }],
      },
    ],
  },
  "sandbox-globals": {
    valid: [run(`    return Date.parse("2024-01-01T00:00:00Z") + new Date(input.at).getTime();`)],
    invalid: [
      {
        code: run("    setTimeout(() => {}, 1);"),
        errors: [{ line: 8, message: "'setTimeout' is not available: a distilled tool has no timers" }],
      },
      { code: run("    return Math.random();"), errors: [{ line: 8 }] },
      { code: run("    return Date();"), errors: [{ line: 8 }] },
      { code: run("    return new Date();"), errors: [{ line: 8 }] },
    ],
  },
  "imported-names": {
    valid: [run(`    const found = await call("gmail_search", { query: "y" });\n    return found;`)],
    invalid: [
      {
        code: run("    const f = call;"),
        errors: [{ line: 8, message: `'call' must be called directly: call("<base tool>", {...})` }],
      },
      { code: run("    return distilledTool;"), errors: [{ line: 8 }] },
      {
        code: run("    const g = (call) => call;"),
        errors: [{ line: 8, message: `'call' cannot be redeclared: it is imported from "tooldistill"` }],
      },
    ],
  },
  "fail-fast": {
    valid: [run(`    return call("gmail_search", { query: "y" }).then((r) => r.id);`)],
    invalid: [
      { code: run("    try { await input; } finally {}"), errors: [{ line: 8 }] },
      {
        code: run(`    return call("gmail_search", { query: "y" }).catch(() => null);`),
        errors: [
          {
            line: 8,
            message:
              "'.catch' is not allowed: a failed base call must fail the tool so the agent can fall back",
          },
        ],
      },
      {
        code: run(`    return call("gmail_search", { query: "y" }).then((r) => r, () => null);`),
        errors: [{ line: 8 }],
      },
    ],
  },
  "bounded-loops": {
    valid: [run('    for (const x of [1, 2]) await call("gmail_search", { query: String(x) });')],
    invalid: [
      {
        code: run("    while (input.q) {}"),
        errors: [{ line: 8, message: "'while' is not allowed: use for…of over a bounded list" }],
      },
      { code: run("    do {} while (input.q);"), errors: [{ line: 8 }] },
      { code: run("    for (;;) {}"), errors: [{ line: 8 }] },
      { code: run("    for (const k in input) {}"), errors: [{ line: 8 }] },
    ],
  },
  "plain-code": {
    valid: [run("    const f = function (a) { return a; };\n    return f(1);")],
    invalid: [
      {
        code: before("class Box {}"),
        errors: [{ line: 1, message: "'class' is not allowed: use plain objects and functions" }],
      },
      { code: run("    function* g() { yield 1; }"), errors: [{ line: 8 }, { line: 8 }] },
      { code: run("    return this;"), errors: [{ line: 8 }] },
      { code: run("    const o = { m() { return super.m; } };"), errors: [{ line: 8 }] },
      { code: run("    outer: for (const x of [1]) break outer;"), errors: [{ line: 8 }] },
      { code: run("    debugger;"), errors: [{ line: 8 }] },
      { code: run("    return import.meta.url;"), errors: [{ line: 8 }] },
    ],
  },
  "erasable-typescript": {
    valid: [run("    const n = (input as { n: number }).n satisfies number;\n    return n!;")],
    invalid: [
      {
        code: run("    enum Color { Red }"),
        errors: [
          { line: 8, message: "'enum' is not allowed: non-erasable TypeScript; use an object literal" },
        ],
      },
      { code: before("namespace N { export const a = 1; }"), errors: [{ line: 1 }] },
      { code: before("class Box {\n  constructor(private x: number) {}\n}"), errors: [{ line: 2 }] },
      { code: before("@sealed\nclass Box {}"), errors: [{ line: 1 }] },
    ],
  },
  "no-dynamic-import": {
    valid: [run("")],
    invalid: [
      {
        code: run(`    await import("node:fs");`),
        errors: [
          {
            line: 8,
            message: `dynamic import() is not allowed: only { distilledTool, call, notApplicable } from "tooldistill"`,
          },
        ],
      },
    ],
  },
  "check-reads-result": {
    valid: [config([NAME, DESCRIPTION, SCHEMA, RUN, "  check: (r) => r.ok === true,"].join("\n"))],
    invalid: [
      {
        code: config(
          [NAME, DESCRIPTION, SCHEMA, RUN, `  check: (r) => call("gmail_search", { query: r.q }),`].join(
            "\n",
          ),
        ),
        errors: [
          {
            line: 7,
            message:
              "call to 'gmail_search' inside check() is not allowed: check looks only at the result run() returned; make base calls in run()",
          },
        ],
      },
      {
        code: config([NAME, DESCRIPTION, SCHEMA, RUN, "  check: (r) => call(r.tool, {}),"].join("\n")),
        errors: [{ line: 7 }],
      },
      {
        code: config(
          [NAME, DESCRIPTION, SCHEMA, RUN, `  check: (r) => notApplicable("no"),`].join("\n"),
        ).replace("{ distilledTool, call }", "{ distilledTool, call, notApplicable }"),
        errors: [{ line: 7 }],
      },
    ],
  },
  "declared-outcomes": {
    valid: [
      run(
        `    await call("notes_write", { text: "t" }, { conflict: () => call("gmail_search", { query: "t" }) });`,
      ),
    ],
    invalid: [
      { code: run(`    await call("notes_write", { text: "t" }, {}, 4);`), errors: [{ line: 8 }] },
      { code: run(`    await call("notes_write", { text: "t" }, input.outcomes);`), errors: [{ line: 8 }] },
      { code: run(`    await call("notes_write", { text: "t" }, { ...input.o });`), errors: [{ line: 8 }] },
      {
        code: run(`    await call("notes_write", { text: "t" }, { conflct: () => 1 });`),
        errors: [{ line: 8, message: /^'conflct' is not a declared outcome \(did you mean 'conflict'\?\)/ }],
      },
      {
        code: run(`    await call("notes_write", { text: "t" }, { conflict: () => 1, conflict: () => 2 });`),
        errors: [{ line: 8 }],
      },
      {
        code: run(`    await call("notes_write", { text: "t" }, { conflict: input.f });`),
        errors: [{ line: 8 }],
      },
      {
        code: run(`    await call("notes_write", { text: "t" }, { conflict: (e) => e });`),
        errors: [{ line: 8 }],
      },
    ],
  },
  "call-literal-name": {
    valid: [run(`    await call(\`gmail_search\`, { query: "y" });`)],
    invalid: [
      {
        code: run("    await call(input.q, {});"),
        errors: [
          {
            line: 8,
            message:
              "call needs a string-literal base tool name as its first argument so dependencies can be read",
          },
        ],
      },
      { code: run("    await call();"), errors: [{ line: 8 }] },
    ],
  },
  "unknown-base-tool": {
    valid: [run(`    await call("notes_write", { text: "t" });`)],
    invalid: [
      {
        code: run(`    await call("gmail_serch", { query: "y" });`),
        errors: [
          { line: 8, message: "call to 'gmail_serch' — no such base tool (did you mean 'gmail_search'?)" },
        ],
      },
    ],
  },
  "call-arguments": {
    valid: [run(`    await call("notes_write", { text: "t", color: "red" });`)],
    invalid: [
      {
        code: run(`    await call("gmail_search", { query: "y", sinse: "1d" });`),
        errors: [
          { line: 8, message: "call to 'gmail_search' — unknown property 'sinse' (did you mean 'since'?)" },
        ],
      },
      {
        code: run(`    await call("gmail_search", {});`),
        errors: [
          {
            line: 8,
            message: "call to 'gmail_search' — missing required property 'query' of 'gmail_search'",
          },
        ],
      },
    ],
  },
  "some-base-call": {
    valid: [run("")],
    invalid: [
      {
        code: config([NAME, DESCRIPTION, SCHEMA, "  async run() { return 1; },"].join("\n")),
        errors: [{}],
      },
    ],
  },
};

/** The problems of `rule` in `code`, as `{ rule, line, message }`. */
function found(rule: string, code: string) {
  return staticCheck(code, BASE)
    .problems.filter((p) => p.rule === rule)
    .map((p) => ({ rule: p.rule, line: p.line, message: p.message }));
}

/** A message template as a pattern: each `{{placeholder}}` stands for any text. */
function pattern(template: string): RegExp {
  const parts = template.split(/\{\{\w+\}\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[^]*")}$`);
}

for (const rule of RULES) {
  describe(`rule ${rule.id}`, () => {
    const cases = CASES[rule.id];
    test("has valid and invalid cases", () => {
      assert.ok(cases, `${rule.id} has no cases in test/static-rules.test.ts`);
      assert.ok(cases.valid.length > 0, `${rule.id} has no valid case`);
      assert.ok(cases.invalid.length > 0, `${rule.id} has no invalid case`);
    });
    for (const [i, code] of (cases?.valid ?? []).entries()) {
      test(`valid ${i + 1}`, () => assert.deepEqual(found(rule.id, code), []));
    }
    for (const [i, { code, errors }] of (cases?.invalid ?? []).entries()) {
      test(`invalid ${i + 1}`, () => {
        const actual = found(rule.id, code);
        assert.deepEqual(
          actual.map(({ rule, line }) => ({ rule, line })),
          errors.map(({ line }) => ({ rule: rule.id, line })),
        );
        for (const [j, e] of errors.entries()) {
          if (typeof e.message === "string") assert.equal(actual[j]?.message, e.message);
          else if (e.message) assert.match(actual[j]?.message ?? "", e.message);
        }
      });
    }
    test("every message is reached by an invalid case", () => {
      const messages = (cases?.invalid ?? []).flatMap(({ code }) =>
        found(rule.id, code).map((p) => p.message),
      );
      for (const [id, template] of Object.entries(rule.messages)) {
        assert.ok(
          messages.some((m) => pattern(template).test(m)),
          `no invalid case of ${rule.id} reports its message '${id}'`,
        );
      }
    });
  });
}

describe("the rule list", () => {
  test("ids are unique and kebab-case, and every case names a rule", () => {
    const ids = RULES.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[a-z]+(?:-[a-z]+)*$/);
    assert.deepEqual(
      Object.keys(CASES).filter((id) => !ids.includes(id)),
      [],
      "cases for a rule that is not in rules/index.ts",
    );
  });

  test("docs/verification.md lists every rule by id with its description, and the check's own ids", () => {
    const doc = readFileSync(new URL("../docs/verification.md", import.meta.url), "utf8");
    // The table's rows, however the formatter pads them: | `id` | description |
    const rows = new Map(
      doc
        .split("\n")
        .map((line) => /^\|\s*`([a-z-]+)`\s*\|\s*(.*?)\s*\|$/.exec(line))
        .flatMap((m) => (m ? [[m[1]!, m[2]!] as const] : [])),
    );
    for (const rule of RULES) {
      assert.equal(rows.get(rule.id), rule.description, `docs/verification.md's rule table, row ${rule.id}`);
    }
    for (const id of [
      ...Object.values(CHECK_PROBLEM_IDS),
      "source-too-large",
      "tree-too-large",
      "too-many-problems",
    ]) {
      assert.ok(doc.includes(`\`${id}\``), `docs/verification.md lacks ${id}`);
    }
  });
});
