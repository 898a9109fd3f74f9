import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  recordableError,
  recordableOutput
} from "./chunk-KWE2AXCZ.js";
import {
  NO_EVIDENCE
} from "./chunk-J2PGGSMV.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// core/util/logger.ts
var stderrLogger = {
  info() {
  },
  warn(message) {
    process.stderr.write(`${message}
`);
  },
  error(message) {
    process.stderr.write(`${message}
`);
  }
};

// core/store/registry-scope.ts
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

// core/store/records.ts
function now() {
  return (/* @__PURE__ */ new Date()).toISOString();
}
function json(value) {
  return value === void 0 ? null : JSON.stringify(value);
}
function parse(text2) {
  return typeof text2 === "string" ? JSON.parse(text2) : null;
}
function lazyJson(target, key, raw, map) {
  let value;
  let parsed = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!parsed) {
        value = map(parse(raw));
        parsed = true;
      }
      return value;
    },
    set: (next) => {
      value = next;
      parsed = true;
    }
  });
}
function text(r, column) {
  return r[column];
}
function textOrNull(r, column) {
  return r[column] ?? null;
}
function numberOrNull(r, column) {
  const v = r[column];
  return v === null || v === void 0 ? null : Number(v);
}
function versionFromRow(r) {
  const record = {
    name: text(r, "name"),
    version: Number(r["version"]),
    status: r["status"],
    problems: parse(r["problems"]),
    baseline: numberOrNull(r, "baseline"),
    baselineTokens: numberOrNull(r, "baseline_tokens"),
    sourceTrace: textOrNull(r, "source_trace"),
    description: text(r, "description"),
    inputSchema: parse(r["input_schema"]),
    testInputs: parse(r["test_inputs"]),
    sourceHash: text(r, "source_hash")
  };
  lazyJson(record, "verdict", r["verdict"], (v) => withEvidence(v));
  return Object.assign(record, {
    queuedRebuild: Boolean(r["queued_rebuild"]),
    rebuildNote: textOrNull(r, "rebuild_note"),
    createdAt: text(r, "created_at"),
    replayRuns: parse(r["replay_runs"]) ?? []
  });
}
function historyFromRow(r) {
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    from: textOrNull(r, "from_status"),
    to: r["to_status"],
    reason: text(r, "reason"),
    evidence: parse(r["evidence"]),
    at: text(r, "at")
  };
}
function dependencyFromRow(r) {
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    baseTool: text(r, "base_tool"),
    fingerprint: textOrNull(r, "fingerprint"),
    avoided: Boolean(r["avoided"])
  };
}
function runStatsFromRow(name, version, r) {
  return {
    name,
    version,
    runs: Number(r?.["runs"] ?? 0),
    successes: Number(r?.["successes"] ?? 0),
    failures: Number(r?.["failures"] ?? 0),
    notApplicable: Number(r?.["not_applicable"] ?? 0),
    innerCalls: Number(r?.["inner_calls"] ?? 0),
    lastRunAt: r === void 0 ? null : textOrNull(r, "last_run_at")
  };
}
function runFromRow(r) {
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    outcome: r["outcome"],
    traceId: textOrNull(r, "trace_id"),
    callId: numberOrNull(r, "call_id"),
    innerCalls: Number(r["inner_calls"]),
    evidence: parse(r["evidence"]),
    at: text(r, "at")
  };
}
function baseHealthFromRow(r) {
  const probe = r["probe_ok"];
  return {
    tool: text(r, "tool"),
    failures: Number(r["failures"]),
    consecutive: Number(r["consecutive"]),
    lastError: textOrNull(r, "last_error"),
    lastFailureAt: textOrNull(r, "last_failure_at"),
    lastOkAt: textOrNull(r, "last_ok_at"),
    probeOk: probe === null || probe === void 0 ? null : Boolean(probe),
    probedAt: textOrNull(r, "probed_at")
  };
}
function verifiedDefinitionFromRow(r) {
  const record = {
    name: text(r, "name"),
    version: Number(r["version"]),
    baseTool: text(r, "base_tool"),
    fingerprint: text(r, "fingerprint")
  };
  lazyJson(record, "definition", r["definition"], (v) => v);
  return Object.assign(record, { verifiedAt: text(r, "verified_at") });
}
function traceFromRow(r) {
  const outcome = r["outcome"];
  return {
    id: text(r, "id"),
    task: text(r, "task"),
    source: r["source"],
    outcome: outcome === null || outcome === void 0 ? null : Boolean(outcome),
    usage: {
      input_tokens: Number(r["input_tokens"]),
      output_tokens: Number(r["output_tokens"]),
      cache_creation_input_tokens: Number(r["cache_creation_input_tokens"]),
      cache_read_input_tokens: Number(r["cache_read_input_tokens"])
    },
    startedAt: text(r, "started_at"),
    endedAt: textOrNull(r, "ended_at"),
    note: textOrNull(r, "note")
  };
}
function traceFlagsFromRow(r) {
  return {
    nudged: Boolean(r?.["nudged"]),
    proposed: Boolean(r?.["proposed"]),
    replaceName: r === void 0 ? null : textOrNull(r, "replace_name")
  };
}
function receivedInput(r, stored) {
  const raw = r["raw_args"];
  if (typeof raw !== "string") return stored;
  try {
    const value = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : stored;
  } catch {
    return stored;
  }
}
function callFromRow(r) {
  return {
    id: Number(r["id"]),
    traceId: text(r, "trace_id"),
    seq: Number(r["seq"]),
    parentId: numberOrNull(r, "parent_id"),
    tool: text(r, "tool"),
    kind: r["kind"],
    args: parse(r["args"]),
    status: r["status"],
    output: parse(r["output"]),
    error: textOrNull(r, "error"),
    latencyMs: numberOrNull(r, "latency_ms"),
    version: numberOrNull(r, "version"),
    note: textOrNull(r, "note"),
    clipped: Boolean(r["clipped"]),
    failure: textOrNull(r, "failure")
  };
}
function withEvidence(v) {
  return v === null || v.evidence !== void 0 ? v : { ...v, evidence: { ...NO_EVIDENCE, writes: [] } };
}

// core/store/sqlite/sqlite-calls.ts
function joinNotes(...notes) {
  const kept = notes.filter((n) => n !== null && n !== "");
  return kept.length === 0 ? null : kept.join("; ");
}
function recordedOutcome(call, outcome, maxOutputBytes) {
  const status = outcome === null ? "started" : "output" in outcome ? "ok" : "error";
  const out = outcome !== null && "output" in outcome ? recordableOutput(outcome.output, maxOutputBytes) : null;
  const err = outcome !== null && "error" in outcome ? recordableError(outcome.error, maxOutputBytes) : null;
  return {
    status,
    output: out?.text ?? null,
    error: err?.text ?? null,
    note: joinNotes(call.note ?? null, out?.note ?? null, err?.note ?? null),
    clipped: out?.clipped ?? false,
    failure: (outcome !== null && "error" in outcome ? outcome.failure : void 0) ?? null
  };
}
function insertCall(db, call, outcome, latencyMs, maxOutputBytes) {
  const kept = recordedOutcome(call, outcome, maxOutputBytes);
  return db.transaction(() => {
    const row = db.stmt(
      `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at, note, clipped, raw_args, failure)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id`
    ).get(
      call.traceId,
      call.traceId,
      call.parentId ?? null,
      call.tool,
      call.kind,
      JSON.stringify(call.args),
      kept.status,
      kept.output,
      kept.error,
      latencyMs,
      call.version ?? null,
      call.externalId ?? null,
      now(),
      kept.note,
      kept.clipped ? 1 : 0,
      call.rawArgs ?? null,
      kept.failure
    );
    return Number(row?.["id"]);
  });
}
function insertCallAt(db, call, outcome, latencyMs, seq, maxOutputBytes) {
  return db.transaction(() => {
    db.stmt("UPDATE calls SET seq = -(seq + 1) WHERE trace_id = ? AND seq >= ?").run(call.traceId, seq);
    db.stmt("UPDATE calls SET seq = -seq WHERE trace_id = ? AND seq < 0").run(call.traceId);
    const id = insertCall(db, call, outcome, latencyMs, maxOutputBytes);
    db.stmt("UPDATE calls SET seq = ? WHERE id = ?").run(seq, id);
    return id;
  });
}
function finishCall(db, id, output, latencyMs, maxOutputBytes) {
  const out = recordableOutput(output, maxOutputBytes);
  db.stmt(
    `UPDATE calls SET status = 'ok', output = ?1, latency_ms = ?2, clipped = ?3,
     note = CASE WHEN ?4 IS NULL THEN note WHEN note IS NULL THEN ?4 ELSE note || '; ' || ?4 END WHERE id = ?5`
  ).run(out.text, latencyMs, out.clipped ? 1 : 0, out.note, id);
}
function failCall(db, id, error, latencyMs, maxOutputBytes) {
  const err = recordableError(error, maxOutputBytes);
  db.stmt(
    `UPDATE calls SET status = 'error', error = ?1, latency_ms = ?2,
     note = CASE WHEN ?3 IS NULL THEN note WHEN note IS NULL THEN ?3 ELSE note || '; ' || ?3 END WHERE id = ?4`
  ).run(err.text, latencyMs, err.note, id);
}
function setCallKind(db, id, kind, version) {
  db.stmt("UPDATE calls SET kind = ?, version = ? WHERE id = ?").run(kind, version, id);
}
function setCallArgs(db, id, args, rawArgs = null) {
  db.stmt("UPDATE calls SET args = ?, raw_args = COALESCE(?, raw_args) WHERE id = ?").run(
    JSON.stringify(args),
    rawArgs,
    id
  );
}
function getCallByExternalId(db, externalId, traceIdPrefix) {
  const row = db.stmt("SELECT * FROM calls WHERE external_id = ? AND substr(trace_id, 1, ?) = ? ORDER BY id DESC LIMIT 1").get(externalId, traceIdPrefix.length, traceIdPrefix);
  return row ? callFromRow(row) : null;
}
function startedCallsByExternalId(db, externalId) {
  const rows = db.stmt("SELECT * FROM calls WHERE external_id = ? AND status = 'started' ORDER BY id DESC").all(externalId);
  return rows.map(callFromRow);
}
function getCalls(db, traceId) {
  return db.stmt("SELECT * FROM calls WHERE trace_id = ? ORDER BY seq").all(traceId).map(callFromRow);
}
function countTopLevelBaseCalls(db, traceId) {
  const row = db.stmt(
    "SELECT COUNT(*) AS n FROM calls WHERE trace_id = ? AND kind = 'base' AND parent_id IS NULL AND status != 'started'"
  ).get(traceId);
  return Number(row?.["n"]);
}
function liveRuns(db, name, version, limit) {
  const rows = db.stmt(
    "SELECT * FROM calls WHERE kind = 'distilled' AND tool = ? AND version = ? AND status = 'ok' ORDER BY id DESC LIMIT ?"
  ).all(name, version, limit);
  return rows.map((row) => liveRun(db, row));
}
function liveRunsOf(db, refs) {
  const get = db.stmt(
    "SELECT * FROM calls WHERE id = ? AND trace_id = ? AND kind = 'distilled' AND status = 'ok'"
  );
  return refs.flatMap((ref) => {
    const row = get.get(ref.call, ref.trace);
    return row ? [liveRun(db, row)] : [];
  });
}
function liveRun(db, row) {
  const call = callFromRow(row);
  const inner = db.stmt("SELECT * FROM calls WHERE parent_id = ? ORDER BY seq").all(call.id).map(callFromRow);
  return {
    trace: call.traceId,
    call: call.id,
    version: call.version ?? 0,
    input: receivedInput(row, call.args),
    output: call.output,
    at: String(row["started_at"]),
    calls: inner
  };
}

// core/store/registry-store.ts
var TRANSFER_ORDER = [
  "traces",
  "calls",
  "versions",
  "history",
  "dependencies",
  "runStats",
  "runs",
  "verifiedDefinitions",
  "baseHealth",
  "meta",
  "sessions"
];
function emptyCounts() {
  return {
    traces: 0,
    calls: 0,
    versions: 0,
    history: 0,
    dependencies: 0,
    runStats: 0,
    runs: 0,
    verifiedDefinitions: 0,
    baseHealth: 0,
    meta: 0,
    sessions: 0
  };
}
var INTERNAL_META_PREFIX = "tooldistill.lock:";

// core/store/registry-rows.ts
function traceRow(r) {
  return { ...traceFromRow(r), ...traceFlagsFromRow(r) };
}
function callRow(r) {
  return {
    ...callFromRow(r),
    args: text(r, "args"),
    output: textOrNull(r, "output"),
    externalId: textOrNull(r, "external_id"),
    startedAt: text(r, "started_at"),
    rawArgs: textOrNull(r, "raw_args")
  };
}
function versionRow(r, code) {
  return {
    ...versionFromRow(r),
    problems: text(r, "problems"),
    inputSchema: text(r, "input_schema"),
    testInputs: text(r, "test_inputs"),
    verdict: textOrNull(r, "verdict"),
    replayRuns: text(r, "replay_runs"),
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
function runRow(r) {
  return { ...runFromRow(r), id: Number(r["id"]), evidence: textOrNull(r, "evidence") };
}
function verifiedDefinitionRow(r) {
  return { ...verifiedDefinitionFromRow(r), definition: textOrNull(r, "definition") };
}

export {
  stderrLogger,
  now,
  json,
  versionFromRow,
  historyFromRow,
  dependencyFromRow,
  runStatsFromRow,
  runFromRow,
  baseHealthFromRow,
  verifiedDefinitionFromRow,
  traceFromRow,
  traceFlagsFromRow,
  receivedInput,
  callFromRow,
  recordedOutcome,
  insertCall,
  insertCallAt,
  finishCall,
  failCall,
  setCallKind,
  setCallArgs,
  getCallByExternalId,
  startedCallsByExternalId,
  getCalls,
  countTopLevelBaseCalls,
  liveRuns,
  liveRunsOf,
  runInTransaction,
  assertOutsideTransaction,
  noTransaction,
  ToolLocks,
  TRANSFER_ORDER,
  emptyCounts,
  INTERNAL_META_PREFIX,
  traceRow,
  callRow,
  versionRow,
  historyRow,
  runStatsRow,
  metaRow,
  sessionRow,
  runRow,
  verifiedDefinitionRow
};
