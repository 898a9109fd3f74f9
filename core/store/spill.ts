/**
 * Spill files: where a Claude Code hook puts its event when the store stays locked past the hook's short busy
 * timeout, so a session never waits on the store and no tool call is lost. One file per session,
 * `<store>/spill/<session>.jsonl`, one event per line in the order the hooks wrote them. The next hook of the
 * session, the plugin's server, the fallback distiller or `tooldistill doctor --fix` applies them, in order and
 * exactly once (spill-registry.ts, on either engine): an applier claims a file by renaming it while it holds the
 * folder's lock, applies each event in one transaction while recording its id in `spill_applied`, and deletes
 * the file after the commit. A process killed before the commit leaves the claimed file to the next applier; one killed after it
 * leaves ids that make the next applier skip those events. A writer whose append raced a claim (it wrote into
 * the renamed file) writes the event again to the new file, and the id keeps it from being applied twice.
 */
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
  writeSync,
} from "node:fs";
import { join } from "node:path";

/** One spilled hook event: the hook's name and its stdin text exactly as Claude Code sent it. */
export interface SpilledEvent {
  id: string;
  at: string;
  event: string;
  text: string;
}

/** Applied ids are kept this long: far longer than any writer can take between its append and its check. */
const KEEP_IDS_MS = 24 * 60 * 60 * 1000;

const LIVE = ".jsonl";
const CLAIMED = ".claimed";

/** The spill folder of a store. */
export function spillDir(storeRoot: string): string {
  return join(storeRoot, "spill");
}

/** A session id as a file name: Claude Code's ids are UUIDs; anything else is hashed rather than trusted. */
function fileKey(sessionId: string): string {
  if (/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) return sessionId;
  let hash = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) {
    hash ^= sessionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `session-${hash.toString(16).padStart(8, "0")}`;
}

/** Unique enough across processes without node:crypto (which costs a hook several ms to load). */
function newId(): string {
  return `${Date.now().toString(36)}-${process.pid.toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/**
 * Appends one event to the session's spill file and returns its id. If an applier claimed (renamed) the file
 * between our open and our write, the event is written again to the new file.
 */
export function spillEvent(storeRoot: string, sessionId: string, event: string, text: string): string {
  const dir = spillDir(storeRoot);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${fileKey(sessionId)}${LIVE}`);
  const record: SpilledEvent = { id: newId(), at: new Date().toISOString(), event, text };
  const line = Buffer.from(`${JSON.stringify(record)}\n`);
  for (let attempt = 0; attempt < 5; attempt++) {
    const fd = openSync(file, "a");
    let ino: number;
    try {
      // One write of the whole line, in append mode: concurrent writers never interleave within a line.
      writeSync(fd, line);
      ino = fstatSync(fd).ino;
    } finally {
      closeSync(fd);
    }
    let now: number | null;
    try {
      now = statSync(file).ino;
    } catch {
      now = null;
    }
    if (now === ino) return record.id;
  }
  return record.id;
}

/** Sessions with events waiting in spill files (claimed leftovers included). */
export function pendingSpills(storeRoot: string): { sessions: string[]; files: string[] } {
  let names: string[];
  try {
    names = readdirSync(spillDir(storeRoot));
  } catch {
    return { sessions: [], files: [] };
  }
  const files = names.filter((n) => n.endsWith(LIVE) || n.endsWith(CLAIMED)).sort();
  const sessions = [...new Set(files.map((n) => n.slice(0, n.indexOf("."))))];
  return { sessions, files: files.map((n) => join(spillDir(storeRoot), n)) };
}

/** What applying spill files did. */
export interface SpillReport {
  applied: number;
  skipped: number;
  failed: string[];
}

/** The spill file keys of the sessions with events waiting (one session's when `sessionId` is given). */
export function pendingKeys(root: string, sessionId: string | null): string[] {
  const { sessions } = pendingSpills(root);
  return sessionId === null ? sessions : sessions.filter((s) => s === fileKey(sessionId));
}

/**
 * Claims a session's spill files for the caller, who must be the only applier of the folder right now (it holds
 * the folder's lock): the leftovers of an applier that died before its commit (older,
 * so first), then the live file, renamed so that writers start a new one.
 */
export function claimFiles(dir: string, key: string): string[] {
  const files = readdirSync(dir)
    .filter((n) => n.startsWith(`${key}.`) && n.endsWith(CLAIMED))
    .sort()
    .map((n) => join(dir, n));
  const live = join(dir, `${key}${LIVE}`);
  const claim = join(dir, `${key}.${String(Date.now()).padStart(15, "0")}-${process.pid}${CLAIMED}`);
  try {
    renameSync(live, claim);
    files.push(claim);
  } catch {
    // No live file for this session: only leftovers.
  }
  return files;
}

/** The events of a claimed file in order; a torn line (a writer died mid-write) is reported and dropped. */
export function readSpilled(file: string, report: SpillReport): SpilledEvent[] {
  const events: SpilledEvent[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      events.push(JSON.parse(line) as SpilledEvent);
    } catch {
      report.failed.push(`${file}: a torn line was dropped`);
    }
  }
  return events;
}

/** Applied ids older than this are forgotten (an ISO time). */
export function pruneBefore(): string {
  return new Date(Date.now() - KEEP_IDS_MS).toISOString();
}

/** Deletes claimed files once their events are committed. */
export function removeFiles(claimed: string[]): void {
  for (const file of claimed) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: another applier finished it after a crash of ours.
    }
  }
}
