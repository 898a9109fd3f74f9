import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const ENTRY = fileURLToPath(new URL("../bin/tooldistill.js", import.meta.url));

/** Every `node` on PATH (like `which -a node`) plus the usual system places, first one older than 22.18. */
function findOldNode(): { path: string; version: string } | null {
  const candidates = new Set<string>();
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) if (dir) candidates.add(join(dir, "node"));
  for (const path of ["/usr/local/bin/node", "/usr/bin/node", "/bin/node"]) candidates.add(path);
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    let version: string;
    try {
      version = execFileSync(path, ["--version"], { encoding: "utf8", timeout: 10_000 }).trim();
    } catch {
      continue;
    }
    const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
    if (major < 22 || (major === 22 && minor < 18)) return { path, version };
  }
  return null;
}

const old = findOldNode();

test("the entry point tells an old Node what it needs, in one line, and exits 1", {
  skip: old === null ? "no Node older than 22.18 on this machine (PATH, /usr/local/bin, /usr/bin)" : false,
}, () => {
  const r = spawnSync(old!.path, [ENTRY, "--help"], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, `tooldistill needs Node.js 22.18 or newer (found ${old!.version})\n`);
});

test("the same entry point runs the CLI on this Node", () => {
  const r = spawnSync(process.execPath, [ENTRY, "--help"], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Usage: tooldistill <command> \[options\]\n/);
  const usage = spawnSync(process.execPath, [ENTRY, "frob"], { encoding: "utf8", timeout: 30_000 });
  assert.equal(usage.status, 2, "the entry passes the CLI's exit code on");
  assert.match(usage.stderr, /^tooldistill: unknown command 'frob'\n/);
});

test("importing the library (the compiled package entry) on an old Node says which Node it needs", {
  skip: old === null ? "no Node older than 22.18 on this machine (PATH, /usr/local/bin, /usr/bin)" : false,
  // A guard against a hung compiler, not a speed goal: a full tsc build takes minutes on a loaded 2-core machine.
  timeout: 660_000,
}, (t) => {
  // Compiled like `npm run build`, but into node_modules/.cache so the package's dependencies resolve and dist/
  // (which the package test rebuilds) is left alone.
  const root = fileURLToPath(new URL("..", import.meta.url));
  mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
  const out = mkdtempSync(join(root, "node_modules", ".cache", "td-old-node-"));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--outDir", out], {
    encoding: "utf8",
    timeout: 600_000,
  });
  assert.equal(build.status, 0, build.stdout + build.stderr);
  // The package's runtime entry (package.json exports "." → dist/core/entry.js).
  const entry = pathToFileURL(join(out, "core", "entry.js")).href;
  const r = spawnSync(
    old!.path,
    [
      "--input-type=module",
      "-e",
      `import(${JSON.stringify(entry)}).catch((e) => { console.error(e.code + ": " + e.message); process.exit(1); })`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  assert.equal(r.status, 1);
  assert.equal(r.stderr, `NODE_VERSION: tooldistill needs Node.js 22.18 or newer (found ${old!.version})\n`);
  assert.doesNotMatch(r.stderr, /No such built-in module/);
  // A deep import of the store (past the entry) says the same when it is first used.
  const store = pathToFileURL(join(out, "core", "store", "sqlite", "sqlite-registry-store.js")).href;
  const deep = spawnSync(
    old!.path,
    [
      "--input-type=module",
      "-e",
      `const { SqliteRegistryStore } = await import(${JSON.stringify(store)}); try { SqliteRegistryStore.open("x"); } catch (e) { console.error(e.message); }`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  assert.equal(deep.stderr, `tooldistill needs Node.js 22.18 or newer (found ${old!.version})\n`);
});

test("the runtime entry re-exports every value the typed barrel exports", async () => {
  const entry = await import("../core/entry.ts");
  const index = await import("../core/index.ts");
  assert.deepEqual(Object.keys(entry).sort(), Object.keys(index).sort());
  for (const key of Object.keys(index)) {
    assert.equal((entry as Record<string, unknown>)[key], (index as Record<string, unknown>)[key], key);
  }
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  assert.deepEqual(pkg.exports["."], { types: "./dist/core/index.d.ts", default: "./dist/core/entry.js" });
});
