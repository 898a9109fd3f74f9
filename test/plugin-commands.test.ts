/**
 * A user who has only the plugin has a CLI (issue 20, item 7): with the real Claude Code binary, headless and
 * offline (a fake Messages API on 127.0.0.1), `/tooldistill:promote <name>` runs the CLI bundled in the plugin
 * (plugin/dist/cli.js) as the command expands, so the person's command is the approval: the version becomes
 * active, and the model is handed the code that is now active. `/tooldistill:list`, `show`, `verify` and
 * `deprecate` run the same CLI. No npm package is installed in the project.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { after, type TestContext, test } from "node:test";
import { fileURLToPath } from "node:url";
import { PROPOSE_TOOL_NAME } from "../core/distill/prompts.ts";
import { Sandbox, silentLogger, ToolDistill } from "../core/index.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { type FakeAnthropic, startFakeAnthropic } from "./fakes/anthropic-server.ts";
import { REFUND_TOOL, SOURCE_RUN, supportWorld } from "./fakes/support-tools.ts";
import { tempDir } from "./helpers.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLAUDE = join(ROOT, "node_modules", ".bin", "claude");
const SUPPORT = join(ROOT, "test", "fakes", "support-tools.ts");

const sandbox = new Sandbox({ poolSize: 1 });
after(() => sandbox.close());

// biome-ignore lint/suspicious/noExplicitAny: API request bodies are arbitrary JSON
type Body = any;

/** The text of every user turn of a request, the expanded slash command included. */
function userText(body: Body): string {
  return ((body?.messages ?? []) as Body[])
    .filter((m) => m.role === "user")
    .flatMap((m) =>
      typeof m.content === "string" ? [m.content] : (m.content as Body[]).map((b) => b.text ?? ""),
    )
    .join("\n");
}

/** A project with a tooldistill.yaml over the support tools and a verified refund_ticket v1 waiting for a person. */
async function project(t: TestContext): Promise<string> {
  const dir = tempDir(t, "td-cmd-project-");
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    `store: .tooldistill\nexecutor: ${SUPPORT}#executeTool\ntools: ${SUPPORT}#TOOLS\nfallback_distiller: false\n`,
  );
  const world = supportWorld();
  const td = new ToolDistill({
    store: join(dir, ".tooldistill"),
    executor: world.executor,
    tools: world.tools,
    sandbox,
    logger: silentLogger,
    fallbackDistiller: false,
  });
  try {
    const trace = td.startTrace("Refund ACME's open ticket");
    for (const [name, args] of SOURCE_RUN) await trace.execute(name, args);
    trace.setOutcome({ success: true });
    const out = await trace.execute(PROPOSE_TOOL_NAME, {
      code: REFUND_TOOL,
      test_inputs: [{ customer: "ACME" }],
    });
    assert.match(out.content, /waits for promote/);
  } finally {
    await td.close();
  }
  return dir;
}

/** Claude Code's environment: no inherited CLAUDE or ANTHROPIC variables, the fake API, this Node first on PATH. */
function claudeEnv(home: string, api: FakeAnthropic): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(CLAUDE|ANTHROPIC)/.test(k) || k.startsWith("NODE_TEST") || k === "NODE_OPTIONS") continue;
    env[k] = v;
  }
  return {
    ...env,
    HOME: home,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env["PATH"] ?? ""}`,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-ant-fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}),
  };
}

/**
 * One headless prompt with the rendered plugin; returns the user turn that carried the expanded command. Async:
 * the fake API answers from this process, so a blocking spawn would starve it.
 */
async function run(cwd: string, env: NodeJS.ProcessEnv, api: FakeAnthropic, prompt: string): Promise<string> {
  const before = api.received.length;
  const args = ["-p", prompt, "--output-format", "json", "--dangerously-skip-permissions"];
  const child = spawn(CLAUDE, [...args, "--plugin-dir", join(ROOT, "plugin")], { cwd, env });
  child.stdin.end();
  let out = "";
  child.stdout.on("data", (c) => {
    out += c;
  });
  child.stderr.on("data", (c) => {
    out += c;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const [code] = (await once(child, "close")) as [number | null];
  clearTimeout(timer);
  assert.equal(code, 0, `claude -p ${prompt}: ${out}`);
  const texts = api.received.slice(before).map((q) => userText(q.body));
  const expanded = texts.find((x) => x.includes("tooldistill's CLI (bundled in the plugin)"));
  assert.ok(
    expanded,
    `no request carried the expanded command; user turns: ${texts.join("\n---\n").slice(0, 3000)}`,
  );
  return expanded;
}

test("/tooldistill:promote, list, show, verify and deprecate run the plugin's own CLI; promote is the person's approval", {
  timeout: 400_000,
}, async (t) => {
  assert.ok(existsSync(join(ROOT, "plugin", "dist", "cli.js")), "the plugin ships its CLI");
  const dir = await project(t);
  const home = tempDir(t, "td-cmd-home-");
  mkdirSync(join(home, ".claude"), { recursive: true });
  const api = await startFakeAnthropic(() => ({ content: [{ type: "text", text: "done" }] }));
  t.after(() => api.close());
  const env = claudeEnv(home, api);
  assert.equal(existsSync(join(dir, "node_modules")), false, "no npm package in the project");

  const promoted = await run(dir, env, api, "/tooldistill:promote refund_ticket");
  assert.match(promoted, /code of refund_ticket v1:\n/);
  assert.match(promoted, /name: "refund_ticket"/, "the code that became active");
  assert.match(promoted, /refund_ticket v1: active/);
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  try {
    const v = await store.getVersion("refund_ticket", 1);
    assert.equal(v?.status, "active");
    assert.equal(v?.verdict?.evidence.promotion, "promoted by a person (tooldistill promote)");
  } finally {
    await store.close();
  }

  const listed = await run(dir, env, api, "/tooldistill:list");
  assert.match(listed, /refund_ticket\s+v1\s+active/);
  const shown = await run(dir, env, api, "/tooldistill:show refund_ticket");
  assert.match(shown, /refund_ticket/);
  assert.match(shown, /promoted/);
  const plan = await run(dir, env, api, "/tooldistill:verify refund_ticket --live --dry-run");
  assert.match(plan, /plan of tooldistill verify refund_ticket --version 1 --live \(nothing was run\):/);
  const deprecated = await run(dir, env, api, "/tooldistill:deprecate refund_ticket");
  assert.match(deprecated, /refund_ticket v1: deprecated/);

  // The commands that change the registry are the person's: the model is not offered them as skills.
  for (const file of ["promote", "deprecate", "verify"]) {
    const text = readFileSync(join(ROOT, "plugin", "commands", `${file}.md`), "utf8");
    assert.match(text, /\ndisable-model-invocation: true\n/, file);
    assert.match(text, /!`node "\$\{CLAUDE_PLUGIN_ROOT\}\/dist\/cli\.js" /, file);
  }
});
