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

// core/errors.ts
function errorMessage(err) {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
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

// core/node-version.ts
function nodeVersionProblem(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > 22 || major === 22 && minor >= 18) return null;
  return `tooldistill needs Node.js ${MIN_NODE_VERSION} or newer (found v${version})`;
}
function assertNodeVersion() {
  const problem = nodeVersionProblem();
  if (problem !== null) throw new DistillError("NODE_VERSION", problem);
}
var MIN_NODE_VERSION;
var init_node_version = __esm({
  "core/node-version.ts"() {
    "use strict";
    init_errors();
    MIN_NODE_VERSION = "22.18";
  }
});

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

// claude-code/base-tools.ts
function cachedBaseTools(store) {
  const text2 = store.getMeta(BASE_TOOLS_META_KEY);
  if (text2 === null) return [];
  const parsed = JSON.parse(text2);
  return Array.isArray(parsed) ? parsed : [];
}
var BASE_TOOLS_META_KEY;
var init_base_tools = __esm({
  "claude-code/base-tools.ts"() {
    "use strict";
    BASE_TOOLS_META_KEY = "claude-code.base-tools";
  }
});

// core/node-gate.ts
var init_node_gate = __esm({
  "core/node-gate.ts"() {
    "use strict";
    init_node_version();
    assertNodeVersion();
  }
});

// core/prompts.ts
function nudgeText(run) {
  const head = run.replaceName ? `The distilled tool '${run.replaceName}' failed in this run and was disabled; you completed the task with the base tools. Propose a replacement under the same name '${run.replaceName}' that follows the path that worked this time.` : `This task took ${run.baseCalls} base tool calls. If the path you found would serve the same kind of task again, turn it into a distilled tool so the next run needs one call.`;
  return `${head}

Call ${PROPOSE_TOOL_NAME} with the code of the tool and test inputs. You get a verdict back: if it is rejected, fix every problem it lists and call ${PROPOSE_TOOL_NAME} again with the whole corrected code. If the task is not worth a tool, answer briefly without calling it.

${TOOL_FORMAT_GUIDE}`;
}
var PROPOSE_TOOL_NAME, TOOL_FORMAT_GUIDE;
var init_prompts = __esm({
  "core/prompts.ts"() {
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
- No clock and no randomness: Date.now(), new Date() and Math.random() do not exist (Date.parse and new Date(value) do);
  take the time as an input or from a base tool.
- The code runs in a sandbox with no file system, network or environment: only call(...) reaches the outside.
- Status, baseline and dependencies are not part of the file: the library measures them.

A proposal is { "code": "<the whole module>", "test_inputs": [ { ...input of this run } ] }. The tool is replayed with each
test input against the responses recorded in this run, so use the inputs of this run. It must use fewer base tool calls
than this run did.`;
  }
});

// core/text.ts
function clip(text2, max) {
  if (text2.length <= max) return text2;
  return `${text2.slice(0, max)}\u2026 (${text2.length - max} more characters)`;
}
function oneLine(text2, max) {
  const flat = text2.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}\u2026`;
}
var init_text = __esm({
  "core/text.ts"() {
    "use strict";
  }
});

// core/types.ts
var NO_EVIDENCE;
var init_types = __esm({
  "core/types.ts"() {
    "use strict";
    NO_EVIDENCE = Object.freeze({
      callSites: null,
      literals: null,
      runs: null,
      writes: [],
      promotion: null
    });
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

// core/recordable.ts
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
      for (const [k, x] of Object.entries(v)) o[k] = copy(x, depth + 1, ancestors);
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
var DEFAULT_MAX_OUTPUT_BYTES, MAX_RECORDED_DEPTH, PREVIEW_CHARS;
var init_recordable = __esm({
  "core/recordable.ts"() {
    "use strict";
    DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
    MAX_RECORDED_DEPTH = 200;
    PREVIEW_CHARS = 4e3;
  }
});

// core/tool-names.ts
function toolNameProblem(name) {
  if (!TOOL_NAME_PATTERN.test(name)) {
    return `tool name '${name}' must match ${TOOL_NAME_PATTERN.source} (lowercase letters, digits and _, 3 to 36 characters)`;
  }
  if (name.includes(SERVER_SEPARATOR)) return `tool name '${name}' must not contain '${SERVER_SEPARATOR}'`;
  return null;
}
function baseToolName(server, tool) {
  return `${server}${SERVER_SEPARATOR}${tool}`;
}
var TOOL_NAME_PATTERN, SERVER_SEPARATOR;
var init_tool_names = __esm({
  "core/tool-names.ts"() {
    "use strict";
    TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{2,35}$/;
    SERVER_SEPARATOR = "__";
  }
});

// core/logger.ts
var stderrLogger;
var init_logger = __esm({
  "core/logger.ts"() {
    "use strict";
    stderrLogger = {
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
  }
});

// core/mcp-result.ts
function textBlocks(content) {
  const texts = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text: text2 } = block;
    if (type === "text" && typeof text2 === "string") texts.push(text2);
  }
  return texts;
}
function textValue(texts) {
  if (texts.length === 0) return void 0;
  if (texts.length === 1) return jsonOrText(texts[0]);
  return texts.join("\n");
}
function jsonOrText(text2) {
  try {
    return JSON.parse(text2);
  } catch {
    return text2;
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

// core/store-rows.ts
function now() {
  return (/* @__PURE__ */ new Date()).toISOString();
}
function json(value) {
  return value === void 0 ? null : JSON.stringify(value);
}
function parse2(text2) {
  return typeof text2 === "string" ? JSON.parse(text2) : null;
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
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    status: r["status"],
    problems: parse2(r["problems"]),
    baseline: numberOrNull(r, "baseline"),
    baselineTokens: numberOrNull(r, "baseline_tokens"),
    sourceTrace: textOrNull(r, "source_trace"),
    description: text(r, "description"),
    inputSchema: parse2(r["input_schema"]),
    testInputs: parse2(r["test_inputs"]),
    sourceHash: text(r, "source_hash"),
    verdict: withEvidence(parse2(r["verdict"])),
    queuedRebuild: Boolean(r["queued_rebuild"]),
    rebuildNote: textOrNull(r, "rebuild_note"),
    createdAt: text(r, "created_at"),
    replayRuns: parse2(r["replay_runs"]) ?? []
  };
}
function historyFromRow(r) {
  return {
    name: text(r, "name"),
    version: Number(r["version"]),
    from: textOrNull(r, "from_status"),
    to: r["to_status"],
    reason: text(r, "reason"),
    evidence: parse2(r["evidence"]),
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
    innerCalls: Number(r?.["inner_calls"] ?? 0),
    lastRunAt: r === void 0 ? null : textOrNull(r, "last_run_at")
  };
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
function callFromRow(r) {
  return {
    id: Number(r["id"]),
    traceId: text(r, "trace_id"),
    seq: Number(r["seq"]),
    parentId: numberOrNull(r, "parent_id"),
    tool: text(r, "tool"),
    kind: r["kind"],
    args: parse2(r["args"]),
    status: r["status"],
    output: parse2(r["output"]),
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
var init_store_rows = __esm({
  "core/store-rows.ts"() {
    "use strict";
    init_types();
  }
});

// core/store-bookkeeping.ts
function getMeta(db, key) {
  const row = db.stmt("SELECT value FROM meta WHERE key = ?").get(key);
  return row?.["value"] ?? null;
}
function setMeta(db, key, value) {
  db.stmt(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
  ).run(key, value);
}
function spillApplied(db, eventId) {
  return db.stmt("SELECT 1 AS x FROM spill_applied WHERE event_id = ?").get(eventId) !== void 0;
}
function markSpillApplied(db, eventId) {
  db.stmt("INSERT OR IGNORE INTO spill_applied (event_id, applied_at) VALUES (?, ?)").run(eventId, now());
}
function pruneSpillApplied(db, before) {
  db.stmt("DELETE FROM spill_applied WHERE applied_at < ?").run(before);
}
var init_store_bookkeeping = __esm({
  "core/store-bookkeeping.ts"() {
    "use strict";
    init_store_rows();
  }
});

// core/store-calls.ts
function joinNotes(...notes) {
  const kept = notes.filter((n) => n !== null && n !== "");
  return kept.length === 0 ? null : kept.join("; ");
}
function insertCall(db, call, outcome, latencyMs, maxOutputBytes) {
  const status = outcome === null ? "started" : "output" in outcome ? "ok" : "error";
  const out = outcome !== null && "output" in outcome ? recordableOutput(outcome.output, maxOutputBytes) : null;
  const err = outcome !== null && "error" in outcome ? recordableError(outcome.error, maxOutputBytes) : null;
  const note = joinNotes(call.note ?? null, out?.note ?? null, err?.note ?? null);
  return db.transaction(() => {
    const row = db.stmt(
      `INSERT INTO calls (trace_id, seq, parent_id, tool, kind, args, status, output, error, latency_ms, version, external_id, started_at, note, clipped)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE trace_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id`
    ).get(
      call.traceId,
      call.traceId,
      call.parentId ?? null,
      call.tool,
      call.kind,
      JSON.stringify(call.args),
      status,
      out?.text ?? null,
      err?.text ?? null,
      latencyMs,
      call.version ?? null,
      call.externalId ?? null,
      now(),
      note,
      out?.clipped ? 1 : 0
    );
    return Number(row?.["id"]);
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
function setCallArgs(db, id, args) {
  db.stmt("UPDATE calls SET args = ? WHERE id = ?").run(JSON.stringify(args), id);
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
    input: call.args,
    output: call.output,
    at: String(row["started_at"]),
    calls: inner
  };
}
var init_store_calls = __esm({
  "core/store-calls.ts"() {
    "use strict";
    init_recordable();
    init_store_rows();
  }
});

// core/store-invariants.ts
function checkLifecycle(store) {
  const versions = store.listVersions();
  if (versions.length === 0) return [];
  const problems = [];
  const byName = /* @__PURE__ */ new Map();
  for (const v of versions) byName.set(v.name, [...byName.get(v.name) ?? [], v]);
  for (const [name, all] of byName) {
    const active = all.filter((v) => v.status === "active");
    if (active.length < 2) continue;
    const keep = active.reduce(
      (a, b) => store.lastActivation(b.name, b.version) > store.lastActivation(a.name, a.version) ? b : a
    );
    const others = active.filter((v) => v !== keep);
    problems.push({
      name,
      versions: active.map((v) => v.version),
      message: `${name} has ${active.length} active versions (${active.map((v) => `v${v.version}`).join(", ")})`,
      repair: `v${keep.version}, which became active last, stays active; ${others.map((v) => `v${v.version}`).join(", ")} deprecated`,
      command: null,
      apply: (s) => {
        for (const v of others) {
          s.setStatus({
            name,
            version: v.version,
            expect: "active",
            to: "deprecated",
            problems: v.problems,
            reason: `${REPAIRED}: v${keep.version} was active too and became active last`
          });
        }
      }
    });
  }
  const history = new Map(store.latestHistory().map((h) => [`${h.name}\0${h.version}`, h]));
  for (const v of versions) {
    const id = `${v.name} v${v.version}`;
    if (v.status === "deprecated" && v.queuedRebuild) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is deprecated but still queued for a rebuild`,
        repair: "the rebuild queue flag is cleared",
        command: null,
        apply: (s) => s.setQueuedRebuild(v.name, v.version, false, null)
      });
    }
    if ((v.status === "active" || v.status === "verified" || v.status === "suspect") && v.verdict === null) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but has no stored verdict (an interrupted verification)`,
        repair: null,
        command: `run \`tooldistill verify ${v.name} --version ${v.version}\``
      });
    }
    if (v.status === "active" && v.problems.length > 0) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is active with open problems (${v.problems.join(", ")})`,
        repair: "it becomes suspect, as every open problem makes it",
        command: null,
        apply: (s) => s.setStatus({
          name: v.name,
          version: v.version,
          expect: "active",
          to: "suspect",
          problems: v.problems,
          reason: `${REPAIRED}: active with open problems`
        })
      });
    }
    if (v.status === "suspect" && v.problems.length === 0) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is suspect without an open problem`,
        repair: null,
        command: `run \`tooldistill verify ${v.name} --version ${v.version}\` (a pass makes it active again)`
      });
    }
    const last = history.get(`${v.name}\0${v.version}`);
    if (last && last.to !== v.status) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but its history ends at ${last.to}`,
        repair: `the history records the change to ${v.status}`,
        command: null,
        apply: (s) => s.addHistory({
          name: v.name,
          version: v.version,
          from: last.to,
          to: v.status,
          reason: `${REPAIRED}: the history lacked this change`,
          evidence: null
        })
      });
    }
  }
  return problems;
}
function checkOnOpen(store, logger) {
  const found = checkLifecycle(store);
  if (found.length === 0) return [];
  const repairable = found.filter((p) => p.repair !== null);
  let left = found;
  if (!store.readOnly && repairable.length > 0) {
    try {
      store.transaction(() => {
        for (const p of repairable) p.apply?.(store);
      });
      for (const p of repairable) logger.warn(`tooldistill: repaired the store: ${p.message}; ${p.repair}`);
      left = found.filter((p) => p.repair === null);
    } catch (err) {
      logger.warn(`tooldistill: could not repair the store now: ${errorMessage(err)}`);
    }
  }
  for (const p of left) {
    const fix = p.command ?? "run `tooldistill doctor --fix`";
    logger.warn(`tooldistill: ${p.message}: ${fix}`);
  }
  return left;
}
var REPAIRED;
var init_store_invariants = __esm({
  "core/store-invariants.ts"() {
    "use strict";
    init_errors();
    REPAIRED = "repaired when the store was opened";
  }
});

// core/store-database.ts
var StoreStatement, StoreDatabase;
var init_store_database = __esm({
  "core/store-database.ts"() {
    "use strict";
    StoreStatement = class {
      #s;
      #fail;
      constructor(s, fail) {
        this.#s = s;
        this.#fail = fail;
      }
      /** Runs a write; says how many rows changed. */
      run(...params) {
        try {
          return this.#s.run(...params);
        } catch (err) {
          return this.#fail(err);
        }
      }
      /** The first row, or undefined. */
      get(...params) {
        try {
          return this.#s.get(...params);
        } catch (err) {
          return this.#fail(err);
        }
      }
      /** Every row. */
      all(...params) {
        try {
          return this.#s.all(...params);
        } catch (err) {
          return this.#fail(err);
        }
      }
    };
    StoreDatabase = class {
      #db;
      #explain;
      #statements = /* @__PURE__ */ new Map();
      constructor(db, explain) {
        this.#db = db;
        this.#explain = explain;
      }
      /** The prepared statement of `sql`, prepared once per database. */
      stmt(sql) {
        let s = this.#statements.get(sql);
        if (!s) {
          try {
            s = new StoreStatement(this.#db.prepare(sql), (err) => {
              throw this.#explain(err, "query");
            });
          } catch (err) {
            throw this.#explain(err, "query");
          }
          this.#statements.set(sql, s);
        }
        return s;
      }
      /** Runs SQL text without results (pragmas, migrations, savepoints). */
      exec(sql) {
        try {
          this.#db.exec(sql);
        } catch (err) {
          throw this.#explain(err, "query");
        }
      }
      /** `PRAGMA user_version`: the schema version the database was migrated to. */
      userVersion() {
        return Number(this.stmt("PRAGMA user_version").get()?.["user_version"]);
      }
      /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
      transaction(fn) {
        if (this.#db.isTransaction) return fn();
        this.stmt("BEGIN IMMEDIATE").run();
        try {
          const result = fn();
          this.stmt("COMMIT").run();
          return result;
        } catch (err) {
          if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
          throw err;
        }
      }
      /** Runs `fn` inside a savepoint of the current transaction: a throw undoes only what `fn` wrote. */
      savepoint(fn) {
        this.exec("SAVEPOINT td_step");
        try {
          const result = fn();
          this.exec("RELEASE td_step");
          return result;
        } catch (err) {
          this.exec("ROLLBACK TO td_step");
          this.exec("RELEASE td_step");
          throw err;
        }
      }
      /** Closes the database (idempotent). */
      close() {
        if (this.#db.isOpen) this.#db.close();
      }
    };
  }
});

// core/store-schema.ts
function hasTables(db) {
  const row = db.stmt("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get();
  return Number(row?.["n"]) > 0;
}
function migrate(db, root, readOnly) {
  const current = db.userVersion();
  if (current === SCHEMA_VERSION) return;
  if (current > SCHEMA_VERSION) {
    throw new DistillError(
      "STORE",
      `the store at ${root} has schema version ${current}, newer than this tooldistill understands (${SCHEMA_VERSION}): upgrade tooldistill.`
    );
  }
  if (readOnly) {
    throw new DistillError(
      "STORE",
      `the store at ${root} was written by an older tooldistill (schema ${current}, now ${SCHEMA_VERSION}) and this command only reads it: run \`tooldistill doctor --fix\` once to upgrade it.`
    );
  }
  db.transaction(() => {
    for (let v = db.userVersion(); v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    }
  });
}
var MIGRATIONS, SCHEMA_VERSION;
var init_store_schema = __esm({
  "core/store-schema.ts"() {
    "use strict";
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
      // cc_sessions belongs to the Claude Code adapter (claude-code/session-store.ts reads and writes it, through the
      // adapters' door of the store); it stays in this one sequence so that every existing store upgrades in order.
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
  `,
      // 3: what recording clipped (nesting, size cap) said on the call; hook events applied from spill files, so a
      // spilled event is applied exactly once even when a process dies between applying it and removing its file.
      `
  ALTER TABLE calls ADD COLUMN note TEXT;
  ALTER TABLE calls ADD COLUMN clipped INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE spill_applied (
    event_id TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
  );
  `,
      // 4: the recorded live runs a version was replayed against at verification (so re-verification replays the same
      // ones), and the indexes that find a version's live runs and the base calls made inside each.
      `
  ALTER TABLE versions ADD COLUMN replay_runs TEXT NOT NULL DEFAULT '[]';
  CREATE INDEX calls_parent ON calls(parent_id) WHERE parent_id IS NOT NULL;
  CREATE INDEX calls_distilled ON calls(tool, version) WHERE kind = 'distilled';
  `
    ];
    SCHEMA_VERSION = MIGRATIONS.length;
  }
});

// core/tool-files.ts
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
      const m3 = TOOL_FILE.exec(f);
      if (m3) out.push({ name, version: Number(m3[1]), file: join(dir, name, f) });
    }
  }
  return out;
}
function countToolFiles(root) {
  return listToolFiles(root).length;
}
var TOOL_FILE;
var init_tool_files = __esm({
  "core/tool-files.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    init_errors();
    init_tool_names();
    TOOL_FILE = /^v(\d+)\.ts$/;
  }
});

// core/store-open.ts
function sqlite() {
  assertNodeVersion();
  return process.getBuiltinModule("node:sqlite");
}
function openDatabase(root, options) {
  const dbPath = join(root, "registry.db");
  const { DatabaseSync } = sqlite();
  if (existsSync(root) && !statSync(root).isDirectory()) {
    throw new DistillError(
      "STORE",
      `cannot open the store at ${root}: it is a file, not a folder. Check the path (store: in tooldistill.yaml).`
    );
  }
  if (options.readOnly && !existsSync(dbPath)) {
    throw new DistillError(
      "NOT_FOUND",
      `no store at ${root}: nothing has been recorded there yet. Check the store path (store: in tooldistill.yaml, or --config), or record a run first.`
    );
  }
  refuseEmptyRegistry(root, fileIsEmpty(dbPath));
  const walMissingAtOpen = !existsSync(`${dbPath}-wal`) && existsSync(`${dbPath}-shm`);
  const explain = explainer(root, options.busyTimeoutMs, walMissingAtOpen);
  let db;
  try {
    if (!options.readOnly) prepareFolder(root);
    db = new StoreDatabase(
      new DatabaseSync(dbPath, { timeout: options.busyTimeoutMs, readOnly: options.readOnly }),
      explain
    );
  } catch (err) {
    throw explain(err, "open");
  }
  try {
    if (!options.readOnly) {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
    }
    db.exec("PRAGMA foreign_keys = ON");
    if (db.userVersion() === 0 && !hasTables(db)) refuseEmptyRegistry(root, true);
    migrate(db, root, options.readOnly);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
function fileIsEmpty(dbPath) {
  try {
    return statSync(dbPath).size === 0;
  } catch {
    return true;
  }
}
function refuseEmptyRegistry(root, empty) {
  if (!empty) return;
  const files = countToolFiles(root);
  if (files === 0) return;
  const dbPath = join(root, "registry.db");
  const what = existsSync(dbPath) ? `${dbPath} is empty (${statSync(dbPath).size === 0 ? "0 bytes" : "no tables"})` : `${dbPath} is missing`;
  throw new DistillError(
    "STORE",
    `${what} while ${join(root, "tools")} holds ${files} tool file${files === 1 ? "" : "s"}: the registry (every version's status, verdict and the recorded runs) was lost, truncated or replaced, and opening it would start an empty one that hides them. Restore registry.db from a backup (with its registry.db-wal if there is one) and run the command again; or, to start over, run \`tooldistill doctor --fix\`, which moves the tool files to ${join(root, "orphaned")} and creates a new registry.`
  );
}
function prepareFolder(root) {
  mkdirSync(join(root, "tools"), { recursive: true });
  const ignore = join(root, ".gitignore");
  if (!existsSync(ignore)) {
    writeFileSync(
      ignore,
      "# traces and fixtures hold real tool outputs, which may include personal data\nregistry.db*\n*.log\n*.log.1\nspill/\norphaned/\n"
    );
  }
}
function explainer(root, busyTimeoutMs, walMissingAtOpen) {
  const db = join(root, "registry.db");
  return (err, when) => {
    if (err instanceof DistillError) return err;
    const e = err;
    const fsCode = typeof e.code === "string" && !e.code.startsWith("ERR_") ? e.code : null;
    if (fsCode !== null) {
      return new DistillError(
        "STORE",
        `cannot ${when === "open" ? "open" : "use"} the store at ${root}: ${errorMessage(err)}. Check the path (store: in tooldistill.yaml) and that the folder is writable by this user.`,
        { cause: err }
      );
    }
    if (typeof e.errcode !== "number") return err;
    const code = e.errcode & 255;
    const detail = e.message ?? "";
    const make = (code2, message) => new DistillError(code2, message, { cause: err });
    const recover = `Stop every process using the store (Claude Code sessions, the td server, agents), copy the store folder aside, then restore registry.db from a backup, or recover what is readable with \`sqlite3 ${db} ".recover" | sqlite3 recovered.db\` and put recovered.db in its place. \`tooldistill doctor\` shows what is damaged.`;
    switch (code) {
      case SQLITE.busy:
      case SQLITE.locked:
        return make(
          "STORE_BUSY",
          `the store ${db} is locked by another process (waited ${busyTimeoutMs} ms for its write lock). Something holds a write transaction open (an sqlite3 shell, a backup, a stuck process): close it and try again.`
        );
      case SQLITE.corrupt:
        return make("STORE", `the store's database ${db} is damaged (${detail}). ${recover}`);
      case SQLITE.notadb:
        return make(
          "STORE",
          `${db} is not an SQLite database (${detail}): its header was overwritten or another file was put in its place. ${recover}`
        );
      case SQLITE.ioerr: {
        const wal = `${db}-wal`;
        if (walMissingAtOpen) {
          return make(
            "STORE",
            `disk I/O error on ${db}: its write-ahead log ${wal} is missing while ${db}-shm says it holds changes: it was deleted while a process had the store open. Stop every process using the store (the last one to close writes the log back), then run the command again; if no process has it open any more, the changes that were only in the log are lost: restore ${wal} from a backup if you have one.`
          );
        }
        return make("STORE", `disk I/O error on ${db} (${detail}): check the disk and the file. ${recover}`);
      }
      case SQLITE.readonly:
        return make(
          "STORE",
          `cannot write to ${db} (${detail}): check that the file, its folder and the ${db}-wal and -shm files beside it are writable by this user, or that the disk is not mounted read-only.`
        );
      case SQLITE.full:
        return make("STORE", `the disk holding ${db} is full (${detail}): free some space and try again.`);
      case SQLITE.cantopen:
        return make(
          "STORE",
          `cannot open ${db} (${detail}): check that the folder exists and is readable and writable by this user.`
        );
      default:
        return err;
    }
  };
}
var SQLITE;
var init_store_open = __esm({
  "core/store-open.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    init_errors();
    init_node_version();
    init_store_database();
    init_store_schema();
    init_tool_files();
    SQLITE = {
      busy: 5,
      locked: 6,
      readonly: 8,
      ioerr: 10,
      corrupt: 11,
      full: 13,
      cantopen: 14,
      notadb: 26
    };
  }
});

// core/store-traces.ts
function createTrace(db, id, task, source) {
  db.stmt("INSERT OR IGNORE INTO traces (id, task, source, started_at) VALUES (?, ?, ?, ?)").run(
    id,
    task,
    source,
    now()
  );
}
function getTrace(db, id) {
  const row = db.stmt("SELECT * FROM traces WHERE id = ?").get(id);
  return row ? traceFromRow(row) : null;
}
function traceIdsStartingWith(db, prefix, limit) {
  const rows = db.stmt("SELECT id FROM traces WHERE substr(id, 1, ?) = ? ORDER BY started_at DESC, rowid DESC LIMIT ?").all(prefix.length, prefix, limit);
  return rows.map((r) => r["id"]);
}
function listTraces(db, limit) {
  const rows = db.stmt("SELECT * FROM traces ORDER BY started_at DESC, rowid DESC LIMIT ?").all(limit);
  return rows.map(traceFromRow);
}
function setTask(db, id, task) {
  db.stmt("UPDATE traces SET task = ? WHERE id = ?").run(task, id);
}
function setOutcome(db, id, success) {
  db.stmt("UPDATE traces SET outcome = ? WHERE id = ?").run(success ? 1 : 0, id);
}
function addUsage(db, id, usage) {
  db.stmt(
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
function endTrace(db, id) {
  db.stmt("UPDATE traces SET ended_at = COALESCE(ended_at, ?) WHERE id = ?").run(now(), id);
}
function setTraceNote(db, id, note) {
  db.stmt("UPDATE traces SET note = ? WHERE id = ?").run(note, id);
}
function getTraceFlags(db, id) {
  return traceFlagsFromRow(db.stmt("SELECT nudged, proposed, replace_name FROM traces WHERE id = ?").get(id));
}
function claimNudge(db, id) {
  const r = db.stmt("UPDATE traces SET nudged = 1 WHERE id = ? AND nudged = 0").run(id);
  return Number(r.changes) === 1;
}
function markProposed(db, id) {
  db.stmt("UPDATE traces SET proposed = 1 WHERE id = ?").run(id);
}
function setReplaceName(db, id, name) {
  db.stmt("UPDATE traces SET replace_name = ? WHERE id = ?").run(name, id);
}
var init_store_traces = __esm({
  "core/store-traces.ts"() {
    "use strict";
    init_store_rows();
  }
});

// core/store-versions.ts
function createVersion(db, root, v) {
  return db.transaction(() => {
    const row = db.stmt("SELECT COALESCE(MAX(version), 0) + 1 AS n FROM versions WHERE name = ?").get(v.name);
    const n = Number(row?.["n"]);
    writeToolCode(root, toolFilePath(root, v.name, n), v.code);
    const at = now();
    db.stmt(
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
    db.stmt(INSERT_HISTORY).run(v.name, n, null, "draft", v.reason, null, at);
    return n;
  });
}
function getVersion(db, name, version) {
  const row = db.stmt("SELECT * FROM versions WHERE name = ? AND version = ?").get(name, version);
  return row ? versionFromRow(row) : null;
}
function listVersions(db, filter) {
  const rows = db.stmt(
    `SELECT * FROM versions WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR status = ?2) ORDER BY name, version`
  ).all(filter.name ?? null, filter.status ?? null);
  return rows.map(versionFromRow);
}
function setStatus(db, change) {
  return db.transaction(() => {
    const r = db.stmt(
      `UPDATE versions SET status = ?1, problems = ?2,
         queued_rebuild = CASE WHEN ?1 = 'deprecated' THEN 0 ELSE queued_rebuild END,
         rebuild_note = CASE WHEN ?1 = 'deprecated' THEN NULL ELSE rebuild_note END
         WHERE name = ?3 AND version = ?4 AND status = ?5`
    ).run(
      change.to,
      JSON.stringify([...new Set(change.problems)].sort()),
      change.name,
      change.version,
      change.expect
    );
    if (Number(r.changes) !== 1) return false;
    db.stmt(INSERT_HISTORY).run(
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
function setVerification(db, name, version, verdict, baselineTokens) {
  db.stmt(
    "UPDATE versions SET verdict = ?, baseline = ?, baseline_tokens = ? WHERE name = ? AND version = ?"
  ).run(JSON.stringify(verdict), verdict.baseline, baselineTokens, name, version);
}
function setReplayRuns(db, name, version, runs) {
  db.stmt("UPDATE versions SET replay_runs = ? WHERE name = ? AND version = ?").run(
    JSON.stringify(runs.map(({ trace, call }) => ({ trace, call }))),
    name,
    version
  );
}
function setQueuedRebuild(db, name, version, queued, note) {
  db.stmt("UPDATE versions SET queued_rebuild = ?, rebuild_note = ? WHERE name = ? AND version = ?").run(
    queued ? 1 : 0,
    note,
    name,
    version
  );
}
function getHistory(db, name, version) {
  const rows = db.stmt("SELECT * FROM status_history WHERE name = ? AND version = ? ORDER BY id").all(name, version);
  return rows.map(historyFromRow);
}
function latestHistory(db) {
  const rows = db.stmt(
    "SELECT * FROM status_history WHERE id IN (SELECT MAX(id) FROM status_history GROUP BY name, version) ORDER BY name, version"
  ).all();
  return rows.map(historyFromRow);
}
function lastActivation(db, name, version) {
  const row = db.stmt(
    "SELECT COALESCE(MAX(id), 0) AS id FROM status_history WHERE name = ? AND version = ? AND to_status = 'active'"
  ).get(name, version);
  return Number(row?.["id"]);
}
function addHistory(db, h) {
  db.stmt(INSERT_HISTORY).run(h.name, h.version, h.from, h.to, h.reason, json(h.evidence), now());
}
function setDependencies(db, name, version, deps) {
  db.transaction(() => {
    db.stmt("DELETE FROM dependencies WHERE name = ? AND version = ?").run(name, version);
    const insert = db.stmt(
      "INSERT INTO dependencies (name, version, base_tool, fingerprint, avoided) VALUES (?, ?, ?, ?, ?)"
    );
    for (const d of deps) insert.run(name, version, d.baseTool, d.fingerprint, d.avoided ? 1 : 0);
  });
}
function getDependencies(db, name, version) {
  const rows = db.stmt(
    "SELECT * FROM dependencies WHERE (?1 IS NULL OR name = ?1) AND (?2 IS NULL OR version = ?2) ORDER BY name, version, base_tool"
  ).all(name ?? null, version ?? null);
  return rows.map(dependencyFromRow);
}
function recordRun(db, name, version, success, innerCalls) {
  db.stmt(
    `INSERT INTO run_stats (name, version, runs, successes, failures, inner_calls, last_run_at) VALUES (?, ?, 1, ?, ?, ?, ?)
     ON CONFLICT (name, version) DO UPDATE SET runs = runs + 1, successes = successes + excluded.successes,
     failures = failures + excluded.failures, inner_calls = inner_calls + excluded.inner_calls, last_run_at = excluded.last_run_at`
  ).run(name, version, success ? 1 : 0, success ? 0 : 1, innerCalls, now());
}
function getRunStats(db, name, version) {
  return runStatsFromRow(
    name,
    version,
    db.stmt("SELECT * FROM run_stats WHERE name = ? AND version = ?").get(name, version)
  );
}
var INSERT_HISTORY;
var init_store_versions = __esm({
  "core/store-versions.ts"() {
    "use strict";
    init_store_rows();
    init_tool_files();
    INSERT_HISTORY = "INSERT INTO status_history (name, version, from_status, to_status, reason, evidence, at) VALUES (?, ?, ?, ?, ?, ?, ?)";
  }
});

// core/store.ts
function adapterSql(store, statement) {
  return databaseOf(store).stmt(statement);
}
var DEFAULT_BUSY_TIMEOUT_MS, databaseOf, Store;
var init_store = __esm({
  "core/store.ts"() {
    "use strict";
    init_node_path();
    init_logger();
    init_recordable();
    init_store_bookkeeping();
    init_store_calls();
    init_store_invariants();
    init_store_open();
    init_store_traces();
    init_store_versions();
    init_tool_files();
    DEFAULT_BUSY_TIMEOUT_MS = 1e4;
    Store = class {
      root;
      dbPath;
      readOnly;
      /** Lifecycle invariants the open check found and could not (or, read-only, did not) repair. */
      lifecycleProblems;
      #db;
      #maxOutputBytes;
      static {
        databaseOf = (store) => store.#db;
      }
      constructor(root, options = {}) {
        this.root = root;
        this.dbPath = join(root, "registry.db");
        this.readOnly = options.readOnly === true;
        this.#maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
        this.#db = openDatabase(root, {
          readOnly: this.readOnly,
          busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
        });
        const logger = options.logger ?? stderrLogger;
        this.lifecycleProblems = options.checkInvariants === false ? [] : checkOnOpen(this, logger);
      }
      /** Runs `fn` in one write transaction, taking the write lock up front so it never deadlocks on upgrade. */
      transaction(fn) {
        return this.#db.transaction(fn);
      }
      /**
       * Runs `fn` inside a savepoint of the current transaction: a throw undoes only what `fn` wrote (one spilled
       * hook event that cannot be applied must not undo the others).
       */
      savepoint(fn) {
        return this.#db.savepoint(fn);
      }
      /** Closes the database; the store object is unusable afterwards. */
      close() {
        this.#db.close();
      }
      /** `PRAGMA integrity_check` ("ok", or SQLite's list of problems), for tests and `tooldistill doctor`. */
      integrityCheck() {
        const rows = this.#db.stmt("PRAGMA integrity_check").all();
        return rows.map((r) => r["integrity_check"]).join("\n");
      }
      // Traces (store-traces.ts).
      /** Creates a trace row; a trace that already exists is left as it is (hooks may race to create it). */
      createTrace(id, task, source) {
        createTrace(this.#db, id, task, source);
      }
      /** The trace, or null. */
      getTrace(id) {
        return getTrace(this.#db, id);
      }
      /** Ids of the traces whose id starts with `prefix` (at most `limit`), for `traces show <prefix>`. */
      traceIdsStartingWith(prefix, limit = 10) {
        return traceIdsStartingWith(this.#db, prefix, limit);
      }
      /** Traces, newest first. */
      listTraces(limit = 50) {
        return listTraces(this.#db, limit);
      }
      /** Sets the task text (Claude Code learns it from the first prompt of a span). */
      setTask(id, task) {
        setTask(this.#db, id, task);
      }
      /** Records the caller's verdict on the run. */
      setOutcome(id, success) {
        setOutcome(this.#db, id, success);
      }
      /** Adds usage to the trace's totals, atomically (several processes may add at once). */
      addUsage(id, usage) {
        addUsage(this.#db, id, usage);
      }
      /** Marks the trace ended (idempotent: the first end time is kept). */
      endTrace(id) {
        endTrace(this.#db, id);
      }
      /** Records why something that should have happened at the end of the run did not. */
      setTraceNote(id, note) {
        setTraceNote(this.#db, id, note);
      }
      /** Nudge and proposal bookkeeping. */
      getTraceFlags(id) {
        return getTraceFlags(this.#db, id);
      }
      /** Sets the nudge at most once: returns false when another caller already took it. */
      claimNudge(id) {
        return claimNudge(this.#db, id);
      }
      /** Any submitted proposal counts as proposing (the fallback distiller then stays out). */
      markProposed(id) {
        markProposed(this.#db, id);
      }
      /** After a distilled tool failed in this run, the nudge asks for a replacement under its name. */
      setReplaceName(id, name) {
        setReplaceName(this.#db, id, name);
      }
      // Calls (store-calls.ts).
      /** Appends a started call; its seq is the next in the trace, allocated inside the write lock. */
      startCall(call) {
        return insertCall(this.#db, call, null, null, this.#maxOutputBytes);
      }
      /**
       * Appends a call that already finished, in one commit: the SDK loop knows the outcome when it records, so it
       * pays for one write instead of a start and a finish.
       */
      appendCall(call, outcome, latencyMs) {
        return insertCall(this.#db, call, outcome, latencyMs, this.#maxOutputBytes);
      }
      /** Completes a call with its output (clipped at the caps; the call's note says so). */
      finishCall(id, output, latencyMs) {
        finishCall(this.#db, id, output, latencyMs, this.#maxOutputBytes);
      }
      /** Completes a call with its error. */
      failCall(id, error, latencyMs) {
        failCall(this.#db, id, error, latencyMs, this.#maxOutputBytes);
      }
      /** Changes what a recorded call counts as (e.g. a Claude Code call later found to be a distilled tool). */
      setCallKind(id, kind, version) {
        setCallKind(this.#db, id, kind, version);
      }
      /**
       * The newest call recorded under an external id (Claude Code's tool_use_id) in the traces whose ids start with
       * `traceIdPrefix` (one session's spans). External ids are only unique within a session: a fake or replayed
       * API may reuse them, so a lookup across the whole store could attach to another session's call.
       */
      getCallByExternalId(externalId, traceIdPrefix) {
        return getCallByExternalId(this.#db, externalId, traceIdPrefix);
      }
      /** Calls still `started` under an external id, newest first, in any trace (the plugin's server picks one). */
      startedCallsByExternalId(externalId) {
        return startedCallsByExternalId(this.#db, externalId);
      }
      /** Every call of a trace in seq order, inner calls included. */
      getCalls(traceId) {
        return getCalls(this.#db, traceId);
      }
      /** Top-level base calls that finished (ok or error): the unit of baselines and of `min_calls_to_distill`. */
      countTopLevelBaseCalls(traceId) {
        return countTopLevelBaseCalls(this.#db, traceId);
      }
      /** The newest `limit` successful live runs of a distilled tool version, newest first, with their base calls. */
      liveRuns(name, version, limit) {
        return liveRuns(this.#db, name, version, limit);
      }
      /** The live runs `refs` names that are still stored and succeeded, in the order given. */
      liveRunsOf(refs) {
        return liveRunsOf(this.#db, refs);
      }
      /** Replaces a call's recorded arguments (the plugin re-canonicalises hook-recorded ones with schema defaults). */
      setCallArgs(id, args) {
        setCallArgs(this.#db, id, args);
      }
      // Small cached values and spilled hook events (store-bookkeeping.ts).
      /** A small cached value (JSON text), or null. */
      getMeta(key) {
        return getMeta(this.#db, key);
      }
      /** Stores a small cached value. */
      setMeta(key, value) {
        setMeta(this.#db, key, value);
      }
      /** True when a spilled hook event was already applied (its file may outlive the commit by a crash). */
      spillApplied(eventId) {
        return spillApplied(this.#db, eventId);
      }
      /** Records a spilled event as applied, in the transaction that applies it. */
      markSpillApplied(eventId) {
        markSpillApplied(this.#db, eventId);
      }
      /** Forgets applied event ids older than `before` (an ISO time): their files are long gone. */
      pruneSpillApplied(before) {
        pruneSpillApplied(this.#db, before);
      }
      // Versions, their history, dependencies and run counters (store-versions.ts, tool-files.ts).
      /**
       * Path of a version's tool file. The name is checked first and the path must stay inside `tools/`: a name
       * read from model-written code must never place a file anywhere else.
       */
      toolFile(name, version) {
        return toolFilePath(this.root, name, version);
      }
      /** Reads a version's code from its file. */
      readCode(name, version) {
        return readToolCode(this.root, name, version);
      }
      /**
       * Stores a new draft version: allocates the next version number, writes `tools/<name>/v<N>.ts` and the row
       * in one transaction, so two proposers of the same name get different numbers.
       */
      createVersion(v) {
        return this.getVersion(v.name, createVersion(this.#db, this.root, v));
      }
      /** A version, or null. */
      getVersion(name, version) {
        return getVersion(this.#db, name, version);
      }
      /** Versions, by name then version; optionally one name and/or one status. */
      listVersions(filter = {}) {
        return listVersions(this.#db, filter);
      }
      /**
       * Applies a status change and records it in the history, in one transaction. `expect` guards against a
       * concurrent change: when the stored status differs, nothing is written and false is returned.
       */
      setStatus(change) {
        return setStatus(this.#db, change);
      }
      /** Stores the latest verdict and the measured baseline of a version. */
      setVerification(name, version, verdict, baselineTokens) {
        setVerification(this.#db, name, version, verdict, baselineTokens);
      }
      /** Records the live runs a version was replayed against, so re-verification replays the same ones. */
      setReplayRuns(name, version, runs) {
        setReplayRuns(this.#db, name, version, runs);
      }
      /** Queues (or unqueues) a version for a rebuild, with the note the distiller will get. */
      setQueuedRebuild(name, version, queued, note) {
        setQueuedRebuild(this.#db, name, version, queued, note);
      }
      /** The status history of a version, oldest first. */
      getHistory(name, version) {
        return getHistory(this.#db, name, version);
      }
      /** The newest history row of every version (its status should be that row's `to`). */
      latestHistory() {
        return latestHistory(this.#db);
      }
      /** The order in which versions last became active (history row id), for telling two actives apart. */
      lastActivation(name, version) {
        return lastActivation(this.#db, name, version);
      }
      /** Appends a history row without changing the version (the open check records a status the history lacked). */
      addHistory(h) {
        addHistory(this.#db, h);
      }
      /** Replaces the dependency rows of a version. */
      setDependencies(name, version, deps) {
        setDependencies(this.#db, name, version, deps);
      }
      /** Dependencies of one version, or of every version when no name is given. */
      getDependencies(name, version) {
        return getDependencies(this.#db, name, version);
      }
      /** Counts one live run of a version. */
      recordRun(name, version, success, innerCalls) {
        recordRun(this.#db, name, version, success, innerCalls);
      }
      /** Run counters of a version (zeros when it never ran). */
      getRunStats(name, version) {
        return getRunStats(this.#db, name, version);
      }
    };
  }
});

// core/trace.ts
function resultContent(value) {
  if (typeof value === "string") return value;
  if (value === void 0) return "null";
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    try {
      return JSON.stringify(clipDepth(value).value) ?? "null";
    } catch (err) {
      return `[the result could not be encoded as JSON: ${errorMessage(err)}]`;
    }
  }
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
    init_errors();
    init_recordable();
  }
});

// core/index.ts
var init_core = __esm({
  "core/index.ts"() {
    "use strict";
    init_node_gate();
    init_errors();
    init_prompts();
    init_store();
  }
});

// core/spill.ts
function spillDir(storeRoot) {
  return join(storeRoot, "spill");
}
function fileKey(sessionId) {
  if (/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) return sessionId;
  let hash = 2166136261;
  for (let i = 0; i < sessionId.length; i++) {
    hash ^= sessionId.charCodeAt(i);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return `session-${hash.toString(16).padStart(8, "0")}`;
}
function newId() {
  return `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
function spillEvent(storeRoot, sessionId, event, text2) {
  const dir = spillDir(storeRoot);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${fileKey(sessionId)}${LIVE}`);
  const record2 = { id: newId(), at: (/* @__PURE__ */ new Date()).toISOString(), event, text: text2 };
  const line = Buffer.from(`${JSON.stringify(record2)}
`);
  for (let attempt = 0; attempt < 5; attempt++) {
    const fd = openSync(file, "a");
    let ino;
    try {
      writeSync(fd, line);
      ino = fstatSync(fd).ino;
    } finally {
      closeSync(fd);
    }
    let now3;
    try {
      now3 = statSync(file).ino;
    } catch {
      now3 = null;
    }
    if (now3 === ino) return record2.id;
  }
  return record2.id;
}
function pendingSpills(storeRoot) {
  let names;
  try {
    names = readdirSync(spillDir(storeRoot));
  } catch {
    return { sessions: [], files: [] };
  }
  const files = names.filter((n) => n.endsWith(LIVE) || n.endsWith(CLAIMED)).sort();
  const sessions = [...new Set(files.map((n) => n.slice(0, n.indexOf("."))))];
  return { sessions, files: files.map((n) => join(spillDir(storeRoot), n)) };
}
function applySpills(store, sessionId, apply) {
  const report = { applied: 0, skipped: 0, failed: [] };
  const dir = spillDir(store.root);
  const quick = pendingSpills(store.root);
  const keys = sessionId === null ? quick.sessions : quick.sessions.filter((s) => s === fileKey(sessionId));
  if (keys.length === 0) return report;
  const claimed = [];
  store.transaction(() => {
    for (const key of keys) {
      const files = readdirSync(dir).filter((n) => n.startsWith(`${key}.`) && n.endsWith(CLAIMED)).sort().map((n) => join(dir, n));
      const live = join(dir, `${key}${LIVE}`);
      const claim = join(dir, `${key}.${String(Date.now()).padStart(15, "0")}-${process.pid}${CLAIMED}`);
      try {
        renameSync(live, claim);
        files.push(claim);
      } catch {
      }
      for (const file of files) {
        claimed.push(file);
        for (const line of readFileSync(file, "utf8").split("\n")) {
          if (line.trim() === "") continue;
          let event;
          try {
            event = JSON.parse(line);
          } catch {
            report.failed.push(`${file}: a torn line was dropped`);
            continue;
          }
          if (store.spillApplied(event.id)) {
            report.skipped++;
            continue;
          }
          try {
            store.savepoint(() => apply(event));
            report.applied++;
          } catch (err) {
            report.failed.push(`${event.event} of ${event.at}: ${errorMessage(err)}`);
          }
          store.markSpillApplied(event.id);
        }
      }
    }
    store.pruneSpillApplied(new Date(Date.now() - KEEP_IDS_MS).toISOString());
  });
  for (const file of claimed) {
    try {
      unlinkSync(file);
    } catch {
    }
  }
  return report;
}
var KEEP_IDS_MS, LIVE, CLAIMED;
var init_spill = __esm({
  "core/spill.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    init_errors();
    KEEP_IDS_MS = 24 * 60 * 60 * 1e3;
    LIVE = ".jsonl";
    CLAIMED = ".claimed";
  }
});

// core/log-file.ts
function appendLog(file, line, maxBytes = DEFAULT_LOG_BYTES) {
  const text2 = `${line.endsWith("\n") ? line.slice(0, -1) : line}
`;
  try {
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      mkdirSync(dirname(file), { recursive: true });
    }
    if (size > 0 && size + Buffer.byteLength(text2) > maxBytes) {
      try {
        renameSync(file, `${file}.1`);
      } catch {
      }
    }
    appendFileSync(
      file,
      Buffer.byteLength(text2) > maxBytes ? `${text2.slice(0, maxBytes - 20)}\u2026 [cut]
` : text2
    );
    return true;
  } catch {
    return false;
  }
}
var DEFAULT_LOG_BYTES;
var init_log_file = __esm({
  "core/log-file.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    DEFAULT_LOG_BYTES = 1024 * 1024;
  }
});

// core/internal.ts
var init_internal = __esm({
  "core/internal.ts"() {
    "use strict";
    init_canonical();
    init_config_file();
    init_errors();
    init_log_file();
    init_mcp_result();
    init_prompts();
    init_recordable();
    init_spill();
    init_store();
    init_text();
    init_tool_names();
    init_trace();
  }
});

// claude-code/plugin-names.ts
function isDistillPrompt(prompt) {
  return /^\s*\/tooldistill:distill(\s|$)/.test(prompt);
}
var PLUGIN_TOOL_PREFIX, DISTILL_COMMAND;
var init_plugin_names = __esm({
  "claude-code/plugin-names.ts"() {
    "use strict";
    PLUGIN_TOOL_PREFIX = "mcp__plugin_tooldistill_td__";
    DISTILL_COMMAND = "tooldistill:distill";
  }
});

// claude-code/distill-context.ts
function short(value) {
  return clip(resultContent(value), SUMMARY_CHARS);
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
var SUMMARY_CHARS;
var init_distill_context = __esm({
  "claude-code/distill-context.ts"() {
    "use strict";
    init_core();
    init_internal();
    init_plugin_names();
    SUMMARY_CHARS = 200;
  }
});

// claude-code/hook-events.ts
function isHookEvent(name) {
  return HookEvents.includes(name);
}
function need(value, field) {
  if (value === void 0) throw new DistillError("USAGE", `the hook input has no ${field}`);
  return value;
}
function toolStart(sessionId, input) {
  return {
    sessionId,
    toolName: need(input.tool_name, "tool_name"),
    toolInput: input.tool_input,
    toolUseId: need(input.tool_use_id, "tool_use_id")
  };
}
function sessionEvent(event, input) {
  const sessionId = need(input.session_id, "session_id");
  switch (event) {
    case "SessionStart":
      return { type: "session-start", sessionId };
    case "UserPromptSubmit": {
      const prompt = input.prompt ?? "";
      return isDistillPrompt(prompt) ? { type: "confirm", sessionId } : { type: "prompt", sessionId, prompt };
    }
    case "UserPromptExpansion":
      return input.command_name === DISTILL_COMMAND ? { type: "confirm", sessionId } : { type: "none", sessionId };
    case "PreToolUse":
      return { type: "tool-start", sessionId, call: toolStart(sessionId, input) };
    case "PostToolUse":
    case "PostToolUseFailure":
      return {
        type: "tool-end",
        sessionId,
        call: {
          ...toolStart(sessionId, input),
          durationMs: input.duration_ms ?? null,
          outcome: event === "PostToolUse" ? { response: input.tool_response } : { error: input.error ?? "failed" }
        }
      };
    case "SessionEnd":
      return { type: "session-end", sessionId };
  }
}
var HookEvents;
var init_hook_events = __esm({
  "claude-code/hook-events.ts"() {
    "use strict";
    init_core();
    init_plugin_names();
    HookEvents = [
      "SessionStart",
      "UserPromptSubmit",
      "UserPromptExpansion",
      "PreToolUse",
      "PostToolUse",
      "PostToolUseFailure",
      "SessionEnd"
    ];
  }
});

// claude-code/session-store.ts
function now2() {
  return (/* @__PURE__ */ new Date()).toISOString();
}
function sessionSpan(store, sessionId) {
  adapterSql(
    store,
    "INSERT OR IGNORE INTO cc_sessions (session_id, span, confirmed, updated_at) VALUES (?, 1, 0, ?)"
  ).run(sessionId, now2());
  return findSessionSpan(store, sessionId);
}
function findSessionSpan(store, sessionId) {
  const row = adapterSql(store, SELECT_SPAN).get(sessionId);
  return row ? { sessionId, span: Number(row["span"]), confirmed: Boolean(row["confirmed"]) } : null;
}
function advanceSpan(store, sessionId, from) {
  adapterSql(
    store,
    "UPDATE cc_sessions SET span = span + 1, confirmed = 0, updated_at = ? WHERE session_id = ? AND span = ?"
  ).run(now2(), sessionId, from);
}
function markSpanConfirmed(store, sessionId, span) {
  adapterSql(
    store,
    "UPDATE cc_sessions SET confirmed = 1, updated_at = ? WHERE session_id = ? AND span = ?"
  ).run(now2(), sessionId, span);
}
var SELECT_SPAN;
var init_session_store = __esm({
  "claude-code/session-store.ts"() {
    "use strict";
    init_internal();
    SELECT_SPAN = "SELECT span, confirmed FROM cc_sessions WHERE session_id = ?";
  }
});

// claude-code/session.ts
function spanTraceId(sessionId, span) {
  return `${spanPrefix(sessionId)}${span}`;
}
function spanPrefix(sessionId) {
  return `${sessionId}.`;
}
function currentSpan(store, sessionId) {
  return store.transaction(() => {
    const s = sessionSpan(store, sessionId);
    const traceId = spanTraceId(sessionId, s.span);
    store.createTrace(traceId, "", "claude-code");
    return { traceId, span: s.span, confirmed: s.confirmed };
  });
}
function userPrompt(store, sessionId, prompt) {
  return store.transaction(() => {
    let cur = currentSpan(store, sessionId);
    if (cur.confirmed) {
      advanceSpan(store, sessionId, cur.span);
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
    markSpanConfirmed(store, sessionId, cur.span);
    return { ...cur, confirmed: true };
  });
}
var init_session = __esm({
  "claude-code/session.ts"() {
    "use strict";
    init_session_store();
  }
});

// claude-code/tool-identity.ts
function normalizedServer(name) {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}
function isMcpToolName(name) {
  return name.startsWith(MCP_PREFIX);
}
function identifyTool(name, baseServers) {
  if (name.startsWith(PLUGIN_TOOL_PREFIX)) {
    const tool = name.slice(PLUGIN_TOOL_PREFIX.length);
    return { tool, kind: tool === PROPOSE_TOOL_NAME ? "proposal" : "distilled" };
  }
  if (isMcpToolName(name)) {
    const rest = name.slice(MCP_PREFIX.length);
    for (const server of baseServers) {
      const prefix = baseToolName(normalizedServer(server), "");
      if (rest.startsWith(prefix) && rest.length > prefix.length) {
        return { tool: baseToolName(server, rest.slice(prefix.length)), kind: "base" };
      }
    }
  }
  return { tool: name, kind: "other" };
}
var MCP_PREFIX;
var init_tool_identity = __esm({
  "claude-code/tool-identity.ts"() {
    "use strict";
    init_core();
    init_internal();
    init_plugin_names();
    MCP_PREFIX = "mcp__";
  }
});

// claude-code/tool-calls.ts
function recordedArgs(input, schema) {
  const args = isPlainObject(input) ? input : input === void 0 ? {} : { value: input };
  const safe = clipDepth(args);
  return {
    value: canonicalArgs(safe.value, schema),
    note: safe.note === null ? null : `arguments: ${safe.note}`
  };
}
function newCall(call, cur, ctx) {
  const id = identifyTool(call.toolName, ctx.baseServers);
  const kind = id.kind === "base" && cur.confirmed ? "other" : id.kind;
  const schema = id.kind === "base" ? ctx.baseTools.find((t) => t.name === id.tool)?.input_schema : void 0;
  const args = recordedArgs(call.toolInput, schema);
  return {
    traceId: cur.traceId,
    tool: id.tool,
    kind,
    args: args.value,
    externalId: call.toolUseId,
    note: args.note
  };
}
function recordToolStart(store, call, ctx) {
  return store.transaction(() => {
    const existing = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (existing) return existing.id;
    return store.startCall(newCall(call, currentSpan(store, call.sessionId), ctx));
  });
}
function responseValue(toolName, response) {
  if (isMcpToolName(toolName)) return mcpHookResponseToValue(response);
  return response ?? null;
}
function recordToolEnd(store, call, ctx) {
  const outcome = "error" in call.outcome ? { error: call.outcome.error } : { output: responseValue(call.toolName, call.outcome.response) };
  store.transaction(() => {
    const rec = store.getCallByExternalId(call.toolUseId, spanPrefix(call.sessionId));
    if (!rec) {
      store.appendCall(newCall(call, currentSpan(store, call.sessionId), ctx), outcome, call.durationMs);
      return;
    }
    if (rec.status !== "started") return;
    if ("error" in outcome) store.failCall(rec.id, outcome.error, call.durationMs);
    else store.finishCall(rec.id, outcome.output, call.durationMs);
  });
}
var init_tool_calls = __esm({
  "claude-code/tool-calls.ts"() {
    "use strict";
    init_internal();
    init_session();
    init_tool_identity();
  }
});

// claude-code/session-events.ts
function applySessionEvent(store, ev, ctx) {
  switch (ev.type) {
    case "session-start":
      currentSpan(store, ev.sessionId);
      return;
    case "prompt":
      userPrompt(store, ev.sessionId, ev.prompt);
      return;
    case "confirm":
      confirmSpan(store, ev.sessionId);
      return;
    case "tool-start":
      recordToolStart(store, ev.call, ctx);
      return;
    case "tool-end":
      recordToolEnd(store, ev.call, ctx);
      return;
    case "session-end":
      if (findSessionSpan(store, ev.sessionId)) store.endTrace(currentSpan(store, ev.sessionId).traceId);
      return;
    case "none":
      return;
  }
}
function applySpilledEvents(store, sessionId, baseServers) {
  return applySpills(store, sessionId, (spilled) => {
    if (!isHookEvent(spilled.event)) throw new DistillError("USAGE", `unknown hook event '${spilled.event}'`);
    const input = JSON.parse(spilled.text);
    const ctx = { baseServers, baseTools: cachedBaseTools(store) };
    applySessionEvent(store, sessionEvent(spilled.event, input), ctx);
  });
}
var init_session_events = __esm({
  "claude-code/session-events.ts"() {
    "use strict";
    init_core();
    init_internal();
    init_base_tools();
    init_hook_events();
    init_session();
    init_session_store();
    init_tool_calls();
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
  const { config: full, settings, baseServers } = await loadFullConfig(configPath, env);
  const mcpStamp = full.mcpConfig === null ? null : stamp(full.mcpConfig);
  const config = {
    path: configPath,
    store: full.store,
    baseServers,
    settings
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
    CACHE_VERSION = 2;
  }
});

// hooks/run.ts
var run_exports = {};
__export(run_exports, {
  HOOK_BUSY_TIMEOUT_MS: () => HOOK_BUSY_TIMEOUT_MS,
  handleHookInput: () => handleHookInput,
  runHook: () => runHook,
  setupHint: () => setupHint
});
function setupHint(projectDir) {
  return `tooldistill: no tooldistill.yaml in ${projectDir}, so this session is not recorded. To distil this project's MCP tools, add a tooldistill.yaml with \`mcp_config: .mcp.json\` (or run \`npx tooldistill init\` and set mcp_config), then start a new session.`;
}
function record(store, event, text2, ev, config, log) {
  try {
    const spilled = applySpilledEvents(store, ev.sessionId, config.baseServers);
    for (const problem of spilled.failed) log(`a spilled event could not be applied: ${problem}`);
    const ctx = { baseServers: config.baseServers, baseTools: cachedBaseTools(store) };
    store.transaction(() => applySessionEvent(store, ev, ctx));
    return "recorded";
  } catch (err) {
    if (!(err instanceof DistillError && err.code === "STORE_BUSY")) throw err;
    spillEvent(store.root, ev.sessionId, event, text2);
    log(
      `the store was locked by another process for ${HOOK_BUSY_TIMEOUT_MS} ms: the event was spilled to spill/ and is applied by the next hook or the td server`
    );
    return "spilled";
  }
}
function respond(event, input, ev, config, store, rt) {
  if (event === "UserPromptSubmit" && ev.type === "confirm") {
    const traceId = spanTraceId(ev.sessionId, findSessionSpan(store, ev.sessionId)?.span ?? 1);
    const notes = (input.prompt ?? "").trim().replace(/^\/tooldistill:distill/, "");
    return {
      hookSpecificOutput: { hookEventName: event, additionalContext: distillContext(store, traceId, notes) }
    };
  }
  if (event === "SessionEnd") {
    const span = findSessionSpan(store, ev.sessionId);
    if (!span) return null;
    const traceId = spanTraceId(ev.sessionId, span.span);
    const wanted = config.settings.fallbackDistiller && Boolean(rt.env["ANTHROPIC_API_KEY"]) && worthDistilling(store, traceId, config.settings.minCallsToDistill);
    if (wanted) (rt.startFallback ?? startFallbackProcess)(config.path, traceId);
  }
  return null;
}
function startFallbackProcess(configPath, traceId) {
  const { spawn } = process.getBuiltinModule("node:child_process");
  const entry = process.argv[1] ?? "";
  const script = join(dirname(entry), `fallback${extname(entry) || ".js"}`);
  const child = spawn(process.execPath, [script, configPath, traceId], { detached: true, stdio: "ignore" });
  child.unref();
}
function logLine(logFile, event, message, toStderr) {
  if (toStderr) process.stderr.write(`tooldistill ${event} hook: ${message.split("\n")[0]}
`);
  if (logFile !== null) appendLog(logFile, `${(/* @__PURE__ */ new Date()).toISOString()} ${event}: ${message}`);
}
function parseInput(text2) {
  if (text2.trim() === "") {
    return {
      problem: "stdin was empty: Claude Code sends the event as JSON on stdin, so nothing was recorded"
    };
  }
  try {
    const value = JSON.parse(text2);
    if (isPlainObject(value)) return { input: value };
    return { problem: `stdin is JSON but not an object (${text2.slice(0, 80)}), so nothing was recorded` };
  } catch (err) {
    const head = oneLine(text2, 200);
    return {
      problem: `stdin is not JSON (${errorMessage(err)}), so nothing was recorded; it began: ${head}`
    };
  }
}
async function handleHookInput(event, text2, rt) {
  let logFile = null;
  try {
    const parsed = parseInput(text2);
    const projectDir = rt.env["CLAUDE_PROJECT_DIR"] || ("input" in parsed ? parsed.input.cwd : void 0) || process.cwd();
    logFile = join(projectDir, ".tooldistill", "hooks.log");
    const configPath = findConfig(projectDir);
    if (configPath === null) {
      if (!("input" in parsed)) logLine(null, event, parsed.problem, true);
      return event === "SessionStart" ? { systemMessage: setupHint(projectDir) } : null;
    }
    const config = await hookConfig(configPath, rt.env, (message) => logLine(logFile, event, message, true));
    logFile = join(config.store, "hooks.log");
    if (!("input" in parsed)) {
      logLine(logFile, event, parsed.problem, true);
      return null;
    }
    const ev = sessionEvent(event, parsed.input);
    const file = logFile;
    const log = (message) => logLine(file, event, message, false);
    let store;
    try {
      store = new Store(config.store, {
        busyTimeoutMs: HOOK_BUSY_TIMEOUT_MS,
        maxOutputBytes: config.settings.maxOutputBytes,
        checkInvariants: false
      });
    } catch (err) {
      if (!(err instanceof DistillError && err.code === "STORE_BUSY")) throw err;
      spillEvent(config.store, ev.sessionId, event, text2);
      log(`the store was locked by another process while opening it: the event was spilled to spill/`);
      return null;
    }
    try {
      record(store, event, text2, ev, config, log);
      return respond(event, parsed.input, ev, config, store, rt);
    } finally {
      store.close();
    }
  } catch (err) {
    const detail = err instanceof DistillError ? err.message : err instanceof Error ? err.stack ?? err.message : String(err);
    logLine(logFile, event, detail, true);
    return null;
  }
}
async function runHook(event) {
  let text2 = "";
  try {
    text2 = readFileSync(0, "utf8");
  } catch (err) {
    logLine(null, event, `cannot read stdin: ${errorMessage(err)}`, true);
  }
  const output = await handleHookInput(event, text2, { env: process.env });
  if (output) process.stdout.write(`${JSON.stringify(output)}
`);
}
var HOOK_BUSY_TIMEOUT_MS;
var init_run = __esm({
  "hooks/run.ts"() {
    "use strict";
    init_node_fs();
    init_node_path();
    init_base_tools();
    init_distill_context();
    init_hook_events();
    init_session();
    init_session_events();
    init_session_store();
    init_core();
    init_internal();
    init_hook_config();
    HOOK_BUSY_TIMEOUT_MS = 200;
  }
});

// claude-code/node-check.ts
init_node_version();
function nodeSupported() {
  const problem = nodeVersionProblem();
  if (problem === null) {
    quietSqliteWarning();
    return true;
  }
  process.stderr.write(`${problem}
`);
  process.exitCode = 1;
  return false;
}
function quietSqliteWarning() {
  const emit = process.emitWarning;
  process.emitWarning = ((warning, ...rest) => {
    const first = rest[0];
    const type = typeof first === "string" ? first : first?.type;
    const text2 = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && text2.startsWith("SQLite ")) return;
    Reflect.apply(emit, process, [warning, ...rest]);
  });
}

// hooks/session-start.ts
if (nodeSupported()) {
  const { runHook: runHook2 } = await Promise.resolve().then(() => (init_run(), run_exports));
  await runHook2("SessionStart");
}
