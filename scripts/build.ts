/**
 * `npm run build`: emits dist/ for the npm package. tsc compiles core/ and cli/ (rewriting `.ts` import
 * specifiers to `.js`); the sandbox engine's .wasm is resolved from its npm package at run time. The `tooldistill`
 * shim (bin/tooldistill.js) is shipped as it is: it loads dist/cli/main.js when the sources are not beside it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");

function fail(message: string): never {
  console.error(`build: ${message}`);
  process.exit(1);
}

// A stale file from a renamed module would otherwise ship.
rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const compiled = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});
if (compiled.status !== 0) fail("tsc -p tsconfig.build.json failed");

for (const required of [
  "cli/main.js",
  "core/entry.js",
  "core/index.js",
  "core/index.d.ts",
  "core/sandbox/quickjs-engine.js",
]) {
  if (!existsSync(join(dist, required))) fail(`dist/${required} was not produced`);
}

// Node refuses to strip types under node_modules, so one import left pointing at a .ts file breaks the package.
const leftovers: string[] = [];
for (const entry of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  if (!entry.endsWith(".js")) continue;
  const text = readFileSync(join(dist, entry), "utf8");
  if (/\bimport\s*\(?\s*["'][^"']+\.ts["']|\bfrom\s*["'][^"']+\.ts["']/.test(text)) leftovers.push(entry);
}
if (leftovers.length > 0) fail(`these files still import .ts modules: ${leftovers.join(", ")}`);

console.log(
  `build: dist/ ready (${readdirSync(join(dist, "core"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js")).length} core modules)`,
);
