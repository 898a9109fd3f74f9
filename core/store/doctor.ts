/**
 * `tooldistill doctor`: everything that can be wrong with a store, found without changing it, and what `--fix`
 * does about each finding. It checks the database (SQLite's integrity check, the schema version), the lifecycle
 * invariants, the tool files against the rows (missing, edited by hand, orphaned), the hook events waiting in
 * spill files, and a registry lost while tools/ still holds files. `--fix` applies only the repairs that lose
 * nothing: orphaned files and the files of a lost registry are moved aside, never deleted.
 */
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { DistillError, errorMessage } from "../errors.ts";
import { silentLogger } from "../types.ts";
import { checkLifecycle } from "./lifecycle-invariants.ts";
import { pendingSpills, type SpillReport } from "./spill.ts";
import { SqliteRegistryStore } from "./sqlite/sqlite-registry-store.ts";
import { countToolFiles, hashSource, listToolFiles } from "./tool-files.ts";

/** What kind of problem a finding is. */
export type DoctorKind =
  | "store_missing"
  | "registry_lost"
  | "database"
  | "schema"
  | "integrity"
  | "lifecycle"
  | "missing_file"
  | "edited_file"
  | "orphan_file"
  | "spill";

/** One problem, and what `--fix` does about it (`fix`) or what a person runs instead (`command`). */
export interface DoctorFinding {
  kind: DoctorKind;
  message: string;
  fix: string | null;
  command: string | null;
}

/** The whole check; `fixed` lists what `--fix` did, `ok` is true when nothing is left to do. */
export interface DoctorReport {
  store: string;
  findings: DoctorFinding[];
  fixed: string[];
  ok: boolean;
}

/** Options of a check. */
export interface DoctorOptions {
  /** Apply the repairs that lose nothing. */
  fix: boolean;
  /**
   * Applies the spilled events of every session to the store, through the registry (the adapter that wrote them
   * knows what they mean: for Claude Code's hooks, claude-code/session-events.ts). Without it, spill files are
   * reported, not applied.
   */
  applySpilled?: () => Promise<SpillReport>;
}

/** A folder name for what `--fix` moves aside, so a second fix never overwrites the first. */
function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, "-");
}

/** Moves files into `<store>/orphaned/<stamp>/<name>/`, keeping their names. */
function moveAside(root: string, files: ReadonlyArray<{ name: string; file: string }>): string {
  const target = join(root, "orphaned", stamp());
  for (const f of files) {
    mkdirSync(join(target, f.name), { recursive: true });
    renameSync(f.file, join(target, f.name, f.file.slice(f.file.lastIndexOf("/") + 1)));
  }
  return target;
}

/** Runs every check on the store at `root` and, with `fix`, the repairs that lose nothing. */
export async function doctor(root: string, options: DoctorOptions): Promise<DoctorReport> {
  const report: DoctorReport = { store: root, findings: [], fixed: [], ok: true };
  const finish = (): DoctorReport => {
    report.ok = report.findings.every((f) => f.fix !== null && options.fix);
    return report;
  };
  if (!existsSync(root)) {
    report.findings.push({
      kind: "store_missing",
      message: `no store at ${root}: nothing has been recorded there yet`,
      fix: null,
      command:
        "check store: in tooldistill.yaml (or --config); a store is created by the first recorded run or by tooldistill init",
    });
    return finish();
  }

  const dbPath = join(root, "registry.db");
  const open = () =>
    SqliteRegistryStore.open(root, { readOnly: !options.fix, checkInvariants: false, logger: silentLogger });
  let store: SqliteRegistryStore;
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
        command: null,
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
        command: older ? null : "see the message: restore from a backup or recover with sqlite3 .recover",
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
        command: `stop every process using the store, then restore registry.db from a backup or run: sqlite3 ${dbPath} ".recover" | sqlite3 recovered.db, and put recovered.db in its place`,
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
    const orphans: Array<{ name: string; file: string }> = [];
    for (const f of listToolFiles(root)) {
      if (!versions.has(`${f.name}/${f.version}`)) orphans.push(f);
    }
    for (const o of orphans) {
      report.findings.push({
        kind: "orphan_file",
        message: `${o.file} belongs to no version (left by an interrupted proposal or a lost registry)`,
        fix: "moves it to orphaned/",
        command: null,
      });
    }
    if (options.fix && orphans.length > 0) {
      report.fixed.push(
        `moved ${orphans.length} orphaned file${orphans.length === 1 ? "" : "s"} to ${moveAside(root, orphans)}`,
      );
    }
    for (const v of versions.values()) {
      if (v.status === "deprecated") continue;
      let code: string | null = null;
      try {
        code = readFileSync(store.toolFile(v.name, v.version), "utf8");
      } catch {
        code = null;
      }
      const id = `${v.name} v${v.version}`;
      if (code === null) {
        report.findings.push({
          kind: "missing_file",
          message: `${id} is ${v.status} but its file ${store.toolFile(v.name, v.version)} is missing`,
          fix: null,
          command: `restore the file, or run tooldistill deprecate ${v.name} --version ${v.version}`,
        });
      } else if (hashSource(code) !== v.sourceHash) {
        report.findings.push({
          kind: "edited_file",
          message: `${id}'s file was edited after it was verified, so it is refused at run time`,
          fix: null,
          command: `restore the file, or propose the edited code as a new version`,
        });
      }
    }

    const pending = pendingSpills(root);
    if (pending.files.length > 0) {
      report.findings.push({
        kind: "spill",
        message: `${pending.files.length} spill file${pending.files.length === 1 ? "" : "s"} of ${pending.sessions.length} session${pending.sessions.length === 1 ? "" : "s"} hold hook events recorded while the store was locked`,
        fix: options.applySpilled ? "applies them in order (the next hook or the td server would too)" : null,
        command: options.applySpilled
          ? null
          : "start a Claude Code session in the project: its next hook applies them",
      });
      if (options.fix && options.applySpilled) {
        const applied = await options.applySpilled();
        report.fixed.push(`applied ${applied.applied} spilled hook event${applied.applied === 1 ? "" : "s"}`);
        for (const failed of applied.failed) {
          report.findings.push({
            kind: "spill",
            message: `a spilled hook event could not be applied: ${failed}`,
            fix: null,
            command: "see hooks.log in the store",
          });
        }
      }
    }
  } catch (err) {
    // A damaged page met while checking: the store's own message names the file and the recovery.
    if (!(err instanceof DistillError)) throw err;
    report.findings.push({ kind: "database", message: err.message, fix: null, command: null });
  } finally {
    await store.close();
  }
  return finish();
}
