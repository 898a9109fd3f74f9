/**
 * The layer rule and the folder each third-party package is confined to are the linter's, not a reader's memory:
 * Biome's noRestrictedImports, configured in biome.json, fails on every forbidden import. The project's own biome.json lints small files in a temporary tree laid out
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
  "hooks/reaches-into-core.ts": `import { SqliteRegistryStore } from "../core/store/sqlite/sqlite-registry-store.ts";\nexport const s = SqliteRegistryStore;\n`,
  "hooks/knows-server.ts": `import { main } from "../server/main.ts";\nexport const m = main;\n`,
  // A recording hook reaches the library only through the recording entry: the others reach ToolDistill.
  "hooks/records-past-the-entry.ts": `import { ToolDistill } from "../core/internal.ts";\nexport const t = ToolDistill;\n`,
  "hooks/records-past-the-entry-too.ts": `import { loadConfig } from "../core/index.ts";\nexport const l = loadConfig;\n`,
  "claude-code/past-the-entry.ts": `import { ToolDistill } from "../core/index.ts";\nexport const t = ToolDistill;\n`,
  "server/knows-hooks.ts": `import { runHook } from "../hooks/run.ts";\nexport const r = runHook;\n`,
  "claude-code/knows-hooks.ts": `import { runHook } from "../hooks/run.ts";\nexport const r = runHook;\n`,
  "bin/reaches-into-core.ts": `import { Sandbox } from "../core/sandbox/sandbox.ts";\nexport const s = Sandbox;\n`,
  "cli/commands/reaches-into-core.ts": `import { SqliteRegistryStore } from "../../core/store/sqlite/sqlite-registry-store.ts";\nexport const s = SqliteRegistryStore;\n`,
  "cli/commands/knows-hooks.ts": `import { runHook } from "../../hooks/run.ts";\nexport const r = runHook;\n`,
  "scripts/reaches-into-core.ts": `import { engineWasmPath } from "../core/sandbox/quickjs-engine.ts";\nexport const p = engineWasmPath;\n`,
  // The layer rule holds at any depth of core/.
  "core/store/knows-cli.ts": `export { main } from "../../cli/main.ts";\n`,
  // Each third-party package is confined to the folder that owns it.
  "core/store/uses-pg.ts": `import pg from "pg";\nexport const p = pg;\n`,
  "core/tool-distill/loads-pg.ts": `export const load = () => import("pg");\n`,
  "core/config/reaches-postgres.ts": `import { loadPg } from "../store/postgres/postgres-connect.ts";\nexport const l = loadPg;\n`,
  "core/store/transfer/uses-sqlite.ts": `import type { DatabaseSync } from "node:sqlite";\nexport type D = DatabaseSync;\n`,
  "core/verify/uses-quickjs.ts": `import { newVariant } from "quickjs-emscripten-core";\nexport const v = newVariant;\n`,
  "core/trace/uses-quickjs-build.ts": `import variant from "@jitl/quickjs-wasmfile-release-sync";\nexport const v = variant;\n`,
  "core/lifecycle/uses-babel.ts": `import { parse } from "@babel/parser";\nexport const p = parse;\n`,
  "core/sandbox/uses-babel.ts": `import type { Node } from "@babel/traverse";\nexport type N = Node;\n`,
  "core/tool-distill/uses-anthropic.ts": `import Anthropic from "@anthropic-ai/sdk";\nexport const a = Anthropic;\n`,
  "core/distill/uses-mcp.ts": `import { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport const c = Client;\n`,
  "server/uses-mcp-client.ts": `import { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport const c = Client;\n`,
  "hooks/uses-pg.ts": `import pg from "pg";\nexport const p = pg;\n`,
  "cli/commands/uses-babel.ts": `import { parse } from "@babel/parser";\nexport const p = parse;\n`,
  "claude-code/uses-sqlite.ts": `import { DatabaseSync } from "node:sqlite";\nexport const d = DatabaseSync;\n`,
  "scripts/uses-quickjs.ts": `import { newVariant } from "quickjs-emscripten-core";\nexport const v = newVariant;\n`,
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
  // Each package in the folder that owns it.
  "core/store/postgres/uses-pg.ts": `import pg from "pg";\nexport const load = () => import("pg");\nexport const p = pg;\n`,
  "core/store/registry-open.ts": `export const open = () => import("./postgres/postgres-store.ts");\n`,
  "core/store/store-url.ts": `export const isUrl = (s: string) => s.startsWith("postgres://");\n`,
  "core/store/sqlite/uses-sqlite.ts": `import type { DatabaseSync } from "node:sqlite";\nexport type D = DatabaseSync;\n`,
  "core/sandbox/uses-quickjs.ts": `import variant from "@jitl/quickjs-wasmfile-release-sync";\nimport { newVariant } from "quickjs-emscripten-core";\nexport const v = [newVariant, variant];\n`,
  "core/verify/static/uses-babel.ts": `import { parse } from "@babel/parser";\nimport type { Node } from "@babel/traverse";\nexport const p = parse;\nexport type N = Node;\n`,
  "core/distill/uses-anthropic.ts": `import Anthropic from "@anthropic-ai/sdk";\nexport const a = Anthropic;\n`,
  "core/mcp/uses-mcp.ts": `import { Client } from "@modelcontextprotocol/sdk/client/index.js";\nimport type { Tool } from "@modelcontextprotocol/sdk/types.js";\nexport const c = Client;\nexport type T = Tool;\n`,
  "server/uses-mcp-server.ts": `import { Server } from "@modelcontextprotocol/sdk/server/index.js";\nimport type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";\nexport const s = Server;\nexport type T = Transport;\n`,
};

test("the linter fails on every forbidden import between layers or of a package outside its folder, and passes the allowed ones", (t) => {
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
