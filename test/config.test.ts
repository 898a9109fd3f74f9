import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  type Config,
  defaultConfig,
  findConfig,
  loadConfig,
  SAMPLE_CONFIG,
  validateConfig,
} from "../core/config/config.ts";
import { importRef } from "../core/config/module-ref.ts";
import { DEFAULT_SETTINGS } from "../core/config/settings.ts";
import { DistillError } from "../core/errors.ts";

/** Runs `fn` in a fresh temp folder that is removed afterwards. */
async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "tooldistill-config-")));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `tooldistill.yaml` (lines joined) into `dir` and returns its path. */
function writeConfig(dir: string, lines: string[]): string {
  const file = join(dir, "tooldistill.yaml");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** Asserts that loading `file` fails with CONFIG_INVALID and exactly this message. */
async function assertInvalid(file: string, message: string): Promise<void> {
  await assert.rejects(loadConfig(file), (err: unknown) => {
    assert.ok(err instanceof DistillError);
    assert.equal(err.code, "CONFIG_INVALID");
    assert.equal(err.message, message);
    return true;
  });
}

// A literal \${VAR} as written in the file: expansion belongs to the MCP module, not to the config.
const BEARER = "Bearer $" + "{BILLING_TOKEN}";

const TOOLS_MODULE = `
interface ToolDef { name: string; description: string; input_schema: Record<string, unknown> }

export const TOOLS: ToolDef[] = [
  { name: "echo", description: "Echo the text back.", input_schema: { type: "object", properties: { text: { type: "string" } } } },
];

export function executeTool(name: string, args: Record<string, unknown>): unknown {
  if (name !== "echo") throw new Error(\`no such tool: \${name}\`);
  return { echoed: args["text"] as string };
}
`;

test("no file at all gives the defaults", async () => {
  await inTempDir(async (dir) => {
    const config = defaultConfig(dir);
    assert.deepEqual(config, {
      path: null,
      dir,
      store: join(dir, ".tooldistill"),
      executor: null,
      tools: null,
      healthProbe: null,
      distiller: null,
      mcpConfig: null,
      mcpServers: {},
      settings: {
        distillerModel: "claude-sonnet-5-5",
        fallbackDistiller: true,
        autoPromote: false,
        demotion: { failures: 2, window: 5, probation: 3 },
        baseCallRetries: { attempts: 3, backoff: 200, cap: 2000 },
        minCallsToDistill: 8,
        minCallReduction: 0.3,
        maxExposedTools: 20,
        allowLiveVerification: false,
        checkSchemasOnStart: true,
        maxOutputBytes: 4 * 1024 * 1024,
        storePoolSize: 10,
        storeConnectTimeoutMs: 10_000,
      },
    });
    assert.equal(findConfig(dir), null);
  });
});

test("loadConfig() without a path and without a file in the current folder gives the defaults", async () => {
  await inTempDir(async (dir) => {
    const before = process.cwd();
    process.chdir(dir);
    try {
      assert.deepEqual(await loadConfig(), defaultConfig(dir));
      writeConfig(dir, ["auto_promote: true"]);
      assert.equal(findConfig(), join(dir, "tooldistill.yaml"));
      assert.equal((await loadConfig()).settings.autoPromote, true);
    } finally {
      process.chdir(before);
    }
  });
});

test("findConfig does not walk up to a parent folder", async () => {
  await inTempDir(async (dir) => {
    writeConfig(dir, ["auto_promote: true"]);
    const child = join(dir, "child");
    mkdirSync(child);
    assert.equal(findConfig(dir), join(dir, "tooldistill.yaml"));
    assert.equal(findConfig(child), null);
  });
});

test("an empty file means every default, with the file's folder as the base", async () => {
  await inTempDir(async (dir) => {
    const file = writeConfig(dir, ["# nothing set"]);
    const config = await loadConfig(file);
    assert.deepEqual(config, { ...defaultConfig(dir), path: file });
  });
});

test("every key is parsed into the camelCase config", async () => {
  await inTempDir(async (dir) => {
    const file = writeConfig(dir, [
      "store: data/store",
      "executor: ./tools.ts#executeTool",
      "tools: ./tools.ts#TOOLS",
      "health_probe: ./lib/probe.ts#probe",
      "distiller: ../shared/distill.ts#default",
      "distiller_model: claude-opus-5",
      "fallback_distiller: false",
      "auto_promote: all",
      "demotion: { failures: 3, window: 10, probation: 0 }",
      "min_calls_to_distill: 3",
      "min_call_reduction: 0.5",
      "max_exposed_tools: 0",
      "allow_live_verification: true",
      "check_schemas_on_start: false",
      "max_output_bytes: 65536",
      "store_pool_size: 4",
      "store_connect_timeout_ms: 2500",
      "mcp_config: .mcp.json",
      "mcpServers:",
      "  billing:",
      "    type: http",
      "    url: http://localhost:8787/mcp",
      `    headers: { Authorization: "${BEARER}" }`,
      "  gmail:",
      "    command: node",
      "    args: [./servers/gmail.ts, --fake]",
      "    env:",
      '      GMAIL_FAKE: "1"',
    ]);
    const config = await loadConfig(file);
    const expected: Config = {
      path: file,
      dir,
      store: join(dir, "data", "store"),
      executor: {
        key: "executor",
        file: join(dir, "tools.ts"),
        exportName: "executeTool",
        raw: "./tools.ts#executeTool",
      },
      tools: { key: "tools", file: join(dir, "tools.ts"), exportName: "TOOLS", raw: "./tools.ts#TOOLS" },
      healthProbe: {
        key: "health_probe",
        file: join(dir, "lib", "probe.ts"),
        exportName: "probe",
        raw: "./lib/probe.ts#probe",
      },
      distiller: {
        key: "distiller",
        file: join(dir, "..", "shared", "distill.ts"),
        exportName: "default",
        raw: "../shared/distill.ts#default",
      },
      mcpConfig: join(dir, ".mcp.json"),
      mcpServers: {
        billing: {
          type: "http",
          url: "http://localhost:8787/mcp",
          headers: { Authorization: BEARER },
        },
        gmail: { command: "node", args: ["./servers/gmail.ts", "--fake"], env: { GMAIL_FAKE: "1" } },
      },
      settings: {
        distillerModel: "claude-opus-5",
        fallbackDistiller: false,
        autoPromote: "all",
        minCallsToDistill: 3,
        minCallReduction: 0.5,
        maxExposedTools: 0,
        allowLiveVerification: true,
        checkSchemasOnStart: false,
        maxOutputBytes: 65536,
        demotion: { failures: 3, window: 10, probation: 0 },
        baseCallRetries: { attempts: 3, backoff: 200, cap: 2000 },
        storePoolSize: 4,
        storeConnectTimeoutMs: 2500,
      },
    };
    assert.deepEqual(config, expected);
  });
});

test("relative paths resolve against the config file's folder, not the current folder", async () => {
  await inTempDir(async (dir) => {
    const project = join(dir, "project");
    mkdirSync(project);
    const file = writeConfig(project, [
      "store: ../stores/td",
      "executor: tools/index.ts#run",
      "tools: tools/index.ts#TOOLS",
      "mcp_config: config/.mcp.json",
    ]);
    const config = await loadConfig(file);
    assert.equal(config.dir, project);
    assert.equal(config.store, join(dir, "stores", "td"));
    assert.equal(config.executor?.file, join(project, "tools", "index.ts"));
    assert.equal(config.mcpConfig, join(project, "config", ".mcp.json"));
    assert.deepEqual(config.settings, DEFAULT_SETTINGS);
  });
});

test("bad types: each message word for word, with its line", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, ["store: .tooldistill", "", "", "auto_promote: yes"]),
      'tooldistill.yaml:4: auto_promote: must be false, true (read-only tools only) or "all" (got "yes")',
    );
    await assertInvalid(
      writeConfig(dir, ["min_calls_to_distill: 0"]),
      "tooldistill.yaml:1: min_calls_to_distill: must be an integer ≥ 1 (got 0)",
    );
    await assertInvalid(
      writeConfig(dir, ["min_call_reduction: 1.5"]),
      "tooldistill.yaml:1: min_call_reduction: must be a number between 0 and 1, exclusive (got 1.5)",
    );
    await assertInvalid(
      writeConfig(dir, ["max_exposed_tools: many"]),
      'tooldistill.yaml:1: max_exposed_tools: must be an integer ≥ 0 (got "many")',
    );
    await assertInvalid(
      writeConfig(dir, ["max_output_bytes: 100"]),
      "tooldistill.yaml:1: max_output_bytes: must be a whole number of bytes from 1024 to 1073741824 (1 GB) (got 100)",
    );
  });
});

test("an unknown key gets a did-you-mean", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, ["store: .tooldistill", "auto_promote: false", "min_call_to_distill: 4"]),
      "tooldistill.yaml:3: min_call_to_distill: unknown key (did you mean 'min_calls_to_distill'?)",
    );
    await assertInvalid(writeConfig(dir, ["colour: blue"]), "tooldistill.yaml:1: colour: unknown key");
  });
});

test("an unknown key inside an mcpServers entry gets a did-you-mean with its full key path", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, [
        "mcpServers:",
        "  billing:",
        "    type: http",
        "    urll: http://localhost:8787/mcp",
      ]),
      [
        "tooldistill.yaml:2: mcpServers.billing: an http server needs 'url'",
        "tooldistill.yaml:4: mcpServers.billing.urll: unknown key (did you mean 'url'?)",
      ].join("\n"),
    );
  });
});

test("a module reference without '#' or with an empty part is rejected", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, ["executor: ./tools.ts", "tools: ./tools.ts#TOOLS"]),
      "tooldistill.yaml:1: executor: must be 'path#export', e.g. ./tools.ts#executeTool (got \"./tools.ts\")",
    );
    await assertInvalid(
      writeConfig(dir, ["executor: '#executeTool'", "tools: './tools.ts#'"]),
      [
        "tooldistill.yaml:1: executor: must be 'path#export', e.g. ./tools.ts#executeTool (got \"#executeTool\")",
        "tooldistill.yaml:2: tools: must be 'path#export', e.g. ./tools.ts#executeTool (got \"./tools.ts#\")",
      ].join("\n"),
    );
  });
});

test("executor and tools go together", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, ["tools: ./tools.ts#TOOLS"]),
      "tooldistill.yaml:1: tools: executor and tools go together: set both, or neither and use mcp_config",
    );
    await assertInvalid(
      writeConfig(dir, ["store: x", "executor: ./tools.ts#executeTool"]),
      "tooldistill.yaml:2: executor: executor and tools go together: set both, or neither and use mcp_config",
    );
  });
});

test("mcpServers entries: stdio needs command, http and sse need url, type defaults from what is set", async () => {
  const check = (servers: Record<string, unknown>) =>
    validateConfig({ mcpServers: servers }, { file: "/p/tooldistill.yaml", dir: "/p" }).problems.map(
      (p) => `${p.path}: ${p.message}`,
    );
  assert.deepEqual(
    check({ a: { command: "node" }, b: { url: "http://x" }, c: { type: "sse", url: "http://y" } }),
    [],
  );
  assert.deepEqual(check({ a: { type: "stdio", args: ["x"] } }), [
    "mcpServers.a: a stdio server needs 'command'",
  ]);
  assert.deepEqual(check({ a: { type: "sse" } }), ["mcpServers.a: an sse server needs 'url'"]);
  assert.deepEqual(check({ a: { env: { X: "1" } } }), [
    "mcpServers.a: needs 'command' (a stdio server) or 'url' (an http or sse server)",
  ]);
  assert.deepEqual(check({ a: { command: "node", url: "http://x" } }), [
    "mcpServers.a.url: a stdio server takes 'command', not 'url'",
  ]);
  assert.deepEqual(check({ a: { type: "http", command: "node", url: "http://x" } }), [
    "mcpServers.a.command: an http server takes 'url', not 'command'",
  ]);
  assert.deepEqual(check({ a: { type: "ws", url: "http://x" } }), [
    'mcpServers.a.type: must be one of stdio, http, sse (got "ws")',
  ]);
  assert.deepEqual(check({ a__b: { command: "node" } }), [
    "mcpServers.a__b: a server name must not contain '__' (tools are named <server>__<tool>)",
  ]);
  assert.deepEqual(check({ a: { command: "node", args: ["x", 3], env: { PORT: 8080 } } }), [
    "mcpServers.a.args.1: must be a string (got 3)",
    "mcpServers.a.env.PORT: must be a string (got 8080)",
  ]);
});

test("several problems at once, each with its line, in file order", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, [
        "store: .tooldistill",
        "executor: ./tools.ts",
        "auto_promote: yes",
        "min_calls_to_distill: 0",
        "# a comment",
        "min_call_reduction: 1.5",
        "max_exposed_tool: 5",
        "mcpServers:",
        "  billing:",
        "    type: http",
        "    urll: http://localhost:8787/mcp",
      ]),
      [
        "tooldistill.yaml:2: executor: must be 'path#export', e.g. ./tools.ts#executeTool (got \"./tools.ts\")",
        "tooldistill.yaml:2: executor: executor and tools go together: set both, or neither and use mcp_config",
        'tooldistill.yaml:3: auto_promote: must be false, true (read-only tools only) or "all" (got "yes")',
        "tooldistill.yaml:4: min_calls_to_distill: must be an integer ≥ 1 (got 0)",
        "tooldistill.yaml:6: min_call_reduction: must be a number between 0 and 1, exclusive (got 1.5)",
        "tooldistill.yaml:7: max_exposed_tool: unknown key (did you mean 'max_exposed_tools'?)",
        "tooldistill.yaml:9: mcpServers.billing: an http server needs 'url'",
        "tooldistill.yaml:11: mcpServers.billing.urll: unknown key (did you mean 'url'?)",
      ].join("\n"),
    );
  });
});

test("validateConfig is pure and returns problems as data", () => {
  const { config, problems } = validateConfig(
    { auto_promote: "yes", min_calls_to_distill: 2 },
    {
      file: "/p/tooldistill.yaml",
      dir: "/p",
      lineOf: (keyPath) => (keyPath[0] === "auto_promote" ? 7 : null),
    },
  );
  assert.equal(config, null);
  assert.deepEqual(problems, [
    {
      path: "auto_promote",
      line: 7,
      message: 'must be false, true (read-only tools only) or "all" (got "yes")',
    },
  ]);
  const ok = validateConfig({ min_calls_to_distill: 2 }, { file: "/p/tooldistill.yaml", dir: "/p" });
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.config?.settings.minCallsToDistill, 2);
  assert.equal(ok.config?.store, "/p/.tooldistill");
  assert.deepEqual(validateConfig([1, 2], { file: "/p/tooldistill.yaml", dir: "/p" }).problems, [
    { path: "", line: null, message: "must be a mapping of keys to values (got a list)" },
  ]);
});

test("a YAML syntax error is CONFIG_INVALID with its line", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, [
        "store: .tooldistill",
        "auto_promote: false",
        "tools: [./tools.ts#TOOLS",
        "executor: x",
      ]),
      "tooldistill.yaml:4: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    );
    await assertInvalid(
      writeConfig(dir, ["store: a", "store: b"]),
      "tooldistill.yaml:2: invalid YAML: Map keys must be unique",
    );
  });
});

test("a missing explicit config path is CONFIG_NOT_FOUND naming it", async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, "nope.yaml");
    await assert.rejects(loadConfig(file), (err: unknown) => {
      assert.ok(err instanceof DistillError);
      assert.equal(err.code, "CONFIG_NOT_FOUND");
      assert.equal(
        err.message,
        `${file}: no such config file; run \`tooldistill init\` to create one, or pass --config <path> to an existing one`,
      );
      return true;
    });
  });
});

test("messages name the config file by its basename", async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, "staging.yaml");
    writeFileSync(file, "auto_promote: 1\n");
    await assertInvalid(
      file,
      'staging.yaml:1: auto_promote: must be false, true (read-only tools only) or "all" (got 1)',
    );
  });
});

test("a real .ts executor module loads through importRef", async () => {
  await inTempDir(async (dir) => {
    writeFileSync(join(dir, "tools.ts"), TOOLS_MODULE);
    const config = await loadConfig(
      writeConfig(dir, ["executor: ./tools.ts#executeTool", "tools: ./tools.ts#TOOLS"]),
    );
    assert.ok(config.executor && config.tools);
    const execute = await importRef<(name: string, args: Record<string, unknown>) => unknown>(
      config.executor,
    );
    assert.deepEqual(execute("echo", { text: "hi" }), { echoed: "hi" });
    const tools = await importRef<{ name: string }[]>(config.tools);
    assert.deepEqual(
      tools.map((t) => t.name),
      ["echo"],
    );
  });
});

test("a missing export is MODULE_LOAD with a did-you-mean among the module's exports", async () => {
  await inTempDir(async (dir) => {
    writeFileSync(join(dir, "tools.ts"), TOOLS_MODULE);
    const config = await loadConfig(
      writeConfig(dir, ["executor: ./tools.ts#executeTol", "tools: ./tools.ts#TOOLS"]),
    );
    assert.ok(config.executor);
    await assert.rejects(importRef(config.executor), (err: unknown) => {
      assert.ok(err instanceof DistillError);
      assert.equal(err.code, "MODULE_LOAD");
      assert.equal(
        err.message,
        "executor: ./tools.ts has no export 'executeTol' (did you mean 'executeTool'?)",
      );
      return true;
    });
  });
});

test("a missing module file is MODULE_LOAD naming the path as written", async () => {
  await inTempDir(async (dir) => {
    const config = await loadConfig(
      writeConfig(dir, ["executor: ./nope.ts#executeTool", "tools: ./nope.ts#TOOLS"]),
    );
    assert.ok(config.executor);
    await assert.rejects(importRef(config.executor), (err: unknown) => {
      assert.ok(err instanceof DistillError);
      assert.equal(err.code, "MODULE_LOAD");
      assert.equal(err.message, "executor: cannot import ./nope.ts: file not found");
      return true;
    });
  });
});

test("a module that throws while loading is MODULE_LOAD with the reason", async () => {
  await inTempDir(async (dir) => {
    writeFileSync(join(dir, "broken.ts"), 'throw new Error("boom");\nexport const TOOLS = [];\n');
    const config = await loadConfig(
      writeConfig(dir, ["executor: ./broken.ts#run", "tools: ./broken.ts#TOOLS"]),
    );
    assert.ok(config.tools);
    await assert.rejects(importRef(config.tools), {
      name: "DistillError",
      code: "MODULE_LOAD",
      message: "tools: cannot import ./broken.ts: boom",
    });
  });
});

test("SAMPLE_CONFIG validates, mentions every key, and still validates with its optional lines uncommented", async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, "tooldistill.yaml");
    writeFileSync(file, SAMPLE_CONFIG);
    const config = await loadConfig(file);
    assert.deepEqual(config.settings, DEFAULT_SETTINGS);
    assert.equal(config.store, join(dir, ".tooldistill"));
    assert.equal(config.executor?.raw, "./tools.ts#executeTool");
    assert.equal(config.tools?.raw, "./tools.ts#TOOLS");
    for (const key of [
      "store",
      "executor",
      "tools",
      "health_probe",
      "distiller",
      "distiller_model",
      "fallback_distiller",
      "auto_promote",
      "min_calls_to_distill",
      "min_call_reduction",
      "max_exposed_tools",
      "allow_live_verification",
      "check_schemas_on_start",
      "max_output_bytes",
      "store_pool_size",
      "store_connect_timeout_ms",
      "mcp_config",
      "mcpServers",
    ]) {
      assert.match(SAMPLE_CONFIG, new RegExp(`^(# )?${key}:`, "m"), key);
    }
    const uncommented = SAMPLE_CONFIG.replace(
      /^# (?=(health_probe|distiller|mcp_config|mcpServers):| {2})/gm,
      "",
    );
    writeFileSync(file, uncommented);
    const full = await loadConfig(file);
    assert.equal(full.healthProbe?.raw, "./tools.ts#probe");
    assert.equal(full.distiller?.raw, "./distill.ts#distiller");
    assert.equal(full.mcpConfig, join(dir, ".mcp.json"));
    assert.deepEqual(Object.keys(full.mcpServers), ["billing", "gmail"]);
    assert.deepEqual(full.mcpServers["billing"]?.headers, { Authorization: BEARER });
  });
});

test("demotion: each key is checked with its line, and a partial rule keeps the other keys' defaults", async () => {
  await inTempDir(async (dir) => {
    await assertInvalid(
      writeConfig(dir, ["demotion:", "  failures: 0"]),
      "tooldistill.yaml:2: demotion.failures: must be a whole number ≥ 1 (got 0)",
    );
    await assertInvalid(
      writeConfig(dir, ["demotion: { failure: 2 }"]),
      "tooldistill.yaml:1: demotion.failure: unknown key (did you mean 'failures'?)",
    );
    await assertInvalid(
      writeConfig(dir, ["demotion: 2"]),
      "tooldistill.yaml:1: demotion: must be { failures, window, probation } with whole numbers (failures and window ≥ 1, probation ≥ 0), e.g. { failures: 2, window: 5, probation: 3 } (got 2)",
    );
    const config = await loadConfig(writeConfig(dir, ["demotion:", "  window: 3", "auto_promote: all"]));
    assert.deepEqual(config.settings.demotion, { failures: 2, window: 3, probation: 3 });
    assert.equal(config.settings.autoPromote, "all");
  });
});

test("store: takes a folder or a postgres:// URL, with ${VAR} expanded from the environment", () => {
  const options = (env: NodeJS.ProcessEnv) => ({ file: "/p/tooldistill.yaml", dir: "/p", env });
  const url = "postgres://td:secret@db.internal:5432/registry";
  const fromVar = validateConfig({ store: "${DATABASE_URL}" }, options({ DATABASE_URL: url }));
  assert.deepEqual(fromVar.problems, []);
  assert.equal(fromVar.config?.store, url);
  assert.equal(
    validateConfig({ store: "postgresql://h/db" }, options({})).config?.store,
    "postgresql://h/db",
  );
  // A folder from a variable resolves against the file's folder, like a written one.
  const folder = validateConfig({ store: "${TD_HOME}/store" }, options({ TD_HOME: "data" }));
  assert.equal(folder.config?.store, "/p/data/store");
  const fallback = validateConfig({ store: "${DATABASE_URL:-.tooldistill}" }, options({}));
  assert.equal(fallback.config?.store, "/p/.tooldistill");
  // The PostgreSQL settings are rows of the settings table, with their defaults.
  assert.equal(fromVar.config?.settings.storePoolSize, 10);
  assert.equal(fromVar.config?.settings.storeConnectTimeoutMs, 10_000);
});

test("a store: variable that is not set is CONFIG_INVALID naming the key, the file and the variable", async () => {
  await inTempDir(async (dir) => {
    const file = writeConfig(dir, ["auto_promote: false", "store: ${TD_TEST_UNSET_DATABASE_URL}"]);
    delete process.env["TD_TEST_UNSET_DATABASE_URL"];
    await assertInvalid(
      file,
      "tooldistill.yaml:2: store: environment variable TD_TEST_UNSET_DATABASE_URL is not set: set it (e.g. TD_TEST_UNSET_DATABASE_URL=postgres://user:password@host:5432/database) or write ${TD_TEST_UNSET_DATABASE_URL:-.tooldistill} for a fallback",
    );
  });
});

test("store: refuses another URL scheme, a malformed PostgreSQL URL and a variable set to nothing", () => {
  const problems = (store: string, env: NodeJS.ProcessEnv = {}) =>
    validateConfig({ store }, { file: "/p/tooldistill.yaml", dir: "/p", env }).problems.map((p) => p.message);
  assert.deepEqual(problems("mysql://h/db"), [
    "a mysql:// URL cannot be a store: give a folder (e.g. .tooldistill) or a postgres://user:password@host:5432/database URL",
  ]);
  const [noServer] = problems("postgres:///registry");
  assert.match(noServer ?? "", /^names no server \(postgres:\/\/\/registry\): write it as postgres:\/\//);
  const [malformed] = problems("postgres://td:pw@/registry");
  assert.match(malformed ?? "", /^is not a valid PostgreSQL URL \(postgres:\/\/td:\*\*\*@\/registry\)/);
  assert.deepEqual(problems("${EMPTY}", { EMPTY: "" }), [
    "${EMPTY} expands to nothing: set the variable to a folder or a postgres:// URL",
  ]);
});
