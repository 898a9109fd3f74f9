/**
 * No import cycles in the layers, `import type` included: a cycle is a file split for the 400-line cap whose parts
 * still lean on each other, and it decides the load order at run time. Shared types go to a leaf `types.ts` of the
 * folder (CONTRIBUTING.md). The finder is proven on a temporary tree with a cycle made on purpose.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "./helpers.ts";
import { importCycles, importGraph } from "./support/import-graph.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LAYERS = ["core", "cli", "claude-code", "hooks", "server", "scripts"];

test(`no import cycles among the files of ${LAYERS.join(", ")}`, () => {
  const graph = importGraph(ROOT, LAYERS);
  assert.ok(graph.size > 150, "the layers' files were found");
  const cycles = importCycles(graph);
  assert.deepEqual(
    cycles.flatMap((c) => c.paths),
    [],
    "move the shared part down, e.g. the folder's types into a leaf types.ts",
  );
});

test("the finder names a cycle of every kind of import, and passes a tree without one", (t) => {
  const dir = tempDir(t, "td-cycles-");
  const files: Record<string, string> = {
    "core/a.ts": `import { b } from "./b.ts";\nexport const a = b;\n`,
    "core/b.ts": `import type { A } from "./a.ts";\nexport const b: A | 1 = 1;\n`,
    "core/c.ts": `export { d } from "./sub/d.ts";\n`,
    "core/sub/d.ts": `export const d = () => import("../c.ts");\n`,
    "core/e.ts": `export type E = import("./f.ts").F;\n`,
    "core/f.ts": `import "./e.ts";\nexport type F = 1;\n`,
    "core/g.ts": `export * as self from "./g.ts";\n`,
    // A leaf and what imports it: no cycle; packages and node: built-ins are not files of the tree.
    "cli/leaf.ts": `export type L = 1;\n`,
    "cli/user.ts": `import type { L } from "./leaf.ts";\nimport { join } from "node:path";\nimport ts from "typescript";\nexport const u: L = 1;\nexport { join, ts };\n`,
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  assert.deepEqual(
    importCycles(importGraph(dir, ["core", "cli"])).map((c) => c.paths),
    [
      ["core/a.ts → core/b.ts → core/a.ts"],
      ["core/c.ts → core/sub/d.ts → core/c.ts"],
      ["core/e.ts → core/f.ts → core/e.ts"],
      ["core/g.ts → core/g.ts"],
    ],
  );
  assert.deepEqual(importCycles(importGraph(dir, ["cli"])), []);
});
