/**
 * `npm run render-plugin`: renders the Claude Code plugin. `plugin/` is what the marketplace installs: plugin.json,
 * hooks.json, the commands, .mcp.json, the README and esbuild bundles of the hook entries, the `td` MCP server and
 * the CLI (which the commands run) that import only `node:` built-ins (Claude Code never runs `npm install` for a plugin). `plugin-dev/` runs this
 * checkout's TypeScript sources on the pinned Node instead. Both are committed; a test re-renders them into a temp
 * folder and compares bytes. Usage: `node scripts/render-plugin.ts [outRoot]` (default: the repository root).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { CHART_FILES, chartAssetPath, engineWasmPath, WASM_FILE, WORKER_FILE } from "../core/internal.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const outRoot = resolve(process.argv[2] ?? root);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  description: string;
  license: string;
};

/** Hook entry files (hooks/<file>.ts) by the Claude Code event they handle; tool events match every tool. */
const HOOKS = [
  ["SessionStart", "session-start", null],
  ["UserPromptSubmit", "user-prompt-submit", null],
  ["UserPromptExpansion", "user-prompt-expansion", null],
  ["PreToolUse", "pre-tool-use", "*"],
  ["PostToolUse", "post-tool-use", "*"],
  ["PostToolUseFailure", "post-tool-use-failure", "*"],
  ["Stop", "stop", null],
  ["SessionEnd", "session-end", null],
] as const;

/** Claude Code expands this in hooks.json and .mcp.json: the folder the plugin is installed in. */
const PLUGIN_ROOT = "$" + "{CLAUDE_PLUGIN_ROOT}";

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function write(dir: string, file: string, text: string): void {
  mkdirSync(join(dir, file, ".."), { recursive: true });
  writeFileSync(join(dir, file), text);
}

function pluginJson(description: string): string {
  return json({
    name: "tooldistill",
    version: pkg.version,
    description,
    author: { name: "tooldistill" },
    license: pkg.license,
    keywords: ["mcp", "tools", "distillation", "verification"],
  });
}

function hooksJson(command: (file: string) => string): string {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, file, matcher] of HOOKS) {
    const entry = { type: "command", command: command(file), timeout: 30 };
    hooks[event] = [matcher === null ? { hooks: [entry] } : { matcher, hooks: [entry] }];
  }
  return json({
    description: "tooldistill: record the session's tool calls into the project's store",
    hooks,
  });
}

function mcpJson(command: string, args: string[]): string {
  return json({ mcpServers: { td: { type: "stdio", command, args } } });
}

/**
 * Every command of commands/; `cli` is how the plugin runs the tooldistill CLI, which replaces `{{TOOLDISTILL}}` in
 * the commands that run it at expansion (`` !`…` ``), and `report` how it runs the report entry (`<report-entry>`).
 */
function common(dir: string, cli: string, report: string): void {
  rmSync(dir, { recursive: true, force: true });
  for (const file of readdirSync(join(root, "commands"))
    .filter((f) => f.endsWith(".md"))
    .sort()) {
    const text = readFileSync(join(root, "commands", file), "utf8");
    write(
      dir,
      `commands/${file}`,
      text.replaceAll("{{TOOLDISTILL}}", cli).replaceAll("<report-entry>", report),
    );
  }
}

/**
 * `import { readFileSync } from "node:fs"` in an ES module makes Node build the module's ESM facade, which reads
 * every export, lazy getters included: node:fs then loads its streams and promises (about 6 ms of a hook's start).
 * The hook bundles take built-ins from `process.getBuiltinModule` instead, through a small ES module per built-in
 * that re-exports its plain values; an accessor (e.g. async_hooks' AsyncLocalStorage) is read by a call marked pure,
 * so a bundle that imports it without using it (a module the hooks reach but never run) drops the read. It
 * also keeps `node:sqlite` from loading before the Node version check, so each hook can be one file.
 */
const builtinsWithoutFacade: Plugin = {
  name: "builtins-without-esm-facade",
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: "builtin" }));
    b.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => {
      const mod = process.getBuiltinModule(args.path) as Record<string, unknown>;
      const exported = Object.entries(Object.getOwnPropertyDescriptors(mod)).filter(
        ([name]) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default",
      );
      const names = exported.filter(([, d]) => "value" in d).map(([name]) => name);
      const accessors = exported.filter(([, d]) => !("value" in d)).map(([name]) => name);
      return {
        contents: [
          `const m = process.getBuiltinModule(${JSON.stringify(args.path)});`,
          "const accessor$ = (name) => m[name];",
          "export default m;",
          `export const { ${names.join(", ")} } = m;`,
          ...accessors.map(
            (name) => `export const ${name} = /* @__PURE__ */ accessor$(${JSON.stringify(name)});`,
          ),
        ].join("\n"),
        loader: "js",
      };
    });
  },
};

/** The hooks' full config loader (YAML, ajv) stays out of the hook files: they import the bundled one on a cache miss. */
const FULL_CONFIG_ENTRY = "chunks/full-config";
const fullConfigExternal: Plugin = {
  name: "full-config-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/full-config\.ts$/ }, () => ({
      path: `./${FULL_CONFIG_ENTRY}.js`,
      external: true,
    }));
  },
};

/** plugin/: bundles that run on the user's `node`, with nothing but built-ins. */
async function renderPlugin(dir: string): Promise<void> {
  common(dir, `node "${PLUGIN_ROOT}/dist/cli.js"`, `node "${PLUGIN_ROOT}/dist/report.js"`);
  write(dir, ".claude-plugin/plugin.json", pluginJson(pkg.description));
  write(
    dir,
    "hooks/hooks.json",
    hooksJson((file) => `node "${PLUGIN_ROOT}/dist/${file}.js"`),
  );
  write(dir, ".mcp.json", mcpJson("node", [`${PLUGIN_ROOT}/dist/td.js`]));
  write(dir, "README.md", readFileSync(join(root, "scripts", "plugin-readme.md"), "utf8"));
  // An installed plugin has no package.json above it: without this one Node would first try each bundle as
  // CommonJS, fail on its `import`, and compile it again as a module, on every hook.
  write(dir, "dist/package.json", `${JSON.stringify({ type: "module" })}\n`);
  const shared = {
    absWorkingDir: root,
    outdir: join(dir, "dist"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    legalComments: "eof",
    logLevel: "warning",
  } as const;
  // The server, the fallback distiller, the hooks' full config loader and the CLI share chunks (the CLI loads
  // `pg` from its chunk only when the store is a PostgreSQL URL, as the server does).
  await build({
    ...shared,
    entryPoints: {
      td: join(root, "server", "td.ts"),
      fallback: join(root, "hooks", "fallback.ts"),
      report: join(root, "hooks", "report.ts"),
      [FULL_CONFIG_ENTRY]: join(root, "hooks", "full-config.ts"),
      cli: join(root, "cli", "plugin-cli.ts"),
    },
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    // CommonJS dependencies (ajv) call require() for built-ins; ESM output has no require of its own.
    banner: {
      js: 'import { createRequire as __tdCreateRequire } from "node:module";\nconst require = __tdCreateRequire(import.meta.url);',
    },
  });
  // A hook runs on every tool call, and Node's start-up is most of its time: each hook is one self-contained file,
  // so Node resolves and compiles one module instead of a chain of shared chunks (measured: two files, even with
  // Node's compile cache on the second, are no faster; a chain of chunks is much slower). Minified: less to parse.
  // What they bundle is what core/recording.ts reaches (biome.json holds them to it): test/hook-bundles.test.ts
  // reads every hook file and fails if ToolDistill, pg, Babel or QuickJS is inside.
  const hookEntries = Object.fromEntries(HOOKS.map(([, file]) => [file, join(root, "hooks", `${file}.ts`)]));
  await build({
    ...shared,
    entryPoints: hookEntries,
    splitting: false,
    minify: true,
    plugins: [builtinsWithoutFacade, fullConfigExternal],
  });
  // The sandbox's engine worker (core/sandbox/sandbox-worker.ts) is loaded by path from beside core/sandbox/sandbox-workers.ts, which
  // every entry that runs tools shares from the chunk folder: one self-contained file there (only node: built-ins and
  // the engine), as the engine's .wasm is (test/plugin-engine.test.ts runs both from a copy of the plugin).
  await build({
    ...shared,
    entryPoints: { [`chunks/${WORKER_FILE}`]: join(root, "core", "sandbox", "sandbox-worker.ts") },
    splitting: false,
    banner: {
      js: 'import { createRequire as __tdCreateRequire } from "node:module";\nconst require = __tdCreateRequire(import.meta.url);',
    },
  });
  // core/sandbox/quickjs-engine.ts looks for the engine next to itself through import.meta.url: in the bundle that is the
  // chunk folder (the plugin has no node_modules to resolve the package from).
  copyFileSync(engineWasmPath(), join(dir, "dist", "chunks", WASM_FILE));
  // The report inlines the chart library; core/report/report-html.ts looks for it beside itself the same way.
  for (const file of Object.values(CHART_FILES)) {
    copyFileSync(chartAssetPath(file), join(dir, "dist", "chunks", file));
  }
}

/** plugin-dev/: the same plugin over this checkout's sources, on its pinned Node (`npm ci` first). */
function renderPluginDev(dir: string): void {
  const node = `${PLUGIN_ROOT}/../node_modules/.bin/node`;
  common(
    dir,
    `"${node}" "${PLUGIN_ROOT}/../bin/tooldistill.js"`,
    `"${node}" "${PLUGIN_ROOT}/../hooks/report.ts"`,
  );
  write(
    dir,
    ".claude-plugin/plugin.json",
    pluginJson(`${pkg.description} (development: runs the checkout's sources)`),
  );
  write(
    dir,
    "hooks/hooks.json",
    hooksJson((file) => `"${node}" "${PLUGIN_ROOT}/../hooks/${file}.ts"`),
  );
  write(dir, ".mcp.json", mcpJson(node, [`${PLUGIN_ROOT}/../server/td.ts`]));
  write(
    dir,
    "README.md",
    "# tooldistill (development plugin)\n\nRuns this checkout's TypeScript sources (hooks/, server/, core/) on the Node pinned in\n" +
      "node_modules, so edits take effect in the next session without `npm run render-plugin`. Run `npm ci` first, then\n" +
      "`claude --plugin-dir <checkout>/plugin-dev` in a project with a tooldistill.yaml. See ../plugin/README.md.\n",
  );
}

/** The repository as a marketplace: `claude plugin marketplace add <repo>` then `claude plugin install tooldistill@tooldistill`. */
function renderMarketplace(dir: string): void {
  write(
    dir,
    ".claude-plugin/marketplace.json",
    json({
      name: "tooldistill",
      owner: { name: "tooldistill" },
      metadata: { description: "tooldistill: verified distilled tools for Claude Code" },
      plugins: [
        { name: "tooldistill", source: "./plugin", description: pkg.description, version: pkg.version },
      ],
    }),
  );
}

await renderPlugin(join(outRoot, "plugin"));
renderMarketplace(outRoot);
renderPluginDev(join(outRoot, "plugin-dev"));
process.stdout.write(`render-plugin: wrote ${join(outRoot, "plugin")} and ${join(outRoot, "plugin-dev")}\n`);
