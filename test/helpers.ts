import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { main } from "../cli/main.ts";
import type { RegistryStore } from "../core/index.ts";
import { SqliteRegistryStore } from "../core/internal.ts";

/** A temp folder removed when the test ends. */
export function tempDir(t: TestContext, prefix = "td-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The embedded SQLite store under a ToolDistill (or anything holding a registry): how tests look at what the
 * library stored, and reach what only SQLite has (`database` for raw SQL, `toolFile`, `integrityCheck`).
 */
export function sqliteOf(holder: { store: RegistryStore }): SqliteRegistryStore {
  if (holder.store instanceof SqliteRegistryStore) return holder.store;
  throw new Error(`sqliteOf needs a SQLite registry, not ${holder.store.location}`);
}

/** What one in-process CLI run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with `cwd` as its current folder, capturing what it prints. */
export async function cli(cwd: string, ...argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    cwd,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
