/**
 * A read verb loads only what it reads: the CLI's frame (main, the command table, options, formatting, the project)
 * and the bodies of list, show and traces reach neither the sandbox's engine, Babel, the MCP SDK, the Anthropic SDK
 * nor `pg` through a static import. The walk parses every module the way Node links it (static imports and
 * re-exports; `import type` and dynamic `import()` load nothing at start-up).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parse } from "@babel/parser";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HEAVY = [
  "@babel/parser",
  "@babel/traverse",
  "quickjs-emscripten-core",
  "@jitl/quickjs-wasmfile-release-sync",
  "@modelcontextprotocol/sdk",
  "@anthropic-ai/sdk",
  "pg",
];

/** Every module `entries` load when linked, and the packages they import, with the chain that reached each. */
function staticGraph(entries: string[]): { files: Set<string>; packages: Map<string, string[]> } {
  const files = new Set<string>();
  const packages = new Map<string, string[]>();
  const visit = (file: string, chain: string[]): void => {
    if (files.has(file)) return;
    files.add(file);
    const ast = parse(readFileSync(file, "utf8"), { sourceType: "module", plugins: ["typescript"] });
    for (const node of ast.program.body) {
      if (
        (node.type !== "ImportDeclaration" &&
          node.type !== "ExportNamedDeclaration" &&
          node.type !== "ExportAllDeclaration") ||
        !node.source
      )
        continue;
      if ("importKind" in node && node.importKind === "type") continue;
      if ("exportKind" in node && node.exportKind === "type") continue;
      const spec = node.source.value;
      const here = [...chain, relative(ROOT, file)];
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec), here);
      else if (!spec.startsWith("node:")) {
        const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
        if (!packages.has(name)) packages.set(name, here);
      }
    }
  };
  for (const entry of entries) visit(resolve(ROOT, entry), []);
  return { files, packages };
}

test("list, show and traces load none of the sandbox, Babel, the MCP SDK, the Anthropic SDK or pg", () => {
  const { packages } = staticGraph([
    "cli/main.ts",
    "cli/commands.ts",
    "cli/commands/versions.ts",
    "cli/commands/traces.ts",
  ]);
  for (const name of HEAVY) {
    assert.equal(packages.get(name), undefined, `${name} is reached by ${packages.get(name)?.join(" → ")}`);
  }
});

test("the walk sees what the whole library loads (so the check above can fail)", () => {
  const { packages } = staticGraph(["core/index.ts"]);
  // The MCP SDK is not in this list: the toolkit loads it on first use already.
  for (const name of ["@babel/parser", "quickjs-emscripten-core", "@anthropic-ai/sdk"])
    assert.ok(packages.has(name), `core/index.ts should reach ${name}`);
});

test("the recording entry of the hooks reaches neither ToolDistill nor the sandbox, Babel, an SDK or pg", () => {
  const { files, packages } = staticGraph(["core/recording.ts"]);
  for (const name of HEAVY) {
    assert.equal(packages.get(name), undefined, `${name} is reached by ${packages.get(name)?.join(" → ")}`);
  }
  const toolDistill = resolve(ROOT, "core/tool-distill/tool-distill.ts");
  assert.equal(files.has(toolDistill), false, "core/recording.ts reaches ToolDistill");
  // The same walk from the internal barrel does reach it: the check above can fail.
  assert.ok(staticGraph(["core/internal.ts"]).files.has(toolDistill));
});
