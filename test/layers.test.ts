/**
 * The layer rule is the linter's, not a reader's memory: Biome's noRestrictedImports, configured in biome.json,
 * fails on every forbidden import. The project's own biome.json lints small files in a temporary tree laid out
 * like the repository, some allowed and some not.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIOME = join(ROOT, "node_modules", ".bin", "biome");

const FORBIDDEN: Record<string, string> = {
  "core/knows-hooks.ts": `import { runHook } from "../hooks/run.ts";\nexport const x = runHook;\n`,
  "core/knows-plugin.ts": `export async function f() {\n  return import("../claude-code/session.ts");\n}\n`,
  "core/knows-cli.ts": `export { main } from "../cli/main.ts";\n`,
  "hooks/reaches-into-core.ts": `import { Store } from "../core/store/sqlite/sqlite-store.ts";\nexport const s = Store;\n`,
  "hooks/knows-server.ts": `import { main } from "../server/main.ts";\nexport const m = main;\n`,
  // A recording hook reaches the library only through the recording entry: the others reach ToolDistill.
  "hooks/records-past-the-entry.ts": `import { ToolDistill } from "../core/internal.ts";\nexport const t = ToolDistill;\n`,
  "hooks/records-past-the-entry-too.ts": `import { loadConfig } from "../core/index.ts";\nexport const l = loadConfig;\n`,
  "claude-code/past-the-entry.ts": `import { ToolDistill } from "../core/index.ts";\nexport const t = ToolDistill;\n`,
  "server/knows-hooks.ts": `import { runHook } from "../hooks/run.ts";\nexport const r = runHook;\n`,
  "claude-code/knows-hooks.ts": `import { runHook } from "../hooks/run.ts";\nexport const r = runHook;\n`,
  "bin/reaches-into-core.ts": `import { Sandbox } from "../core/sandbox/sandbox.ts";\nexport const s = Sandbox;\n`,
  "cli/commands/reaches-into-core.ts": `import { Store } from "../../core/store/sqlite/sqlite-store.ts";\nexport const s = Store;\n`,
  "cli/commands/knows-hooks.ts": `import { runHook } from "../../hooks/run.ts";\nexport const r = runHook;\n`,
  "scripts/reaches-into-core.ts": `import { engineWasmPath } from "../core/sandbox/quickjs-engine.ts";\nexport const p = engineWasmPath;\n`,
};

const ALLOWED: Record<string, string> = {
  "core/own-module.ts": `import { DistillError } from "./errors.ts";\nexport const e = DistillError;\n`,
  "hooks/through-barrel.ts": `import { SqliteRegistryStore } from "../core/recording.ts";\nimport { x } from "../claude-code/session.ts";\nexport const s = [SqliteRegistryStore, x];\n`,
  // The entries a hook starts apart from recording (the fallback distiller, the report, the full config loader).
  "hooks/fallback-run.ts": `import { ToolDistill } from "../core/index.ts";\nexport const t = ToolDistill;\n`,
  "hooks/full-config.ts": `import { loadMcpServers } from "../core/internal.ts";\nexport const l = loadMcpServers;\n`,
  "claude-code/through-entry.ts": `import { DistillError } from "../core/recording.ts";\nexport const e = DistillError;\n`,
  "server/through-barrel.ts": `import { ToolDistill } from "../core/internal.ts";\nexport const t = ToolDistill;\n`,
  "claude-code/gate.ts": `import { nodeVersionProblem } from "../core/node/node-version.ts";\nexport const p = nodeVersionProblem;\n`,
  "bin/public.ts": `import { ToolDistill } from "../core/index.ts";\nexport const t = ToolDistill;\n`,
  "cli/read-barrel.ts": `import { loadConfig } from "../core/read.ts";\nexport const l = loadConfig;\n`,
  "cli/commands/through-barrel.ts": `import { x } from "../../claude-code/session.ts";\nimport { SqliteRegistryStore } from "../../core/internal.ts";\nexport const s = [SqliteRegistryStore, x];\n`,
};

test("the linter fails on every forbidden import between layers and passes the allowed ones", (t) => {
  const dir = tempDir(t, "td-layers-");
  const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8")) as Record<string, unknown>;
  config["$schema"] = join(ROOT, "node_modules", "@biomejs", "biome", "configuration_schema.json");
  writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
  for (const [file, text] of Object.entries({ ...FORBIDDEN, ...ALLOWED })) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const r = spawnSync(BIOME, ["lint", "--vcs-enabled=false", "--max-diagnostics=200", "."], {
    cwd: dir,
    encoding: "utf8",
  });
  const output = `${r.stdout}${r.stderr}`;
  assert.notEqual(r.status, 0, "biome lint passed a tree with forbidden imports");
  const flagged = new Set(
    [...output.matchAll(/^(\S+\.ts):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map((m) => m[1]),
  );
  assert.deepEqual([...flagged].sort(), Object.keys(FORBIDDEN).sort(), output);
});
