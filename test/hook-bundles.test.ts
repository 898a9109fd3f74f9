/**
 * A recording hook is a new process on every tool call: its bundle holds what core/recording.ts reaches, and never
 * the library's heavy parts. The plugin is rendered into a temporary folder and every hook file is read for code
 * that only ToolDistill, `pg`, Babel or QuickJS carry (strings a minifier keeps). The same reader is run on
 * bundles that take each of them in on purpose, built the way the hooks are, so the check is proven to fail.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Text each forbidden part carries in its code (error messages and names kept as strings by the minifier). */
const MARKERS: Record<string, string> = {
  ToolDistill: "cannot open a postgres:// store: connecting takes time",
  pg: "SASL: Last message was not SASLInitialResponse",
  "@babel/parser": "This experimental syntax requires enabling",
  QuickJS: "QuickJSUseAfterFree",
};

/** The forbidden parts whose code is inside `code`. */
function forbiddenIn(code: string): string[] {
  return Object.entries(MARKERS)
    .filter(([, marker]) => code.includes(marker))
    .map(([name]) => name);
}

/** The hook entries the plugin renders: one file per Claude Code event (hooks.json names them). */
function hookFiles(pluginDir: string): string[] {
  const hooks = JSON.parse(readFileSync(join(pluginDir, "hooks", "hooks.json"), "utf8")) as {
    hooks: Record<string, { hooks: { command: string }[] }[]>;
  };
  const files = Object.values(hooks.hooks).flatMap((groups) =>
    groups.flatMap((g) => g.hooks.map((h) => /dist\/([\w-]+\.js)/.exec(h.command)?.[1] ?? h.command)),
  );
  return [...new Set(files)].map((f) => join(pluginDir, "dist", f));
}

test("no rendered hook bundle holds ToolDistill, pg, Babel or QuickJS", { timeout: 120_000 }, (t) => {
  const out = tempDir(t, "td-hook-bundles-");
  execFileSync(process.execPath, [join(ROOT, "scripts", "render-plugin.ts"), out], { cwd: ROOT });
  const plugin = join(out, "plugin");
  const files = hookFiles(plugin);
  assert.equal(files.length, 8, "one bundle per hooked event");
  for (const file of files) {
    assert.deepEqual(
      forbiddenIn(readFileSync(file, "utf8")),
      [],
      `${file} bundles what a hook must not load`,
    );
  }
  // The chunks the server and the CLI share do carry them: the markers name code that is really there.
  const chunks = readdirSync(join(plugin, "dist", "chunks"))
    .filter((f) => f.endsWith(".js"))
    .map((f) => readFileSync(join(plugin, "dist", "chunks", f), "utf8"))
    .join("\n");
  assert.deepEqual(forbiddenIn(chunks).sort(), Object.keys(MARKERS).sort());
});

/** One entry bundled as the hooks are (one minified ES module for Node), from source text. */
async function bundled(contents: string): Promise<string> {
  const r = await build({
    stdin: { contents, resolveDir: ROOT, loader: "ts", sourcefile: "forbidden-entry.ts" },
    absWorkingDir: ROOT,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  return r.outputFiles.map((f) => f.text).join("\n");
}

const ON_PURPOSE: Record<string, string> = {
  ToolDistill: `import { ToolDistill } from "./core/tool-distill/tool-distill.ts";\nconsole.log(ToolDistill);\n`,
  pg: `import pg from "pg";\nconsole.log(new pg.Client());\n`,
  "@babel/parser": `import { parse } from "@babel/parser";\nconsole.log(parse("x"));\n`,
  QuickJS: `import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";\nconsole.log(newQuickJSWASMModuleFromVariant);\n`,
};

for (const [name, entry] of Object.entries(ON_PURPOSE)) {
  test(`the check fails on a hook bundle that takes in ${name} on purpose`, { timeout: 60_000 }, async () => {
    assert.ok(forbiddenIn(await bundled(entry)).includes(name), `${name}'s marker is not in its own bundle`);
  });
}
