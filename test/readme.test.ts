/**
 * The README's SDK integration snippet compiles under strict TypeScript exactly as written: `td.activeTools()`
 * and `td.proposeTool()` go into `client.messages.create({ tools })` next to the user's `Anthropic.Tool[]`
 * without a cast. Only the user's own functions and tool list are declared around it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The first ```ts block after a heading. */
function snippet(markdown: string, heading: string): string {
  const from = markdown.indexOf(`\n${heading}\n`);
  assert.ok(from >= 0, `README has no "${heading}"`);
  const start = markdown.indexOf("```ts\n", from);
  const end = markdown.indexOf("\n```\n", start);
  return markdown.slice(start + "```ts\n".length, end + 1);
}

test("the README's SDK snippet type-checks under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess", {
  timeout: 120_000,
}, (t) => {
  const code = snippet(readFileSync(join(ROOT, "README.md"), "utf8"), "## SDK integration");
  assert.match(code, /client\.messages\.create\(\{[\s\S]*tools,/);
  assert.match(code, /td\.activeTools\(\), td\.proposeTool\(\)/);
  // Inside node_modules so @anthropic-ai/sdk resolves as it does for a user; "tooldistill" maps to the sources.
  mkdirSync(join(ROOT, "node_modules", ".cache"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "node_modules", ".cache", "td-readme-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "agent.ts"), code);
  writeFileSync(
    join(dir, "user.d.ts"),
    `import type Anthropic from "@anthropic-ai/sdk";
declare global {
  /** The user's tools, typed as the Anthropic SDK types them. */
  const TOOLS: Anthropic.Tool[];
  function executeTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  function taskSucceeded(task: string): Promise<boolean>;
}
export {};
`,
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2024",
        lib: ["es2024"],
        module: "nodenext",
        moduleResolution: "nodenext",
        types: ["node"],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        verbatimModuleSyntax: true,
        allowImportingTsExtensions: true,
        noEmit: true,
        skipLibCheck: true,
        paths: { tooldistill: [join(ROOT, "core", "index.ts")] },
      },
      files: ["agent.ts", "user.d.ts"],
    }),
  );
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8", timeout: 110_000 });
  assert.equal(r.status, 0, `the README snippet does not compile:\n${r.stdout}${r.stderr}`);
});
