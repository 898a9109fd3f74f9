var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// builtin:node:fs
var m, appendFile, appendFileSync, access, accessSync, chown, chownSync, chmod, chmodSync, close, closeSync, copyFile, copyFileSync, cp, cpSync, createReadStream, createWriteStream, exists, existsSync, fchown, fchownSync, fchmod, fchmodSync, fdatasync, fdatasyncSync, fstat, fstatSync, fsync, fsyncSync, ftruncate, ftruncateSync, futimes, futimesSync, glob, globSync, lchown, lchownSync, lchmod, lchmodSync, link, linkSync, lstat, lstatSync, lutimes, lutimesSync, mkdir, mkdirSync, mkdtemp, mkdtempSync, mkdtempDisposableSync, open, openSync, openAsBlob, readdir, readdirSync, read, readSync, readv, readvSync, readFile, readFileSync, readlink, readlinkSync, realpath, realpathSync, rename, renameSync, rm, rmSync, rmdir, rmdirSync, stat, statfs, statSync, statfsSync, symlink, symlinkSync, truncate, truncateSync, unwatchFile, unlink, unlinkSync, utimes, utimesSync, watch, watchFile, writeFile, writeFileSync, write, writeSync, writev, writevSync, Dirent, Stats, _toUnixTimestamp, Dir, opendir, opendirSync, constants;
var init_node_fs = __esm({
  "builtin:node:fs"() {
    m = process.getBuiltinModule("node:fs");
    ({ appendFile, appendFileSync, access, accessSync, chown, chownSync, chmod, chmodSync, close, closeSync, copyFile, copyFileSync, cp, cpSync, createReadStream, createWriteStream, exists, existsSync, fchown, fchownSync, fchmod, fchmodSync, fdatasync, fdatasyncSync, fstat, fstatSync, fsync, fsyncSync, ftruncate, ftruncateSync, futimes, futimesSync, glob, globSync, lchown, lchownSync, lchmod, lchmodSync, link, linkSync, lstat, lstatSync, lutimes, lutimesSync, mkdir, mkdirSync, mkdtemp, mkdtempSync, mkdtempDisposableSync, open, openSync, openAsBlob, readdir, readdirSync, read, readSync, readv, readvSync, readFile, readFileSync, readlink, readlinkSync, realpath, realpathSync, rename, renameSync, rm, rmSync, rmdir, rmdirSync, stat, statfs, statSync, statfsSync, symlink, symlinkSync, truncate, truncateSync, unwatchFile, unlink, unlinkSync, utimes, utimesSync, watch, watchFile, writeFile, writeFileSync, write, writeSync, writev, writevSync, Dirent, Stats, _toUnixTimestamp, Dir, opendir, opendirSync, constants } = m);
  }
});

// builtin:node:path
var m2, resolve, normalize, isAbsolute, join, relative, toNamespacedPath, dirname, basename, extname, format, parse, matchesGlob, sep, delimiter, win32, posix, _makeLong;
var init_node_path = __esm({
  "builtin:node:path"() {
    m2 = process.getBuiltinModule("node:path");
    ({ resolve, normalize, isAbsolute, join, relative, toNamespacedPath, dirname, basename, extname, format, parse, matchesGlob, sep, delimiter, win32, posix, _makeLong } = m2);
  }
});

// core/config-file.ts
function findConfig(startDir = process.cwd()) {
  const candidate = resolve(startDir, CONFIG_FILE_NAME);
  return existsSync(candidate) && statSync(candidate).isFile() ? candidate : null;
}
var CONFIG_FILE_NAME;
var init_config_file = __esm({
  "core/config-file.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    CONFIG_FILE_NAME = "tooldistill.yaml";
  }
});

// core/canonical.ts
function canonicalArgs(args, schema) {
  const withDefaults = schema ? applyDefaults(args, schema) : args;
  return sortKeys(withDefaults);
}
function applyDefaults(value, schema) {
  if (!isPlainObject(value)) return value;
  const props = schema["properties"];
  if (!isPlainObject(props)) return value;
  const out = { ...value };
  for (const [key, sub] of Object.entries(props)) {
    if (!isPlainObject(sub)) continue;
    if (out[key] === void 0 && "default" in sub) out[key] = structuredClone(sub["default"]);
    if (out[key] !== void 0) out[key] = applyDefaults(out[key], sub);
  }
  return out;
}
function sortKeys(value) {
  if (Array.isArray(value)) return value.map((v) => v === void 0 ? null : sortKeys(v));
  if (isPlainObject(value)) {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      const v = value[key];
      if (v !== void 0) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
var init_canonical = __esm({
  "core/canonical.ts"() {
    "use strict";
  }
});

// core/mcp-result.ts
function textBlocks(content) {
  const texts = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text } = block;
    if (type === "text" && typeof text === "string") texts.push(text);
  }
  return texts;
}
function textValue(texts) {
  if (texts.length === 0) return void 0;
  if (texts.length === 1) return jsonOrText(texts[0]);
  return texts.join("\n");
}
function jsonOrText(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
function mcpContentToValue(content) {
  const value = textValue(textBlocks(content));
  return value === void 0 ? null : value;
}
function mcpHookResponseToValue(response) {
  if (Array.isArray(response)) return mcpContentToValue(response);
  if (typeof response === "string") return jsonOrText(response);
  if (typeof response === "object" && response !== null) {
    const r = response;
    if (r.structuredContent !== void 0) return r.structuredContent;
    if (Array.isArray(r.content) && Object.keys(r).every((k) => k === "content" || k === "isError")) {
      return mcpContentToValue(r.content);
    }
    return response;
  }
  return response ?? null;
}
var init_mcp_result = __esm({
  "core/mcp-result.ts"() {
    "use strict";
  }
});

// core/nudge.ts
function nudgeText(run) {
  const head = run.replaceName ? `The distilled tool '${run.replaceName}' failed in this run and was disabled; you completed the task with the base tools. Propose a replacement under the same name '${run.replaceName}' that follows the path that worked this time.` : `This task took ${run.baseCalls} base tool calls. If the path you found would serve the same kind of task again, turn it into a distilled tool so the next run needs one call.`;
  return `${head}

Call ${PROPOSE_TOOL_NAME} with the code of the tool and test inputs. You get a verdict back: if it is rejected, fix every problem it lists and call ${PROPOSE_TOOL_NAME} again with the whole corrected code. If the task is not worth a tool, answer briefly without calling it.

${TOOL_FORMAT_GUIDE}`;
}
var PROPOSE_TOOL_NAME, TOOL_FORMAT_GUIDE;
var init_nudge = __esm({
  "core/nudge.ts"() {
    "use strict";
    PROPOSE_TOOL_NAME = "propose_distilled_tool";
    TOOL_FORMAT_GUIDE = `A distilled tool is one TypeScript module:

import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "create_invoice_from_email",            // ^[a-z][a-z0-9_]{2,35}$, no "__", not a base tool's name
  description: "Create a draft invoice for a customer from their most recent order email.",
  inputSchema: {                                // a JSON Schema literal with type "object"
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
  check: (result) => result.status === "draft",  // optional: must hold for the replayed result
});

Rules (checked before anything runs):
- Every base tool call is \`await call("<literal base tool name>", { ...arguments })\`, with the arguments the tool's input schema asks for.
- Only \`import { distilledTool, call } from "tooldistill"\`; nothing else at top level.
- Not allowed: try/catch/finally, .catch(...), .then(a, b) (a failed base call must fail the tool so the agent can fall back),
  while, do\u2026while, for(;;) and for\u2026in (use for\u2026of), with, class, generators, this, eval, Function, labels, debugger,
  enum, namespace, decorators, names starting with __, globalThis, process, require, module, Buffer, fetch, constructor,
  prototype, Reflect, Proxy, WebAssembly and timers.
- The code runs in a sandbox with no file system, network or environment: only call(...) reaches the outside.
- Status, baseline and dependencies are not part of the file: the library measures them.

A proposal is { "code": "<the whole module>", "test_inputs": [ { ...input of this run } ] }. The tool is replayed with each
test input against the responses recorded in this run, so use the inputs of this run. It must use fewer base tool calls
than this run did.`;
  }
});

// core/did-you-mean.ts
var init_did_you_mean = __esm({
  "core/did-you-mean.ts"() {
    "use strict";
  }
});

// core/errors.ts
var DistillError;
var init_errors = __esm({
  "core/errors.ts"() {
    "use strict";
    DistillError = class extends Error {
      code;
      constructor(code, message, options) {
        super(message, options);
        this.name = "DistillError";
        this.code = code;
      }
    };
  }
});

// core/trace.ts
function resultContent(value) {
  if (typeof value === "string") return value;
  if (value === void 0) return "null";
  return JSON.stringify(value);
}
function worthDistilling(store, traceId, minCallsToDistill) {
  const trace = store.getTrace(traceId);
  if (trace?.outcome !== true) return false;
  const flags = store.getTraceFlags(traceId);
  if (flags.proposed) return false;
  if (flags.replaceName) return true;
  return store.countTopLevelBaseCalls(traceId) >= minCallsToDistill;
}
var init_trace = __esm({
  "core/trace.ts"() {
    "use strict";
    init_canonical();
    init_did_you_mean();
    init_errors();
    init_nudge();
  }
});

// core/session.ts
function spanTraceId(sessionId, span) {
  return `${spanPrefix(sessionId)}${span}`;
}
function spanPrefix(sessionId) {
  return `${sessionId}.`;
}
function currentSpan(store, sessionId) {
  return store.transaction(() => {
    const s = store.sessionSpan(sessionId);
    const traceId = spanTraceId(sessionId, s.span);
    store.createTrace(traceId, "", "claude-code");
    return { traceId, span: s.span, confirmed: s.confirmed };
  });
}
function isDistillPrompt(prompt) {
  return /^\s*\/tooldistill:distill(\s|$)/.test(prompt);
}
function userPrompt(store, sessionId, prompt) {
  return store.transaction(() => {
    let cur = currentSpan(store, sessionId);
    if (cur.confirmed) {
      store.advanceSpan(sessionId, cur.span);
      cur = currentSpan(store, sessionId);
    }
    if (store.getTrace(cur.traceId)?.task === "") store.setTask(cur.traceId, prompt);
    return cur;
  });
}
function confirmSpan(store, sessionId) {
  return store.transaction(() => {
    const cur = currentSpan(store, sessionId);
    store.setOutcome(cur.traceId, true);
    store.confirmSpan(sessionId, cur.span);
    return { ...cur, confirmed: true };
  });
}
function normalizedServer(name) {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}
function identifyTool(name, baseServers) {
  if (name.startsWith(PLUGIN_TOOL_PREFIX)) {
    const tool = name.slice(PLUGIN_TOOL_PREFIX.length);
    return { tool, kind: tool === PROPOSE_TOOL_NAME ? "proposal" : "distilled" };
  }
  if (name.startsWith("mcp__")) {
    const rest = name.slice("mcp__".length);
    for (const server of baseServers) {
      const prefix = `${normalizedServer(server)}__`;
      if (rest.startsWith(prefix) && rest.length > prefix.length) {
        return { tool: `${server}__${rest.slice(prefix.length)}`, kind: "base" };
      }
    }
  }
  return { tool: name, kind: "other" };
}
function cachedBaseTools(store) {
  const text = store.getMeta(BASE_TOOLS_META_KEY);
  if (text === null) return [];
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [];
}
function argsOf(input) {
  return isPlainObject(input) ? input : input === void 0 ? {} : { value: input };
}
function recordToolStart(store, call, ctx) {
  return store.transaction(() => {
    const existing = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (existing) return existing.id;
    const cur = currentSpan(store, call.sessionId);
    const id = identifyTool(call.toolName, ctx.baseServers);
    const kind = id.kind === "base" && cur.confirmed ? "other" : id.kind;
    const schema = id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : void 0;
    return store.startCall({
      traceId: cur.traceId,
      tool: id.tool,
      kind,
      args: canonicalArgs(argsOf(call.toolInput), schema),
      externalId: call.toolUseId
    });
  });
}
function responseValue(toolName, response) {
  if (toolName.startsWith("mcp__")) return mcpHookResponseToValue(response);
  return response ?? null;
}
function recordToolEnd(store, call, ctx) {
  const outcome = "error" in call.outcome ? { error: call.outcome.error } : { output: responseValue(call.toolName, call.outcome.response) };
  store.transaction(() => {
    const rec = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (!rec) {
      const cur = currentSpan(store, call.sessionId);
      const id = identifyTool(call.toolName, ctx.baseServers);
      const schema = id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : void 0;
      store.appendCall(
        {
          traceId: cur.traceId,
          tool: id.tool,
          kind: id.kind === "base" && cur.confirmed ? "other" : id.kind,
          args: canonicalArgs(argsOf(call.toolInput), schema),
          externalId: call.toolUseId
        },
        outcome,
        call.durationMs
      );
      return;
    }
    if (rec.status !== "started") return;
    if ("error" in outcome) store.failCall(rec.id, outcome.error, call.durationMs);
    else store.finishCall(rec.id, outcome.output, call.durationMs);
  });
}
function short(value) {
  const s = resultContent(value);
  return s.length > SUMMARY_CHARS ? `${s.slice(0, SUMMARY_CHARS)}\u2026` : s;
}
function distillContext(store, traceId, notes) {
  const calls = store.getCalls(traceId).filter((c) => c.kind === "base" && c.parentId === null && c.status !== "started");
  const flags = store.getTraceFlags(traceId);
  const head = `tooldistill: the user ran /tooldistill:distill, confirming that the task of this session went well (trace ${traceId}).`;
  const lines = [head];
  if (notes.trim()) lines.push(`The user's notes: ${notes.trim()}`);
  if (calls.length === 0 && !flags.replaceName) {
    lines.push(
      "No base tool calls (tools of the project's MCP servers) were recorded for this task, so there is nothing to distill: tell the user so in one sentence."
    );
    return lines.join("\n");
  }
  lines.push("", nudgeText({ baseCalls: calls.length, replaceName: flags.replaceName }), "");
  lines.push(
    "The base tool calls of this task, in order. In the code, call base tools by these library names (`<server>__<tool>`, e.g. `crm__find_contact`), never by Claude Code's `mcp__<server>__<tool>` names:"
  );
  calls.forEach((c, i) => {
    const result = c.status === "ok" ? short(c.output) : `error: ${short(c.error)}`;
    lines.push(`${i + 1}. ${c.tool} ${JSON.stringify(c.args)} \u2192 ${result}`);
  });
  lines.push(
    "",
    `The proposal tool is ${PLUGIN_TOOL_PREFIX}${PROPOSE_TOOL_NAME}. Keep calling it with the corrected code until the verdict starts with "verified:", then tell the user the tool's name and that \`tooldistill promote <name>\` makes it available.`
  );
  return lines.join("\n");
}
var PLUGIN_TOOL_PREFIX, DISTILL_COMMAND, BASE_TOOLS_META_KEY, SUMMARY_CHARS;
var init_session = __esm({
  "core/session.ts"() {
    "use strict";
    init_canonical();
    init_mcp_result();
    init_nudge();
    init_trace();
    PLUGIN_TOOL_PREFIX = "mcp__plugin_tooldistill_td__";
    DISTILL_COMMAND = "tooldistill:distill";
    BASE_TOOLS_META_KEY = "claude-code.base-tools";
    SUMMARY_CHARS = 200;
  }
});

// builtin:node:sqlite
var m3, DatabaseSync, StatementSync, Session, constants2, backup;
var init_node_sqlite = __esm({
  "builtin:node:sqlite"() {
    m3 = process.getBuiltinModule("node:sqlite");
    ({ DatabaseSync, StatementSync, Session, constants: constants2, backup } = m3);
  }
});

// core/store.ts
function hashSource(source) {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(source).digest("hex");
}
function now() {
  return (/* @__PURE__ */ new Date()).toISOString();
}
function json(value) {
  return value === void 0 ? null : JSON.stringify(value);
}
function parse2(text) {
  return typeof text === "string" ? JSON.parse(text) : null;
}
function traceFromRow(r) {
  return {
    id: r["id"],
    task: r["task"],
    source: r["source"],
    outcome: r["outcome"] === null || r["outcome"] === void 0 ? null : Boolean(r["outcome"]),
    usage: {
      input_tokens: Number(r["input_tokens"]),
      output_tokens: Number(r["output_tokens"]),
      cache_creation_input_tokens: Number(r["cache_creation_input_tokens"]),
      cache_read_input_tokens: Number(r["cache_read_input_tokens"])
    },
    startedAt: r["started_at"],
    endedAt: r["ended_at"] ?? null,
    note: r["note"] ?? null
  };
}
function callFromRow(r) {
  return {
    id: Number(r["id"]),
    traceId: r["trace_id"],
    seq: Number(r["seq"]),
    parentId: r["parent_id"] === null ? null : Number(r["parent_id"]),
    tool: r["tool"],
    kind: r["kind"],
    args: parse2(r["args"]),
    status: r["status"],
    output: parse2(r["output"]),
    error: r["error"] ?? null,
    latencyMs: r["latency_ms"] === null ? null : Number(r["latency_ms"]),
    version: r["version"] === null ? null : Number(r["version"])
  };
}
function versionFromRow(r) {
  return {
    name: r["name"],
    version: Number(r["version"]),
    status: r["status"],
    problems: parse2(r["problems"]),
    baseline: r["baseline"] === null ? null : Number(r["baseline"]),
    baselineTokens: r["baseline_tokens"] === null ? null : Number(r["baseline_tokens"]),
    sourceTrace: r["source_trace"] ?? null,
    description: r["description"],
    inputSchema: parse2(r["input_schema"]),
    testInputs: parse2(r["test_inputs"]),
    sourceHash: r["source_hash"],
    verdict: parse2(r["verdict"]),
    queuedRebuild: Boolean(r["queued_rebuild"]),
    rebuildNote: r["rebuild_note"] ?? null,
    createdAt: r["created_at"]
  };
}
var MIGRATIONS, SCHEMA_VERSION, Store;
var init_store = __esm({
  "core/store.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    init_node_sqlite();
    init_errors();
    MIGRATIONS = [
      `
  CREATE TABLE traces (
    id TEXT PRIMARY KEY,
    task TEXT NOT NULL,
    source TEXT NOT NULL,
    outcome INTEGER,
    input_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cache_creation_input_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_input_tokens INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    nudged INTEGER NOT NULL DEFAULT 0,
    proposed INTEGER NOT NULL DEFAULT 0,
    replace_name TEXT,
    note TEXT
  );
  CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    trace_id TEXT NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    parent_id INTEGER REFERENCES calls(id),
    tool TEXT NOT NULL,
    kind TEXT NOT NULL,
    args TEXT NOT NULL,
    status TEXT NOT NULL,
    output TEXT,
    error TEXT,
    latency_ms REAL,
    version INTEGER,
    external_id TEXT,
    started_at TEXT NOT NULL,
    UNIQUE (trace_id, seq)
  );
  CREATE INDEX calls_external ON calls(external_id) WHERE external_id IS NOT NULL;
  CREATE TABLE versions (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    problems TEXT NOT NULL DEFAULT '[]',
    baseline INTEGER,
    baseline_tokens INTEGER,
    source_trace TEXT,
    description TEXT NOT NULL DEFAULT '',
    input_schema TEXT NOT NULL DEFAULT '{}',
    test_inputs TEXT NOT NULL DEFAULT '[]',
    source_hash TEXT NOT NULL,
    verdict TEXT,
    queued_rebuild INTEGER NOT NULL DEFAULT 0,
    rebuild_note TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (name, version)
  );
  CREATE TABLE status_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    from_status TEXT,
    to_status TEXT NOT NULL,
    reason TEXT NOT NULL,
    evidence TEXT,
    at TEXT NOT NULL
  );
  CREATE TABLE dependencies (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    base_tool TEXT NOT NULL,
    fingerprint TEXT,
    avoided INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (name, version, base_tool)
  );
  CREATE TABLE run_stats (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    runs INTEGER NOT NULL DEFAULT 0,
    successes INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    inner_calls INTEGER NOT NULL DEFAULT 0,
    last_run_at TEXT,
    PRIMARY KEY (name, version)
  );
  `,
      // 2: Claude Code sessions (which span of a session is current) and small cached values (the plugin's base tools).
      `
  CREATE TABLE cc_sessions (
    session_id TEXT PRIMARY KEY,
    span INTEGER NOT NULL,
    confirmed INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `
    ];
    SCHEMA_VERSION = MIGRATIONS.length;
    Store = class {
      root;
      dbPath;
      #db;
      #statements = /* @__PURE__ */ new Map();
      constructor(root) {
        this.root = root;
        this.dbPath = join(root, "registry.db");
        try {
          mkdirSync(join(root, "tools"), { recursive: true });
          const ignore = join(root, ".gitignore");
          if (!existsSync(ignore)) {
            writeFileSync(
              ignore,
              "# traces and fixtures hold real tool outputs, which may include personal data\nregistry.db*\n*.log\n"
            );
          }
          this.#db = new DatabaseSync(this.dbPath, { timeout: 1e4 });
          this.#db.exec("PRAGMA busy_timeout = 10000");
          this.#db.exec("PRAGMA journal_mode = WAL");
          this.#db.exec("PRAGMA synchronous = NORMAL");
          this.#db.exec("PRAGMA foreign_keys = ON");
          this.#migrate();
        } catch (err) {
          if (err instanceof DistillError) throw err;
          throw new DistillError(
            "STORE",
            `cannot open the store at ${root}: ${err.message}. Check the path and its permissions (store: in tooldistill.yaml).`,
            { cause: err }
          );
        }
      }
      #migrate() {
        const current = this.#userVersion();
        if (current === SCHEMA_VERSION) return;
        if (current > SCHEMA_VERSION) {
          throw new DistillError(
            "STORE",
            `the store at ${this.root} has schema version ${current}, newer than this tooldistill understands (${SCHEMA_VERSION}): upgrade tooldistill.`
          );
        }
        this.transaction(() => {
          for (let v = this.#userVersion(); v < SCHEMA_VERSION; v++) {
            this.#db.exec(MIGRATIONS[v]);
            this.#db.exec(`PRAGMA user_version = ${v + 1}`);
          }
        });
      }
      #userVersion() {
        const row = this.#db.prepare("PRAGMA user_version").get();
        return row.user_version;
      }
      #stmt(sql) {
        let s = this.#statements.get(sql);
        if (!s) {
          s = this.#db.prepare(sql);
          this.#statements.set(sql, s);
        }
        return s;
      }
      /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
      transaction(fn) {
        if (this.#db.isTransaction) return fn();
        this.#stmt("BEGIN IMMEDIATE").run();
        try {
          const result = fn();
          this.#stmt("COMMIT").run();
          return result;
        } catch (err) {
          if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
          throw err;
        }
      }
      /** Closes the database; the store object is unusable afterwards. */
      close() {
        if (this.#db.isOpen) this.#db.close();
      }
      /** `PRAGMA integrity_check`, for tests and `doctor`-style checks. */
      integrityCheck() {
        const row = this.#db.prepare("PRAGMA integrity_check").get();
        return row.integrity_check;
      }
      // ---- traces -------------------------------------------------------------------------------------
      /** Creates a trace row; a trace that already exists is left as it is (hooks may race to create it). */
      createTrace(id, task, source) {
        this.#stmt("INSERT OR IGNORE INTO traces (id, task, source, started_at) VALUES (?, ?, ?, ?)").run(
          id,
          task,
          source,
          now()
        );
      }
      /** The trace, or null. */
      getTrace(id) {
        const row = this.#stmt("SELECT * FROM traces WHERE id = ?").get(id);
        return row ? traceFromRow(row) : null;
      }
      /** Traces, newest first. */
      listTraces(limit = 50) {
        const rows = this.#stmt("SELECT * FROM traces ORDER BY started_at DESC, rowid DESC LIMIT ?").all(
          limit
        );
        return rows.map(traceFromRow);
      }
      /** Sets the task text (Claude Code learns it from the first prompt of a span). */
      setTask(id, task) {
        this.#stmt("UPDATE traces SET task = ? WHERE id = ?").run(task, id);
      }
      /** Records the caller's verdict on the run. */
      setOutcome(id, success) {
        this.#stmt("UPDATE traces SET outcome = ? WHERE id = ?").run(success ? 1 : 0, id);
      }
      /** Adds usage to the trace's totals, atomically (several processes may add at once). */
      addUsage(id, usage) {
        this.#stmt(
          `UPDATE traces SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
       cache_creation_input_tokens = cache_creation_input_tokens + ?, cache_read_input_tokens = cache_read_input_tokens + ?
       WHERE id = ?`
        ).run(
          usage.input_tokens,
          usage.output_tokens,
          usage.cache_creation_input_tokens,
          usage.cache_read_input_tokens,
          id
        );
      }
      /** Marks the trace ended (idempotent: the first end time is kept). */
      endTrace(id) {
        this.#stmt("UPDATE traces SET ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(now(), id);
      }
      /** Records why something that should have happened at the end of the run did not. */
      setTraceNote(id, note) {
        this.#stmt("UPDATE traces SET note = ? WHERE id = ?").run(note, id);
      }
      /** Nudge and proposal bookkeeping. */
      getTraceFlags(id) {
        const row = this.#stmt("SELECT nudged, proposed, replace_name FROM traces WHERE id = ?").get(id);
        return {
          nudged: Boolean(row?.["nudged"]),
          proposed: Boolean(row?.["proposed"]),
          replaceName: row?.["replace_name"] ?? null
        };
      }
      /** Sets the nudge at most once: returns false when another caller already took it. */
      claimNudge(id) {
        const r = this.#stmt("UPDATE traces SET nudged = 1 WHERE id = ? AND nudged = 0").run(id);
        return Number(r.changes) === 1;
      }
      /** Any submitted proposal counts as proposing (the fallback distiller then stays out). */
      markProposed(id) {
        this.#stmt("UPDATE traces SET proposed = 1 WHERE id = ?").run(id);
      }
      /** After a distilled tool failed in this run, the nudge asks for a replacement under its name. */
      setReplaceName(id, name) {
        this.#stmt("UPDATE traces SET replace_name = ? WHERE id = ?").run(name, id);
      }
      // ---- calls --------------------------------------------------------------------------------------
      /** Appends a started call; its seq is the next in the trace, allocated inside the write lock. */
      startCall(call) {
        return this.#insertCall(call, "started", null, null, null);
      }
      /**
       * Appends a call that already finished, in one commit: the SDK loop knows the outcome when it records, so it
       * pays for one write instead of a start and a finish.
       */
      appendCall(call, outcome, latencyMs) {
        return "output" in outcome ? this.#insertCall(call, "ok", json(outcome.output) ?? "null", null, latencyMs) : this.#insertCall(call, "error", null, outcome.error, latencyMs);
      }
      #insertCall(call, status, output, error, latencyMs) {
        return this.transaction(() => {
          const row = this.#stmt(
            `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id`
          ).get(
            call.traceId,
            call.traceId,
            call.parentId ?? null,
            call.tool,
            call.kind,
            JSON.stringify(call.args),
            status,
            output,
            error,
            latencyMs,
            call.version ?? null,
            call.externalId ?? null,
            now()
          );
          return row.id;
        });
      }
      /** Completes a call with its output. */
      finishCall(id, output, latencyMs) {
        this.#stmt("UPDATE calls SET status = 'ok', output = ?, latency_ms = ? WHERE id = ?").run(
          json(output) ?? "null",
          latencyMs,
          id
        );
      }
      /** Completes a call with its error. */
      failCall(id, error, latencyMs) {
        this.#stmt("UPDATE calls SET status = 'error', error = ?, latency_ms = ? WHERE id = ?").run(
          error,
          latencyMs,
          id
        );
      }
      /** Changes what a recorded call counts as (e.g. a Claude Code call later found to be a distilled tool). */
      setCallKind(id, kind, version) {
        this.#stmt("UPDATE calls SET kind = ?, version = ? WHERE id = ?").run(kind, version, id);
      }
      /**
       * The newest call recorded under an external id (Claude Code's tool_use_id) in the traces whose ids start with
       * `traceIdPrefix` (one session's spans). External ids are only unique within a session: a fake or replayed
       * API may reuse them, so a lookup across the whole store could attach to another session's call.
       */
      getCallByExternalId(externalId, traceIdPrefix) {
        const row = this.#stmt(
          "SELECT * FROM calls WHERE external_id = ? AND substr(trace_id, 1, ?) = ? ORDER BY id DESC LIMIT 1"
        ).get(externalId, traceIdPrefix.length, traceIdPrefix);
        return row ? callFromRow(row) : null;
      }
      /** Calls still `started` under an external id, newest first, in any trace (the plugin's server picks one). */
      startedCallsByExternalId(externalId) {
        const rows = this.#stmt(
          "SELECT * FROM calls WHERE external_id = ? AND status = 'started' ORDER BY id DESC"
        ).all(externalId);
        return rows.map(callFromRow);
      }
      /** Every call of a trace in seq order, inner calls included. */
      getCalls(traceId) {
        const rows = this.#stmt("SELECT * FROM calls WHERE trace_id = ? ORDER BY seq").all(traceId);
        return rows.map(callFromRow);
      }
      /** Top-level base calls that finished (ok or error): the unit of baselines and of `min_calls_to_distill`. */
      countTopLevelBaseCalls(traceId) {
        const row = this.#stmt(
          "SELECT COUNT(*) AS n FROM calls WHERE trace_id = ? AND kind = 'base' AND parent_id IS NULL AND status != 'started'"
        ).get(traceId);
        return Number(row.n);
      }
      /** Replaces a call's recorded arguments (the plugin re-canonicalises hook-recorded ones with schema defaults). */
      setCallArgs(id, args) {
        this.#stmt("UPDATE calls SET args = ? WHERE id = ?").run(JSON.stringify(args), id);
      }
      // ---- Claude Code sessions -----------------------------------------------------------------------
      /** The current span of a Claude Code session, created as span 1 on first sight (hooks may race to create it). */
      sessionSpan(sessionId) {
        this.#stmt(
          "INSERT OR IGNORE INTO cc_sessions (session_id, span, confirmed, updated_at) VALUES (?, 1, 0, ?)"
        ).run(sessionId, now());
        const row = this.#stmt("SELECT span, confirmed FROM cc_sessions WHERE session_id = ?").get(
          sessionId
        );
        return { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) };
      }
      /** The current span, or null for a session never seen. */
      findSessionSpan(sessionId) {
        const row = this.#stmt("SELECT span, confirmed FROM cc_sessions WHERE session_id = ?").get(sessionId);
        return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
      }
      /** Moves a session to its next span when it is still at `from` (two racing hooks advance it once). */
      advanceSpan(sessionId, from) {
        this.#stmt(
          "UPDATE cc_sessions SET span = span + 1, confirmed = 0, updated_at = ? WHERE session_id = ? AND span = ?"
        ).run(now(), sessionId, from);
      }
      /** Marks a span as confirmed by the user (`/tooldistill:distill`): the next ordinary prompt starts a new span. */
      confirmSpan(sessionId, span) {
        this.#stmt("UPDATE cc_sessions SET confirmed = 1, updated_at = ? WHERE session_id = ? AND span = ?").run(
          now(),
          sessionId,
          span
        );
      }
      /** A small cached value (JSON text), or null. */
      getMeta(key) {
        const row = this.#stmt("SELECT value FROM meta WHERE key = ?").get(key);
        return row?.["value"] ?? null;
      }
      /** Stores a small cached value. */
      setMeta(key, value) {
        this.#stmt(
          "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        ).run(key, value);
      }
      // ---- versions -----------------------------------------------------------------------------------
      /** Path of a version's tool file. */
      toolFile(name, version) {
        return join(this.root, "tools", name, `v${version}.ts`);
      }
      /** Reads a version's code from its file. */
      readCode(name, version) {
        const file = this.toolFile(name, version);
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
      /**
       * Stores a new draft version: allocates the next version number, writes `tools/<name>/v<N>.ts` and the row
       * in one transaction, so two proposers of the same name get different numbers.
       */
      createVersion(v) {
        const version = this.transaction(() => {
          const row = this.#stmt("SELECT COALESCE(MAX(version), 0) + 1 AS n FROM versions WHERE name = ?").get(
            v.name
          );
          const n = Number(row.n);
          const file = this.toolFile(v.name, n);
          mkdirSync(join(this.root, "tools", v.name), { recursive: true });
          writeFileSync(file, v.code);
          const at = now();
          this.#stmt(
            `INSERT INTO versions (name, version, status, description, input_schema, test_inputs, source_trace, source_hash, created_at)
         VALUES (?, ?, 'draft', ?, ?, ?, ?, ?, ?)`
          ).run(
            v.name,
            n,
            v.description,
            JSON.stringify(v.inputSchema),
            JSON.stringify(v.testInputs),
            v.sourceTrace,
            hashSource(v.code),
            at
          );
          this.#stmt(
            "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, NULL, 'draft', ?, NULL, ?)"
          ).run(v.name, n, v.reason, at);
          return n;
        });
        return this.getVersion(v.name, version);
      }
      /** A version, or null. */
      getVersion(name, version) {
        const row = this.#stmt("SELECT * FROM versions WHERE name = ? AND version = ?").get(name, version);
        return row ? versionFromRow(row) : null;
      }
      /** Versions, by name then version; optionally one name and/or one status. */
      listVersions(filter = {}) {
        const rows = this.#stmt(
          `SELECT * FROM versions WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR status = ?2) ORDER BY name, version`
        ).all(filter.name ?? null, filter.status ?? null);
        return rows.map(versionFromRow);
      }
      /**
       * Applies a status change and records it in the history, in one transaction. `expect` guards against a
       * concurrent change: when the stored status differs, nothing is written and false is returned.
       */
      setStatus(change) {
        return this.transaction(() => {
          const r = this.#stmt(
            "UPDATE versions SET status = ?, problems = ? WHERE name = ? AND version = ? AND status = ?"
          ).run(
            change.to,
            JSON.stringify([...new Set(change.problems)].sort()),
            change.name,
            change.version,
            change.expect
          );
          if (Number(r.changes) !== 1) return false;
          this.#stmt(
            "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
          ).run(
            change.name,
            change.version,
            change.expect,
            change.to,
            change.reason,
            json(change.evidence),
            now()
          );
          return true;
        });
      }
      /** Stores the latest verdict and the measured baseline of a version. */
      setVerification(name, version, verdict, baselineTokens) {
        this.#stmt(
          "UPDATE versions SET verdict = ?, baseline = ?, baseline_tokens = ? WHERE name = ? AND version = ?"
        ).run(JSON.stringify(verdict), verdict.baseline, baselineTokens, name, version);
      }
      /** Queues (or unqueues) a version for a rebuild, with the note the distiller will get. */
      setQueuedRebuild(name, version, queued, note) {
        this.#stmt("UPDATE versions SET queued_rebuild = ?, rebuild_note = ? WHERE name = ? AND version = ?").run(
          queued ? 1 : 0,
          note,
          name,
          version
        );
      }
      /** The status history of a version, oldest first. */
      getHistory(name, version) {
        const rows = this.#stmt("SELECT * FROM status_history WHERE name = ? AND version = ? ORDER BY id").all(
          name,
          version
        );
        return rows.map((r) => ({
          name: r["name"],
          version: Number(r["version"]),
          from: r["from_status"] ?? null,
          to: r["to_status"],
          reason: r["reason"],
          evidence: parse2(r["evidence"]),
          at: r["at"]
        }));
      }
      // ---- dependencies and stats ---------------------------------------------------------------------
      /** Replaces the dependency rows of a version. */
      setDependencies(name, version, deps) {
        this.transaction(() => {
          this.#stmt("DELETE FROM dependencies WHERE name = ? AND version = ?").run(name, version);
          const insert = this.#stmt(
            "INSERT INTO dependencies (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)"
          );
          for (const d of deps) insert.run(name, version, d.baseTool, d.fingerprint, d.avoided ? 1 : 0);
        });
      }
      /** Dependencies of one version, or of every version when no name is given. */
      getDependencies(name, version) {
        const rows = this.#stmt(
          "SELECT * FROM dependencies WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR version = ?2) ORDER BY name, version, base_tool"
        ).all(name ?? null, version ?? null);
        return rows.map((r) => ({
          name: r["name"],
          version: Number(r["version"]),
          baseTool: r["base_tool"],
          fingerprint: r["fingerprint"] ?? null,
          avoided: Boolean(r["avoided"])
        }));
      }
      /** Counts one live run of a version. */
      recordRun(name, version, success, innerCalls) {
        this.#stmt(
          `INSERT INTO run_stats (name, version, runs, successes, failures, inner_calls, last_run_at) VALUES (?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (name, version) DO UPDATE SET runs = runs + 1, successes = successes + excluded.successes,
       failures = failures + excluded.failures, inner_calls = inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`
        ).run(name, version, success ? 1 : 0, success ? 0 : 1, innerCalls, now());
      }
      /** Run counters of a version (zeros when it never ran). */
      getRunStats(name, version) {
        const r = this.#stmt("SELECT * FROM run_stats WHERE name = ? AND version = ?").get(name, version);
        return {
          name,
          version,
          runs: Number(r?.["runs"] ?? 0),
          successes: Number(r?.["successes"] ?? 0),
          failures: Number(r?.["failures"] ?? 0),
          innerCalls: Number(r?.["inner_calls"] ?? 0),
          lastRunAt: r?.["last_run_at"] ?? null
        };
      }
    };
  }
});

// hooks/hook-config.ts
function stamp(path) {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`;
  } catch {
    return null;
  }
}
function cacheFile(dataDir, configPath) {
  let hash = 2166136261;
  for (let i = 0; i < configPath.length; i++) {
    hash ^= configPath.charCodeAt(i);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return join(dataDir, "config-cache", `${hash.toString(16).padStart(8, "0")}.json`);
}
function cached(file, configPath) {
  let entry;
  try {
    entry = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  if (entry.version !== CACHE_VERSION || entry.config?.path !== configPath) return null;
  if (entry.configStamp !== stamp(configPath)) return null;
  if (entry.mcpConfig !== null && entry.mcpStamp !== stamp(entry.mcpConfig)) return null;
  return entry.config;
}
async function hookConfig(configPath, env, warn) {
  const dataDir = env["CLAUDE_PLUGIN_DATA"];
  const file = dataDir ? cacheFile(dataDir, configPath) : null;
  if (file) {
    const hit = cached(file, configPath);
    if (hit) return hit;
  }
  const configStamp = stamp(configPath);
  const { loadFullConfig } = await import("./chunks/full-config.js");
  const { config: full, baseServers } = await loadFullConfig(configPath, env);
  const mcpStamp = full.mcpConfig === null ? null : stamp(full.mcpConfig);
  const config = {
    path: configPath,
    store: full.store,
    baseServers,
    settings: {
      fallbackDistiller: full.settings.fallbackDistiller,
      minCallsToDistill: full.settings.minCallsToDistill
    }
  };
  if (file && configStamp !== null && (full.mcpConfig === null || mcpStamp !== null)) {
    const entry = {
      version: CACHE_VERSION,
      configStamp,
      mcpConfig: full.mcpConfig,
      mcpStamp,
      config
    };
    try {
      mkdirSync(join(file, ".."), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(entry));
      renameSync(tmp, file);
    } catch (err) {
      warn(`cannot cache the config in ${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return config;
}
var CACHE_VERSION;
var init_hook_config = __esm({
  "hooks/hook-config.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    CACHE_VERSION = 1;
  }
});

// hooks/run.ts
var run_exports = {};
__export(run_exports, {
  handleHookInput: () => handleHookInput,
  runHook: () => runHook,
  setupHint: () => setupHint
});
function setupHint(projectDir) {
  return `tooldistill: no tooldistill.yaml in ${projectDir}, so this session is not recorded. To distil this project's MCP tools, add a tooldistill.yaml with \`mcp_config: .mcp.json\` (or run \`npx tooldistill init\` and set mcp_config), then start a new session.`;
}
function toolContext(store, config) {
  return { baseServers: config.baseServers, baseTools: cachedBaseTools(store) };
}
function need(value, field) {
  if (value === void 0) throw new Error(`the hook input has no ${field}`);
  return value;
}
async function handle(event, input, config, store, rt) {
  const sessionId = need(input.session_id, "session_id");
  switch (event) {
    case "SessionStart":
      currentSpan(store, sessionId);
      return null;
    case "UserPromptSubmit": {
      const prompt = input.prompt ?? "";
      if (!isDistillPrompt(prompt)) {
        userPrompt(store, sessionId, prompt);
        return null;
      }
      const cur = confirmSpan(store, sessionId);
      const notes = prompt.trim().replace(/^\/tooldistill:distill/, "");
      return {
        hookSpecificOutput: {
          hookEventName: event,
          additionalContext: distillContext(store, cur.traceId, notes)
        }
      };
    }
    case "UserPromptExpansion":
      if (input.command_name === DISTILL_COMMAND) confirmSpan(store, sessionId);
      return null;
    case "PreToolUse":
      recordToolStart(
        store,
        {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id")
        },
        toolContext(store, config)
      );
      return null;
    case "PostToolUse":
    case "PostToolUseFailure":
      recordToolEnd(
        store,
        {
          sessionId,
          toolName: need(input.tool_name, "tool_name"),
          toolInput: input.tool_input,
          toolUseId: need(input.tool_use_id, "tool_use_id"),
          durationMs: input.duration_ms ?? null,
          outcome: event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" }
        },
        toolContext(store, config)
      );
      return null;
    case "SessionEnd": {
      const span = store.findSessionSpan(sessionId);
      if (!span) return null;
      const cur = currentSpan(store, sessionId);
      store.endTrace(cur.traceId);
      const wanted = config.settings.fallbackDistiller && Boolean(rt.env["ANTHROPIC_API_KEY"]) && worthDistilling(store, cur.traceId, config.settings.minCallsToDistill);
      if (wanted) (rt.startFallback ?? startFallbackProcess)(config.path, cur.traceId);
      return null;
    }
  }
}
function startFallbackProcess(configPath, traceId) {
  const { spawn } = process.getBuiltinModule("node:child_process");
  const entry = process.argv[1] ?? "";
  const script = join(dirname(entry), `fallback${extname(entry) || ".js"}`);
  const child = spawn(process.execPath, [script, configPath, traceId], { detached: true, stdio: "ignore" });
  child.unref();
}
function logError(logFile, event, err) {
  const detail = err instanceof Error ? err.stack ?? err.message : String(err);
  const line = `${(/* @__PURE__ */ new Date()).toISOString()} ${event}: ${detail}
`;
  process.stderr.write(`tooldistill ${event} hook: ${err instanceof Error ? err.message : String(err)}
`);
  if (logFile === null) return;
  try {
    mkdirSync(dirname(logFile), { recursive: true });
    appendFileSync(logFile, line);
  } catch {
  }
}
async function handleHookInput(event, text, rt) {
  let logFile = null;
  try {
    const input = JSON.parse(text);
    const projectDir = rt.env["CLAUDE_PROJECT_DIR"] || input.cwd || process.cwd();
    logFile = join(projectDir, ".tooldistill", "hooks.log");
    const configPath = findConfig(projectDir);
    if (configPath === null)
      return event === "SessionStart" ? { systemMessage: setupHint(projectDir) } : null;
    const config = await hookConfig(configPath, rt.env, (message) => logError(logFile, event, message));
    logFile = join(config.store, "hooks.log");
    const store = new Store(config.store);
    try {
      return await handle(event, input, config, store, rt);
    } finally {
      store.close();
    }
  } catch (err) {
    logError(logFile, event, err);
    return null;
  }
}
async function runHook(event) {
  let text = "";
  try {
    text = readFileSync(0, "utf8");
  } catch (err) {
    logError(null, event, err);
  }
  const output = await handleHookInput(event, text, { env: process.env });
  if (output) process.stdout.write(`${JSON.stringify(output)}
`);
}
var init_run = __esm({
  "hooks/run.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    init_config_file();
    init_session();
    init_store();
    init_trace();
    init_hook_config();
  }
});

// hooks/node-check.ts
function nodeSupported() {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || major === 22 && minor >= 18) {
    quietSqliteWarning();
    return true;
  }
  process.stderr.write(`tooldistill needs Node.js 22.18 or newer (found v${process.versions.node})
`);
  process.exitCode = 1;
  return false;
}
function quietSqliteWarning() {
  const emit = process.emitWarning;
  process.emitWarning = ((warning, ...rest) => {
    const first = rest[0];
    const type = typeof first === "string" ? first : first?.type;
    const text = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && text.startsWith("SQLite ")) return;
    Reflect.apply(emit, process, [warning, ...rest]);
  });
}

// hooks/session-start.ts
if (nodeSupported()) {
  const { runHook: runHook2 } = await Promise.resolve().then(() => (init_run(), run_exports));
  await runHook2("SessionStart");
}
