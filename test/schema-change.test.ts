import assert from "node:assert/strict";
import { test } from "node:test";
import { classifySchemaChange } from "../core/base-tools/definition-change.ts";
import { passedProperties } from "../core/base-tools/passed-properties.ts";
import type { ToolDef } from "../core/types.ts";

const base: ToolDef = {
  name: "deploys_rollback",
  description: "Roll a deploy back.",
  input_schema: {
    type: "object",
    properties: {
      deploy_id: { type: "string", description: "The deploy." },
      reason: { type: "string", maxLength: 200 },
      mode: { type: "string", enum: ["fast", "safe"], default: "safe" },
    },
    required: ["deploy_id"],
  },
  annotations: { title: "Rollback", destructiveHint: true },
};

function change(edit: (t: ToolDef) => void) {
  const after = structuredClone(base);
  edit(after);
  return classifySchemaChange(base, after);
}
const props = (t: ToolDef) => t.input_schema["properties"] as Record<string, Record<string, unknown>>;

test("the same definition is the same", () => {
  assert.deepEqual(classifySchemaChange(base, structuredClone(base)), { kind: "same", reasons: [] });
});

test("text only: descriptions, titles and examples are cosmetic", () => {
  assert.deepEqual(
    change((t) => {
      t.description = "Roll a deploy back to the previous build.";
      props(t)["deploy_id"]!["description"] = "The deploy id, <service>@<seq>.";
      props(t)["deploy_id"]!["examples"] = ["api@12"];
      t.annotations = { ...t.annotations, title: "Roll back" };
    }),
    {
      kind: "cosmetic",
      reasons: [
        "the tool's description changed",
        "the annotations' title changed",
        "deploy_id: description changed",
        "deploy_id: examples changed",
      ],
    },
  );
});

test("compatible: an optional property added, a bound relaxed, a requirement dropped, an enum widened, a hint", () => {
  const cases: [string, (t: ToolDef) => void, string][] = [
    [
      "optional added",
      (t) => {
        props(t)["note"] = { type: "string" };
      },
      "note was added (optional)",
    ],
    [
      "maxLength up",
      (t) => {
        props(t)["reason"]!["maxLength"] = 500;
      },
      "reason: maxLength changed from 200 to 500",
    ],
    [
      "maxLength gone",
      (t) => {
        delete props(t)["reason"]!["maxLength"];
      },
      "reason: maxLength changed from 200 to nothing",
    ],
    [
      "no longer required",
      (t) => {
        t.input_schema["required"] = [];
      },
      "input: 'deploy_id' is no longer required",
    ],
    [
      "enum wider",
      (t) => {
        props(t)["mode"]!["enum"] = ["fast", "safe", "dry"];
      },
      "mode: enum allows more values",
    ],
    [
      "type widened",
      (t) => {
        props(t)["reason"]!["type"] = ["string", "null"];
      },
      'reason: type changed from "string" to ["string","null"]',
    ],
    [
      "hint",
      (t) => {
        t.annotations = { ...t.annotations, destructiveHint: false };
      },
      "annotation destructiveHint changed from true to false",
    ],
    [
      "default",
      (t) => {
        props(t)["mode"]!["default"] = "fast";
      },
      'mode: default changed from "safe" to "fast"',
    ],
  ];
  for (const [label, edit, reason] of cases) {
    assert.deepEqual(change(edit), { kind: "compatible", reasons: [reason] }, label);
  }
});

test("breaking: a required property added, a property removed or retyped, a constraint tightened", () => {
  const cases: [string, (t: ToolDef) => void, string][] = [
    [
      "required added",
      (t) => {
        props(t)["ticket"] = { type: "string" };
        (t.input_schema["required"] as string[]).push("ticket");
      },
      "input: 'ticket' is now required",
    ],
    [
      "removed",
      (t) => {
        delete props(t)["reason"];
      },
      "reason was removed",
    ],
    [
      "retyped",
      (t) => {
        props(t)["deploy_id"]!["type"] = "number";
      },
      'deploy_id: type changed from "string" to "number"',
    ],
    [
      "tightened",
      (t) => {
        props(t)["reason"]!["maxLength"] = 20;
      },
      "reason: maxLength changed from 200 to 20",
    ],
    [
      "enum narrower",
      (t) => {
        props(t)["mode"]!["enum"] = ["safe"];
      },
      'mode: enum no longer allows "fast"',
    ],
    [
      "closed",
      (t) => {
        t.input_schema["additionalProperties"] = false;
      },
      "input: extra properties are no longer allowed",
    ],
    [
      "unknown keyword",
      (t) => {
        props(t)["deploy_id"]!["pattern"] = "^[a-z]+@\\d+$";
      },
      "deploy_id: 'pattern' changed from nothing to \"^[a-z]+@\\\\d+$\"",
    ],
  ];
  for (const [label, edit, reason] of cases) {
    const got = change(edit);
    assert.equal(got.kind, "breaking", label);
    assert.ok(got.reasons.includes(reason), `${label}: ${JSON.stringify(got.reasons)}`);
  }
});

test("the most serious change decides, and every change is listed", () => {
  const got = change((t) => {
    t.description = "New words.";
    props(t)["note"] = { type: "string" };
    (t.input_schema["required"] as string[]).push("note");
  });
  assert.equal(got.kind, "breaking");
  assert.deepEqual(got.reasons, [
    "the tool's description changed",
    "input: 'note' is now required",
    "note was added (required)",
  ]);
});

test("judged by what a tool's calls pass: a change of a property no call passes is compatible for it", () => {
  const after = structuredClone(base);
  delete props(after)["reason"];
  props(after)["mode"]!["enum"] = ["safe"];
  // Without the calls (or when they cannot be told), every change counts.
  assert.equal(classifySchemaChange(base, after).kind, "breaking");
  assert.equal(classifySchemaChange(base, after, null).kind, "breaking");
  assert.deepEqual(classifySchemaChange(base, after, new Set(["deploy_id"])), {
    kind: "compatible",
    reasons: [
      "reason was removed (no call of this tool passes reason)",
      `mode: enum no longer allows "fast" (no call of this tool passes mode)`,
    ],
  });
  // A call that passes the removed property is affected, whether or not the new schema refuses extra properties.
  assert.equal(classifySchemaChange(base, after, new Set(["deploy_id", "reason"])).kind, "breaking");
  const closed = structuredClone(after);
  closed.input_schema["additionalProperties"] = false;
  const passing = classifySchemaChange(base, closed, new Set(["deploy_id", "reason"]));
  assert.equal(passing.kind, "breaking");
  assert.ok(passing.reasons.includes("reason was removed"), JSON.stringify(passing.reasons));
  // A property that becomes required is about the calls that do not pass it: always breaking.
  const required = structuredClone(base);
  (required.input_schema["required"] as string[]).push("reason");
  assert.equal(classifySchemaChange(base, required, new Set(["deploy_id"])).kind, "breaking");
});

test("passedProperties reads what each base tool's calls pass, and says when it cannot be told", () => {
  const source = `import { distilledTool, call } from "tooldistill";
export default distilledTool({
  name: "demo_tool",
  description: "d",
  inputSchema: { type: "object" },
  async run(input: { id: string }) {
    const a = await call("tickets_find", { customer: input.id });
    await call("tickets_find", { customer: a.c, include_closed: false });
    await call("orders_get", { ...input });
    return call("ping");
  },
});
`;
  assert.deepEqual(
    passedProperties(source),
    new Map<string, Set<string> | null>([
      ["tickets_find", new Set(["customer", "include_closed"])],
      ["orders_get", null],
      ["ping", new Set()],
    ]),
  );
  assert.equal(passedProperties("not ( code"), null);
});
