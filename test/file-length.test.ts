/**
 * CONTRIBUTING's rule, kept by a test: no source file of the layers exceeds 400 lines, so a module that grows
 * past one concept is split by concept rather than left to grow.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LAYERS = ["core", "cli", "hooks", "server", "claude-code", "scripts"];
const MAX_LINES = 400;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

test(`no source file in ${LAYERS.join(", ")} has more than ${MAX_LINES} lines`, () => {
  const files = LAYERS.flatMap((layer) => sources(join(ROOT, layer)));
  assert.ok(files.length > 50, "the layers' files were found");
  const long = files
    .map((f) => ({ file: relative(ROOT, f), lines: readFileSync(f, "utf8").split("\n").length - 1 }))
    .filter((f) => f.lines > MAX_LINES);
  assert.deepEqual(long, [], "split these by concept (CONTRIBUTING.md, Files)");
});
