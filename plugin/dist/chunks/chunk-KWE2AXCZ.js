import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  toolNameShapeProblem
} from "./chunk-ZQYAE2VL.js";
import {
  setOwn
} from "./chunk-VH3A3DZF.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/store/postgres/postgres-connect.ts
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
        if (oid === OID.json || oid === OID.jsonb) return (text) => text;
        if (oid === OID.int8) return Number;
        if (oid === OID.timestamptz) return (text) => timestamp(text).toISOString();
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
  const make = (c, text) => new DistillError(c, text, { cause: err });
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

// core/trace/recordable.ts
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
  let text;
  try {
    text = JSON.stringify(safe.value) ?? "null";
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      text: JSON.stringify(`[not recorded: the output is not JSON (${why})]`),
      note: `the output could not be recorded as JSON: ${why}`,
      clipped: true
    };
  }
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { text, note: safe.note, clipped: safe.note !== null };
  const note = `output clipped: ${formatBytes(bytes)} is over the ${formatBytes(maxBytes)} cap (max_output_bytes in tooldistill.yaml); its first ${PREVIEW_CHARS.toLocaleString("en-US")} characters are kept`;
  return {
    text: JSON.stringify(`${text.slice(0, PREVIEW_CHARS)}\u2026 [clipped]`),
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

// core/store/tool-files.ts
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
var TOOL_FILE = /^v(\d+)\.ts$/;
function hashSource(source) {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(source).digest("hex");
}
function toolFilePath(root, name, version) {
  const problem = toolNameShapeProblem(name);
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
  hashSource,
  toolFilePath,
  readToolCode,
  writeToolCode,
  listToolFiles,
  countToolFiles
};
