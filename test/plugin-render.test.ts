/**
 * The rendered plugin as shipped: committed output equals a fresh render, every file is tracked by git (a git
 * marketplace installs only tracked files), the bundles run from a copy outside the repository with nothing but
 * `node:` built-ins, an old Node gets one clear message, and the real `claude plugin validate` accepts it.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { delimiter, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { tempDir } from "./helpers.ts";
import { CLAUDE_RELEASES } from "./support/claude-code.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAYLOADS = fileURLToPath(new URL("./fixtures/claude-code-payloads/", import.meta.url));
const RENDERED = ["plugin", "plugin-dev", ".claude-plugin"];

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function render(t: import("node:test").TestContext): string {
  const out = tempDir(t, "td-render-");
  execFileSync(process.execPath, [join(ROOT, "scripts", "render-plugin.ts"), out], {
    cwd: ROOT,
    stdio: "pipe",
  });
  return out;
}

test("the committed plugin/, plugin-dev/ and marketplace.json equal a fresh render, byte for byte", (t) => {
  const out = render(t);
  for (const dir of RENDERED) {
    const fresh = files(join(out, dir));
    assert.deepEqual(
      files(join(ROOT, dir)),
      fresh,
      `${dir}/ differs from a fresh render: run npm run render-plugin`,
    );
    for (const f of fresh) {
      assert.ok(
        readFileSync(join(ROOT, dir, f)).equals(readFileSync(join(out, dir, f))),
        `${dir}/${f} is stale: run npm run render-plugin`,
      );
    }
  }
});

test("every rendered file is tracked by git", {
  skip: !existsSync(join(ROOT, ".git")) && "not a git checkout",
}, (t) => {
  const out = render(t);
  const tracked = new Set(
    execFileSync("git", ["ls-files", "-z", "--", ...RENDERED], { cwd: ROOT, encoding: "utf8" }).split("\0"),
  );
  const missing = RENDERED.flatMap((dir) => files(join(out, dir)).map((f) => `${dir}/${f}`)).filter(
    (f) => !tracked.has(f),
  );
  assert.deepEqual(missing, [], "rendered files a git marketplace would not install: git add them");
});

test("the bundles import nothing but node: built-ins and each other", async (t) => {
  // esbuild re-reads a copy outside the repository: a bare import would have no node_modules to resolve from.
  const copy = join(tempDir(t, "td-imports-"), "plugin");
  cpSync(join(ROOT, "plugin"), copy, { recursive: true });
  const entries = files(join(copy, "dist"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => join(copy, "dist", f));
  const result = await build({
    entryPoints: entries,
    absWorkingDir: copy,
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    outdir: join(copy, "out"),
    logLevel: "silent",
  });
  const outside = Object.values(result.metafile.inputs)
    .flatMap((input) => input.imports)
    .filter((i) => i.external)
    .map((i) => i.path)
    .filter((path) => !isBuiltin(path));
  assert.deepEqual([...new Set(outside)], []);
  const fromBareBuiltins = Object.values(result.metafile.inputs)
    .flatMap((input) => input.imports)
    .filter((i) => i.external && !i.path.startsWith("node:"));
  // Bare built-in names (from CommonJS dependencies) are fine: Node resolves them without node_modules.
  assert.ok(fromBareBuiltins.every((i) => isBuiltin(i.path)));
});

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string }) {
  return spawnSync(cmd, args, { ...opts, encoding: "utf8", timeout: 60_000 });
}

test("a copy of plugin/ outside the repository records a session and serves td over stdio", {
  timeout: 60_000,
}, async (t) => {
  const plugin = join(tempDir(t, "td-copy-"), "tooldistill");
  cpSync(join(ROOT, "plugin"), plugin, { recursive: true });
  const project = tempDir(t, "td-copy-project-");
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({ mcpServers: { base: { command: "node", args: ["none.js"] } } }),
  );
  writeFileSync(join(project, "tooldistill.yaml"), "mcp_config: .mcp.json\n");
  // NODE_PATH and the repository's node_modules are out of reach: only what is in the copy can load.
  const env = {
    PATH: process.env["PATH"] ?? "",
    HOME: project,
    CLAUDE_PROJECT_DIR: project,
    CLAUDE_PLUGIN_ROOT: plugin,
  };
  for (const [file, payload] of [
    ["session-start", "SessionStart.startup"],
    ["user-prompt-submit", "UserPromptSubmit"],
    ["pre-tool-use", "PreToolUse.mcp-project"],
    ["post-tool-use", "PostToolUse.mcp-project"],
  ] as const) {
    const r = run(process.execPath, [join(plugin, "dist", `${file}.js`)], {
      cwd: project,
      env,
      input: readFileSync(join(PAYLOADS, `hook.${payload}.json`), "utf8"),
    });
    assert.deepEqual([r.status, r.stderr], [0, ""], file);
  }
  const shown = run(
    process.execPath,
    [
      join(ROOT, "bin", "tooldistill.js"),
      "traces",
      "show",
      "c4f46833-8f37-418c-ab03-42c0dfb3b30d.1",
      "--json",
    ],
    {
      cwd: project,
      env: { ...process.env, ...env },
    },
  );
  assert.equal(shown.status, 0, shown.stderr);
  const trace = JSON.parse(shown.stdout);
  assert.equal(trace.task, "Please run the three tools.");
  assert.deepEqual(
    trace.calls.map((c: { tool: string; output: unknown }) => [c.tool, c.output]),
    [["base__base_echo", "base_echo: from the project server"]],
  );

  // The server answers initialize and tools/list over stdio.
  const server = spawn(process.execPath, [join(plugin, "dist", "td.js")], {
    cwd: project,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  t.after(() => server.kill());
  const lines: Array<{ id?: number; result?: { tools?: Array<{ name: string }> } }> = [];
  let buffer = "";
  server.stdout.setEncoding("utf8");
  const listed = new Promise<string[]>((resolve, reject) => {
    server.on("exit", (code) => reject(new Error(`td exited ${code}`)));
    server.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        const msg = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        lines.push(msg);
        if (msg.id === 2) resolve((msg.result?.tools ?? []).map((x: { name: string }) => x.name));
      }
    });
  });
  const send = (msg: unknown) => server.stdin.write(`${JSON.stringify(msg)}\n`);
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  assert.deepEqual(await listed, ["propose_distilled_tool"]);
  assert.deepEqual((lines.find((l) => l.id === 1)?.result as { capabilities?: unknown })?.capabilities, {
    tools: { listChanged: true },
  });
});

/** The first `node` on PATH (or the usual places) older than 22.18, if the machine has one. */
function findOldNode(): { path: string; version: string } | null {
  const candidates = new Set<string>();
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) if (dir) candidates.add(join(dir, "node"));
  for (const p of ["/usr/local/bin/node", "/usr/bin/node"]) candidates.add(p);
  for (const p of candidates) {
    if (!existsSync(p)) continue;
    try {
      const version = execFileSync(p, ["--version"], { encoding: "utf8", timeout: 10_000 }).trim();
      const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
      if (major < 22 || (major === 22 && minor < 18)) return { path: p, version };
    } catch {}
  }
  return null;
}
test("the bundles are modules by their own package.json: an installed plugin has none above it", () => {
  assert.deepEqual(JSON.parse(readFileSync(join(ROOT, "plugin", "dist", "package.json"), "utf8")), {
    type: "module",
  });
});

const old = findOldNode();

test("an old Node gets one clear message from every bundled hook and the server", {
  skip: old === null && "no Node older than 22.18 here",
}, () => {
  const dist = join(ROOT, "plugin", "dist");
  // Every entry Claude Code or a person runs (the sandbox's worker lives in chunks/, started only by the sandbox).
  const entries = files(dist).filter((f) => !f.includes("/") && f.endsWith(".js"));
  assert.ok(entries.includes("td.js") && entries.includes("cli.js"), entries.join(", "));
  for (const entry of entries) {
    const r = run(old!.path, [join(dist, entry)], {
      cwd: ROOT,
      env: { PATH: process.env["PATH"] ?? "" },
      input: "{}",
    });
    assert.equal(r.stderr, `tooldistill needs Node.js 22.18 or newer (found ${old!.version})\n`, entry);
    assert.equal(r.status, 1, entry);
    assert.equal(r.stdout, "", entry);
  }
});

for (const release of CLAUDE_RELEASES) {
  test(`claude plugin validate (Claude Code ${release.version}, ${release.label}) accepts plugin/, plugin-dev/ and the marketplace`, {
    timeout: 60_000,
  }, (t) => {
    const home = tempDir(t, "td-validate-");
    mkdirSync(join(home, ".claude"), { recursive: true });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env["PATH"] ?? "",
      HOME: home,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    };
    for (const dir of ["plugin", "plugin-dev", "."]) {
      const r = run(release.bin, ["plugin", "validate", dir], { cwd: ROOT, env });
      assert.equal(r.status, 0, `${dir}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /Validation passed/);
      // 2.1.332 adds checks for the plugin directory (a catalog: an icon, declared network hosts) that "do not
      // change the result"; the plugin's own checks come before them and must be clean.
      assert.doesNotMatch(r.stdout.split("Plugin directory checks")[0] ?? "", /warning|⚠/i, r.stdout);
    }
  });
}
