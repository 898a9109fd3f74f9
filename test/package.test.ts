import assert from "node:assert/strict";
import { type SpawnSyncOptions, spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The environment of a user's shell: this Node first on PATH (npm and the package's bin run on it, not on an
 * older system Node), and none of the npm_* variables `npm test` sets for this repository.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  }
  env["PATH"] = `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`;
  return env;
}

function run(
  command: string,
  args: string[],
  options: SpawnSyncOptions,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 240_000, env: userEnv(), ...options });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** The tarball `npm run build` and `npm pack` make, once for the file (both tests install it). */
let packed: string | null = null;
const packDir = mkdtempSync(join(tmpdir(), "td-pack-"));
after(() => rmSync(packDir, { recursive: true, force: true }));

function tarballPath(): string {
  if (packed !== null) return packed;
  const build = run(process.execPath, [join(ROOT, "scripts", "build.ts")], { cwd: ROOT });
  assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}${build.stderr}`);
  const pack = run("npm", ["pack", "--silent", "--pack-destination", packDir], { cwd: ROOT });
  assert.equal(pack.status, 0, `npm pack failed:\n${pack.stderr}`);
  const tarballs = readdirSync(packDir).filter((f) => f.endsWith(".tgz"));
  assert.equal(tarballs.length, 1, `expected one tarball, found ${tarballs.join(", ")}`);
  packed = join(packDir, tarballs[0]!);
  return packed;
}

test("the packed tarball runs as `npx --package <tarball> tooldistill`", { timeout: 300_000 }, (t) => {
  const tarball = tarballPath();

  const listing = run("tar", ["tzf", tarball], {}).stdout.split("\n");
  for (const file of [
    "bin/tooldistill.js",
    "dist/cli/main.js",
    "dist/core/index.js",
    "dist/core/index.d.ts",
    "dist/core/sandbox/quickjs-engine.js",
  ]) {
    assert.ok(listing.includes(`package/${file}`), `the tarball lacks ${file}`);
  }
  // Without the sources beside it, the shim loads dist/: a shipped cli/main.ts would be picked (and fail) instead.
  assert.ok(
    !listing.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
    "the tarball ships TypeScript sources",
  );

  const empty = tempDir(t, "td-npx-");
  const help = run("npx", ["--yes", "--package", tarball, "tooldistill", "--help"], { cwd: empty });
  assert.equal(help.status, 0, `npx tooldistill --help failed:\n${help.stderr}`);
  assert.match(help.stdout, /^Usage: tooldistill <command> \[options\]\n/);

  // init and a store-only verb exercise node:sqlite and the config loader from the installed package.
  const init = run("npx", ["--yes", "--package", tarball, "tooldistill", "init"], { cwd: empty });
  assert.equal(init.status, 0, `npx tooldistill init failed:\n${init.stderr}`);
  assert.ok(readdirSync(join(empty, ".tooldistill")).includes("registry.db"));
  const list = run("npx", ["--yes", "--package", tarball, "tooldistill", "list", "--json"], { cwd: empty });
  assert.equal(list.status, 0, `npx tooldistill list failed:\n${list.stderr}`);
  assert.deepEqual(JSON.parse(list.stdout), []);
  // The report inlines the chart library from the installed `uplot` dependency.
  const report = run("npx", ["--yes", "--package", tarball, "tooldistill", "report", "--html", "r.html"], {
    cwd: empty,
  });
  assert.equal(report.status, 0, `npx tooldistill report failed:\n${report.stderr}`);
  assert.match(readFileSync(join(empty, "r.html"), "utf8"), /var uPlot=function/);
  // The sandbox engine (a .wasm in a dependency) is found from an installed copy of the library.
  const project = tempDir(t, "td-install-");
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "uses-td", private: true, type: "module" }),
  );
  const install = run("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: project });
  assert.equal(install.status, 0, `npm install <tarball> failed:\n${install.stderr}`);
  const script = `import { Sandbox } from "tooldistill";
const sandbox = new Sandbox();
const source = 'import { distilledTool, call } from "tooldistill";\\nexport default distilledTool({ name: "t_t", description: "d", inputSchema: { type: "object" }, async run() { return (await call("echo", { n: 2 })).n * 21; } });';
const outcome = await sandbox.run({ source, input: {}, allow: ["echo"], call: async (_tool, args) => args });
process.stdout.write(JSON.stringify(outcome.ok ? outcome.result : outcome.failure));`;
  writeFileSync(join(project, "run.mjs"), script);
  const ran = run(process.execPath, ["run.mjs"], { cwd: project });
  assert.equal(ran.status, 0, `running a tool from the installed package failed:\n${ran.stderr}`);
  assert.equal(ran.stdout, "42");
});

/**
 * A consumer's node_modules without the network: the tarball unpacked as `tooldistill`, and each package of its
 * production dependency tree (the lock's top-level entries not marked dev) linked from this repository's
 * node_modules, as `npm install <tarball>` would lay them out. Dev dependencies are left out, so a type the
 * published declarations need from one (the bug: @types/babel__traverse) is missing here as it is for a user.
 */
function installOffline(tarball: string, project: string, extra: readonly string[]): void {
  const modules = join(project, "node_modules");
  mkdirSync(modules, { recursive: true });
  const untar = run("tar", ["xzf", tarball, "-C", project], {});
  assert.equal(untar.status, 0, untar.stderr);
  renameSync(join(project, "package"), join(modules, "tooldistill"));
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const production = Object.entries(lock.packages)
    .filter(([key, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(key) && entry.dev !== true)
    .map(([key]) => key.slice("node_modules/".length));
  for (const name of [...production, ...extra]) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(modules, name), "dir");
  }
}

test("the published types compile in a strict consumer with skipLibCheck: false", {
  timeout: 300_000,
}, (t) => {
  const project = tempDir(t, "td-types-");
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "types-td", private: true, type: "module" }),
  );
  // The consumer's own dev dependencies: the Node types every TypeScript project on Node has.
  installOffline(tarballPath(), project, ["@types/node"]);
  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2023",
        types: ["node"],
      },
      files: ["consumer.ts"],
    }),
  );
  writeFileSync(
    join(project, "consumer.ts"),
    `import { ToolDistill, type ToolDef, type Verdict } from "tooldistill";
const tools: ToolDef[] = [{ name: "echo", description: "Echo.", input_schema: { type: "object" } }];
const td = new ToolDistill({ store: ".tooldistill", tools, executor: async (_name, args) => args });
const verdict: Promise<Verdict> = td.verify("echo_twice");
export { verdict };
`,
  );
  const tsc = run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."], {
    cwd: project,
  });
  assert.equal(tsc.status, 0, `tsc over the published types failed:\n${tsc.stdout}${tsc.stderr}`);
});
