import assert from "node:assert/strict";
import { test } from "node:test";
import type { CallRecord } from "../core/types.ts";
import { canonicalArgs } from "../core/util/canonical.ts";
import { argDifferences, FixtureSet, fixturesFromCalls } from "../core/verify/replay/replay.ts";
import { avoidedTools, efficiencyCheck } from "../core/verify/verification.ts";

let nextId = 1;
function call(
  tool: string,
  args: Record<string, unknown>,
  output: unknown,
  extra: Partial<CallRecord> = {},
): CallRecord {
  const id = nextId++;
  return {
    id,
    traceId: "t",
    seq: id,
    parentId: null,
    tool,
    kind: "base",
    args,
    status: "ok",
    output,
    error: null,
    latencyMs: 1,
    version: null,
    note: null,
    clipped: false,
    failure: null,
    ...extra,
  };
}

test("canonical args: defaults applied, keys sorted recursively, undefined dropped", () => {
  const schema = {
    type: "object",
    properties: { b: { type: "string", default: "x" }, a: { type: "object" } },
  };
  assert.deepEqual(
    JSON.stringify(canonicalArgs({ a: { z: 1, y: undefined, x: 2 } }, schema)),
    '{"a":{"x":2,"z":1},"b":"x"}',
  );
  assert.deepEqual(canonicalArgs({ b: "given" }, schema), { b: "given" });
});

test("fixtures: base calls only, inner calls included, started-only calls left out", () => {
  const fx = fixturesFromCalls([
    call("search", { q: 1 }, []),
    call("my_tool", {}, {}, { kind: "distilled" }),
    call("get", { id: 1 }, {}, { parentId: 2 }),
    call("propose_distilled_tool", {}, {}, { kind: "proposal" }),
    call("get", { id: 2 }, null, { status: "started" }),
    call("create", { x: 1 }, null, { status: "error", error: "boom" }),
  ]);
  assert.deepEqual(
    fx.map((f) => [f.index, f.tool, f.ok]),
    [
      [1, "search", true],
      [2, "get", true],
      [3, "create", false],
    ],
  );
});

test("fixtures are consumed in order: a search repeated before and after a create gets each answer", () => {
  const set = new FixtureSet(
    fixturesFromCalls([
      call("search", { q: "acme" }, []),
      call("create", { name: "acme" }, { id: 1 }),
      call("search", { q: "acme" }, [{ id: 1 }]),
    ]),
  );
  assert.deepEqual(set.take("search", { q: "acme" })?.output, []);
  assert.deepEqual(set.take("create", { name: "acme" })?.output, { id: 1 });
  assert.deepEqual(set.take("search", { q: "acme" })?.output, [{ id: 1 }]);
  assert.equal(set.take("search", { q: "acme" }), null);
});

test("an unmatched call names the nearest fixture and how its arguments differ", () => {
  const set = new FixtureSet(
    fixturesFromCalls([
      call("billing_find_customer", { name: "ACME" }, { id: "c1" }),
      call("billing_find_customer", { name: "Globex", region: "eu" }, { id: "c2" }),
    ]),
  );
  assert.equal(
    set.explainMiss(3, "billing_find_customer", { name: "ACME Corp" }),
    `call 3 to 'billing_find_customer' with {"name":"ACME Corp"} matches no recorded call; nearest recorded: call 1 billing_find_customer {"name":"ACME"}; differs in name: "ACME Corp" ≠ recorded "ACME"`,
  );
  assert.equal(
    set.explainMiss(1, "gmail_search", { query: "x" }),
    `call 1 to 'gmail_search' with {"query":"x"} matches no recorded call: the source run never called 'gmail_search'`,
  );
  set.take("billing_find_customer", { name: "ACME" });
  assert.match(
    set.explainMiss(2, "billing_find_customer", { name: "ACME" }),
    /already used by an earlier call of this replay/,
  );
});

test("argument differences name missing, extra and changed keys", () => {
  assert.deepEqual(argDifferences({ a: 1, b: 2 }, { b: 3, c: 4 }), [
    "a: missing (recorded 1)",
    "b: 3 ≠ recorded 2",
    "c: not in the recorded call (got 4)",
  ]);
});

test("avoided tools are those every call of which failed", () => {
  const calls = [
    call("import", {}, null, { status: "error", error: "503" }),
    call("import", {}, null, { status: "error", error: "503" }),
    call("flaky", {}, null, { status: "error", error: "x" }),
    call("flaky", {}, {}),
    call("inner_fail", {}, null, { status: "error", error: "x", kind: "other" }),
  ];
  assert.deepEqual([...avoidedTools(calls)], ["import"]);
});

test("efficiency boundaries: at the limit passes, above fails; a rebuild must beat its predecessor", () => {
  assert.equal(efficiencyCheck(8, 12, 8.4, 0.3).ok, true);
  const over = efficiencyCheck(9, 12, 8.4, 0.3);
  assert.equal(over.ok, false);
  assert.equal(
    over.problems[0]?.message,
    "9 base calls; limit 8.4 (baseline 12 × 0.7): use at least 30% fewer base calls than the source run",
  );
  assert.equal(efficiencyCheck(7, 10, 7, 0.3).ok, true, "exactly at the limit");
  assert.equal(efficiencyCheck(4, 12, 8.4, 0.3, { version: 1, calls: 4 }).ok, false);
  assert.equal(
    efficiencyCheck(4, 12, 8.4, 0.3, { version: 1, calls: 4 }).problems[0]?.message,
    "4 base calls; the version it replaces (v1) needs 4: a rebuild must use fewer",
  );
  assert.equal(efficiencyCheck(3, 12, 8.4, 0.3, { version: 1, calls: 4 }).ok, true);
  assert.equal(efficiencyCheck(3, null, null, 0.3).ok, false);
});
