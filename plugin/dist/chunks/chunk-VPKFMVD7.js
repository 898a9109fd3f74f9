import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  toolNameShapeProblem
} from "./chunk-7GUC6VD2.js";
import {
  setOwn
} from "./chunk-6YXHXBUL.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/store/store-url.ts
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
  isPostgresUrl,
  refusePostgresUrl,
  parseStoreUrl,
  DEFAULT_MAX_OUTPUT_BYTES,
  clipDepth,
  recordableOutput,
  recordableError,
  resultContent,
  hashSource,
  toolFilePath,
  readToolCode,
  writeToolCode,
  listToolFiles,
  countToolFiles
};
