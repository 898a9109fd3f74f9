import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  exposedVersions,
  proposeToolDefinition,
  toolDefinition
} from "./chunk-ASUB56OA.js";
import {
  SqliteRegistryStore,
  checkLifecycle,
  openConfiguredStore
} from "./chunk-ZJCKCYN7.js";
import {
  TRANSFER_ORDER,
  emptyCounts
} from "./chunk-UT4SHXKT.js";
import {
  countToolFiles,
  hashSource,
  isPostgresUrl,
  listToolFiles
} from "./chunk-VPKFMVD7.js";
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import {
  isPlainObject
} from "./chunk-6YXHXBUL.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";

// core/store/spill.ts
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync
} from "node:fs";
import { join } from "node:path";
var KEEP_IDS_MS = 24 * 60 * 60 * 1e3;
var LIVE = ".jsonl";
var CLAIMED = ".claimed";
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
function pendingKeys(root, sessionId) {
  const { sessions } = pendingSpills(root);
  return sessionId === null ? sessions : sessions.filter((s) => s === fileKey(sessionId));
}
function claimFiles(dir, key) {
  const files = readdirSync(dir).filter((n) => n.startsWith(`${key}.`) && n.endsWith(CLAIMED)).sort().map((n) => join(dir, n));
  const live = join(dir, `${key}${LIVE}`);
  const claim = join(dir, `${key}.${String(Date.now()).padStart(15, "0")}-${process.pid}${CLAIMED}`);
  try {
    renameSync(live, claim);
    files.push(claim);
  } catch {
  }
  return files;
}
function readSpilled(file, report) {
  const events = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      report.failed.push(`${file}: a torn line was dropped`);
    }
  }
  return events;
}
function pruneBefore() {
  return new Date(Date.now() - KEEP_IDS_MS).toISOString();
}
function removeFiles(claimed) {
  for (const file of claimed) {
    try {
      unlinkSync(file);
    } catch {
    }
  }
}

// core/util/log-file.ts
import { appendFileSync, mkdirSync as mkdirSync2, renameSync as renameSync2, statSync as statSync2 } from "node:fs";
import { dirname } from "node:path";
var DEFAULT_LOG_BYTES = 1024 * 1024;
function appendLog(file, line, maxBytes = DEFAULT_LOG_BYTES) {
  const text = `${line.endsWith("\n") ? line.slice(0, -1) : line}
`;
  try {
    let size = 0;
    try {
      size = statSync2(file).size;
    } catch {
      mkdirSync2(dirname(file), { recursive: true });
    }
    if (size > 0 && size + Buffer.byteLength(text) > maxBytes) {
      try {
        renameSync2(file, `${file}.1`);
      } catch {
      }
    }
    appendFileSync(
      file,
      Buffer.byteLength(text) > maxBytes ? `${text.slice(0, maxBytes - 20)}\u2026 [cut]
` : text
    );
    return true;
  } catch {
    return false;
  }
}

// core/store/doctor.ts
import { existsSync, mkdirSync as mkdirSync3, readFileSync as readFileSync2, renameSync as renameSync3 } from "node:fs";
import { join as join2 } from "node:path";
function stamp() {
  return (/* @__PURE__ */ new Date()).toISOString().replace(/[:.]/g, "-");
}
function moveAside(root, files) {
  const target = join2(root, "orphaned", stamp());
  for (const f of files) {
    mkdirSync3(join2(target, f.name), { recursive: true });
    renameSync3(f.file, join2(target, f.name, f.file.slice(f.file.lastIndexOf("/") + 1)));
  }
  return target;
}
async function doctor(root, options) {
  const report = { store: root, findings: [], fixed: [], ok: true };
  const finish = () => {
    report.ok = report.findings.every((f) => f.fix !== null && options.fix);
    return report;
  };
  if (!existsSync(root)) {
    report.findings.push({
      kind: "store_missing",
      message: `no store at ${root}: nothing has been recorded there yet`,
      fix: null,
      command: "check store: in tooldistill.yaml (or --config); a store is created by the first recorded run or by tooldistill init"
    });
    return finish();
  }
  const dbPath = join2(root, "registry.db");
  const open = () => SqliteRegistryStore.open(root, { readOnly: !options.fix, checkInvariants: false, logger: silentLogger });
  let store;
  try {
    store = open();
  } catch (err) {
    const message = errorMessage(err);
    const files = countToolFiles(root);
    if (err instanceof DistillError && files > 0 && / holds \d+ tool files?: the registry/.test(message)) {
      report.findings.push({
        kind: "registry_lost",
        message: message.slice(0, message.indexOf(": the registry")),
        fix: "moves the tool files to orphaned/ and starts a new, empty registry (restore registry.db from a backup instead to keep the tools' statuses and the recorded runs)",
        command: null
      });
      if (!options.fix) return finish();
      const target = moveAside(root, listToolFiles(root));
      report.fixed.push(`moved ${files} tool file${files === 1 ? "" : "s"} to ${target}`);
      store = open();
    } else {
      const older = err instanceof DistillError && /written by an older tooldistill/.test(message);
      report.findings.push({
        kind: older ? "schema" : "database",
        message,
        fix: older ? "upgrades the store's schema" : null,
        command: older ? null : "see the message: restore from a backup or recover with sqlite3 .recover"
      });
      return finish();
    }
  }
  try {
    const integrity = await store.integrityCheck();
    if (integrity !== "ok") {
      report.findings.push({
        kind: "integrity",
        message: `SQLite's integrity check of ${dbPath} found: ${integrity.split("\n").slice(0, 5).join("; ")}`,
        fix: null,
        command: `stop every process using the store, then restore registry.db from a backup or run: sqlite3 ${dbPath} ".recover" | sqlite3 recovered.db, and put recovered.db in its place`
      });
    }
    const lifecycle = await checkLifecycle(store);
    for (const p of lifecycle) {
      report.findings.push({ kind: "lifecycle", message: p.message, fix: p.repair, command: p.command });
    }
    const repairable = lifecycle.filter((p) => p.apply);
    if (options.fix && repairable.length > 0) {
      await store.transaction(async (tx) => {
        for (const p of repairable) await p.apply?.(tx);
      });
      for (const p of repairable) report.fixed.push(`${p.message}: ${p.repair}`);
    }
    const versions = new Map((await store.listVersions()).map((v) => [`${v.name}/${v.version}`, v]));
    const orphans = [];
    for (const f of listToolFiles(root)) {
      if (!versions.has(`${f.name}/${f.version}`)) orphans.push(f);
    }
    for (const o of orphans) {
      report.findings.push({
        kind: "orphan_file",
        message: `${o.file} belongs to no version (left by an interrupted proposal or a lost registry)`,
        fix: "moves it to orphaned/",
        command: null
      });
    }
    if (options.fix && orphans.length > 0) {
      report.fixed.push(
        `moved ${orphans.length} orphaned file${orphans.length === 1 ? "" : "s"} to ${moveAside(root, orphans)}`
      );
    }
    for (const v of versions.values()) {
      if (v.status === "deprecated") continue;
      let code = null;
      try {
        code = readFileSync2(store.toolFile(v.name, v.version), "utf8");
      } catch {
        code = null;
      }
      const id = `${v.name} v${v.version}`;
      if (code === null) {
        report.findings.push({
          kind: "missing_file",
          message: `${id} is ${v.status} but its file ${store.toolFile(v.name, v.version)} is missing`,
          fix: null,
          command: `restore the file, or run tooldistill deprecate ${v.name} --version ${v.version}`
        });
      } else if (hashSource(code) !== v.sourceHash) {
        report.findings.push({
          kind: "edited_file",
          message: `${id}'s file was edited after it was verified, so it is refused at run time`,
          fix: null,
          command: `restore the file, or propose the edited code as a new version`
        });
      }
    }
    const pending = pendingSpills(root);
    if (pending.files.length > 0) {
      report.findings.push({
        kind: "spill",
        message: `${pending.files.length} spill file${pending.files.length === 1 ? "" : "s"} of ${pending.sessions.length} session${pending.sessions.length === 1 ? "" : "s"} hold hook events recorded while the store was locked`,
        fix: options.applySpilled ? "applies them in order (the next hook or the td server would too)" : null,
        command: options.applySpilled ? null : "start a Claude Code session in the project: its next hook applies them"
      });
      if (options.fix && options.applySpilled) {
        const applied = await options.applySpilled();
        report.fixed.push(`applied ${applied.applied} spilled hook event${applied.applied === 1 ? "" : "s"}`);
        for (const failed of applied.failed) {
          report.findings.push({
            kind: "spill",
            message: `a spilled hook event could not be applied: ${failed}`,
            fix: null,
            command: "see hooks.log in the store"
          });
        }
      }
    }
  } catch (err) {
    if (!(err instanceof DistillError)) throw err;
    report.findings.push({ kind: "database", message: err.message, fix: null, command: null });
  } finally {
    await store.close();
  }
  return finish();
}

// core/store/transfer/registry-transfer.ts
async function copyRegistry(from, to) {
  if (from === to || from.kind === to.kind && from.location === to.location) {
    throw new DistillError(
      "USAGE",
      `cannot copy the store ${from.location} onto itself: name another target.`
    );
  }
  if (!await to.isEmpty()) {
    throw new DistillError(
      "USAGE",
      `the store ${to.location} is not empty: a copy never merges two registries, so nothing was written. Copy into an empty database or a new folder, or empty the target first.`
    );
  }
  return to.importRegistry(
    checkedBatches(from.exportRegistry(), from.location, (n, v) => from.codeLocation(n, v))
  );
}
async function* checkedBatches(batches, where, codeLocation) {
  let at = 0;
  try {
    for await (const batch of batches) {
      const index = TRANSFER_ORDER.indexOf(batch.table);
      if (index < at) {
        throw new DistillError(
          "STORE",
          `${where} has ${batch.table} after ${TRANSFER_ORDER[at]}: a copy needs its tables in the order ${TRANSFER_ORDER.join(", ")}.`
        );
      }
      at = index;
      if (batch.table === "versions") {
        for (const v of batch.rows) {
          if (hashSource(v.code) !== v.sourceHash) {
            throw new DistillError(
              "TOOL_FILE_CHANGED",
              `the code of ${v.name} v${v.version} (${codeLocation(v.name, v.version)}) was changed after it was stored: its sha256 no longer matches the registry's. Restore the code it was verified with, then copy again.`
            );
          }
        }
      }
      yield batch;
    }
  } catch (err) {
    if (err instanceof DistillError) {
      throw new DistillError(err.code, `the copy stopped and wrote nothing: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

// core/store/transfer/registry-file.ts
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync as existsSync2, rmSync } from "node:fs";
import { rename } from "node:fs/promises";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
var REGISTRY_FILE_FORMAT = "tooldistill-registry";
var REGISTRY_FILE_VERSION = 1;
async function writeLine(out, value) {
  if (!out.write(`${JSON.stringify(value)}
`)) await once(out, "drain");
}
async function close(out) {
  await new Promise(
    (resolve2, reject) => out.end((err) => err ? reject(err) : resolve2())
  );
}
async function exportRegistryFile(store, file, options = {}) {
  if (existsSync2(file) && options.overwrite !== true) {
    throw new DistillError(
      "USAGE",
      `${file} already exists: choose another file name, or pass --force to replace it.`
    );
  }
  const body = `${file}.${process.pid}.body`;
  const partial = `${file}.${process.pid}.partial`;
  try {
    const counts = emptyCounts();
    const rows = createWriteStream(body);
    try {
      for await (const batch of checkedBatches(
        store.exportRegistry(),
        store.location,
        (n, v) => store.codeLocation(n, v)
      )) {
        counts[batch.table] += batch.rows.length;
        await writeLine(rows, batch);
      }
    } finally {
      await close(rows);
    }
    const header = {
      format: REGISTRY_FILE_FORMAT,
      version: REGISTRY_FILE_VERSION,
      source: store.kind,
      location: store.location,
      exportedAt: (/* @__PURE__ */ new Date()).toISOString(),
      counts
    };
    const out = createWriteStream(partial);
    await writeLine(out, header);
    await pipeline(createReadStream(body), out);
    await rename(partial, file);
    return header;
  } catch (err) {
    if (err instanceof DistillError) throw err;
    throw new DistillError(
      "STORE",
      `cannot write ${file}: ${errorMessage(err)}. Check the folder is writable.`,
      {
        cause: err
      }
    );
  } finally {
    rmSync(body, { force: true });
    rmSync(partial, { force: true });
  }
}
function bad(file, line, what) {
  return new DistillError("USAGE", `${basename(file)}:${line}: ${what}`);
}
async function readRegistryFileHeader(file) {
  const lines = openLines(file);
  try {
    const first = await lines.next();
    return parseHeader(file, first.done ? "" : first.value);
  } finally {
    await lines.return(void 0);
  }
}
async function* openLines(file) {
  if (!existsSync2(file)) {
    throw new DistillError(
      "NOT_FOUND",
      `${file}: no such file; give the path of a file \`tooldistill export\` wrote.`
    );
  }
  const input = createReadStream(file, { encoding: "utf8" });
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    yield* reader;
  } catch (err) {
    throw new DistillError("USAGE", `cannot read ${file}: ${errorMessage(err)}`, { cause: err });
  } finally {
    reader.close();
    input.destroy();
  }
}
function parseHeader(file, text) {
  let header;
  try {
    header = JSON.parse(text);
  } catch {
    header = null;
  }
  if (!isPlainObject(header) || header["format"] !== REGISTRY_FILE_FORMAT) {
    throw bad(
      file,
      1,
      `not a tooldistill registry export (its first line is no ${REGISTRY_FILE_FORMAT} header)`
    );
  }
  const version = header["version"];
  if (typeof version !== "number" || version > REGISTRY_FILE_VERSION) {
    throw bad(
      file,
      1,
      `written in format version ${String(version)}, newer than this tooldistill reads (${REGISTRY_FILE_VERSION}): upgrade tooldistill to import it`
    );
  }
  const counts = header["counts"];
  if (!isPlainObject(counts) || TRANSFER_ORDER.some((t) => typeof counts[t] !== "number")) {
    throw bad(file, 1, `the header has no row count for every table (${TRANSFER_ORDER.join(", ")})`);
  }
  return header;
}
async function* fileBatches(file, header) {
  const seen = emptyCounts();
  let line = 0;
  for await (const text of openLines(file)) {
    line++;
    if (line === 1) {
      header.value = parseHeader(file, text);
      continue;
    }
    if (text.trim() === "") continue;
    let batch;
    try {
      batch = JSON.parse(text);
    } catch (err) {
      throw bad(
        file,
        line,
        `not a whole JSON line (${errorMessage(err)}): the file is damaged or was cut short`
      );
    }
    if (!isPlainObject(batch) || !TRANSFER_ORDER.includes(batch["table"]) || !Array.isArray(batch["rows"]) || !batch["rows"].every(isPlainObject)) {
      throw bad(
        file,
        line,
        `not a page of rows ({"table": one of ${TRANSFER_ORDER.join(", ")}, "rows": [...]})`
      );
    }
    const page = batch;
    seen[page.table] += page.rows.length;
    yield page;
  }
  if (header.value === void 0) throw bad(file, 1, "the file is empty");
  const expected = header.value.counts;
  const short = TRANSFER_ORDER.filter((t) => seen[t] !== expected[t]);
  if (short.length > 0) {
    const what = short.map((t) => `${t}: ${seen[t]} of ${expected[t]}`).join(", ");
    throw bad(file, line, `the file ends here with rows missing (${what}): it was cut short or edited`);
  }
}
async function importRegistryFile(store, file) {
  const header = await readRegistryFileHeader(file);
  if (!await store.isEmpty()) {
    throw new DistillError(
      "USAGE",
      `the store ${store.location} is not empty: an import never merges two registries, so nothing was written. Import into an empty database or a new folder (store: in tooldistill.yaml), or move this one aside first.`
    );
  }
  const read = {};
  const counts = await store.importRegistry(
    checkedBatches(fileBatches(file, read), file, (n, v) => `${file}, ${n} v${v}`)
  );
  return { header, counts };
}

// core/store/spill-registry.ts
import { hostname } from "node:os";
import { resolve } from "node:path";
function spillLockName(spillRoot) {
  return `spill:${hostname()}:${resolve(spillDir(spillRoot))}`;
}
async function applySpillsToRegistry(store, spillRoot, sessionId, apply) {
  const report = { applied: 0, skipped: 0, failed: [] };
  if (pendingKeys(spillRoot, sessionId).length === 0) return report;
  const dir = spillDir(spillRoot);
  return store.withToolLock(spillLockName(spillRoot), async () => {
    const claimed = [];
    await store.transaction(async (tx) => {
      for (const key of pendingKeys(spillRoot, sessionId)) {
        for (const file of claimFiles(dir, key)) {
          claimed.push(file);
          for (const event of readSpilled(file, report)) await applyOne(tx, event, apply, report);
        }
      }
      await tx.pruneSpillApplied(pruneBefore());
    });
    removeFiles(claimed);
    return report;
  });
}
async function applyOne(tx, event, apply, report) {
  try {
    const fresh = await tx.savepoint(async (step) => {
      if (!await step.claimSpillEvent(event.id)) return false;
      await apply(event, step);
      return true;
    });
    if (fresh) report.applied++;
    else report.skipped++;
  } catch (err) {
    report.failed.push(`${event.event} of ${event.at}: ${errorMessage(err)}`);
    await tx.claimSpillEvent(event.id);
  }
}

// core/tool-distill/offer.ts
function proposalOnly() {
  return { propose: proposeToolDefinition(), distilled: [] };
}
var OfferReader = class _OfferReader {
  #store;
  #max;
  #logger;
  /** Reads still running: `close` waits for them, so a list being answered never meets a closed store. */
  #reads = /* @__PURE__ */ new Set();
  #closed = false;
  constructor(store, max, logger) {
    this.#store = store;
    this.#max = max;
    this.#logger = logger;
  }
  /** Opens the registry `config` names read-only (without the open check: a writer's job, not a list's). */
  static async open(config, logger) {
    const max = config.settings.maxExposedTools;
    if (isPostgresUrl(config.store)) return new _OfferReader(null, max, logger);
    try {
      const store = await openConfiguredStore(config, { readOnly: true, checkInvariants: false, logger });
      return new _OfferReader(store, max, logger);
    } catch (err) {
      if (!(err instanceof DistillError && err.code === "NOT_FOUND"))
        logger.warn(`tooldistill: cannot read the store yet: ${errorMessage(err)}`);
      return new _OfferReader(null, max, logger);
    }
  }
  /** The offer now. Never rejects: a failed read is warned and offers the proposal tool alone. */
  read() {
    const store = this.#store;
    if (store === null || this.#closed) return Promise.resolve(proposalOnly());
    const read = exposedVersions(store, this.#max).then(
      (versions) => ({ propose: proposeToolDefinition(), distilled: versions.map(toolDefinition) }),
      (err) => {
        this.#logger.warn(`tooldistill: cannot read the offered distilled tools: ${errorMessage(err)}`);
        return proposalOnly();
      }
    );
    this.#reads.add(read);
    void read.finally(() => this.#reads.delete(read));
    return read;
  }
  /** Closes the registry once the reads still running have ended. */
  async close() {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#reads);
    await this.#store?.close();
  }
};

export {
  pendingSpills,
  applySpillsToRegistry,
  appendLog,
  doctor,
  copyRegistry,
  exportRegistryFile,
  importRegistryFile,
  OfferReader
};
