import assert from "node:assert/strict";
import { test } from "node:test";
import {
  assertTransition,
  canTransition,
  isExposed,
  withoutProblems,
  withProblem,
} from "../core/lifecycle/lifecycle.ts";
import { Statuses } from "../core/types.ts";

test("the legal transitions are the reference's table, deprecate-from-anywhere-usable, and the hygiene statuses", () => {
  const legal = new Set<string>();
  for (const from of Statuses)
    for (const to of Statuses) if (canTransition(from, to)) legal.add(`${from}→${to}`);
  assert.deepEqual([...legal].sort(), [
    "active→deprecated",
    "active→suspect",
    "deprecated→active",
    "draft→deprecated",
    "draft→rejected",
    "draft→verified",
    "rejected→verified",
    "superseded→active",
    "superseded→deprecated",
    "suspect→active",
    "suspect→deprecated",
    "verified→active",
    "verified→deprecated",
    "verified→superseded",
  ]);
});

test("a refused transition says what is allowed instead", () => {
  assert.throws(() => assertTransition("t", 2, "draft", "active"), {
    code: "TRANSITION",
    message:
      "t v2 is draft: it cannot become active (from draft it can become verified or rejected or deprecated)",
  });
  assert.throws(() => assertTransition("t", 1, "deprecated", "suspect"), {
    message: "t v1 is deprecated: it cannot become suspect (from deprecated it can become active)",
  });
  assert.throws(() => assertTransition("t", 1, "verified", "suspect"), { code: "TRANSITION" });
});

test("exposure: active, or suspect whose only problem is a recovered avoided tool", () => {
  assert.equal(isExposed("active", []), true);
  assert.equal(isExposed("suspect", ["avoided_tool_recovered"]), true);
  assert.equal(isExposed("suspect", ["avoided_tool_recovered", "schema_changed"]), false);
  assert.equal(isExposed("suspect", ["runtime_failure"]), false);
  assert.equal(isExposed("verified", []), false);
  assert.equal(isExposed("draft", []), false);
  assert.equal(isExposed("deprecated", []), false);
});

test("problem sets stay sorted and unique", () => {
  assert.deepEqual(withProblem(["schema_changed"], "runtime_failure"), ["runtime_failure", "schema_changed"]);
  assert.deepEqual(withProblem(["schema_changed"], "schema_changed"), ["schema_changed"]);
  assert.deepEqual(withoutProblems(["runtime_failure", "schema_changed"], ["schema_changed"]), [
    "runtime_failure",
  ]);
});
