import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  hashSource,
  readToolCode,
  recordableError,
  recordableOutput,
  toolFilePath,
  writeToolCode
} from "./chunk-VPKFMVD7.js";
import {
  toolNameProblem
} from "./chunk-7GUC6VD2.js";
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

// core/store/engine.ts
function sql(build) {
  const built = /* @__PURE__ */ new Map();
  return (d) => {
    let text2 = built.get(d);
    if (text2 === void 0) {
      text2 = build(d);
      built.set(d, text2);
    }
    return text2;
  };
}
async function read(engine, q) {
  return q.map(await engine.rows(q.sql, q.params));
}

// core/store/tables/bookkeeping.ts
var GET = sql((d) => `SELECT value FROM ${d.t.meta} WHERE key = ?`);
var SET = sql(
  (d) => `INSERT INTO ${d.t.meta} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`
);
var bookkeepingMethods = {
  async getMeta(key) {
    const row = await this.engine.first(GET(this.engine.dialect), [key]);
    return row === void 0 ? null : String(row["value"]);
  },
  async setMeta(key, value) {
    await this.engine.run(SET(this.engine.dialect), [key, value]);
  }
};

// core/store/recorded-outcome.ts
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

// core/store/row-mappers.ts
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
  if (v === null) return v;
  const checks = v.checks;
  const named = Object.values(checks).every((c) => c.problems.every((p) => typeof p.rule === "string"));
  const shaped = named ? v : { ...v, checks: withRuleIds(checks) };
  return shaped.evidence !== void 0 ? shaped : { ...shaped, evidence: { ...NO_EVIDENCE, writes: [] } };
}
function withRuleIds(checks) {
  const named = (c) => ({
    ...c,
    problems: c.problems.map((p) => typeof p.rule === "string" ? p : { ...p, rule: "unnamed" })
  });
  return { static: named(checks.static), replay: named(checks.replay), efficiency: named(checks.efficiency) };
}

// core/store/tables/runs.ts
var INSERT_RUN = sql(
  (d) => `INSERT INTO ${d.t.runs} (name, version, outcome, trace_id, call_id, inner_calls, evidence, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ${d.now}) RETURNING at`
);
var COUNT_RUN = sql(
  (d) => `INSERT INTO ${d.t.run_stats} AS s
       (name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at)
     VALUES (?, ?, 1, ?, ?, ?, ?, ?)
     ON CONFLICT (name, version) DO UPDATE SET runs = s.runs + 1, successes = s.successes + excluded.successes,
       failures = s.failures + excluded.failures, not_applicable = s.not_applicable + excluded.not_applicable,
       inner_calls = s.inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`
);
var STATS = sql(
  (d) => `SELECT runs, successes, failures, not_applicable, inner_calls, last_run_at FROM ${d.t.run_stats}
     WHERE name = ? AND version = ?`
);
function runStatsRead(d, name, version) {
  return { sql: STATS(d), params: [name, version], map: (rows) => runStatsFromRow(name, version, rows[0]) };
}
var ALL_STATS = sql(
  (d) => `SELECT name, version, runs, successes, failures, not_applicable, inner_calls, last_run_at
     FROM ${d.t.run_stats}`
);
function allRunStatsRead(d) {
  return {
    sql: ALL_STATS(d),
    params: [],
    map: (rows) => rows.map((r) => runStatsFromRow(String(r["name"]), Number(r["version"]), r))
  };
}
var RUN_COLUMNS = "name, version, outcome, trace_id, call_id, inner_calls, evidence, at";
var RECENT = sql(
  (d) => `SELECT ${RUN_COLUMNS} FROM ${d.t.runs} WHERE name = ? AND version = ? ORDER BY id DESC LIMIT ?`
);
var RECENT_OF = sql(
  (d) => `SELECT ${RUN_COLUMNS} FROM ${d.t.runs} WHERE name = ? AND version = ? AND ${d.anyOf("outcome", "?", "text")}
     ORDER BY id DESC LIMIT ?`
);
var CONSECUTIVE = sql((d) => `SELECT consecutive FROM ${d.t.base_health} WHERE tool = ?`);
function healthyAgain(d, tool) {
  return `UPDATE ${d.t.base_health} SET consecutive = 0, last_ok_at = ${d.now} WHERE tool = ${tool} AND consecutive > 0`;
}
function failedOnce(d, tool, error) {
  return `INSERT INTO ${d.t.base_health} AS h (tool, failures, consecutive, last_error, last_failure_at)
     VALUES (${tool}, 1, 1, ${error}, ${d.now})
     ON CONFLICT (tool) DO UPDATE SET failures = h.failures + 1, consecutive = h.consecutive + 1,
       last_error = excluded.last_error, last_failure_at = excluded.last_failure_at`;
}
var HEALTHY_AGAIN = sql((d) => healthyAgain(d, "?"));
var FAILED = sql((d) => failedOnce(d, "?", "?"));
var PROBED = sql(
  (d) => `INSERT INTO ${d.t.base_health} AS h (tool, probe_ok, probed_at) VALUES (?, ?, ${d.now})
     ON CONFLICT (tool) DO UPDATE SET probe_ok = excluded.probe_ok, probed_at = excluded.probed_at,
       consecutive = CASE WHEN excluded.probe_ok THEN 0 ELSE h.consecutive END`
);
var HEALTH = sql(
  (d) => `SELECT tool, failures, consecutive, last_error, last_failure_at, last_ok_at, probe_ok, probed_at
     FROM ${d.t.base_health} ORDER BY tool`
);
var runMethods = {
  /** Records one live run and counts it, in one transaction (both rows, or neither), at one time. */
  async recordRun(run) {
    const ok = run.outcome === "ok" || run.outcome === "declared" ? 1 : 0;
    const na = run.outcome === "not_applicable" ? 1 : 0;
    const failed = ok || na ? 0 : 1;
    await this.engine.transaction(async (tx) => {
      const inserted = await tx.first(INSERT_RUN(tx.dialect), [
        run.name,
        run.version,
        run.outcome,
        run.traceId ?? null,
        run.callId ?? null,
        run.innerCalls,
        json(run.evidence)
      ]);
      await tx.run(COUNT_RUN(tx.dialect), [
        run.name,
        run.version,
        ok,
        failed,
        na,
        run.innerCalls,
        String(inserted?.["at"])
      ]);
    });
  },
  async allRunStats() {
    return read(this.engine, allRunStatsRead(this.engine.dialect));
  },
  async getRunStats(name, version) {
    return read(this.engine, runStatsRead(this.engine.dialect, name, version));
  },
  async recentRuns(name, version, limit, outcomes) {
    const rows = outcomes === void 0 ? await this.engine.rows(RECENT(this.engine.dialect), [name, version, limit]) : await this.engine.rows(RECENT_OF(this.engine.dialect), [name, version, outcomes, limit]);
    return rows.map(runFromRow);
  },
  /**
   * Counts a base tool's answer: an infrastructure failure adds to its failures; an answer after failures makes it
   * healthy again. A healthy tool's answer writes nothing (base calls are frequent; only a change is a write).
   */
  async recordBaseHealth(tool, ok, error = null) {
    const e = this.engine;
    if (!ok) {
      await e.run(FAILED(e.dialect), [tool, error]);
      return;
    }
    const row = await e.first(CONSECUTIVE(e.dialect), [tool]);
    if (row !== void 0 && Number(row["consecutive"]) > 0) await e.run(HEALTHY_AGAIN(e.dialect), [tool]);
  },
  /** Records what the health probe said of a base tool; a healthy answer ends its run of failures. */
  async recordProbe(tool, ok) {
    await this.engine.run(PROBED(this.engine.dialect), [tool, ok]);
  },
  async baseHealth() {
    return (await this.engine.rows(HEALTH(this.engine.dialect))).map(baseHealthFromRow);
  }
};

// core/store/tables/calls.ts
var COLUMNS = `id, trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version,
  note, clipped, failure`;
var INSERTED = `parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, note,
  clipped, raw_args, failure`;
function insertStatement(d, health) {
  return d.writableCte ? `WITH next AS (
         UPDATE ${d.t.traces} SET last_call_seq = last_call_seq + 1 WHERE id = CAST(?1 AS TEXT) RETURNING last_call_seq
       )${health}
       INSERT INTO ${d.t.calls} (trace_id, seq, ${INSERTED}, started_at)
       SELECT ?1, next.last_call_seq, CAST(?2 AS BIGINT), ?3, ?4, ?5, ?6, ?7, ?8, CAST(?9 AS DOUBLE PRECISION),
         CAST(?10 AS INTEGER), ?11, ?12, CAST(?13 AS BOOLEAN), ?14, ?15, ${d.now} FROM next
       RETURNING id` : `INSERT INTO ${d.t.calls} (trace_id, seq, ${INSERTED}, started_at)
       VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM ${d.t.calls} WHERE trace_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8,
         ?9, ?10, ?11, ?12, ?13, ?14, ?15, ${d.now})
       RETURNING id`;
}
var INSERT = sql((d) => insertStatement(d, ""));
var INSERT_HEALTHY = sql((d) => insertStatement(d, `, health AS (${healthyAgain(d, "CAST(?3 AS TEXT)")})`));
var INSERT_DOWN = sql(
  (d) => insertStatement(d, `, health AS (${failedOnce(d, "CAST(?3 AS TEXT)", "CAST(?16 AS TEXT)")})`)
);
var FINISH = sql(
  (d) => `UPDATE ${d.t.calls} SET status = 'ok', output = ?1, latency_ms = ?2, clipped = ?3,
     note = CASE WHEN CAST(?4 AS TEXT) IS NULL THEN note WHEN note IS NULL THEN CAST(?4 AS TEXT)
       ELSE note || '; ' || CAST(?4 AS TEXT) END WHERE id = ?5`
);
var FAIL = sql(
  (d) => `UPDATE ${d.t.calls} SET status = 'error', error = ?1, latency_ms = ?2,
     note = CASE WHEN CAST(?3 AS TEXT) IS NULL THEN note WHEN note IS NULL THEN CAST(?3 AS TEXT)
       ELSE note || '; ' || CAST(?3 AS TEXT) END WHERE id = ?4`
);
var SEQ_OF = sql((d) => `SELECT seq FROM ${d.t.calls} WHERE id = ?`);
var SHIFT_UP = sql(
  (d) => `UPDATE ${d.t.calls} SET seq = seq + CAST(?3 AS INTEGER) + 1 WHERE trace_id = ?1 AND seq >= ?2`
);
var SHIFT_BACK = sql(
  (d) => `UPDATE ${d.t.calls} SET seq = seq - CAST(?2 AS INTEGER) WHERE trace_id = ?1 AND seq > ?2 AND id <> ?3`
);
var SET_SEQ = sql((d) => `UPDATE ${d.t.calls} SET seq = ? WHERE id = ?`);
var SET_KIND = sql((d) => `UPDATE ${d.t.calls} SET kind = ?, version = ? WHERE id = ?`);
var SET_ARGS = sql(
  (d) => `UPDATE ${d.t.calls} SET args = ?, raw_args = COALESCE(CAST(? AS TEXT), raw_args) WHERE id = ?`
);
var BY_EXTERNAL_ID = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE external_id = ?1 AND ${d.startsWith("trace_id", "?2")}
     ORDER BY id DESC LIMIT 1`
);
var STARTED_BY_EXTERNAL_ID = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE external_id = ? AND status = 'started' ORDER BY id DESC`
);
var OF_TRACE = sql((d) => `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE trace_id = ? ORDER BY seq`);
var COUNT_TOP_LEVEL_BASE = sql(
  (d) => `SELECT COUNT(*) AS n FROM ${d.t.calls}
     WHERE trace_id = ? AND kind = 'base' AND parent_id IS NULL AND status <> 'started'`
);
var LIVE_RUNS = sql(
  (d) => `SELECT ${COLUMNS}, started_at, raw_args FROM ${d.t.calls}
     WHERE kind = 'distilled' AND tool = ? AND version = ? AND status = 'ok' ORDER BY id DESC LIMIT ?`
);
var RUNS_BY_ID = sql(
  (d) => `SELECT ${COLUMNS}, started_at, raw_args FROM ${d.t.calls}
     WHERE ${d.anyOf("id", "?", "bigint")} AND kind = 'distilled' AND status = 'ok'`
);
var INNER = sql(
  (d) => `SELECT ${COLUMNS} FROM ${d.t.calls} WHERE ${d.anyOf("parent_id", "?", "bigint")} ORDER BY parent_id, seq`
);
async function insertCall(t, call, outcome, latencyMs, health = null) {
  const kept = recordedOutcome(call, outcome, t.maxOutputBytes);
  const params = [
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
    kept.note,
    kept.clipped,
    call.rawArgs ?? null,
    kept.failure
  ];
  const e = t.engine;
  let row;
  if (e.dialect.writableCte) {
    const statement = health === null ? INSERT : health.ok ? INSERT_HEALTHY : INSERT_DOWN;
    row = await e.first(statement(e.dialect), health?.ok === false ? [...params, health.error] : params);
  } else {
    row = await e.transaction(async (tx) => {
      const inserted = await tx.first(INSERT(tx.dialect), params);
      if (health !== null) {
        await runMethods.recordBaseHealth.call(
          { ...t, engine: tx },
          call.tool,
          health.ok,
          health.ok ? null : health.error
        );
      }
      return inserted;
    });
  }
  if (!row) {
    throw new DistillError(
      "STORE",
      `cannot record a call of trace ${call.traceId} in the store ${e.where}: there is no such trace (create it first).`
    );
  }
  return Number(row["id"]);
}
async function withInnerCalls(t, rows) {
  if (rows.length === 0) return [];
  const inner = await t.engine.rows(INNER(t.engine.dialect), [rows.map((r) => Number(r["id"]))]);
  const byParent = /* @__PURE__ */ new Map();
  for (const r of inner) {
    const call = callFromRow(r);
    const siblings = byParent.get(call.parentId);
    if (siblings) siblings.push(call);
    else byParent.set(call.parentId, [call]);
  }
  return rows.map((row) => {
    const call = callFromRow(row);
    return {
      trace: call.traceId,
      call: call.id,
      version: call.version ?? 0,
      input: receivedInput(row, call.args),
      output: call.output,
      at: String(row["started_at"]),
      calls: byParent.get(call.id) ?? []
    };
  });
}
var callMethods = {
  startCall(call) {
    return insertCall(this, call, null, null);
  },
  appendCall(call, outcome, latencyMs) {
    return insertCall(this, call, outcome, latencyMs);
  },
  appendBaseCall(call, outcome, latencyMs, health) {
    return insertCall(this, call, outcome, latencyMs, health);
  },
  /**
   * Inserts a finished call at `seq`, moving the trace's later calls one place on (a call learnt afterwards, from
   * Claude Code's transcript): it goes in last, as any call, then the calls from `seq` on make room for it.
   */
  insertCallAt(call, outcome, latencyMs, seq) {
    return this.engine.transaction(async (tx) => {
      const t = { ...this, engine: tx };
      const id = await insertCall(t, call, outcome, latencyMs);
      const top = Number((await tx.first(SEQ_OF(tx.dialect), [id]))?.["seq"]);
      if (seq >= top) return id;
      await tx.run(SHIFT_UP(tx.dialect), [call.traceId, seq, top]);
      await tx.run(SHIFT_BACK(tx.dialect), [call.traceId, top, id]);
      await tx.run(SET_SEQ(tx.dialect), [seq, id]);
      return id;
    });
  },
  async finishCall(id, output, latencyMs) {
    const out = recordableOutput(output, this.maxOutputBytes);
    await this.engine.run(FINISH(this.engine.dialect), [out.text, latencyMs, out.clipped, out.note, id]);
  },
  async failCall(id, error, latencyMs) {
    const err = recordableError(error, this.maxOutputBytes);
    await this.engine.run(FAIL(this.engine.dialect), [err.text, latencyMs, err.note, id]);
  },
  async setCallKind(id, kind, version) {
    await this.engine.run(SET_KIND(this.engine.dialect), [kind, version, id]);
  },
  async setCallArgs(id, args, rawArgs = null) {
    await this.engine.run(SET_ARGS(this.engine.dialect), [JSON.stringify(args), rawArgs, id]);
  },
  async getCallByExternalId(externalId, traceIdPrefix) {
    const row = await this.engine.first(BY_EXTERNAL_ID(this.engine.dialect), [externalId, traceIdPrefix]);
    return row ? callFromRow(row) : null;
  },
  async startedCallsByExternalId(externalId) {
    return (await this.engine.rows(STARTED_BY_EXTERNAL_ID(this.engine.dialect), [externalId])).map(
      callFromRow
    );
  },
  async getCalls(traceId) {
    return (await this.engine.rows(OF_TRACE(this.engine.dialect), [traceId])).map(callFromRow);
  },
  async countTopLevelBaseCalls(traceId) {
    return Number((await this.engine.first(COUNT_TOP_LEVEL_BASE(this.engine.dialect), [traceId]))?.["n"]);
  },
  /** The newest `limit` successful live runs of a distilled tool version, newest first, each with its base calls. */
  async liveRuns(name, version, limit) {
    return withInnerCalls(
      this,
      await this.engine.rows(LIVE_RUNS(this.engine.dialect), [name, version, limit])
    );
  },
  /** The live runs `refs` names that are still stored and succeeded (in their trace), in the order given. */
  async liveRunsOf(refs) {
    if (refs.length === 0) return [];
    const rows = await this.engine.rows(RUNS_BY_ID(this.engine.dialect), [refs.map((r) => r.call)]);
    const byId = new Map(rows.map((r) => [Number(r["id"]), r]));
    const found = refs.flatMap((ref) => {
      const row = byId.get(ref.call);
      return row !== void 0 && row["trace_id"] === ref.trace ? [row] : [];
    });
    return withInnerCalls(this, found);
  }
};

// core/store/records.ts
function versionKey(r) {
  return `${r.name}\0${r.version}`;
}

// core/store/tables/dependencies.ts
function perVersion(build) {
  const all = sql((d) => build(d, ""));
  const ofName = sql((d) => build(d, " WHERE name = ?"));
  const ofVersion = sql((d) => build(d, " WHERE version = ?"));
  const ofBoth = sql((d) => build(d, " WHERE name = ? AND version = ?"));
  return (d, name, version) => name === void 0 ? version === void 0 ? [all(d), []] : [ofVersion(d), [version]] : version === void 0 ? [ofName(d), [name]] : [ofBoth(d), [name, version]];
}
var CLEAR = sql((d) => `DELETE FROM ${d.t.dependencies} WHERE name = ? AND version = ?`);
var ADD = sql(
  (d) => `INSERT INTO ${d.t.dependencies} (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)`
);
var DEPENDENCIES = perVersion(
  (d, where) => `SELECT name, version, base_tool, fingerprint, avoided FROM ${d.t.dependencies}${where}
     ORDER BY name, version, base_tool`
);
var NOW = sql((d) => `SELECT ${d.now} AS at`);
var ADD_DEFINITION = sql(
  (d) => `INSERT INTO ${d.t.verified_definitions} AS v (name, version, base_tool, fingerprint, definition, verified_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name, version, base_tool, fingerprint)
     DO UPDATE SET definition = COALESCE(v.definition, excluded.definition), verified_at = excluded.verified_at`
);
var DEFINITIONS = perVersion(
  (d, where) => `SELECT name, version, base_tool, fingerprint, definition, verified_at
     FROM ${d.t.verified_definitions}${where} ORDER BY name, version, base_tool, verified_at, fingerprint`
);
function dependenciesRead(d, name, version) {
  const [text2, params] = DEPENDENCIES(d, name, version);
  return { sql: text2, params, map: (rows) => rows.map(dependencyFromRow) };
}
function definitionsRead(d, name, version) {
  const [text2, params] = DEFINITIONS(d, name, version);
  return { sql: text2, params, map: (rows) => rows.map(verifiedDefinitionFromRow) };
}
var BASE_TOOLS = sql((d) => `SELECT DISTINCT base_tool FROM ${d.t.dependencies}`);
function dependedOnRead(d) {
  return { sql: BASE_TOOLS(d), params: [], map: (rows) => rows.map((r) => String(r["base_tool"])) };
}
var UNKNOWN = sql(
  (d) => `SELECT DISTINCT dep.name, dep.version FROM ${d.t.dependencies} dep
     JOIN ${d.t.versions} v ON v.name = dep.name AND v.version = dep.version
     LEFT JOIN ${d.jsonPairs("?1")} cur ON cur.k = dep.base_tool
     WHERE ${d.anyOf("v.status", "?2", "text")} AND NOT dep.avoided AND (cur.v IS NULL OR NOT EXISTS (
       SELECT 1 FROM ${d.t.verified_definitions} k
       WHERE k.name = dep.name AND k.version = dep.version AND k.base_tool = dep.base_tool AND k.fingerprint = cur.v))`
);
function unknownDependenciesRead(d, current, statuses) {
  return {
    sql: UNKNOWN(d),
    params: [JSON.stringify(Object.fromEntries(current)), statuses],
    map: (rows) => new Set(rows.map((r) => versionKey({ name: String(r["name"]), version: Number(r["version"]) })))
  };
}
var dependencyMethods = {
  /** Replaces the dependency rows of a version, in one transaction. */
  async setDependencies(name, version, deps) {
    await this.engine.transaction(async (tx) => {
      await tx.run(CLEAR(tx.dialect), [name, version]);
      for (const d of deps)
        await tx.run(ADD(tx.dialect), [name, version, d.baseTool, d.fingerprint, d.avoided]);
    });
  },
  async getDependencies(name, version) {
    return read(this.engine, dependenciesRead(this.engine.dialect, name, version));
  },
  /** Adds definitions to a version's set, in one transaction; a known fingerprint gains its text if it had none. */
  async addVerifiedDefinitions(name, version, defs) {
    if (defs.length === 0) return;
    await this.engine.transaction(async (tx) => {
      const at = String((await tx.first(NOW(tx.dialect)))?.["at"]);
      for (const d of defs) {
        await tx.run(ADD_DEFINITION(tx.dialect), [
          name,
          version,
          d.baseTool,
          d.fingerprint,
          d.definition === null ? null : JSON.stringify(d.definition),
          at
        ]);
      }
    });
  },
  /** The definitions versions were verified against (one version's, or every one's), oldest verification first. */
  async verifiedDefinitions(name, version) {
    return read(this.engine, definitionsRead(this.engine.dialect, name, version));
  }
};

// core/store/tables/history.ts
var COLUMNS2 = "name, version, from_status, to_status, reason, evidence, at";
var INSERT_HISTORY = sql(
  (d) => `INSERT INTO ${d.t.status_history} (name, version, from_status, to_status, reason, evidence, at)
     VALUES (?, ?, ?, ?, ?, ?, ${d.now})`
);
var OF_VERSION = sql(
  (d) => `SELECT ${COLUMNS2} FROM ${d.t.status_history} WHERE name = ? AND version = ? ORDER BY id`
);
var LATEST = sql(
  (d) => `SELECT ${COLUMNS2} FROM ${d.t.status_history}
     WHERE id IN (SELECT MAX(id) FROM ${d.t.status_history} GROUP BY name, version) ORDER BY name, version`
);
var LAST_ACTIVATION = sql(
  (d) => `SELECT COALESCE(MAX(id), 0) AS id FROM ${d.t.status_history}
     WHERE name = ? AND version = ? AND to_status = 'active'`
);
var historyMethods = {
  async getHistory(name, version) {
    return (await this.engine.rows(OF_VERSION(this.engine.dialect), [name, version])).map(historyFromRow);
  },
  async latestHistory() {
    return (await this.engine.rows(LATEST(this.engine.dialect))).map(historyFromRow);
  },
  /** The id of the history row of a version's last activation (0 when never active): the order of activations. */
  async lastActivation(name, version) {
    return Number((await this.engine.first(LAST_ACTIVATION(this.engine.dialect), [name, version]))?.["id"]);
  },
  async addHistory(h) {
    await this.engine.run(INSERT_HISTORY(this.engine.dialect), [
      h.name,
      h.version,
      h.from,
      h.to,
      h.reason,
      json(h.evidence)
    ]);
  }
};

// core/store/tables/sessions.ts
var CREATE = sql(
  (d) => `INSERT INTO ${d.t.cc_sessions} (session_id, span, confirmed, updated_at) VALUES (?, 1, false, ${d.now})
     ON CONFLICT (session_id) DO NOTHING`
);
var FIND = sql((d) => `SELECT span, confirmed FROM ${d.t.cc_sessions} WHERE session_id = ?`);
var ADVANCE = sql(
  (d) => `UPDATE ${d.t.cc_sessions} SET span = span + 1, confirmed = false, updated_at = ${d.now}
     WHERE session_id = ? AND span = ?`
);
var CONFIRM = sql(
  (d) => `UPDATE ${d.t.cc_sessions} SET confirmed = true, updated_at = ${d.now} WHERE session_id = ? AND span = ?`
);
var CLAIM = sql(
  (d) => `INSERT INTO ${d.t.spill_applied} (event_id, applied_at) VALUES (?, ${d.now}) ON CONFLICT (event_id) DO NOTHING`
);
var PRUNE = sql((d) => `DELETE FROM ${d.t.spill_applied} WHERE applied_at < ?`);
var sessionMethods = {
  async sessionSpan(sessionId) {
    await this.engine.run(CREATE(this.engine.dialect), [sessionId]);
    return await sessionMethods.findSessionSpan.call(this, sessionId);
  },
  async findSessionSpan(sessionId) {
    const row = await this.engine.first(FIND(this.engine.dialect), [sessionId]);
    return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
  },
  async advanceSpan(sessionId, from) {
    await this.engine.run(ADVANCE(this.engine.dialect), [sessionId, from]);
  },
  async markSpanConfirmed(sessionId, span) {
    await this.engine.run(CONFIRM(this.engine.dialect), [sessionId, span]);
  },
  /**
   * Inserting the id is the claim: a second applier's insert of the same id waits for the first one's
   * transaction and then finds the row (or, if that one rolled back, takes the claim itself).
   */
  async claimSpillEvent(eventId) {
    return await this.engine.run(CLAIM(this.engine.dialect), [eventId]) === 1;
  },
  async pruneSpillApplied(before) {
    await this.engine.run(PRUNE(this.engine.dialect), [before]);
  }
};

// core/store/tables/traces.ts
var COLUMNS3 = `id, task, source, outcome, input_tokens, output_tokens, cache_creation_input_tokens,
  cache_read_input_tokens, started_at, ended_at, note`;
var CREATE2 = sql(
  (d) => `INSERT INTO ${d.t.traces} (id, task, source, started_at) VALUES (?, ?, ?, ${d.now}) ON CONFLICT (id) DO NOTHING`
);
var GET2 = sql((d) => `SELECT ${COLUMNS3} FROM ${d.t.traces} WHERE id = ?`);
var IDS_STARTING_WITH = sql(
  (d) => `SELECT id FROM ${d.t.traces} WHERE ${d.startsWith("id", "?1")} ORDER BY started_at DESC, ${d.traceOrder} DESC LIMIT ?2`
);
var LIST = sql(
  (d) => `SELECT ${COLUMNS3} FROM ${d.t.traces} ORDER BY started_at DESC, ${d.traceOrder} DESC LIMIT ?`
);
var SET_TASK = sql((d) => `UPDATE ${d.t.traces} SET task = ? WHERE id = ?`);
var SET_OUTCOME = sql((d) => `UPDATE ${d.t.traces} SET outcome = ? WHERE id = ?`);
var ADD_USAGE = sql(
  (d) => `UPDATE ${d.t.traces} SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
     cache_creation_input_tokens = cache_creation_input_tokens + ?,
     cache_read_input_tokens = cache_read_input_tokens + ? WHERE id = ?`
);
var END = sql((d) => `UPDATE ${d.t.traces} SET ended_at = COALESCE(ended_at, ${d.now}) WHERE id = ?`);
var SET_NOTE = sql((d) => `UPDATE ${d.t.traces} SET note = ? WHERE id = ?`);
var FLAGS = sql((d) => `SELECT nudged, proposed, replace_name FROM ${d.t.traces} WHERE id = ?`);
var CLAIM_NUDGE = sql((d) => `UPDATE ${d.t.traces} SET nudged = true WHERE id = ? AND NOT nudged`);
var MARK_PROPOSED = sql((d) => `UPDATE ${d.t.traces} SET proposed = true WHERE id = ?`);
var SET_REPLACE_NAME = sql((d) => `UPDATE ${d.t.traces} SET replace_name = ? WHERE id = ?`);
var traceMethods = {
  async createTrace(id, task, source) {
    await this.engine.run(CREATE2(this.engine.dialect), [id, task, source]);
  },
  async getTrace(id) {
    const row = await this.engine.first(GET2(this.engine.dialect), [id]);
    return row ? traceFromRow(row) : null;
  },
  async traceIdsStartingWith(prefix, limit = 10) {
    const rows = await this.engine.rows(IDS_STARTING_WITH(this.engine.dialect), [prefix, limit]);
    return rows.map((r) => String(r["id"]));
  },
  async listTraces(limit = 50) {
    return (await this.engine.rows(LIST(this.engine.dialect), [limit])).map(traceFromRow);
  },
  async setTask(id, task) {
    await this.engine.run(SET_TASK(this.engine.dialect), [task, id]);
  },
  async setOutcome(id, success) {
    await this.engine.run(SET_OUTCOME(this.engine.dialect), [success, id]);
  },
  /** One statement: concurrent additions from several processes all count. */
  async addUsage(id, usage) {
    await this.engine.run(ADD_USAGE(this.engine.dialect), [
      usage.input_tokens,
      usage.output_tokens,
      usage.cache_creation_input_tokens,
      usage.cache_read_input_tokens,
      id
    ]);
  },
  async endTrace(id) {
    await this.engine.run(END(this.engine.dialect), [id]);
  },
  async setTraceNote(id, note) {
    await this.engine.run(SET_NOTE(this.engine.dialect), [note, id]);
  },
  async getTraceFlags(id) {
    return traceFlagsFromRow(await this.engine.first(FLAGS(this.engine.dialect), [id]));
  },
  /** The guarded UPDATE gives the nudge to exactly one caller, in whichever process. */
  async claimNudge(id) {
    return await this.engine.run(CLAIM_NUDGE(this.engine.dialect), [id]) === 1;
  },
  async markProposed(id) {
    await this.engine.run(MARK_PROPOSED(this.engine.dialect), [id]);
  },
  async setReplaceName(id, name) {
    await this.engine.run(SET_REPLACE_NAME(this.engine.dialect), [name, id]);
  }
};

// core/store/tables/versions.ts
import { rmSync } from "node:fs";
var COLUMNS4 = `name, version, status, problems, baseline, baseline_tokens, source_trace, description,
  input_schema, test_inputs, source_hash, verdict, queued_rebuild, rebuild_note, created_at, replay_runs`;
var NEVER_REBUILT = ["deprecated", "rejected", "superseded"];
var CODE = sql((d) => `SELECT code FROM ${d.t.versions} WHERE name = ? AND version = ?`);
var NEXT = sql(
  (d) => `SELECT COALESCE(MAX(version), 0) + 1 AS n FROM ${d.t.versions} WHERE name = ? AND status <> 'rejected'`
);
var INSERT2 = sql(
  (d) => `INSERT INTO ${d.t.versions} (name, version, status, description, input_schema, test_inputs, source_trace,
       source_hash, created_at${d.codeInRow ? ", code" : ""})
     VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ${d.now}${d.codeInRow ? ", ?" : ""})
     RETURNING ${COLUMNS4}`
);
var VERSION_TABLES = [
  "versions",
  "status_history",
  "dependencies",
  "run_stats",
  "runs",
  "verified_definitions"
];
var DELETE_ROWS = VERSION_TABLES.map(
  (table) => sql((d) => `DELETE FROM ${d.t[table]} WHERE name = ? AND version = ?`)
);
var DELETE_IF_STATUS = sql(
  (d) => `DELETE FROM ${d.t.versions} WHERE name = ? AND version = ? AND status = ?`
);
var WITH_CODE = sql(
  (d) => `SELECT ${COLUMNS4} FROM ${d.t.versions}
     WHERE name = ? AND source_hash = ? AND status <> 'rejected' ORDER BY version LIMIT 1`
);
var PRUNE2 = (before) => sql(
  (d) => `SELECT v.name, v.version, v.status, h.at AS since FROM ${d.t.versions} v JOIN ${d.t.status_history} h
       ON h.id = (SELECT MAX(id) FROM ${d.t.status_history} x WHERE x.name = v.name AND x.version = v.version)
     WHERE ${d.anyOf("v.status", "?", "text")}${before ? " AND h.at < ?" : ""}
       AND (v.status = 'rejected' OR v.version < (SELECT MAX(version) FROM ${d.t.versions} w
         WHERE w.name = v.name AND w.status <> 'rejected'))
     ORDER BY v.name, v.version`
);
var PRUNE_ANY_AGE = PRUNE2(false);
var PRUNE_BEFORE = PRUNE2(true);
var GET3 = sql((d) => `SELECT ${COLUMNS4} FROM ${d.t.versions} WHERE name = ? AND version = ?`);
var LIST2 = (where) => sql((d) => `SELECT ${COLUMNS4} FROM ${d.t.versions}${where} ORDER BY name, version`);
var LIST_ALL = LIST2("");
var LIST_NAME = LIST2(" WHERE name = ?");
var LIST_STATUS = LIST2(" WHERE status = ?");
var LIST_NAME_STATUS = LIST2(" WHERE name = ? AND status = ?");
var SET_STATUS = sql(
  (d) => `UPDATE ${d.t.versions} SET status = ?1, problems = ?2,
     queued_rebuild = CASE WHEN ?3 THEN false ELSE queued_rebuild END,
     rebuild_note = CASE WHEN ?3 THEN NULL ELSE rebuild_note END
     WHERE name = ?4 AND version = ?5 AND status = ?6`
);
var SET_STATUS_WITH_HISTORY = sql(
  (d) => `WITH changed AS (
       UPDATE ${d.t.versions} SET status = ?1, problems = ?2,
         queued_rebuild = CASE WHEN ?3 THEN false ELSE queued_rebuild END,
         rebuild_note = CASE WHEN ?3 THEN NULL ELSE rebuild_note END
       WHERE name = ?4 AND version = ?5 AND status = ?6
       RETURNING name, version
     )
     INSERT INTO ${d.t.status_history} (name, version, from_status, to_status, reason, evidence, at)
     SELECT name, version, ?6, ?1, ?7, CAST(?8 AS json), ${d.now} FROM changed`
);
var SET_VERIFICATION = sql(
  (d) => `UPDATE ${d.t.versions} SET verdict = ?, baseline = ?, baseline_tokens = ? WHERE name = ? AND version = ?`
);
var SET_REPLAY_RUNS = sql(
  (d) => `UPDATE ${d.t.versions} SET replay_runs = ? WHERE name = ? AND version = ?`
);
var SET_QUEUED = sql(
  (d) => `UPDATE ${d.t.versions} SET queued_rebuild = ?, rebuild_note = ? WHERE name = ? AND version = ?`
);
function versionsRead(d, filter = {}) {
  const { name, status } = filter;
  const [text2, params] = name === void 0 ? status === void 0 ? [LIST_ALL(d), []] : [LIST_STATUS(d), [status]] : status === void 0 ? [LIST_NAME(d), [name]] : [LIST_NAME_STATUS(d), [name, status]];
  return { sql: text2, params, map: (rows) => rows.map(versionFromRow) };
}
async function removeDependents(tx, name, version) {
  if (tx.dialect.cascades) return;
  for (const del of DELETE_ROWS.slice(1)) await tx.run(del(tx.dialect), [name, version]);
}
var versionMethods = {
  async readCode(name, version) {
    if (this.toolRoot !== null) return readToolCode(this.toolRoot, name, version);
    const row = await this.engine.first(CODE(this.engine.dialect), [name, version]);
    if (!row)
      throw new DistillError("NOT_FOUND", `${name} v${version} is not in the store ${this.engine.where}`);
    return String(row["code"]);
  },
  /**
   * Stores a new draft: the next number taken under the lock of its tool's numbers, its code, the version and its
   * first history row in one transaction. A rejected attempt holding the number is replaced (a failed proposal
   * never uses up a number).
   */
  async createVersion(v) {
    const problem = toolNameProblem(v.name);
    if (problem !== null) throw new DistillError("PROPOSAL_INVALID", problem);
    const root = this.toolRoot;
    return this.engine.transaction(async (tx) => {
      const d = tx.dialect;
      await tx.lockVersionNumbers(v.name);
      const n = Number((await tx.first(NEXT(d), [v.name]))?.["n"]);
      await tx.run(DELETE_ROWS[0](d), [v.name, n]);
      await removeDependents(tx, v.name, n);
      if (root !== null) writeToolCode(root, toolFilePath(root, v.name, n), v.code);
      const params = [
        v.name,
        n,
        v.description,
        JSON.stringify(v.inputSchema),
        JSON.stringify(v.testInputs),
        v.sourceTrace,
        hashSource(v.code)
      ];
      const row = await tx.first(INSERT2(d), d.codeInRow ? [...params, v.code] : params);
      const created = versionFromRow(row);
      await tx.run(INSERT_HISTORY(d), [v.name, n, null, "draft", v.reason, null]);
      return created;
    });
  },
  async versionWithCode(name, sourceHash) {
    const row = await this.engine.first(WITH_CODE(this.engine.dialect), [name, sourceHash]);
    return row ? versionFromRow(row) : null;
  },
  /**
   * Removes every version in `statuses` whose last status change is older than `before` (null: any age), with
   * everything of it, in one transaction, and returns them by name then version; on SQLite their files go after
   * the rows. A tool's highest-numbered version that is not rejected is kept, so its number is never handed out
   * again.
   */
  async pruneVersions(statuses, before) {
    const pruned = await this.engine.transaction(async (tx) => {
      const rows = before === null ? await tx.rows(PRUNE_ANY_AGE(tx.dialect), [statuses]) : await tx.rows(PRUNE_BEFORE(tx.dialect), [statuses, before]);
      const removed = [];
      for (const r of rows) {
        const p = {
          name: String(r["name"]),
          version: Number(r["version"]),
          status: r["status"],
          since: String(r["since"])
        };
        if (await tx.run(DELETE_IF_STATUS(tx.dialect), [p.name, p.version, p.status]) !== 1) continue;
        await removeDependents(tx, p.name, p.version);
        removed.push(p);
      }
      return removed;
    });
    const root = this.toolRoot;
    if (root !== null) for (const p of pruned) rmSync(toolFilePath(root, p.name, p.version), { force: true });
    return pruned;
  },
  async getVersion(name, version) {
    const row = await this.engine.first(GET3(this.engine.dialect), [name, version]);
    return row ? versionFromRow(row) : null;
  },
  async listVersions(filter = {}) {
    return read(this.engine, versionsRead(this.engine.dialect, filter));
  },
  /** The guarded update and its history row: both, or (the guard failed) neither. */
  async setStatus(change) {
    const guarded = [
      change.to,
      JSON.stringify([...new Set(change.problems)].sort()),
      NEVER_REBUILT.includes(change.to),
      change.name,
      change.version,
      change.expect
    ];
    const history = [change.reason, json(change.evidence)];
    const e = this.engine;
    if (e.dialect.writableCte) {
      return await e.run(SET_STATUS_WITH_HISTORY(e.dialect), [...guarded, ...history]) === 1;
    }
    return e.transaction(async (tx) => {
      if (await tx.run(SET_STATUS(tx.dialect), guarded) !== 1) return false;
      await tx.run(INSERT_HISTORY(tx.dialect), [
        change.name,
        change.version,
        change.expect,
        change.to,
        ...history
      ]);
      return true;
    });
  },
  async setVerification(name, version, verdict, baselineTokens) {
    await this.engine.run(SET_VERIFICATION(this.engine.dialect), [
      JSON.stringify(verdict),
      verdict.baseline,
      baselineTokens,
      name,
      version
    ]);
  },
  async setReplayRuns(name, version, runs) {
    await this.engine.run(SET_REPLAY_RUNS(this.engine.dialect), [
      JSON.stringify(runs.map(({ trace, call }) => ({ trace, call }))),
      name,
      version
    ]);
  },
  async setQueuedRebuild(name, version, queued, note) {
    await this.engine.run(SET_QUEUED(this.engine.dialect), [queued, note, name, version]);
  }
};

// core/store/registry-data.ts
function withMethods(methods) {
  class Methods {
  }
  Object.assign(Methods.prototype, methods);
  return Methods;
}
var TableMethods = withMethods({
  ...traceMethods,
  ...callMethods,
  ...bookkeepingMethods,
  ...sessionMethods,
  ...versionMethods,
  ...historyMethods,
  ...dependencyMethods,
  ...runMethods
});
var EngineRegistryData = class _EngineRegistryData extends TableMethods {
  engine;
  maxOutputBytes;
  toolRoot;
  constructor(engine, settings) {
    super();
    this.engine = engine;
    this.maxOutputBytes = settings.maxOutputBytes;
    this.toolRoot = settings.toolRoot;
  }
  transaction(fn) {
    if (this.engine.inTransaction) return this.engine.transaction(() => fn(this));
    return this.engine.transaction((tx) => fn(new _EngineRegistryData(tx, this)), "transaction()");
  }
  async savepoint(fn) {
    if (!this.engine.inTransaction) throw noTransaction();
    const e = this.engine;
    await e.run("SAVEPOINT td_step");
    try {
      const result = await fn(this);
      await e.run("RELEASE SAVEPOINT td_step");
      return result;
    } catch (err) {
      await e.run("ROLLBACK TO SAVEPOINT td_step");
      await e.run("RELEASE SAVEPOINT td_step");
      throw err;
    }
  }
};

// core/store/transfer-rows.ts
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

// core/store/migrations.ts
var MigrationList = class {
  migrations;
  versions;
  /** The highest migration: the schema version this build writes. */
  schemaVersion;
  constructor(migrations) {
    const versions = migrations.map((m) => m.version);
    if (versions.some((v, i) => i > 0 && v <= versions[i - 1])) {
      throw new Error("migrations must be listed by ascending version, each once");
    }
    this.migrations = migrations;
    this.versions = versions;
    this.schemaVersion = Math.max(0, ...versions);
  }
  /**
   * The migrations a database that has had `applied` still needs, in order. Throws when it has one this build
   * does not know (a newer or a different build migrated it), or when it needs any and `readOnly` is set.
   */
  pending(applied, store) {
    const unknown = applied.filter((v) => !this.versions.includes(v));
    if (unknown.length > 0) {
      const highest = Math.max(...unknown);
      if (highest > this.schemaVersion) {
        throw new DistillError(
          "STORE",
          `the store ${store.where} has schema version ${highest}, newer than this tooldistill understands (${this.schemaVersion}): a newer tooldistill migrated it. Upgrade tooldistill on this machine (every process sharing the store needs the same or a newer version).`
        );
      }
      throw new DistillError(
        "STORE",
        `the store ${store.where} has migration ${unknown.join(", ")}, which this tooldistill does not have: a different build of tooldistill migrated it. Use the same or a newer tooldistill on every process sharing the store.`
      );
    }
    const missing = this.migrations.filter((m) => !applied.includes(m.version));
    if (missing.length > 0 && store.readOnly) {
      throw new DistillError(
        "STORE",
        applied.length === 0 ? `the store ${store.where} has no tooldistill registry yet and this command only reads it: ${store.createHint}.` : `the store ${store.where} was written by an older tooldistill (schema ${Math.max(...applied)}, now ${this.schemaVersion}) and this command only reads it: ${store.upgradeHint}.`
      );
    }
    return missing;
  }
};
function migrateNow(list, store, driver) {
  if (list.pending(driver.applied(), store).length === 0) return;
  driver.locked(() => {
    for (const m of list.pending(driver.applied(), store)) driver.apply(m);
  });
}
async function migrate(list, store, driver) {
  if (list.pending(await driver.applied(), store).length === 0) return;
  await driver.locked(async () => {
    for (const m of list.pending(await driver.applied(), store)) await driver.apply(m);
  });
}

// core/store/transfer/transfer-columns.ts
var BY_VERSION = [
  ["name", ""],
  ["version", 0]
];
var BY_ID = [["id", 0]];
var TRANSFER_COLUMNS = {
  traces: {
    table: "traces",
    key: "written",
    columns: [
      ["id", "text", "id"],
      ["task", "text", "task"],
      ["source", "text", "source"],
      ["outcome", "boolean", "outcome"],
      ["input_tokens", "bigint", "usage.input_tokens"],
      ["output_tokens", "bigint", "usage.output_tokens"],
      ["cache_creation_input_tokens", "bigint", "usage.cache_creation_input_tokens"],
      ["cache_read_input_tokens", "bigint", "usage.cache_read_input_tokens"],
      ["started_at", "timestamptz", "startedAt"],
      ["ended_at", "timestamptz", "endedAt"],
      ["nudged", "boolean", "nudged"],
      ["proposed", "boolean", "proposed"],
      ["replace_name", "text", "replaceName"],
      ["note", "text", "note"]
    ]
  },
  calls: {
    table: "calls",
    key: BY_ID,
    columns: [
      ["id", "bigint", "id"],
      ["trace_id", "text", "traceId"],
      ["seq", "integer", "seq"],
      ["parent_id", "bigint", "parentId"],
      ["tool", "text", "tool"],
      ["kind", "text", "kind"],
      ["args", "text", "args"],
      ["status", "text", "status"],
      ["output", "text", "output"],
      ["error", "text", "error"],
      ["latency_ms", "double precision", "latencyMs"],
      ["version", "integer", "version"],
      ["external_id", "text", "externalId"],
      ["started_at", "timestamptz", "startedAt"],
      ["note", "text", "note"],
      ["clipped", "boolean", "clipped"],
      ["raw_args", "text", "rawArgs"],
      ["failure", "text", "failure"]
    ]
  },
  versions: {
    table: "versions",
    key: BY_VERSION,
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["status", "text", "status"],
      ["problems", "json", "problems"],
      ["baseline", "integer", "baseline"],
      ["baseline_tokens", "bigint", "baselineTokens"],
      ["source_trace", "text", "sourceTrace"],
      ["description", "text", "description"],
      ["input_schema", "json", "inputSchema"],
      ["test_inputs", "json", "testInputs"],
      ["code", "code", "code"],
      ["source_hash", "text", "sourceHash"],
      ["verdict", "json", "verdict"],
      ["queued_rebuild", "boolean", "queuedRebuild"],
      ["rebuild_note", "text", "rebuildNote"],
      ["created_at", "timestamptz", "createdAt"],
      ["replay_runs", "json", "replayRuns"]
    ]
  },
  history: {
    table: "status_history",
    key: BY_ID,
    columns: [
      ["id", "bigint", "id"],
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["from_status", "text", "from"],
      ["to_status", "text", "to"],
      ["reason", "text", "reason"],
      ["evidence", "json", "evidence"],
      ["at", "timestamptz", "at"]
    ]
  },
  dependencies: {
    table: "dependencies",
    key: [...BY_VERSION, ["base_tool", ""]],
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["base_tool", "text", "baseTool"],
      ["fingerprint", "text", "fingerprint"],
      ["avoided", "boolean", "avoided"]
    ]
  },
  runStats: {
    table: "run_stats",
    key: BY_VERSION,
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["runs", "integer", "runs"],
      ["successes", "integer", "successes"],
      ["failures", "integer", "failures"],
      ["not_applicable", "integer", "notApplicable"],
      ["inner_calls", "bigint", "innerCalls"],
      ["last_run_at", "timestamptz", "lastRunAt"]
    ]
  },
  runs: {
    table: "runs",
    key: BY_ID,
    columns: [
      ["id", "bigint", "id"],
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["outcome", "text", "outcome"],
      ["trace_id", "text", "traceId"],
      ["call_id", "bigint", "callId"],
      ["inner_calls", "integer", "innerCalls"],
      ["evidence", "text", "evidence"],
      ["at", "timestamptz", "at"]
    ]
  },
  verifiedDefinitions: {
    table: "verified_definitions",
    key: [...BY_VERSION, ["base_tool", ""], ["fingerprint", ""]],
    columns: [
      ["name", "text", "name"],
      ["version", "integer", "version"],
      ["base_tool", "text", "baseTool"],
      ["fingerprint", "text", "fingerprint"],
      ["definition", "text", "definition"],
      ["verified_at", "timestamptz", "verifiedAt"]
    ]
  },
  baseHealth: {
    table: "base_health",
    key: [["tool", ""]],
    columns: [
      ["tool", "text", "tool"],
      ["failures", "integer", "failures"],
      ["consecutive", "integer", "consecutive"],
      ["last_error", "text", "lastError"],
      ["last_failure_at", "timestamptz", "lastFailureAt"],
      ["last_ok_at", "timestamptz", "lastOkAt"],
      ["probe_ok", "boolean", "probeOk"],
      ["probed_at", "timestamptz", "probedAt"]
    ]
  },
  meta: {
    table: "meta",
    key: [["key", ""]],
    columns: [
      ["key", "text", "key"],
      ["value", "text", "value"]
    ]
  },
  sessions: {
    table: "cc_sessions",
    key: [["session_id", ""]],
    columns: [
      ["session_id", "text", "sessionId"],
      ["span", "integer", "span"],
      ["confirmed", "boolean", "confirmed"],
      ["updated_at", "timestamptz", "updatedAt"]
    ]
  }
};
function columnsOf(batch) {
  return TRANSFER_COLUMNS[batch.table].columns;
}
function fieldValue(row, [, , field]) {
  const dot = field.indexOf(".");
  const record = row;
  if (dot === -1) return record[field];
  return record[field.slice(0, dot)][field.slice(dot + 1)];
}
function transferred(type, value) {
  if (value === null || value === void 0) return null;
  switch (type) {
    case "boolean":
      return Boolean(value);
    case "integer":
    case "bigint":
    case "double precision":
      return Number(value);
    default:
      return String(value);
  }
}
function transferRow(table, r, code) {
  const out = {};
  for (const [name, type, field] of TRANSFER_COLUMNS[table].columns) {
    const value = type === "code" ? code() : transferred(type, r[name]);
    const dot = field.indexOf(".");
    if (dot === -1) out[field] = value;
    else {
      const parent = field.slice(0, dot);
      out[parent] = {
        ...out[parent],
        [field.slice(dot + 1)]: value
      };
    }
  }
  return out;
}

// core/store/transfer/transfer-pages.ts
var PAGE = 200;
function pageOf(d, spec) {
  const table = d.t[spec.table];
  const key = spec.key === "written" ? [["row_order", 0]] : spec.key;
  const keyed = spec.key === "written" ? d.traceOrder : key.map(([c]) => c).join(", ");
  const bound = key.map((_, i) => `?${i + 1}`).join(", ");
  const meta = spec.table === "meta";
  const internal = meta ? ` AND NOT (${d.startsWith("key", `?${key.length + 1}`)})` : "";
  const limit = `?${key.length + (meta ? 2 : 1)}`;
  const select = spec.key === "written" ? `${d.traceOrder} AS row_order, *` : "*";
  return {
    sql: `SELECT ${select} FROM ${table} WHERE (${keyed}) > (${bound})${internal} ORDER BY ${keyed} LIMIT ${limit}`,
    params: (last) => [
      ...key.map(([c, start]) => last ? last[c] : start),
      ...meta ? [INTERNAL_META_PREFIX] : []
    ]
  };
}
async function* exportTables(d, read2, codeOf) {
  for (const name of TRANSFER_ORDER) {
    const spec = TRANSFER_COLUMNS[name];
    const page = pageOf(d, spec);
    let last;
    for (; ; ) {
      const rows = await read2(page.sql, [...page.params(last), PAGE]);
      if (rows.length > 0) {
        yield { table: name, rows: rows.map((r) => transferRow(name, r, () => codeOf(r))) };
      }
      if (rows.length < PAGE) break;
      last = rows.at(-1);
    }
  }
}
function usedQuery(d) {
  const exists = TRANSFER_ORDER.map((name) => {
    const { table } = TRANSFER_COLUMNS[name];
    const where = table === "meta" ? ` WHERE NOT (${d.startsWith("key", "?1")})` : "";
    return `EXISTS (SELECT 1 FROM ${d.t[table]}${where})`;
  });
  return { sql: `SELECT ${exists.join(" OR ")} AS used`, params: [INTERNAL_META_PREFIX] };
}

export {
  stderrLogger,
  versionKey,
  runInTransaction,
  assertOutsideTransaction,
  ToolLocks,
  sql,
  now,
  allRunStatsRead,
  dependenciesRead,
  definitionsRead,
  dependedOnRead,
  unknownDependenciesRead,
  versionsRead,
  EngineRegistryData,
  TRANSFER_ORDER,
  emptyCounts,
  INTERNAL_META_PREFIX,
  MigrationList,
  migrateNow,
  migrate,
  TRANSFER_COLUMNS,
  columnsOf,
  fieldValue,
  exportTables,
  usedQuery
};
