import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TestContext, test } from "node:test";
import { SAMPLE_CONFIG } from "../core/config/config.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import type { Verdict } from "../core/types.ts";
import { cli, tempDir } from "./helpers.ts";

const CODE = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "make_invoice",
  description: "Create a draft invoice for a customer.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer }) {
    const cust = await call("billing_find_customer", { name: customer });
    return call("billing_create_invoice", { customer_id: cust.id });
  },
});
`;

const VERDICT: Verdict = {
  name: "make_invoice",
  version: 1,
  status: "active",
  checks: {
    static: { ok: true, problems: [] },
    replay: { ok: true, problems: [] },
    efficiency: { ok: true, problems: [] },
  },
  calls: 2,
  baseline: 3,
  limit: 2.1,
  liveCalls: [],
  evidence: {
    callSites: { covered: 2, total: 2, uncovered: [] },
    literals: { checked: 1, warned: [] },
    runs: {
      reproduced: 2,
      total: 3,
      notReproduced: [{ trace: "trace-2", why: "its input does not match this version's inputSchema" }],
    },
    writes: ["billing_create_invoice"],
    promotion: null,
  },
};

/**
 * A store with one recorded run (three top-level base calls, one failed, plus one inner call) and the tool
 * distilled from it: v1 active with two live runs, v2 a draft.
 */
async function seed(storeDir: string): Promise<void> {
  const store = SqliteRegistryStore.open(storeDir);
  try {
    await store.createTrace("trace-1", "invoice ACME for last week's order", "sdk");
    await store.addUsage("trace-1", {
      input_tokens: 1000,
      output_tokens: 200,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 300,
    });
    await store.setOutcome("trace-1", true);
    const a = await store.startCall({
      traceId: "trace-1",
      tool: "billing_find_customer",
      kind: "base",
      args: { name: "ACME" },
    });
    await store.finishCall(a, { id: "c1" }, 1.5);
    const b = await store.startCall({ traceId: "trace-1", tool: "billing_import", kind: "base", args: {} });
    await store.failCall(b, "service unavailable", 2);
    const c = await store.startCall({
      traceId: "trace-1",
      tool: "billing_create_invoice",
      kind: "base",
      args: { customer_id: "c1" },
    });
    await store.finishCall(c, { status: "draft" }, 3);
    const d = await store.startCall({
      traceId: "trace-1",
      tool: "billing_find_customer",
      kind: "base",
      args: { name: "ACME" },
      parentId: c,
    });
    await store.finishCall(d, { id: "c1" }, 0.5);
    await store.endTrace("trace-1");
    await store.createTrace("trace-2", "second run", "claude-code");

    const meta = {
      name: "make_invoice",
      code: CODE,
      description: "Create a draft invoice for a customer.",
      inputSchema: { type: "object" },
      testInputs: [{ customer: "ACME" }],
      sourceTrace: "trace-1",
    };
    await store.createVersion({ ...meta, reason: "proposed" });
    await store.setStatus({
      name: "make_invoice",
      version: 1,
      expect: "draft",
      to: "verified",
      problems: [],
      reason: "all three checks passed",
    });
    await store.setStatus({
      name: "make_invoice",
      version: 1,
      expect: "verified",
      to: "active",
      problems: [],
      reason: "promoted",
    });
    await store.setVerification("make_invoice", 1, VERDICT, 1500);
    await store.setDependencies("make_invoice", 1, [
      { baseTool: "billing_create_invoice", fingerprint: "f1", avoided: false },
      { baseTool: "billing_find_customer", fingerprint: "f2", avoided: false },
      { baseTool: "billing_import", fingerprint: "f3", avoided: true },
    ]);
    await store.recordRun({ name: "make_invoice", version: 1, outcome: "ok", innerCalls: 2 });
    await store.recordRun({ name: "make_invoice", version: 1, outcome: "ok", innerCalls: 2 });
    await store.createVersion({ ...meta, reason: "proposed" });
  } finally {
    await store.close();
  }
}

/** A temp project folder with a seeded store at ./.tooldistill and no config file. */
async function project(t: TestContext): Promise<string> {
  const dir = tempDir(t, "td-cli-");
  await seed(join(dir, ".tooldistill"));
  return dir;
}

const TOOLS_MODULE = `
export const TOOLS = [
  { name: "billing_find_customer", description: "Find a customer.", input_schema: { type: "object", properties: { name: { type: "string" } } } },
  { name: "billing_create_invoice", description: "Create an invoice.", input_schema: { type: "object", properties: { customer_id: { type: "string" } } } },
];
export function executeTool(name, args) {
  return { name, args };
}
`;

// ---- help and usage --------------------------------------------------------------------------------

test("--help prints the global usage on stdout and exits 0", async (t) => {
  const dir = tempDir(t);
  for (const flag of ["--help", "-h"]) {
    const r = await cli(dir, flag);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "");
    assert.match(r.stdout, /^Usage: tooldistill <command> \[options\]\n/);
    for (const verb of [
      "init",
      "list",
      "show",
      "traces list",
      "traces show",
      "promote",
      "deprecate",
      "verify",
    ]) {
      assert.match(r.stdout, new RegExp(`\\n  ${verb} `));
    }
    assert.match(r.stdout, /\n {2}tool-updated <base_tool> /);
    assert.match(r.stdout, /\n {2}mcp tools /);
  }
  assert.equal(existsSync(join(dir, ".tooldistill")), false, "help must not create a store");
});

test("--help on every verb prints that verb's usage and runs nothing", async (t) => {
  const dir = tempDir(t);
  const synopses: Record<string, string> = {
    init: "init",
    list: "list [--status S]",
    show: "show <name> [--version N]",
    "traces list": "traces list [--limit N]",
    "traces show": "traces show <id>",
    promote: "promote <name> [--version N]",
    deprecate: "deprecate <name> [--version N]",
    verify: "verify <name> [--version N] [--live [--allow-writes] [--dry-run] [--input|--trace]]",
    prune: "prune [--older-than N]",
    "tool-updated": "tool-updated <base_tool>",
    health: "health [--no-probe]",
    rebuild: "rebuild <name>",
    "mcp tools": "mcp tools",
  };
  for (const [verb, synopsis] of Object.entries(synopses)) {
    const r = await cli(dir, ...verb.split(" "), "--help");
    assert.equal(r.code, 0, verb);
    assert.ok(r.stdout.startsWith(`Usage: tooldistill ${synopsis} [--config <path>] [--json]\n`), r.stdout);
    assert.match(r.stdout, /\n {2}-h, --help {7}show help\n/);
  }
  const group = await cli(dir, "traces", "-h");
  assert.equal(group.code, 0);
  assert.equal(
    group.stdout,
    "Usage:\n  tooldistill traces list [--limit N]\n  tooldistill traces show <id>\n",
  );
  assert.equal(existsSync(join(dir, "tooldistill.yaml")), false);
  assert.equal(existsSync(join(dir, ".tooldistill")), false);
});

test("usage errors exit 2 with the message and the verb's usage", async (t) => {
  const dir = await project(t);
  const cases: [string[], string, RegExp][] = [
    [[], "tooldistill: no command given\n", /Usage: tooldistill <command>/],
    [["frob"], "tooldistill: unknown command 'frob'\n", /Usage: tooldistill <command>/],
    [
      ["list", "--bogus"],
      "tooldistill: unknown option '--bogus'\n",
      /Usage: tooldistill list \[--status S\]/,
    ],
    [
      ["list", "--status", "shiny"],
      "tooldistill: --status must be one of draft, verified, active, suspect, deprecated, rejected, superseded (got 'shiny')\n",
      /Usage: tooldistill list/,
    ],
    [["list", "extra"], "tooldistill: unexpected argument 'extra'\n", /Usage: tooldistill list/],
    [["show"], "tooldistill: missing <name>\n", /Usage: tooldistill show <name>/],
    [
      ["show", "make_invoice", "--version"],
      "tooldistill: Option '--version <value>' argument missing\n",
      /Usage: tooldistill show/,
    ],
    [["traces"], "tooldistill: 'traces' needs a command\n", /tooldistill traces show <id>/],
    [["traces", "delete"], "tooldistill: unknown command 'traces delete'\n", /tooldistill traces list/],
    [
      ["verify", "make_invoice", "--livee"],
      "tooldistill: unknown option '--livee'\n",
      /Usage: tooldistill verify/,
    ],
    [["mcp"], "tooldistill: 'mcp' needs a command\n", /tooldistill mcp tools/],
  ];
  for (const [argv, first, usage] of cases) {
    const r = await cli(dir, ...argv);
    assert.equal(r.code, 2, argv.join(" "));
    assert.equal(r.stdout, "");
    assert.ok(r.stderr.startsWith(`${first}\n`), `${argv.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, usage);
  }
});

test("a bad value of a flag is one line naming the flag, exit 2, never an internal error", async (t) => {
  const dir = await project(t);
  const cases: [string[], string][] = [
    [
      ["show", "make_invoice", "--version", "two"],
      "--version must be a version number from 1 to 1,000,000 (got 'two')",
    ],
    [
      ["show", "make_invoice", "--version", "99999999999999999999"],
      "--version must be a version number from 1 to 1,000,000 (got '99999999999999999999')",
    ],
    [["traces", "list", "--limit", "0"], "--limit must be a number of traces from 1 to 1,000,000 (got '0')"],
    [
      ["traces", "list", "--limit", "99999999999999999999"],
      "--limit must be a number of traces from 1 to 1,000,000 (got '99999999999999999999')",
    ],
  ];
  for (const [argv, message] of cases) {
    const r = await cli(dir, ...argv);
    assert.deepEqual([r.code, r.stdout, r.stderr], [2, "", `tooldistill: ${message}\n`], argv.join(" "));
  }
});

test("global options may come before the verb", async (t) => {
  const dir = await project(t);
  writeFileSync(join(dir, "elsewhere.yaml"), "store: .tooldistill\n");
  const r = await cli(dir, "--config", "elsewhere.yaml", "--json", "list");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).length, 2);
});

// ---- init and config ---------------------------------------------------------------------------------

test("init writes the sample config and the store, and never overwrites an existing config", async (t) => {
  const dir = tempDir(t);
  const first = await cli(dir, "init");
  assert.equal(first.code, 0, first.stderr);
  assert.equal(readFileSync(join(dir, "tooldistill.yaml"), "utf8"), SAMPLE_CONFIG);
  assert.ok(existsSync(join(dir, ".tooldistill", "registry.db")));
  assert.match(
    first.stdout,
    new RegExp(
      `^created ${join(dir, "tooldistill.yaml")}\ncreated the store at ${join(dir, ".tooldistill")}\n`,
    ),
  );

  // An existing config is kept as it is, and the store it names is created.
  writeFileSync(join(dir, "tooldistill.yaml"), "store: mine\n");
  const again = await cli(dir, "init");
  assert.equal(again.code, 0, again.stderr);
  assert.equal(
    again.stdout,
    `kept ${join(dir, "tooldistill.yaml")} (it exists; init never overwrites it)\ncreated the store at ${join(dir, "mine")}\n`,
  );
  assert.equal(readFileSync(join(dir, "tooldistill.yaml"), "utf8"), "store: mine\n");
  assert.ok(existsSync(join(dir, "mine", "registry.db")));
});

test("init --config writes there and resolves the store against that folder; --json reports both", async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, "conf"));
  const r = await cli(dir, "init", "--config", "conf/td.yaml", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    config: join(dir, "conf", "td.yaml"),
    store: join(dir, "conf", ".tooldistill"),
    config_created: true,
    store_created: true,
  });
  assert.ok(existsSync(join(dir, "conf", ".tooldistill", "registry.db")));
});

test("a broken config is reported with its line and exits 1", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "tooldistill.yaml"), "store: .tooldistill\nmin_call_reduction: 1.5\n");
  const r = await cli(dir, "list");
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^tooldistill: tooldistill\.yaml:2: min_call_reduction: /);
  assert.equal(existsSync(join(dir, ".tooldistill")), false, "no store is opened for a broken config");

  const missing = await cli(dir, "list", "--config", "nope.yaml");
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^tooldistill: .*nope\.yaml: no such config file; run `tooldistill init`/);
});

test("--config paths are relative to the config file's folder", async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, "conf"));
  writeFileSync(join(dir, "conf", "tooldistill.yaml"), "store: data/store\n");
  await seed(join(dir, "conf", "data", "store"));
  const r = await cli(dir, "list", "--json", "--config", "conf/tooldistill.yaml");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).length, 2);
  assert.equal(existsSync(join(dir, ".tooldistill")), false);
});

test("a store that cannot be opened is a user error, not a crash", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "blocker"), "a file, not a folder");
  writeFileSync(join(dir, "tooldistill.yaml"), "store: blocker\n");
  const r = await cli(dir, "list");
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^tooldistill: cannot open the store at .*blocker: /);
  assert.doesNotMatch(r.stderr, /internal error/);
});

// ---- list ------------------------------------------------------------------------------------------

test("list --json has the stable shape", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "list", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [
    {
      name: "make_invoice",
      version: 1,
      status: "active",
      problems: [],
      baseline: 3,
      successful_runs: 2,
      queued_rebuild: false,
      coverage: { covered: 2, total: 2 },
      runs_reproduced: { reproduced: 2, total: 3 },
    },
    {
      name: "make_invoice",
      version: 2,
      status: "draft",
      problems: [],
      baseline: null,
      successful_runs: 0,
      queued_rebuild: false,
      coverage: null,
      runs_reproduced: null,
    },
  ]);
  const drafts = await cli(dir, "list", "--status", "draft", "--json");
  assert.deepEqual(
    JSON.parse(drafts.stdout).map((v: { version: number }) => v.version),
    [2],
  );
});

test("list prints an aligned table for people", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "list");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      "NAME          VERSION  STATUS  PROBLEMS  BASELINE  RUNS  REBUILD",
      "make_invoice  v1       active  -         3         2     -",
      "make_invoice  v2       draft   -         -         0     -",
      "",
    ].join("\n"),
  );
  const none = await cli(dir, "list", "--status", "suspect");
  assert.equal(none.stdout, "no distilled tools with status suspect\n");
});

test("read-only verbs never create a store: without one they say where they looked and how to get one", async (t) => {
  const empty = tempDir(t);
  for (const argv of [
    ["list"],
    ["list", "--json"],
    ["traces", "list"],
    ["traces", "show", "abc"],
    ["show", "x"],
    ["health"],
    ["deprecate", "x"],
  ]) {
    const r = await cli(empty, ...argv);
    assert.equal(r.code, 1, argv.join(" "));
    assert.equal(r.stdout, "");
    assert.equal(
      r.stderr,
      `tooldistill: no tooldistill.yaml in ${empty} and no store at ${join(empty, ".tooldistill")}: nothing has been recorded there yet. Run this in the project's folder, pass --config <path to its tooldistill.yaml>, or run tooldistill init.\n`,
      argv.join(" "),
    );
  }
  assert.deepEqual(readdirSync(empty), [], "a read-only verb created something");
  // A config that names a store not created yet: the message points at its store: key.
  writeFileSync(join(empty, "tooldistill.yaml"), "store: data\n");
  const r = await cli(empty, "list");
  assert.equal(
    r.stderr,
    `tooldistill: no store at ${join(empty, "data")}: nothing has been recorded there yet. Check store: in ${join(empty, "tooldistill.yaml")}, or record a run first.\n`,
  );
  assert.deepEqual(readdirSync(empty), ["tooldistill.yaml"]);
});

test("list, show and traces open the store read-only: a read-only store file is enough", async (t) => {
  const dir = await project(t);
  const before = readFileSync(join(dir, ".tooldistill", "registry.db"));
  for (const argv of [
    ["list"],
    ["show", "make_invoice"],
    ["traces", "list"],
    ["traces", "show", "trace-1"],
  ]) {
    const r = await cli(dir, ...argv);
    assert.equal(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
  }
  assert.ok(readFileSync(join(dir, ".tooldistill", "registry.db")).equals(before), "the database changed");
});

test("a --config that does not exist is an error for every verb, not an empty answer", async (t) => {
  const dir = await project(t);
  for (const argv of [
    ["list"],
    ["show", "make_invoice"],
    ["traces", "list"],
    ["health"],
    ["verify", "make_invoice"],
  ]) {
    const r = await cli(dir, ...argv, "--config", "nope.yaml");
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [
        1,
        "",
        `tooldistill: ${join(dir, "nope.yaml")}: no such config file; run \`tooldistill init\` to create one, or pass --config <path> to an existing one\n`,
      ],
      argv.join(" "),
    );
  }
  mkdirSync(join(dir, "folder"));
  const folder = await cli(dir, "list", "--config", "folder");
  assert.equal(
    folder.stderr,
    `tooldistill: ${join(dir, "folder")} is a folder, not a config file: pass the path of the tooldistill.yaml in it (${join(dir, "folder", "tooldistill.yaml")})\n`,
  );
});

// ---- show ------------------------------------------------------------------------------------------

test("show --json has the stable shape", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "show", "make_invoice", "--json");
  assert.equal(r.code, 0, r.stderr);
  const shown = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(shown).slice(0, 11), [
    "name",
    "version",
    "status",
    "problems",
    "baseline",
    "source_trace",
    "code",
    "history",
    "verdict",
    "run_stats",
    "queued_rebuild",
  ]);
  assert.equal(shown.version, 1, "without --version: the active one");
  assert.equal(shown.code, CODE);
  assert.equal(shown.source_trace, "trace-1");
  assert.deepEqual(
    shown.history.map((h: { from: string | null; to: string; reason: string }) => [h.from, h.to, h.reason]),
    [
      [null, "draft", "proposed"],
      ["draft", "verified", "all three checks passed"],
      ["verified", "active", "promoted"],
    ],
  );
  assert.match(shown.history[0].at, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(shown.verdict, VERDICT);
  assert.deepEqual(
    { ...shown.run_stats, last_run_at: null },
    {
      runs: 2,
      successes: 2,
      failures: 0,
      not_applicable: 0,
      inner_calls: 4,
      last_run_at: null,
    },
  );
  assert.deepEqual(shown.savings, { baseline_calls: 3, inner_calls_per_run: 2, baseline_tokens: 1500 });
  assert.deepEqual(shown.dependencies[2], { base_tool: "billing_import", fingerprint: "f3", avoided: true });

  const v2 = JSON.parse((await cli(dir, "show", "make_invoice", "--version", "2", "--json")).stdout);
  assert.equal(v2.status, "draft");
  assert.equal(v2.verdict, null);
});

test("show for people: status, checks, history, dependencies, runs, savings and code", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "show", "make_invoice");
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  assert.ok(out.startsWith("make_invoice v1: active\nCreate a draft invoice for a customer.\n"), out);
  assert.match(out, /\nversions: {2}v1 active, v2 draft\n/);
  assert.match(out, /\nproblems: {2}none\n/);
  assert.match(out, /\nbaseline: {2}3 base calls\n/);
  assert.match(
    out,
    /\nchecks:\n {2}verified: make_invoice v1\n {2}2 base calls; limit 2\.1 \(baseline 3 × 0\.7\)\n/,
  );
  // The evidence has a section of its own, after the checks (which do not repeat it).
  assert.match(
    out,
    /\n {2}make_invoice v1 is active: agents can call it\.\n\nevidence:\n {2}call sites covered: 2\/2\n {2}literals checked: 1\n {2}reproduces 2 of 3 recorded runs\n {4}not reproduced: trace-2: its input does not match this version's inputSchema\n {2}tools that may write: billing_create_invoice\n\ndependencies:\n/,
  );
  assert.match(out, /\n {2}billing_import \(avoided: every call failed in the source run\)\n/);
  const history = out.split("\n").filter((l) => /^ {2}(AT|\d{4}-)/.test(l));
  assert.match(history[0]!, /^ {2}AT +CHANGE +REASON$/);
  assert.match(history[3]!, /Z {2}verified → active {2}promoted$/);
  assert.equal(history[0]!.indexOf("REASON"), history[1]!.indexOf("proposed"), "columns are aligned");
  assert.match(out, /\nruns:\n {2}2 \(2 successful, 0 failed\), last \d{4}-/);
  assert.match(
    out,
    /\nsavings:\n {2}baseline 3 base calls → 2 per run \(33% fewer\); the source run used 1,500 model tokens\n/,
  );
  assert.ok(out.endsWith(`v1.ts):\n${CODE}`), out);

  const draft = await cli(dir, "show", "make_invoice", "--version", "2");
  assert.match(draft.stdout, /\nchecks:\n {2}not verified yet\n\nevidence:\n {2}none measured\n/);
  assert.match(
    draft.stdout,
    /\nsavings:\n {2}no baseline measured; the source run used 1,500 model tokens\n/,
  );
});

test("show of an unknown tool or version exits 1 naming what exists", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "show", "make_invoic");
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "tooldistill: no distilled tool named 'make_invoic' (known: make_invoice)\n");
  const v = await cli(dir, "show", "make_invoice", "--version", "9");
  assert.equal(v.code, 1);
  assert.equal(v.stderr, "tooldistill: make_invoice has no v9 (versions: 1, 2)\n");
});

// ---- traces ----------------------------------------------------------------------------------------

test("traces list --json has the stable shape, newest first", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "traces", "list", "--json");
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout);
  assert.deepEqual(
    rows.map((x: Record<string, unknown>) => Object.keys(x)),
    [0, 1].map(() => [
      "id",
      "task",
      "source",
      "outcome",
      "started_at",
      "ended_at",
      "base_calls",
      "usage",
      "tokens",
    ]),
  );
  const first = rows.find((x: { id: string }) => x.id === "trace-1");
  assert.deepEqual(
    { ...first, started_at: null, ended_at: null },
    {
      id: "trace-1",
      task: "invoice ACME for last week's order",
      source: "sdk",
      outcome: true,
      started_at: null,
      ended_at: null,
      base_calls: 3,
      usage: {
        input_tokens: 1000,
        output_tokens: 200,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 300,
      },
      tokens: 1500,
    },
  );
  const limited = JSON.parse((await cli(dir, "traces", "list", "--limit", "1", "--json")).stdout);
  assert.equal(limited.length, 1);
});

test("traces list prints a table for people", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "traces", "list");
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /^ID +STARTED +SOURCE +OUTCOME +CALLS +TOKENS +TASK$/);
  const row = lines.find((l) => l.startsWith("trace-1"))!;
  assert.match(row, /^trace-1 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +sdk +success +3 +1,500 +invoice ACME/);
  assert.match(lines.find((l) => l.startsWith("trace-2"))!, /claude-code +not set +0 +- +second run$/);
  for (const column of ["SOURCE", "TASK"]) {
    const at = lines[0]!.indexOf(column);
    assert.ok(
      lines.every((l) => l[at - 1] === " " && l[at] !== " "),
      `${column} column is aligned`,
    );
  }
  const empty = tempDir(t);
  await SqliteRegistryStore.open(join(empty, ".tooldistill")).close();
  assert.equal((await cli(empty, "traces", "list")).stdout, "no traces recorded yet\n");
  assert.equal((await cli(empty, "list")).stdout, "no distilled tools yet\n");
});

test("traces show --json has the stable shape, inner calls included", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "traces", "show", "trace-1", "--json");
  assert.equal(r.code, 0, r.stderr);
  const shown = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(shown), ["id", "task", "source", "outcome", "usage", "tokens", "calls"]);
  assert.equal(shown.tokens, 1500, "the same total as traces list");
  assert.equal(shown.calls.length, 4);
  const [a, b, c, d] = shown.calls;
  assert.deepEqual(Object.keys(a), [
    "id",
    "seq",
    "parent_id",
    "tool",
    "args",
    "output",
    "error",
    "latency_ms",
  ]);
  assert.deepEqual(
    { ...a, id: 0 },
    {
      id: 0,
      seq: 1,
      parent_id: null,
      tool: "billing_find_customer",
      args: { name: "ACME" },
      output: { id: "c1" },
      error: null,
      latency_ms: 1.5,
    },
  );
  assert.equal(b.error, "service unavailable");
  assert.equal(b.output, null);
  assert.equal(d.parent_id, c.id);
  assert.equal(d.seq, 4);
});

test("traces show for people, and an unknown id", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "traces", "show", "trace-1");
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^trace trace-1\ntask: {5}invoice ACME for last week's order\nsource: {3}sdk\noutcome: {2}success\n/,
  );
  assert.match(r.stdout, /\ntokens: {3}1,000 input, 200 output, 0 cache write, 300 cache read\n/);
  assert.match(r.stdout, /\ncalls: 4 recorded, 3 top-level base calls\nSEQ {2}TOOL/);
  assert.match(r.stdout, /\n2 +billing_import +base +error +2\.0 +\{\} → error: service unavailable\n/);
  assert.match(r.stdout, /\n4 {6}↳ billing_find_customer {2}base {2}ok/);
  const missing = await cli(dir, "traces", "show", "nope");
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, "tooldistill: no trace 'nope': see tooldistill traces list\n");
});

// ---- deprecate -------------------------------------------------------------------------------------

test("deprecate needs only the store and refuses a second time", async (t) => {
  const dir = await project(t);
  const r = await cli(dir, "deprecate", "make_invoice");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "make_invoice v1: deprecated\n");
  const again = await cli(dir, "deprecate", "make_invoice", "--version", "1");
  assert.equal(again.code, 1);
  assert.equal(again.stderr, "tooldistill: make_invoice v1 is already deprecated\n");
  const draft = await cli(dir, "deprecate", "make_invoice", "--version", "2", "--json");
  assert.equal(draft.code, 0, draft.stderr);
  assert.deepEqual(JSON.parse(draft.stdout), {
    name: "make_invoice",
    version: 2,
    status: "deprecated",
    problems: [],
    baseline: null,
    successful_runs: 0,
    queued_rebuild: false,
    coverage: null,
    runs_reproduced: null,
  });
  const shown = JSON.parse((await cli(dir, "show", "make_invoice", "--version", "1", "--json")).stdout);
  assert.deepEqual(shown.history.at(-1).reason, "deprecated by the user");
});

// ---- verbs that load the library ---------------------------------------------------------------------

/** A project whose config points at an in-process executor and tools. */
async function libraryProject(t: TestContext): Promise<string> {
  const dir = await project(t);
  writeFileSync(join(dir, "tools.js"), TOOLS_MODULE);
  writeFileSync(
    join(dir, "tooldistill.yaml"),
    "store: .tooldistill\nexecutor: ./tools.js#executeTool\ntools: ./tools.js#TOOLS\ncheck_schemas_on_start: false\n",
  );
  return dir;
}

test("promote activates the newest verified version through the library", async (t) => {
  const dir = await libraryProject(t);
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  await store.setStatus({
    name: "make_invoice",
    version: 2,
    expect: "draft",
    to: "verified",
    problems: [],
    reason: "all three checks passed",
  });
  await store.setVerification("make_invoice", 2, { ...VERDICT, version: 2, status: "verified" }, null);
  await store.close();
  const r = await cli(dir, "promote", "make_invoice");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^code of make_invoice v2:\nimport \{ distilledTool, call \} from "tooldistill";\n/);
  assert.ok(r.stdout.endsWith("\nmake_invoice v2: active\n"), r.stdout);
  const rows = JSON.parse((await cli(dir, "list", "--json")).stdout);
  assert.deepEqual(
    rows.map((v: { version: number; status: string }) => [v.version, v.status]),
    [
      [1, "deprecated"],
      [2, "active"],
    ],
  );
  const again = await cli(dir, "promote", "make_invoice", "--version", "2");
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, "make_invoice v2 is already active: nothing changed\n");
});

test("library verbs report a missing tool and a config whose modules cannot load", async (t) => {
  const dir = await libraryProject(t);
  const verify = await cli(dir, "verify", "nothing_here");
  assert.equal(verify.code, 1);
  assert.equal(verify.stderr, "tooldistill: no distilled tool named 'nothing_here' (known: make_invoice)\n");

  writeFileSync(join(dir, "tooldistill.yaml"), "executor: ./missing.ts#run\ntools: ./missing.ts#TOOLS\n");
  const health = await cli(dir, "health", "--no-probe");
  assert.equal(health.code, 1);
  assert.equal(health.stderr, "tooldistill: executor: cannot import ./missing.ts: file not found\n");
});

test("health and tool-updated print their reports", async (t) => {
  const dir = await libraryProject(t);
  const health = await cli(dir, "health", "--no-probe", "--json");
  assert.equal(health.code, 0, health.stderr);
  const report = JSON.parse(health.stdout);
  assert.ok(Array.isArray(report.changes));
  assert.ok(Array.isArray(report.messages));
  const updated = await cli(dir, "tool-updated", "billing_find_customer");
  assert.equal(updated.code, 0, updated.stderr);
  assert.notEqual(updated.stdout, "");
});

test("verify speaks to a person: what the status now means and which command moves it on", async (t) => {
  const dir = await libraryProject(t);
  const passed = await cli(dir, "verify", "make_invoice", "--version", "2");
  assert.equal(passed.code, 0, passed.stderr);
  assert.match(
    passed.stdout,
    /\nmake_invoice v2 is verified: tooldistill promote make_invoice makes it available to agents\.\n$/,
  );
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  await store.createVersion({
    name: "make_invoice",
    code: CODE.replace("billing_find_customer", "billing_find_custmer"),
    description: "d",
    inputSchema: { type: "object" },
    testInputs: [{ customer: "ACME" }],
    sourceTrace: "trace-1",
    reason: "proposed",
  });
  await store.close();
  const r = await cli(dir, "verify", "make_invoice", "--version", "3");
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /^rejected: make_invoice v3: static check failed\n- line 8: call to 'billing_find_custmer'/,
  );
  assert.match(
    r.stdout,
    /\nmake_invoice v3 is rejected: it is never offered to agents\. An agent proposes a corrected version \(it reuses v3\), or tooldistill rebuild make_invoice when a rebuild is queued\.\n$/,
  );
  assert.doesNotMatch(r.stdout, /propose_distilled_tool|call .* again/);
  const show = await cli(dir, "show", "make_invoice", "--version", "3");
  assert.match(show.stdout, /make_invoice v3 is rejected: it is never offered to agents/);
  assert.doesNotMatch(show.stdout, /propose_distilled_tool/);
});

test("health does not say every tool matches while versions are suspect; it names the command for each", async (t) => {
  const dir = await libraryProject(t);
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  await store.setStatus({
    name: "make_invoice",
    version: 1,
    expect: "active",
    to: "suspect",
    problems: ["runtime_failure"],
    reason: "runtime failure: billing down",
  });
  // Fingerprints that match the current tools: health has no new change to report.
  await store.setDependencies("make_invoice", 1, []);
  await store.close();
  const r = await cli(dir, "health", "--no-probe");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    "no new change found, but these versions are still suspect:\n  make_invoice v1 [runtime_failure]: tooldistill verify make_invoice --version 1 --live\n",
  );
  assert.doesNotMatch(r.stdout, /all distilled tools match/);
});

test("traces show takes a unique beginning of an id, and names the candidates when it is not unique", async (t) => {
  const dir = await project(t);
  const store = SqliteRegistryStore.open(join(dir, ".tooldistill"));
  await store.createTrace("c4f46833-8f37-418c-ab03-42c0dfb3b30d.1", "a Claude Code span", "claude-code");
  await store.close();
  const r = await cli(dir, "traces", "show", "c4f4", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).id, "c4f46833-8f37-418c-ab03-42c0dfb3b30d.1");
  const many = await cli(dir, "traces", "show", "trace-");
  assert.equal(many.code, 1);
  assert.equal(
    many.stderr,
    "tooldistill: 'trace-' is the beginning of several traces (trace-2, trace-1): give more of the id\n",
  );
});

test("a YAML alias bomb and a missing mcp_config file are one line naming the key, never an internal error", async (t) => {
  const dir = await project(t);
  const bomb = [
    'a: &a ["x","x","x","x","x","x","x","x","x"]',
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
    "f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
  ];
  writeFileSync(join(dir, "bomb.yaml"), `${bomb.join("\n")}\n`);
  const r = await cli(dir, "list", "--config", "bomb.yaml");
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /^tooldistill: bomb\.yaml:2: invalid YAML at b: its aliases \(\*name\) expand to too much data \(.*\); write the values out instead of repeating aliases\n$/,
  );
  writeFileSync(join(dir, "tooldistill.yaml"), "mcp_config: missing.json\n");
  for (const argv of [["health"], ["mcp", "tools"], ["verify", "make_invoice"]]) {
    const m = await cli(dir, ...argv);
    assert.deepEqual(
      [m.code, m.stderr],
      [
        1,
        `tooldistill: mcp_config: ${join(dir, "missing.json")} does not exist; create it or correct the mcp_config path\n`,
      ],
      argv.join(" "),
    );
  }
});

test("mcp tools without configured servers says how to configure them", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "tooldistill.yaml"), "store: .tooldistill\n");
  const r = await cli(dir, "mcp", "tools");
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `tooldistill: ${join(dir, "tooldistill.yaml")}: no MCP servers configured; set mcp_config or mcpServers\n`,
  );
});
