/**
 * A store's tool files: the code of version N of a distilled tool lives in `<store>/tools/<name>/v<N>.ts`, and
 * its sha256 is kept in the registry so a file edited after verification is refused at run time.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { DistillError, errorMessage } from "../errors.ts";
import { toolNameShapeProblem } from "../util/tool-names.ts";

/** One `tools/<name>/v<N>.ts` file found on disk. */
export interface ToolFile {
  name: string;
  version: number;
  file: string;
}

const TOOL_FILE = /^v(\d+)\.ts$/;

/** sha256 of a tool file's text: a file edited after verification is refused at run time. */
export function hashSource(source: string): string {
  // Loaded on first use: node:crypto costs a recording hook several ms of start-up, and hooks never hash.
  const { createHash } = process.getBuiltinModule("node:crypto");
  return createHash("sha256").update(source).digest("hex");
}

/**
 * Path of a version's tool file under the store at `root`. The name is checked first and the path must stay
 * inside `tools/`: a name read from model-written code must never place a file anywhere else.
 */
export function toolFilePath(root: string, name: string, version: number): string {
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

/** Reads a version's code; a missing file is NOT_FOUND, naming what to do. */
export function readToolCode(root: string, name: string, version: number): string {
  const file = toolFilePath(root, name, version);
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new DistillError(
      "NOT_FOUND",
      `the file of ${name} v${version} is missing (${file}); deprecate this version or restore the file`,
      { cause: err },
    );
  }
}

/** Writes a version's code (inside the transaction that adds its row, so a failure leaves no row behind). */
export function writeToolCode(root: string, file: string, code: string): void {
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, code);
  } catch (err) {
    throw new DistillError(
      "STORE",
      `cannot write the tool file ${file}: ${errorMessage(err)}. Check that ${join(root, "tools")} is writable by this user.`,
      { cause: err },
    );
  }
}

/** The `<name>/v<N>.ts` files under `<root>/tools/`, by name then file name (none when there is no tools folder). */
export function listToolFiles(root: string): ToolFile[] {
  const dir = join(root, "tools");
  const out: ToolFile[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    let files: string[];
    try {
      files = readdirSync(join(dir, name));
    } catch {
      // a stray file in tools/ is not a tool folder
      continue;
    }
    for (const f of files.sort()) {
      const m = TOOL_FILE.exec(f);
      if (m) out.push({ name, version: Number(m[1]), file: join(dir, name, f) });
    }
  }
  return out;
}

/** How many tool files the store at `root` holds (0 when there is no tools folder). */
export function countToolFiles(root: string): number {
  return listToolFiles(root).length;
}
