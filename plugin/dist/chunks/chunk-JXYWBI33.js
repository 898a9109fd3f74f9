import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  callFromRow,
  historyFromRow,
  runStatsFromRow,
  text,
  textOrNull,
  traceFlagsFromRow,
  traceFromRow,
  versionFromRow
} from "./chunk-MSS64Y6Z.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// core/registry-scope.ts
import { AsyncLocalStorage } from "node:async_hooks";
var transactions = new AsyncLocalStorage();
async function runInTransaction(owner, fn) {
  const scope = { owner, open: true };
  try {
    return await transactions.run(scope, fn);
  } finally {
    scope.open = false;
  }
}
function assertOutsideTransaction(owner, what = "a registry store method") {
  const scope = transactions.getStore();
  if (scope?.open && scope.owner === owner) {
    throw new DistillError(
      "USAGE",
      `${what} was called on the store inside its own transaction(): use the transaction's \`tx\` argument instead (or take tool locks before opening the transaction).`
    );
  }
}
function noTransaction() {
  return new DistillError(
    "USAGE",
    "savepoint() needs an open transaction: call it on the `tx` that transaction() passes to its function"
  );
}
var ToolLocks = class {
  #tails = /* @__PURE__ */ new Map();
  #held = new AsyncLocalStorage();
  async run(name, acquire, fn) {
    const held = this.#held.getStore();
    if (held?.has(name)) return fn();
    const before = this.#tails.get(name);
    let done;
    const mine = new Promise((resolve) => {
      done = resolve;
    });
    const tail = before ? before.then(() => mine) : mine;
    this.#tails.set(name, tail);
    try {
      if (before) await before;
      const release = await acquire();
      try {
        return await this.#held.run(/* @__PURE__ */ new Set([...held ?? [], name]), fn);
      } finally {
        await release();
      }
    } finally {
      done();
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    }
  }
};

// core/registry-store.ts
function emptyCounts() {
  return { traces: 0, calls: 0, versions: 0, history: 0, dependencies: 0, runStats: 0, meta: 0, sessions: 0 };
}
var INTERNAL_META_PREFIX = "tooldistill.lock:";

// core/registry-rows.ts
function traceRow(r) {
  return { ...traceFromRow(r), ...traceFlagsFromRow(r) };
}
function callRow(r) {
  return {
    ...callFromRow(r),
    args: text(r, "args"),
    output: textOrNull(r, "output"),
    externalId: textOrNull(r, "external_id"),
    startedAt: text(r, "started_at")
  };
}
function versionRow(r, code) {
  return {
    ...versionFromRow(r),
    problems: text(r, "problems"),
    inputSchema: text(r, "input_schema"),
    testInputs: text(r, "test_inputs"),
    verdict: textOrNull(r, "verdict"),
    code
  };
}
function historyRow(r) {
  return { ...historyFromRow(r), id: Number(r["id"]), evidence: textOrNull(r, "evidence") };
}
function runStatsRow(r) {
  return runStatsFromRow(text(r, "name"), Number(r["version"]), r);
}
function metaRow(r) {
  return { key: text(r, "key"), value: text(r, "value") };
}
function sessionRow(r) {
  return {
    sessionId: text(r, "session_id"),
    span: Number(r["span"]),
    confirmed: Boolean(r["confirmed"]),
    updatedAt: text(r, "updated_at")
  };
}

export {
  emptyCounts,
  INTERNAL_META_PREFIX,
  runInTransaction,
  assertOutsideTransaction,
  noTransaction,
  ToolLocks,
  traceRow,
  callRow,
  versionRow,
  historyRow,
  runStatsRow,
  metaRow,
  sessionRow
};
