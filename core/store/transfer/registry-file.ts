/**
 * A registry as a file: what `tooldistill export` writes and `tooldistill import` reads, to back a registry up or
 * to move it between stores (SQLite ↔ PostgreSQL). JSON lines: a header line, then one line per page of the
 * transfer (registry-store.ts's RegistryBatch, exactly as `exportRegistry` gives it), tables in TRANSFER_ORDER:
 *
 *   {"format":"tooldistill-registry","version":1,"source":"sqlite","location":"/p/.tooldistill",
 *    "exportedAt":"2026-12-03T09:00:00.000Z","counts":{"traces":3,"calls":5,...}}
 *   {"table":"traces","rows":[{"id":"t1","task":"…",…}]}
 *   …
 *
 * Versions carry their code, so a SQLite export needs no tools/ folder beside it. The header's counts are the
 * rows that follow, so a file cut short at a line boundary is told from a whole one. The file appears only once
 * complete (written beside it, then renamed); an import is one transaction, so a bad line leaves the target empty.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync, rmSync } from "node:fs";
import { rename } from "node:fs/promises";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { DistillError, errorMessage } from "../../errors.ts";
import { isPlainObject } from "../../util/canonical.ts";
import {
  emptyCounts,
  type RegistryBatch,
  type RegistryStore,
  type StoreKind,
  TRANSFER_ORDER,
  type TransferCounts,
} from "../registry-store.ts";
import { checkedBatches } from "./registry-transfer.ts";

/** The format's name, in every header. */
export const REGISTRY_FILE_FORMAT = "tooldistill-registry";
/** The format's version this build writes and reads. */
export const REGISTRY_FILE_VERSION = 1;

/** The first line of a registry file. */
export interface RegistryFileHeader {
  format: typeof REGISTRY_FILE_FORMAT;
  version: number;
  /** The engine the registry was exported from. */
  source: StoreKind;
  /** Where it was (a folder, or the database URL without its password). */
  location: string;
  exportedAt: string;
  /** Rows of each table in the file. */
  counts: TransferCounts;
}

/** Writes a line to a stream, waiting when it is full. */
async function writeLine(out: NodeJS.WritableStream, value: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, "drain");
}

async function close(out: ReturnType<typeof createWriteStream>): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
}

/**
 * Exports the whole registry of `store` into `file`, from one snapshot. An existing file is refused unless
 * `overwrite`; the file is replaced only once the export is complete. Returns the header written.
 */
export async function exportRegistryFile(
  store: RegistryStore,
  file: string,
  options: { overwrite?: boolean } = {},
): Promise<RegistryFileHeader> {
  if (existsSync(file) && options.overwrite !== true) {
    throw new DistillError(
      "USAGE",
      `${file} already exists: choose another file name, or pass --force to replace it.`,
    );
  }
  const body = `${file}.${process.pid}.body`;
  const partial = `${file}.${process.pid}.partial`;
  try {
    const counts = emptyCounts();
    const rows = createWriteStream(body);
    try {
      for await (const batch of checkedBatches(store.exportRegistry(), store.location, (n, v) =>
        store.codeLocation(n, v),
      )) {
        counts[batch.table] += batch.rows.length;
        await writeLine(rows, batch);
      }
    } finally {
      await close(rows);
    }
    const header: RegistryFileHeader = {
      format: REGISTRY_FILE_FORMAT,
      version: REGISTRY_FILE_VERSION,
      source: store.kind,
      location: store.location,
      exportedAt: new Date().toISOString(),
      counts,
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
        cause: err,
      },
    );
  } finally {
    rmSync(body, { force: true });
    rmSync(partial, { force: true });
  }
}

/** A problem of the file at a line: what `import` says, naming the file and the line. */
function bad(file: string, line: number, what: string): DistillError {
  return new DistillError("USAGE", `${basename(file)}:${line}: ${what}`);
}

/** Reads and checks the header of a registry file (its first line). */
export async function readRegistryFileHeader(file: string): Promise<RegistryFileHeader> {
  const lines = openLines(file);
  try {
    const first = await lines.next();
    return parseHeader(file, first.done ? "" : first.value);
  } finally {
    await lines.return(undefined);
  }
}

/** The lines of `file`, failing with a message that names it when it cannot be read. */
async function* openLines(file: string): AsyncGenerator<string> {
  if (!existsSync(file)) {
    throw new DistillError(
      "NOT_FOUND",
      `${file}: no such file; give the path of a file \`tooldistill export\` wrote.`,
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

function parseHeader(file: string, text: string): RegistryFileHeader {
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    header = null;
  }
  if (!isPlainObject(header) || header["format"] !== REGISTRY_FILE_FORMAT) {
    throw bad(
      file,
      1,
      `not a tooldistill registry export (its first line is no ${REGISTRY_FILE_FORMAT} header)`,
    );
  }
  const version = header["version"];
  if (typeof version !== "number" || version > REGISTRY_FILE_VERSION) {
    throw bad(
      file,
      1,
      `written in format version ${String(version)}, newer than this tooldistill reads (${REGISTRY_FILE_VERSION}): upgrade tooldistill to import it`,
    );
  }
  const counts = header["counts"];
  if (!isPlainObject(counts) || TRANSFER_ORDER.some((t) => typeof counts[t] !== "number")) {
    throw bad(file, 1, `the header has no row count for every table (${TRANSFER_ORDER.join(", ")})`);
  }
  return header as unknown as RegistryFileHeader;
}

/** The pages of a registry file, each line checked; the total checked against the header at the end. */
async function* fileBatches(
  file: string,
  header: { value?: RegistryFileHeader },
): AsyncGenerator<RegistryBatch> {
  const seen = emptyCounts();
  let line = 0;
  for await (const text of openLines(file)) {
    line++;
    if (line === 1) {
      header.value = parseHeader(file, text);
      continue;
    }
    if (text.trim() === "") continue;
    let batch: unknown;
    try {
      batch = JSON.parse(text);
    } catch (err) {
      throw bad(
        file,
        line,
        `not a whole JSON line (${errorMessage(err)}): the file is damaged or was cut short`,
      );
    }
    if (
      !isPlainObject(batch) ||
      !(TRANSFER_ORDER as readonly unknown[]).includes(batch["table"]) ||
      !Array.isArray(batch["rows"]) ||
      !batch["rows"].every(isPlainObject)
    ) {
      throw bad(
        file,
        line,
        `not a page of rows ({"table": one of ${TRANSFER_ORDER.join(", ")}, "rows": [...]})`,
      );
    }
    const page = batch as unknown as RegistryBatch;
    seen[page.table] += page.rows.length;
    yield page;
  }
  if (header.value === undefined) throw bad(file, 1, "the file is empty");
  const expected = header.value.counts;
  const short = TRANSFER_ORDER.filter((t) => seen[t] !== expected[t]);
  if (short.length > 0) {
    const what = short.map((t) => `${t}: ${seen[t]} of ${expected[t]}`).join(", ");
    throw bad(file, line, `the file ends here with rows missing (${what}): it was cut short or edited`);
  }
}

/**
 * Imports a registry file into `store`, which must be empty, in one transaction: every row, or nothing when a line
 * is damaged, the file is cut short, a version's code does not match its hash, or the rows break a constraint.
 */
export async function importRegistryFile(
  store: RegistryStore,
  file: string,
): Promise<{ header: RegistryFileHeader; counts: TransferCounts }> {
  const header = await readRegistryFileHeader(file);
  if (!(await store.isEmpty())) {
    throw new DistillError(
      "USAGE",
      `the store ${store.location} is not empty: an import never merges two registries, so nothing was written. Import into an empty database or a new folder (store: in tooldistill.yaml), or move this one aside first.`,
    );
  }
  const read: { value?: RegistryFileHeader } = {};
  const counts = await store.importRegistry(
    checkedBatches(fileBatches(file, read), file, (n, v) => `${file}, ${n} v${v}`),
  );
  return { header, counts };
}
