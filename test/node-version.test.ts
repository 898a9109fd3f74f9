import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

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
