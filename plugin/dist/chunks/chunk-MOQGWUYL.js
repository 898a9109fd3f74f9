import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  NO_EVIDENCE
} from "./chunk-J2PGGSMV.js";
import {
  toolNameProblem
} from "./chunk-XSOUOFOT.js";
import {
  setOwn
} from "./chunk-GWZUS3JX.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/postgres-connect.ts
var loaded;
async function loadPg() {
  if (loaded) return loaded;
  try {
    loaded = (await import("./esm-P2ZNL7ZK.js")).default;
  } catch (err) {
    throw new DistillError(
      "STORE",
      `a PostgreSQL store needs the \`pg\` package, which could not be loaded (${errorMessage(err)}): install it beside tooldistill (npm install pg), or use a folder as the store (store: in tooldistill.yaml).`,
      { cause: err }
    );
  }
  return loaded;
}
function isPostgresUrl(location) {
  return /^postgres(ql)?:\/\//i.test(location.trim());
}
function refusePostgresUrl(location, what) {
  if (!isPostgresUrl(location)) return;
  let shown;
  try {
    shown = parseStoreUrl(location).display;
  } catch {
    shown = redactRaw(location.trim());
  }
  throw new DistillError(
    "USAGE",
    `${what} needs the embedded SQLite store (a folder), and store: names the PostgreSQL database ${shown}: point store: at a folder for this, or move the registry with \`tooldistill export\`/\`import\`.`
  );
}
var EXAMPLE = "postgres://user:password@host:5432/database";
function parseStoreUrl(location) {
  const raw = location.trim();
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new DistillError(
      "CONFIG_INVALID",
      `store: in tooldistill.yaml is not a valid PostgreSQL URL (${redactRaw(raw)}): write it as ${EXAMPLE}, with special characters of the user or password percent-encoded (@ as %40, : as %3A, / as %2F, # as %23).`
    );
  }
  const socketHost = url.searchParams.get("host");
  if (url.hostname === "" && !socketHost) {
    throw new DistillError(
      "CONFIG_INVALID",
      `store: in tooldistill.yaml names no server (${redact(url)}): write it as ${EXAMPLE} (or ?host=/path/to/socket/dir for a Unix socket).`
    );
  }
  return { connectionString: raw, display: redact(url) };
}
function redact(url) {
  const copy = new URL(url.href);
  if (copy.password) copy.password = "***";
  if (copy.searchParams.has("password")) copy.searchParams.set("password", "***");
  return copy.href;
}
function redactRaw(raw) {
  return raw.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, "$1***@");
}
var OID = { int8: 20, json: 114, jsonb: 3802, timestamptz: 1184 };
function clientConfig(pg, url, connectTimeoutMs) {
  const builtin = pg.types.getTypeParser.bind(pg.types);
  const timestamp = builtin(OID.timestamptz);
  return {
    connectionString: url.connectionString,
    application_name: "tooldistill",
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    types: {
      getTypeParser: ((oid, format) => {
        if (oid === OID.json || oid === OID.jsonb) return (text2) => text2;
        if (oid === OID.int8) return Number;
        if (oid === OID.timestamptz) return (text2) => timestamp(text2).toISOString();
        return builtin(oid, format);
      })
    }
  };
}
function poolConfig(pg, url, options) {
  return {
    ...clientConfig(pg, url, options.connectTimeoutMs),
    max: options.poolSize,
    allowExitOnIdle: true
  };
}
var UNREACHABLE = /* @__PURE__ */ new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EPIPE",
  "ENOENT"
]);
function explainPgError(err, where) {
  if (err instanceof DistillError) return err;
  const e = err;
  const code = typeof e.code === "string" ? e.code : "";
  const message = e.message ?? String(err);
  const detail = e.detail ? `${message}; ${e.detail}` : message;
  const make = (c, text2) => new DistillError(c, text2, { cause: err });
  const setting = "Check the URL (store: in tooldistill.yaml, or the environment variable it names, such as DATABASE_URL)";
  if (UNREACHABLE.has(code) || /timeout expired|Connection terminated|connect ETIMEDOUT|server closed the connection/i.test(message)) {
    return make(
      "STORE",
      `cannot reach the PostgreSQL server of the store ${where} (${message}). ${setting} and that the server is running and accepts connections from this machine.`
    );
  }
  switch (code) {
    case "28P01":
    case "28000":
      return make(
        "STORE",
        `the PostgreSQL server of the store ${where} refused the login (${message}). ${setting}: the user and password, and that pg_hba.conf lets this user in from this machine.`
      );
    case "3D000":
      return make(
        "STORE",
        `the database of the store ${where} does not exist (${message}): create it (createdb <name>, or CREATE DATABASE) and run the command again, or fix the URL (store: in tooldistill.yaml).`
      );
    case "42501":
      return make(
        "STORE",
        `the database user of the store ${where} lacks a privilege (${message}): grant it CREATE on the database (for the first start, which creates the schema \`tooldistill\`) and USAGE and read/write on that schema's tables, or use a user that owns them.`
      );
    case "53300":
    case "53400":
      return make(
        "STORE_BUSY",
        `the PostgreSQL server of the store ${where} has no connection to spare (${message}): lower the number of processes or the pool size, or raise max_connections on the server.`
      );
    case "57P01":
    case "57P02":
    case "57P03":
    case "08000":
    case "08003":
    case "08006":
      return make(
        "STORE",
        `the PostgreSQL server of the store ${where} is not available (${message}): it is shutting down, starting or in recovery; run the command again when it is up.`
      );
    case "40001":
    case "40P01":
    case "55P03":
    case "57014":
      return make(
        "STORE_BUSY",
        `the store ${where} could not finish a write because of concurrent work (${message}): run the command again.`
      );
    case "23P01":
      return make(
        "TRANSITION",
        `the store ${where} refused a second active version of a tool (${detail}): another process activated one meanwhile. Run the command again.`
      );
    case "23514":
      if (e.constraint === "versions_code_matches_hash") {
        return make(
          "TOOL_FILE_CHANGED",
          `the store ${where} refused a version whose code does not match its recorded hash (${detail}): the code was changed after verification.`
        );
      }
      return make("STORE", `the store ${where} refused a write that breaks its rules (${detail}).`);
    case "23503":
    case "23505":
    case "23502":
      return make("STORE", `the store ${where} refused a write that breaks its rules (${detail}).`);
  }
  if (/^[0-9A-Z]{5}$/.test(code)) {
    return make("STORE", `the PostgreSQL store ${where} failed (${message}, SQLSTATE ${code}).`);
  }
  return err;
}

// core/recordable.ts
var DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
var MAX_RECORDED_DEPTH = 200;
var PREVIEW_CHARS = 4e3;
function clipDepth(value, maxDepth = MAX_RECORDED_DEPTH) {
  if (!needsClip(value, maxDepth, 0, [])) return { value, note: null };
  let deep = false;
  let cycle = false;
  const copy = (v, depth, ancestors) => {
    if (typeof v !== "object" || v === null) return v;
    if (ancestors.includes(v)) {
      cycle = true;
      return "[clipped: circular reference]";
    }
    if (depth >= maxDepth) {
      deep = true;
      return `[clipped: nested deeper than ${maxDepth} levels]`;
    }
    ancestors.push(v);
    let out;
    if (Array.isArray(v)) out = v.map((x) => copy(x, depth + 1, ancestors));
    else {
      const o = {};
      for (const [k, x] of Object.entries(v)) setOwn(o, k, copy(x, depth + 1, ancestors));
      out = o;
    }
    ancestors.pop();
    return out;
  };
  const value2 = copy(value, 0, []);
  const parts = [];
  if (deep) parts.push(`nesting deeper than ${maxDepth} levels was clipped`);
  if (cycle) parts.push("a circular reference was cut");
  return { value: value2, note: parts.join("; ") };
}
function needsClip(v, maxDepth, depth, ancestors) {
  if (typeof v !== "object" || v === null) return false;
  if (depth >= maxDepth || ancestors.includes(v)) return true;
  ancestors.push(v);
  const children = Array.isArray(v) ? v : Object.values(v);
  for (const child of children) {
    if (needsClip(child, maxDepth, depth + 1, ancestors)) return true;
  }
  ancestors.pop();
  return false;
}
function recordableOutput(value, maxBytes) {
  const safe = clipDepth(value);
  let text2;
  try {
    text2 = JSON.stringify(safe.value) ?? "null";
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      text: JSON.stringify(`[not recorded: the output is not JSON (${why})]`),
      note: `the output could not be recorded as JSON: ${why}`,
      clipped: true
    };
  }
  const bytes = Buffer.byteLength(text2);
  if (bytes <= maxBytes) return { text: text2, note: safe.note, clipped: safe.note !== null };
  const note = `output clipped: ${formatBytes(bytes)} is over the ${formatBytes(maxBytes)} cap (max_output_bytes in tooldistill.yaml); its first ${PREVIEW_CHARS.toLocaleString("en-US")} characters are kept`;
  return {
    text: JSON.stringify(`${text2.slice(0, PREVIEW_CHARS)}\u2026 [clipped]`),
    note: safe.note ? `${safe.note}; ${note}` : note,
    clipped: true
  };
}
function recordableError(message, maxBytes) {
  if (message.length <= maxBytes) return { text: message, note: null };
  return {
    text: `${message.slice(0, maxBytes)}\u2026 [clipped]`,
    note: `error message clipped at ${formatBytes(maxBytes)} (max_output_bytes in tooldistill.yaml)`
  };
}
function formatBytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Number((n / 1024).toFixed(1))} KB`;
  return `${Number((n / (1024 * 1024)).toFixed(1))} MB`;
}

// core/logger.ts
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
    const mine = new Promise((resolve2) => {
      done = resolve2;
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

// core/store-rows.ts
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
    clipped: Boolean(r["clipped"])
  };
}
function withEvidence(v) {
  return v === null || v.evidence !== void 0 ? v : { ...v, evidence: { ...NO_EVIDENCE, writes: [] } };
}

<<<<<<<< HEAD:plugin/dist/chunks/chunk-BIWZWU3R.js
// core/tool-files.ts
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
var TOOL_FILE = /^v(\d+)\.ts$/;
function hashSource(source) {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(source).digest("hex");
}
function toolFilePath(root, name, version) {
  const problem = toolNameProblem(name);
  if (problem !== null) throw new DistillError("PROPOSAL_INVALID", problem);
  if (!Number.isSafeInteger(version) || version < 1) {
    throw new DistillError("USAGE", `version numbers are whole numbers from 1 (got ${version})`);
  }
  const tools = resolve(root, "tools");
  const file = resolve(tools, name, `v${version}.ts`);
  if (!file.startsWith(tools + sep)) {
    throw new DistillError("PROPOSAL_INVALID", `tool name '${name}' would place its file outside ${tools}`);
  }
  return file;
}
function readToolCode(root, name, version) {
  const file = toolFilePath(root, name, version);
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new DistillError(
      "NOT_FOUND",
      `the file of ${name} v${version} is missing (${file}); deprecate this version or restore the file`,
      { cause: err }
    );
  }
}
function writeToolCode(root, file, code) {
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, code);
  } catch (err) {
    throw new DistillError(
      "STORE",
      `cannot write the tool file ${file}: ${errorMessage(err)}. Check that ${join(root, "tools")} is writable by this user.`,
      { cause: err }
    );
  }
}
function listToolFiles(root) {
  const dir = join(root, "tools");
  const out = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    let files;
    try {
      files = readdirSync(join(dir, name));
    } catch {
      continue;
    }
    for (const f of files.sort()) {
      const m = TOOL_FILE.exec(f);
      if (m) out.push({ name, version: Number(m[1]), file: join(dir, name, f) });
    }
  }
  return out;
}
function countToolFiles(root) {
  return listToolFiles(root).length;
}

// core/registry-store.ts
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

========
>>>>>>>> writers-lifecycle:plugin/dist/chunks/chunk-MOQGWUYL.js
// core/store-calls.ts
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
    clipped: out?.clipped ?? false
  };
}
function insertCall(db, call, outcome, latencyMs, maxOutputBytes) {
  const kept = recordedOutcome(call, outcome, maxOutputBytes);
  return db.transaction(() => {
    const row = db.stmt(
      `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at, note, clipped, raw_args)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
      call.rawArgs ?? null
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

// core/tool-files.ts
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
var TOOL_FILE = /^v(\d+)\.ts$/;
function hashSource(source) {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(source).digest("hex");
}
function toolFilePath(root, name, version) {
  const problem = toolNameProblem(name);
  if (problem !== null) throw new DistillError("PROPOSAL_INVALID", problem);
  if (!Number.isSafeInteger(version) || version < 1) {
    throw new DistillError("USAGE", `version numbers are whole numbers from 1 (got ${version})`);
  }
  const tools = resolve(root, "tools");
  const file = resolve(tools, name, `v${version}.ts`);
  if (!file.startsWith(tools + sep)) {
    throw new DistillError("PROPOSAL_INVALID", `tool name '${name}' would place its file outside ${tools}`);
  }
  return file;
}
function readToolCode(root, name, version) {
  const file = toolFilePath(root, name, version);
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new DistillError(
      "NOT_FOUND",
      `the file of ${name} v${version} is missing (${file}); deprecate this version or restore the file`,
      { cause: err }
    );
  }
}
function writeToolCode(root, file, code) {
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, code);
  } catch (err) {
    throw new DistillError(
      "STORE",
      `cannot write the tool file ${file}: ${errorMessage(err)}. Check that ${join(root, "tools")} is writable by this user.`,
      { cause: err }
    );
  }
}
function listToolFiles(root) {
  const dir = join(root, "tools");
  const out = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    let files;
    try {
      files = readdirSync(join(dir, name));
    } catch {
      continue;
    }
    for (const f of files.sort()) {
      const m = TOOL_FILE.exec(f);
      if (m) out.push({ name, version: Number(m[1]), file: join(dir, name, f) });
    }
  }
  return out;
}
function countToolFiles(root) {
  return listToolFiles(root).length;
}

// core/registry-store.ts
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
  loadPg,
  isPostgresUrl,
  refusePostgresUrl,
  parseStoreUrl,
  clientConfig,
  poolConfig,
  explainPgError,
  DEFAULT_MAX_OUTPUT_BYTES,
  clipDepth,
  recordableOutput,
  recordableError,
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
  hashSource,
  toolFilePath,
  readToolCode,
  writeToolCode,
  listToolFiles,
  countToolFiles,
  TRANSFER_ORDER,
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
  sessionRow,
  runRow,
  verifiedDefinitionRow
};
