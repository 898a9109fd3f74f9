/**
 * Opening a store's database, and what to tell people when that (or any later query) fails: a path that is a
 * file, a store that does not exist for a read-only command, a registry lost while tool files remain, and
 * SQLite's own failures (locked, damaged, not a database, read-only, disk full, a deleted write-ahead log) as
 * DistillErrors that name the file and what to do. node:sqlite itself is loaded by store/sqlite/.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DistillError, errorMessage } from "../errors.ts";
import type { Logger } from "../types.ts";
import { loadSqlite, StoreDatabase } from "./sqlite/sqlite-database.ts";
import { hasTables, migrate } from "./sqlite/sqlite-schema.ts";
import { refusePostgresUrl } from "./store-url.ts";
import { countToolFiles } from "./tool-files.ts";

/** How a store is opened. */
export interface StoreOptions {
  /**
   * Open an existing store for reading only: nothing is created, migrated in place or repaired, and a missing
   * store is a NOT_FOUND error instead of a new empty one (the CLI's list, show and traces).
   */
  readOnly?: boolean;
  /** How long a write waits for another process's write lock before failing with STORE_BUSY (default 10 s). */
  busyTimeoutMs?: number;
  /** Cap of one recorded output (max_output_bytes); a larger one is clipped and the call says so. */
  maxOutputBytes?: number;
  /** Check the lifecycle invariants on open and repair the safe ones (default true; the hooks skip it). */
  checkInvariants?: boolean;
  /** Hears what the open check repaired or found (default: stderr). */
  logger?: Logger;
}

/** Default wait for another process's write lock: long enough for any of the store's short transactions. */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** How a store's database is opened. */
export interface OpenDatabaseOptions {
  readOnly: boolean;
  /** How long a write waits for another process's write lock before failing with STORE_BUSY. */
  busyTimeoutMs: number;
}

/** SQLite's primary result codes the store explains to people (the low byte of an extended code). */
const SQLITE = {
  busy: 5,
  locked: 6,
  readonly: 8,
  ioerr: 10,
  corrupt: 11,
  full: 13,
  cantopen: 14,
  notadb: 26,
};

/**
 * Opens (creating, migrating and preparing the folder unless read-only) the database of the store at `root`.
 * Refuses a path that is a file, a missing store when reading only, and an empty registry beside tool files.
 */
export function openDatabase(root: string, options: OpenDatabaseOptions): StoreDatabase {
  refusePostgresUrl(root, "this part of tooldistill");
  const dbPath = join(root, "registry.db");
  const { DatabaseSync } = loadSqlite();
  if (existsSync(root) && !statSync(root).isDirectory()) {
    throw new DistillError(
      "STORE",
      `cannot open the store at ${root}: it is a file, not a folder. Check the path (store: in tooldistill.yaml).`,
    );
  }
  if (options.readOnly && !existsSync(dbPath)) {
    throw new DistillError(
      "NOT_FOUND",
      `no store at ${root}: nothing has been recorded there yet. Check the store path (store: in tooldistill.yaml, or --config), or record a run first.`,
    );
  }
  refuseEmptyRegistry(root, fileIsEmpty(dbPath));
  // Seen before opening: SQLite creates a new -wal as it opens, which would hide that the old one was deleted.
  const walMissingAtOpen = !existsSync(`${dbPath}-wal`) && existsSync(`${dbPath}-shm`);
  const explain = explainer(root, options.busyTimeoutMs, walMissingAtOpen);
  let db: StoreDatabase;
  try {
    if (!options.readOnly) prepareFolder(root);
    db = new StoreDatabase(
      new DatabaseSync(dbPath, { timeout: options.busyTimeoutMs, readOnly: options.readOnly }),
      explain,
    );
  } catch (err) {
    throw explain(err, "open");
  }
  try {
    if (!options.readOnly) {
      db.exec("PRAGMA journal_mode = WAL");
      // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commit.
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

/** True when registry.db is missing or 0 bytes (a new store, or one whose database was lost). */
function fileIsEmpty(dbPath: string): boolean {
  try {
    return statSync(dbPath).size === 0;
  } catch {
    return true;
  }
}

/** An empty database over existing tool files means the registry was lost: never start a new one silently. */
function refuseEmptyRegistry(root: string, empty: boolean): void {
  if (!empty) return;
  const files = countToolFiles(root);
  if (files === 0) return;
  const dbPath = join(root, "registry.db");
  const what = existsSync(dbPath)
    ? `${dbPath} is empty (${statSync(dbPath).size === 0 ? "0 bytes" : "no tables"})`
    : `${dbPath} is missing`;
  throw new DistillError(
    "STORE",
    `${what} while ${join(root, "tools")} holds ${files} tool file${files === 1 ? "" : "s"}: the registry ` +
      "(every version's status, verdict and the recorded runs) was lost, truncated or replaced, and opening it " +
      "would start an empty one that hides them. Restore registry.db from a backup (with its registry.db-wal if " +
      "there is one) and run the command again; or, to start over, run `tooldistill doctor --fix`, which moves " +
      `the tool files to ${join(root, "orphaned")} and creates a new registry.`,
  );
}

function prepareFolder(root: string): void {
  mkdirSync(join(root, "tools"), { recursive: true });
  const ignore = join(root, ".gitignore");
  if (!existsSync(ignore)) {
    writeFileSync(
      ignore,
      "# traces and fixtures hold real tool outputs, which may include personal data\nregistry.db*\n*.log\n*.log.1\nspill/\norphaned/\n",
    );
  }
}

/**
 * How failures of the store at `root` are explained: an SQLite failure becomes a DistillError that names the file
 * and what to do; anything else (a programming error) is passed on as it is.
 */
function explainer(root: string, busyTimeoutMs: number, walMissingAtOpen: boolean) {
  const db = join(root, "registry.db");
  return (err: unknown, when: "open" | "query"): unknown => {
    if (err instanceof DistillError) return err;
    const e = err as { errcode?: unknown; code?: unknown; message?: string };
    const fsCode = typeof e.code === "string" && !e.code.startsWith("ERR_") ? e.code : null;
    if (fsCode !== null) {
      return new DistillError(
        "STORE",
        `cannot ${when === "open" ? "open" : "use"} the store at ${root}: ${errorMessage(err)}. ` +
          "Check the path (store: in tooldistill.yaml) and that the folder is writable by this user.",
        { cause: err },
      );
    }
    if (typeof e.errcode !== "number") return err;
    const code = e.errcode & 0xff;
    const detail = e.message ?? "";
    const make = (code: "STORE" | "STORE_BUSY", message: string) =>
      new DistillError(code, message, { cause: err });
    const recover =
      "Stop every process using the store (Claude Code sessions, the td server, agents), copy the store folder " +
      `aside, then restore registry.db from a backup, or recover what is readable with \`sqlite3 ${db} ".recover" | sqlite3 recovered.db\` ` +
      "and put recovered.db in its place. `tooldistill doctor` shows what is damaged.";
    switch (code) {
      case SQLITE.busy:
      case SQLITE.locked:
        return make(
          "STORE_BUSY",
          `the store ${db} is locked by another process (waited ${busyTimeoutMs} ms for its write lock). ` +
            "Something holds a write transaction open (an sqlite3 shell, a backup, a stuck process): close it and try again.",
        );
      case SQLITE.corrupt:
        return make("STORE", `the store's database ${db} is damaged (${detail}). ${recover}`);
      case SQLITE.notadb:
        return make(
          "STORE",
          `${db} is not an SQLite database (${detail}): its header was overwritten or another file was put in its place. ${recover}`,
        );
      case SQLITE.ioerr: {
        const wal = `${db}-wal`;
        if (walMissingAtOpen) {
          return make(
            "STORE",
            `disk I/O error on ${db}: its write-ahead log ${wal} is missing while ${db}-shm says it holds ` +
              "changes: it was deleted while a process had the store open. Stop every process using the store " +
              "(the last one to close writes the log back), then run the command again; if no process has it open " +
              `any more, the changes that were only in the log are lost: restore ${wal} from a backup if you have one.`,
          );
        }
        return make("STORE", `disk I/O error on ${db} (${detail}): check the disk and the file. ${recover}`);
      }
      case SQLITE.readonly:
        return make(
          "STORE",
          `cannot write to ${db} (${detail}): check that the file, its folder and the ${db}-wal and -shm files ` +
            "beside it are writable by this user, or that the disk is not mounted read-only.",
        );
      case SQLITE.full:
        return make("STORE", `the disk holding ${db} is full (${detail}): free some space and try again.`);
      case SQLITE.cantopen:
        return make(
          "STORE",
          `cannot open ${db} (${detail}): check that the folder exists and is readable and writable by this user.`,
        );
      default:
        return err;
    }
  };
}
