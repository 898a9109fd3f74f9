/**
 * The `tooldistill` command line. Every verb is a thin call of the library: the store-only verbs (list, show,
 * traces, deprecate) open the store; the others build a ToolDistill from tooldistill.yaml. Output goes through
 * an injected `io` so tests run `main` in-process; exit handling lives in `main` alone.
 */
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { applySpilledEvents } from "../claude-code/session-events.ts";
import type { ChangeReport } from "../core/internal.ts";
import {
  CONFIG_FILE_NAME,
  type Config,
  countToolFiles,
  DistillError,
  defaultConfig,
  errorMessage,
  findConfig,
  type HistoryRecord,
  type Logger,
  loadConfig,
  type RunStats,
  resolveVersion,
  SAMPLE_CONFIG,
  type Status,
  Statuses,
  Store,
  type ToolDef,
  type UsageTotals,
  type Verdict,
  type VersionRecord,
} from "../core/internal.ts";

/** Where the CLI writes and which folder it treats as current; tests pass their own. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
}

/** The real process's streams and folder. */
export const processIO: CliIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
};

/** Exit codes: scripts can tell a usage mistake from a refused command. */
export const EXIT = { ok: 0, error: 1, usage: 2 } as const;

/** A malformed command line: exits 2 and prints the usage of the command it was meant for. */
class UsageError extends Error {
  readonly usage: string;
  constructor(message: string, usage: string) {
    super(message);
    this.name = "UsageError";
    this.usage = usage;
  }
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

interface Context {
  io: CliIO;
  /** Absolute path given with --config, if any. */
  configPath: string | undefined;
  json: boolean;
  values: Values;
  args: string[];
  command: Command;
}

interface Command {
  /** "list", "traces show", ... */
  name: string;
  /** The synopsis after `tooldistill `. */
  synopsis: string;
  /** One line for the global help. */
  summary: string;
  /** What the command does, for its own --help. */
  details: string;
  options: ParseArgsOptionsConfig;
  /** Option lines for its own --help. */
  optionHelp?: string[];
  /** Names of the positional arguments, all required. */
  positionals: string[];
  run(ctx: Context): Promise<number>;
}

const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
  config: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

const GLOBAL_OPTION_HELP = [
  "--config <path>  the config file (default ./tooldistill.yaml; paths in it are relative to its folder)",
  "--json           machine-readable output",
  "-h, --help       show help",
];

const VERSION_OPTION: ParseArgsOptionsConfig = { version: { type: "string" } };
const VERSION_HELP = "--version N      a version number (see tooldistill list)";

// ---- commands ---------------------------------------------------------------------------------------

const COMMANDS: Command[] = [
  {
    name: "init",
    synopsis: "init",
    summary: "create the store and a commented sample tooldistill.yaml",
    details:
      "Writes a commented sample tooldistill.yaml (or the --config path) and creates the store it names.\nAn existing config file is never overwritten.",
    options: {},
    positionals: [],
    run: runInit,
  },
  {
    name: "list",
    synopsis: "list [--status S]",
    summary: "distilled tool versions",
    details:
      "Lists every distilled tool version with its status, open problems, baseline and successful runs.",
    options: { status: { type: "string" } },
    optionHelp: [`--status S       only versions with this status (${Statuses.join(", ")})`],
    positionals: [],
    run: runList,
  },
  {
    name: "show",
    synopsis: "show <name> [--version N]",
    summary: "code, status history, checks, run stats and savings",
    details:
      "Shows one version (default: the active one, else the newest): its code, open problems, status history,\nthe checks of its last verification, its dependencies, run stats and savings against its baseline.",
    options: VERSION_OPTION,
    optionHelp: [VERSION_HELP],
    positionals: ["name"],
    run: runShow,
  },
  {
    name: "traces list",
    synopsis: "traces list [--limit N]",
    summary: "recorded runs, newest first",
    details: "Lists recorded runs, newest first, with their outcome, top-level base calls and tokens.",
    options: { limit: { type: "string" } },
    optionHelp: ["--limit N        how many traces to list (default 50)"],
    positionals: [],
    run: runTracesList,
  },
  {
    name: "traces show",
    synopsis: "traces show <id>",
    summary: "one recorded run with every call",
    details:
      "Shows one recorded run: task, outcome, token usage and every call in order, inner calls indented.",
    options: {},
    positionals: ["id"],
    run: runTracesShow,
  },
  {
    name: "promote",
    synopsis: "promote <name> [--version N]",
    summary: "activate a version (a rollback re-verifies first)",
    details:
      "Makes a version active (default: the newest verified one) and deprecates the previously active one.\nA deprecated or suspect version must re-pass verification first.",
    options: VERSION_OPTION,
    optionHelp: [VERSION_HELP],
    positionals: ["name"],
    run: runPromote,
  },
  {
    name: "deprecate",
    synopsis: "deprecate <name> [--version N]",
    summary: "take a version out of use",
    details: "Deprecates a version (default: the active one). Needs only the store.",
    options: VERSION_OPTION,
    optionHelp: [VERSION_HELP],
    positionals: ["name"],
    run: runDeprecate,
  },
  {
    name: "verify",
    synopsis: "verify <name> [--version N] [--live]",
    summary: "re-run the three checks",
    details:
      "Re-runs the static, replay and efficiency checks on a version (default: the active one) and applies the\nlifecycle. --live runs every base call for real (real side effects); only a live pass clears a runtime\nfailure. Exits 1 when a check fails.",
    options: { ...VERSION_OPTION, live: { type: "boolean" } },
    optionHelp: [VERSION_HELP, "--live           run the base calls live instead of replaying them"],
    positionals: ["name"],
    run: runVerify,
  },
  {
    name: "tool-updated",
    synopsis: "tool-updated <base_tool>",
    summary: "react to a changed or recovered base tool",
    details:
      "Re-verifies the versions that depend on the base tool with a different stored schema, and queues a rebuild\nfor the versions that avoided it in their source run.",
    options: {},
    positionals: ["base_tool"],
    run: runToolUpdated,
  },
  {
    name: "health",
    synopsis: "health [--no-probe]",
    summary: "compare base tools with the stored dependencies",
    details:
      "Compares the current base tool definitions with the fingerprints stored for every version and, with a\nhealth_probe configured, looks for recoveries of avoided tools.",
    options: { "no-probe": { type: "boolean" } },
    optionHelp: ["--no-probe       skip the health probe: compare schemas only"],
    positionals: [],
    run: runHealth,
  },
  {
    name: "rebuild",
    synopsis: "rebuild <name>",
    summary: "ask the distiller for a better version (calls the model)",
    details:
      "Hands the source run of a tool queued for rebuild to the distiller and verifies the result as a new version.\nThe built-in distiller calls Claude: ANTHROPIC_API_KEY must be set in the environment.",
    options: {},
    positionals: ["name"],
    run: runRebuild,
  },
  {
    name: "doctor",
    synopsis: "doctor [--fix]",
    summary: "check the store; --fix repairs what loses nothing",
    details:
      "Checks the store: SQLite's integrity check, the lifecycle invariants (one active version per tool, stored\nverdicts, rebuild flags), tool files against their versions (missing, edited by hand, orphaned), hook events\nwaiting in spill files, and a registry lost while tools/ still holds files. Without --fix nothing changes and\neach problem says what --fix would do or which command fixes it. --fix applies the repairs that lose nothing\n(files are moved to orphaned/, never deleted). Exits 1 while a problem is left.",
    options: { fix: { type: "boolean" } },
    optionHelp: ["--fix            apply the repairs that lose nothing"],
    positionals: [],
    run: runDoctor,
  },
  {
    name: "mcp tools",
    synopsis: "mcp tools",
    summary: "list the base tools the configured MCP servers expose",
    details:
      "Connects to every MCP server of mcp_config and mcpServers and lists their tools as the library names them\n(<server>__<tool>). Exits 1 when a server cannot be reached.",
    options: {},
    positionals: [],
    run: runMcpTools,
  },
];

/** Verbs that take a sub-verb. */
const GROUPS = ["traces", "mcp"] as const;

function usageOf(c: Command): string {
  const lines = [
    `Usage: tooldistill ${c.synopsis} [--config <path>] [--json]`,
    "",
    c.details,
    "",
    "Options:",
  ];
  for (const line of [...(c.optionHelp ?? []), ...GLOBAL_OPTION_HELP]) lines.push(`  ${line}`);
  return lines.join("\n");
}

function groupUsage(group: string): string {
  const subs = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
  return ["Usage:", ...subs.map((c) => `  tooldistill ${c.synopsis}`)].join("\n");
}

function globalUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.synopsis.length)) + 2;
  return [
    "Usage: tooldistill <command> [options]",
    "",
    "Turn an agent's trial-and-error runs into verified, reusable tools.",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.synopsis.padEnd(width)}${c.summary}`),
    "",
    "Options:",
    ...GLOBAL_OPTION_HELP.map((l) => `  ${l}`),
    "",
    "list, show and traces read the store without changing it; deprecate and doctor need only the store; the",
    "others load the executor and tools (or MCP servers) from tooldistill.yaml. Only init creates a store.",
    "Run tooldistill <command> --help for a command's options.",
  ].join("\n");
}

// ---- entry ------------------------------------------------------------------------------------------

/** Runs one command line (without `node` and the script); resolves to the exit code. */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  let usage = globalUsage();
  try {
    const { command, rest, group } = findCommand(argv);
    if (command) usage = usageOf(command);
    else if (group) usage = groupUsage(group);
    if (wantsHelp(argv)) {
      io.stdout(`${usage}\n`);
      return EXIT.ok;
    }
    if (!command) {
      if (group) throw new UsageError(`'${group}' needs a command`, usage);
      throw new UsageError("no command given", usage);
    }
    const parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    const args = parsed.positionals;
    if (args.length < command.positionals.length) {
      throw new UsageError(`missing <${command.positionals[args.length]}>`, usage);
    }
    if (args.length > command.positionals.length) {
      throw new UsageError(`unexpected argument '${args[command.positionals.length]}'`, usage);
    }
    const config = parsed.values["config"];
    return await command.run({
      io,
      configPath: typeof config === "string" ? resolve(io.cwd, config) : undefined,
      json: parsed.values["json"] === true,
      values: parsed.values,
      args,
      command,
    });
  } catch (err) {
    // The one place errors become exit codes.
    if (err instanceof UsageError) {
      // A bad value of a known flag is one line; a malformed command line also gets the usage.
      io.stderr(
        err.usage === "" ? `tooldistill: ${err.message}\n` : `tooldistill: ${err.message}\n\n${err.usage}\n`,
      );
      return EXIT.usage;
    }
    if (isParseArgsError(err)) {
      // parseArgs explains `--` escaping at length; the option's name and the usage say enough.
      const unknown = /^Unknown option '([^']+)'/.exec(err.message);
      io.stderr(`tooldistill: ${unknown ? `unknown option '${unknown[1]}'` : err.message}\n\n${usage}\n`);
      return EXIT.usage;
    }
    if (err instanceof DistillError) {
      io.stderr(`tooldistill: ${err.message}\n`);
      return EXIT.error;
    }
    const detail = err instanceof Error ? (err.stack ?? err.message) : errorMessage(err);
    io.stderr(`tooldistill: internal error — please report it\n${detail}\n`);
    return EXIT.error;
  }
}

function isParseArgsError(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}

/** `--help`/`-h` anywhere before `--`. */
function wantsHelp(argv: string[]): boolean {
  for (const token of argv) {
    if (token === "--") return false;
    if (token === "--help" || token === "-h") return true;
  }
  return false;
}

/**
 * Finds the verb (and sub-verb) among the tokens, so global options may come before or after it; the
 * remaining tokens are parsed strictly against the verb's options.
 */
function findCommand(argv: string[]): { command: Command | null; group: string | null; rest: string[] } {
  const words: number[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const token = argv[i]!;
    if (token === "--") break;
    if (token === "--config") {
      i++;
      continue;
    }
    if (token.startsWith("-")) continue;
    words.push(i);
    const first = argv[words[0]!]!;
    if (!(GROUPS as readonly string[]).includes(first)) break;
  }
  const verb = words[0] === undefined ? undefined : argv[words[0]];
  if (verb === undefined) return { command: null, group: null, rest: argv };
  const isGroup = (GROUPS as readonly string[]).includes(verb);
  const sub = isGroup && words[1] !== undefined ? argv[words[1]] : undefined;
  const name = isGroup ? (sub === undefined ? null : `${verb} ${sub}`) : verb;
  const command = name === null ? null : (COMMANDS.find((c) => c.name === name) ?? null);
  if (name !== null && command === null) {
    if (isGroup) throw new UsageError(`unknown command '${name}'`, groupUsage(verb));
    throw new UsageError(`unknown command '${verb}'`, globalUsage());
  }
  const used = new Set(command ? words.slice(0, isGroup ? 2 : 1) : []);
  return {
    command,
    group: isGroup ? verb : null,
    rest: argv.filter((_, i) => !used.has(i)),
  };
}

// ---- shared helpers ---------------------------------------------------------------------------------

/** The config the command means: --config, else ./tooldistill.yaml, else the defaults (store ./.tooldistill). */
async function cliConfig(ctx: Context): Promise<Config> {
  if (ctx.configPath !== undefined) return loadConfig(ctx.configPath);
  const found = findConfig(ctx.io.cwd);
  return found === null ? defaultConfig(ctx.io.cwd) : loadConfig(found);
}

/**
 * Runs `fn` with the store of the config, closing it afterwards. Only `init` creates a store: every other verb
 * needs one that exists, and `read` opens it read-only (list, show, traces), so looking never changes anything.
 */
async function withStore<T>(
  ctx: Context,
  mode: "read" | "write",
  fn: (store: Store) => T | Promise<T>,
): Promise<T> {
  const config = await cliConfig(ctx);
  requireStore(config);
  const store = new Store(config.store, { readOnly: mode === "read", logger: stderrLogger(ctx.io) });
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** A store that does not exist is named with how to get one, instead of being created empty. */
function requireStore(config: Config): void {
  // A path that is there but is no store folder (a file, a broken store) is for the store itself to explain.
  if (
    existsSync(config.store) &&
    !existsSync(join(config.store, "tools")) &&
    !existsSync(join(config.store, ".gitignore"))
  )
    return;
  if (existsSync(join(config.store, "registry.db")) || countToolFiles(config.store) > 0) return;
  const where = config.path === null ? `no ${CONFIG_FILE_NAME} in ${config.dir} and ` : "";
  throw new DistillError(
    "NOT_FOUND",
    `${where}no store at ${config.store}: nothing has been recorded there yet. ` +
      (config.path === null
        ? "Run this in the project's folder, pass --config <path to its tooldistill.yaml>, or run tooldistill init."
        : `Check store: in ${config.path}, or record a run first.`),
  );
}

/** Library warnings go to stderr: stdout stays the command's output. */
function stderrLogger(io: CliIO): Logger {
  return {
    info: (m) => io.stderr(`${m}\n`),
    warn: (m) => io.stderr(`${m}\n`),
    error: (m) => io.stderr(`${m}\n`),
  };
}

type ToolDistillInstance = import("../core/internal.ts").ToolDistill;

/** Runs `fn` with a ToolDistill built from the config, closing it (store, sandbox, MCP servers) afterwards. */
async function withLibrary<T>(ctx: Context, fn: (td: ToolDistillInstance) => Promise<T>): Promise<T> {
  const config = await cliConfig(ctx);
  requireStore(config);
  // Imported here so the store-only verbs never load the verifier, the sandbox or the MCP SDK.
  const { ToolDistill } = await import("../core/internal.ts");
  const td = await ToolDistill.fromLoadedConfig(config, { logger: stderrLogger(ctx.io) });
  try {
    return await fn(td);
  } finally {
    await td.close();
  }
}

/** A flag's whole number from 1 to `max`; anything else is a usage error naming the flag. */
function countFlag(ctx: Context, flag: string, max: number, what: string): number | undefined {
  const raw = ctx.values[flag];
  if (raw === undefined) return undefined;
  const n = typeof raw === "string" && /^[1-9]\d*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= max)) {
    throw new UsageError(
      `--${flag} must be ${what} from 1 to ${max.toLocaleString("en-US")} (got '${String(raw)}')`,
      "",
    );
  }
  return n;
}

function versionOption(ctx: Context): { version?: number } {
  const version = countFlag(ctx, "version", 1_000_000, "a version number");
  return version === undefined ? {} : { version };
}

function printJson(ctx: Context, value: unknown): void {
  ctx.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

function print(ctx: Context, text: string): void {
  ctx.io.stdout(text.endsWith("\n") ? text : `${text}\n`);
}

/** Left-aligned columns, two spaces apart; the last column is not padded. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** ISO time without the milliseconds, for people. */
function when(iso: string | null): string {
  if (iso === null) return "-";
  return iso.replace("T", " ").replace(/\.\d+Z$/, "Z");
}

function totalTokens(u: UsageTotals): number {
  return u.input_tokens + u.output_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function outcomeText(outcome: boolean | null): string {
  return outcome === null ? "not set" : outcome ? "success" : "failure";
}

// ---- store-only verbs -------------------------------------------------------------------------------

async function runInit(ctx: Context): Promise<number> {
  const file = ctx.configPath ?? resolve(ctx.io.cwd, CONFIG_FILE_NAME);
  if (existsSync(file)) {
    throw new DistillError(
      "USAGE",
      `${file} already exists: init never overwrites it. Edit it, or move it away and run init again.`,
    );
  }
  writeFileSync(file, SAMPLE_CONFIG, { flag: "wx" });
  const config = await loadConfig(file);
  new Store(config.store).close();
  if (ctx.json) {
    printJson(ctx, { config: file, store: config.store });
  } else {
    print(
      ctx,
      [
        `created ${file}`,
        `created the store at ${config.store}`,
        "Next: point executor and tools (or mcp_config) in the config at your base tools.",
      ].join("\n"),
    );
  }
  return EXIT.ok;
}

/** One row of `list --json` (a stable shape). */
function versionRow(store: Store, v: VersionRecord) {
  return {
    name: v.name,
    version: v.version,
    status: v.status,
    problems: v.problems,
    baseline: v.baseline,
    successful_runs: store.getRunStats(v.name, v.version).successes,
    queued_rebuild: v.queuedRebuild,
  };
}

async function runList(ctx: Context): Promise<number> {
  const status = ctx.values["status"];
  if (status !== undefined && !(Statuses as readonly unknown[]).includes(status)) {
    throw new UsageError(
      `--status must be one of ${Statuses.join(", ")} (got '${String(status)}')`,
      usageOf(ctx.command),
    );
  }
  return withStore(ctx, "read", (store) => {
    const rows = store
      .listVersions(status === undefined ? {} : { status: status as Status })
      .map((v) => versionRow(store, v));
    if (ctx.json) {
      printJson(ctx, rows);
    } else if (rows.length === 0) {
      print(
        ctx,
        status === undefined ? "no distilled tools yet" : `no distilled tools with status ${status}`,
      );
    } else {
      print(
        ctx,
        table(
          ["NAME", "VERSION", "STATUS", "PROBLEMS", "BASELINE", "RUNS", "REBUILD"],
          rows.map((r) => [
            r.name,
            `v${r.version}`,
            r.status,
            r.problems.length ? r.problems.join(",") : "-",
            r.baseline === null ? "-" : String(r.baseline),
            String(r.successful_runs),
            r.queued_rebuild ? "queued" : "-",
          ]),
        ),
      );
    }
    return EXIT.ok;
  });
}

/** Baseline calls against inner calls per live run, and the source run's tokens where it recorded usage. */
function savings(store: Store, v: VersionRecord, stats: RunStats) {
  let tokens = v.baselineTokens;
  if (tokens === null && v.sourceTrace !== null) {
    const trace = store.getTrace(v.sourceTrace);
    const total = trace ? totalTokens(trace.usage) : 0;
    if (total > 0) tokens = total;
  }
  return {
    baseline_calls: v.baseline,
    inner_calls_per_run: stats.runs > 0 ? stats.innerCalls / stats.runs : null,
    baseline_tokens: tokens,
  };
}

function historyJson(h: HistoryRecord) {
  return { from: h.from, to: h.to, reason: h.reason, evidence: h.evidence, at: h.at };
}

/** Verdict as text for a person: the checks, then what the status means and which command moves it on. */
async function verdictLines(verdict: Verdict): Promise<string> {
  const { verdictReport } = await import("../core/internal.ts");
  return verdictReport(verdict);
}

async function runShow(ctx: Context): Promise<number> {
  const name = ctx.args[0]!;
  const { version } = versionOption(ctx);
  const shown = await withStore(ctx, "read", (store) => {
    const v = resolveVersion(store, name, version, "active-or-newest");
    const file = store.toolFile(v.name, v.version);
    const stats = store.getRunStats(v.name, v.version);
    return {
      v,
      file,
      code: existsSync(file) ? store.readCode(v.name, v.version) : null,
      history: store.getHistory(v.name, v.version),
      dependencies: store.getDependencies(v.name, v.version),
      stats,
      savings: savings(store, v, stats),
      versions: store.listVersions({ name }).map((x) => `v${x.version} ${x.status}`),
    };
  });
  const { v, stats } = shown;
  if (ctx.json) {
    printJson(ctx, {
      name: v.name,
      version: v.version,
      status: v.status,
      problems: v.problems,
      baseline: v.baseline,
      source_trace: v.sourceTrace,
      code: shown.code,
      history: shown.history.map(historyJson),
      verdict: v.verdict,
      run_stats: {
        runs: stats.runs,
        successes: stats.successes,
        failures: stats.failures,
        inner_calls: stats.innerCalls,
        last_run_at: stats.lastRunAt,
      },
      queued_rebuild: v.queuedRebuild,
      description: v.description,
      dependencies: shown.dependencies.map((d) => ({
        base_tool: d.baseTool,
        fingerprint: d.fingerprint,
        avoided: d.avoided,
      })),
      savings: shown.savings,
    });
    return EXIT.ok;
  }
  const out: string[] = [`${v.name} v${v.version}: ${v.status}`];
  if (v.description) out.push(v.description);
  out.push("");
  out.push(`versions:  ${shown.versions.join(", ")}`);
  out.push(`problems:  ${v.problems.length ? v.problems.join(", ") : "none"}`);
  out.push(`baseline:  ${v.baseline === null ? "not measured" : `${v.baseline} base calls`}`);
  out.push(`source:    ${v.sourceTrace ?? "-"}`);
  out.push(
    `rebuild:   ${v.queuedRebuild ? `queued${v.rebuildNote ? ` (${v.rebuildNote})` : ""}` : "not queued"}`,
  );
  out.push("", "checks:");
  // The stored verdict carries the status of its moment; show it with the version's status now.
  out.push(v.verdict ? indent(await verdictLines({ ...v.verdict, status: v.status })) : "  not verified yet");
  out.push("", "dependencies:");
  if (shown.dependencies.length === 0) out.push("  none recorded");
  for (const d of shown.dependencies) {
    out.push(`  ${d.baseTool}${d.avoided ? " (avoided: every call failed in the source run)" : ""}`);
  }
  out.push("", "history:");
  out.push(
    indent(
      table(
        ["AT", "CHANGE", "REASON"],
        shown.history.map((h) => [when(h.at), h.from === null ? h.to : `${h.from} → ${h.to}`, h.reason]),
      ),
    ),
  );
  out.push("", "runs:");
  out.push(
    stats.runs === 0
      ? "  no live runs yet"
      : `  ${stats.runs} (${stats.successes} successful, ${stats.failures} failed), last ${when(stats.lastRunAt)}`,
  );
  out.push("", "savings:");
  out.push(`  ${savingsText(shown.savings)}`);
  out.push("", `code (${shown.file}):`);
  out.push(shown.code ?? "  the file is missing: deprecate this version or restore the file");
  print(ctx, out.join("\n"));
  return EXIT.ok;
}

function savingsText(s: ReturnType<typeof savings>): string {
  const parts: string[] = [];
  if (s.baseline_calls === null) parts.push("no baseline measured");
  else if (s.inner_calls_per_run === null)
    parts.push(`baseline ${s.baseline_calls} base calls; no live runs yet`);
  else {
    const perRun = Number(s.inner_calls_per_run.toFixed(1));
    const saved = s.baseline_calls > 0 ? Math.round((1 - s.inner_calls_per_run / s.baseline_calls) * 100) : 0;
    parts.push(`baseline ${s.baseline_calls} base calls → ${perRun} per run (${saved}% fewer)`);
  }
  if (s.baseline_tokens !== null) parts.push(`the source run used ${count(s.baseline_tokens)} model tokens`);
  return parts.join("; ");
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => (l ? `  ${l}` : l))
    .join("\n");
}

async function runTracesList(ctx: Context): Promise<number> {
  const limit = countFlag(ctx, "limit", 1_000_000, "a number of traces") ?? 50;
  return withStore(ctx, "read", (store) => {
    const rows = store.listTraces(limit).map((t) => ({
      id: t.id,
      task: t.task,
      source: t.source,
      outcome: t.outcome,
      started_at: t.startedAt,
      ended_at: t.endedAt,
      base_calls: store.countTopLevelBaseCalls(t.id),
      usage: t.usage,
    }));
    if (ctx.json) printJson(ctx, rows);
    else if (rows.length === 0) print(ctx, "no traces recorded yet");
    else {
      print(
        ctx,
        table(
          ["ID", "STARTED", "SOURCE", "OUTCOME", "CALLS", "TOKENS", "TASK"],
          rows.map((r) => [
            r.id,
            when(r.started_at),
            r.source,
            outcomeText(r.outcome),
            String(r.base_calls),
            totalTokens(r.usage) ? count(totalTokens(r.usage)) : "-",
            clip(r.task, 60),
          ]),
        ),
      );
    }
    return EXIT.ok;
  });
}

/** A trace by its id or a unique beginning of it (ids are long: Claude Code's are a UUID and a span number). */
function findTrace(store: Store, idOrPrefix: string) {
  const exact = store.getTrace(idOrPrefix);
  if (exact) return exact;
  const ids = store.traceIdsStartingWith(idOrPrefix, 6);
  if (ids.length === 1) return store.getTrace(ids[0]!)!;
  if (ids.length > 1) {
    const shown = ids.slice(0, 5).join(", ");
    throw new DistillError(
      "NOT_FOUND",
      `'${idOrPrefix}' is the beginning of several traces (${shown}${ids.length > 5 ? ", …" : ""}): give more of the id`,
    );
  }
  throw new DistillError("NOT_FOUND", `no trace '${idOrPrefix}': see tooldistill traces list`);
}

async function runTracesShow(ctx: Context): Promise<number> {
  return withStore(ctx, "read", (store) => {
    const t = findTrace(store, ctx.args[0]!);
    const id = t.id;
    const calls = store.getCalls(id);
    if (ctx.json) {
      printJson(ctx, {
        id: t.id,
        task: t.task,
        source: t.source,
        outcome: t.outcome,
        usage: t.usage,
        calls: calls.map((c) => ({
          id: c.id,
          seq: c.seq,
          parent_id: c.parentId,
          tool: c.tool,
          args: c.args,
          output: c.output,
          error: c.error,
          latency_ms: c.latencyMs,
        })),
      });
      return EXIT.ok;
    }
    const u = t.usage;
    const out = [
      `trace ${t.id}`,
      `task:     ${t.task}`,
      `source:   ${t.source}`,
      `outcome:  ${outcomeText(t.outcome)}`,
      `started:  ${when(t.startedAt)}`,
      `ended:    ${when(t.endedAt)}`,
      `tokens:   ${count(u.input_tokens)} input, ${count(u.output_tokens)} output, ${count(u.cache_creation_input_tokens)} cache write, ${count(u.cache_read_input_tokens)} cache read`,
    ];
    if (t.note) out.push(`note:     ${t.note}`);
    out.push("", `calls: ${calls.length} recorded, ${store.countTopLevelBaseCalls(id)} top-level base calls`);
    if (calls.length > 0) {
      out.push(
        table(
          ["SEQ", "TOOL", "KIND", "STATUS", "MS", "ARGS → RESULT"],
          calls.map((c) => [
            String(c.seq),
            c.parentId === null ? c.tool : `  ↳ ${c.tool}`,
            c.version === null ? c.kind : `${c.kind} v${c.version}`,
            c.status,
            c.latencyMs === null ? "-" : c.latencyMs.toFixed(1),
            clip(
              `${JSON.stringify(c.args)} → ${c.status === "error" ? `error: ${c.error}` : c.status === "ok" ? JSON.stringify(c.output) : "…"}`,
              100,
            ),
          ]),
        ),
      );
    }
    print(ctx, out.join("\n"));
    return EXIT.ok;
  });
}

async function runDeprecate(ctx: Context): Promise<number> {
  const name = ctx.args[0]!;
  const options = versionOption(ctx);
  // Deprecating needs no executor or tools: the store alone, through the registry's own rule.
  const { deprecate } = await import("../core/internal.ts");
  return withStore(ctx, "write", (store) => {
    const v = deprecate({ store, exposureChanged: () => {} }, name, options);
    if (ctx.json) printJson(ctx, versionRow(store, v));
    else print(ctx, `${v.name} v${v.version}: deprecated`);
    return EXIT.ok;
  });
}

// ---- verbs that need the library --------------------------------------------------------------------

async function runPromote(ctx: Context): Promise<number> {
  const name = ctx.args[0]!;
  const options = versionOption(ctx);
  return withLibrary(ctx, async (td) => {
    const v = await td.promote(name, options);
    if (ctx.json) printJson(ctx, versionRow(td.store, v));
    else print(ctx, `${v.name} v${v.version}: active`);
    return EXIT.ok;
  });
}

function verdictPassed(v: Verdict): boolean {
  return v.checks.static.ok && v.checks.replay.ok && v.checks.efficiency.ok;
}

async function runVerify(ctx: Context): Promise<number> {
  const name = ctx.args[0]!;
  const options = { ...versionOption(ctx), live: ctx.values["live"] === true };
  return withLibrary(ctx, async (td) => {
    const verdict = await td.verify(name, options);
    if (ctx.json) printJson(ctx, verdict);
    else print(ctx, await verdictLines(verdict));
    return verdictPassed(verdict) ? EXIT.ok : EXIT.error;
  });
}

async function runRebuild(ctx: Context): Promise<number> {
  const name = ctx.args[0]!;
  return withLibrary(ctx, async (td) => {
    const verdict = await td.rebuild(name);
    if (ctx.json) printJson(ctx, verdict);
    else print(ctx, await verdictLines(verdict));
    return verdictPassed(verdict) ? EXIT.ok : EXIT.error;
  });
}

/** What `tool-updated` and `health` print for people: one line per affected version, then the messages. */
function printReport(ctx: Context, report: ChangeReport, nothing: string, extra: string[] = []): void {
  if (ctx.json) {
    printJson(ctx, report);
    return;
  }
  const lines = report.changes.map((c) => {
    const change = c.from === c.to ? c.to : `${c.from} → ${c.to}`;
    const problems = c.problems.length ? ` [${c.problems.join(", ")}]` : "";
    return `${c.name} v${c.version}: ${change}${problems} (${c.reason})${c.queuedRebuild ? ", queued for rebuild" : ""}`;
  });
  lines.push(...report.messages, ...extra);
  print(ctx, lines.length ? lines.join("\n") : nothing);
}

async function runToolUpdated(ctx: Context): Promise<number> {
  const tool = ctx.args[0]!;
  return withLibrary(ctx, async (td) => {
    const report = await td.onToolUpdated(tool);
    printReport(ctx, report, `no distilled tool depends on ${tool}`);
    return EXIT.ok;
  });
}

async function runHealth(ctx: Context): Promise<number> {
  const probe = ctx.values["no-probe"] !== true;
  return withLibrary(ctx, async (td) => {
    const report = await td.health({ probe });
    const probed = report.probed.map(
      (p) =>
        `probe ${p.tool}: ${p.recovered ? "recovered" : "still failing"}${p.error ? ` (${p.error})` : ""}`,
    );
    printReport(ctx, report, "all distilled tools match their base tools", probed);
    return EXIT.ok;
  });
}

async function runMcpTools(ctx: Context): Promise<number> {
  const config = await cliConfig(ctx);
  if (config.mcpConfig === null && Object.keys(config.mcpServers).length === 0) {
    throw new DistillError(
      "CONFIG_INVALID",
      `${config.path ?? CONFIG_FILE_NAME}: no MCP servers configured; set mcp_config or mcpServers`,
    );
  }
  const { loadMcpServers } = await import("../core/internal.ts");
  const { MCPToolkit } = await import("../core/internal.ts");
  const servers = await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers });
  const cwd = config.path === null ? config.dir : dirname(config.path);
  // No logger: every connection failure is reported once, below, with its reason.
  const toolkit = await MCPToolkit.connect({ servers, cwd });
  try {
    const tools = toolkit.tools.map((t) => {
      const cut = t.name.indexOf("__");
      return {
        server: t.name.slice(0, cut),
        tool: t.name.slice(cut + 2),
        name: t.name,
        description: t.description,
        annotations: t.annotations ?? null,
        input_schema: t.input_schema,
      };
    });
    const failures = toolkit.failures;
    if (ctx.json) {
      printJson(ctx, { tools, failures });
    } else {
      if (tools.length === 0) print(ctx, "no tools listed");
      else {
        print(
          ctx,
          table(
            ["SERVER", "TOOL", "HINTS", "DESCRIPTION"],
            toolkit.tools.map((t, i) => [
              tools[i]!.server,
              tools[i]!.tool,
              hints(t),
              clip(t.description.split("\n")[0] ?? "", 80),
            ]),
          ),
        );
      }
      for (const f of failures)
        ctx.io.stderr(`tooldistill: MCP server '${f.server}' is unavailable: ${f.reason}\n`);
    }
    return failures.length > 0 ? EXIT.error : EXIT.ok;
  } finally {
    await toolkit.close();
  }
}

function hints(t: ToolDef): string {
  const a = t.annotations;
  if (!a) return "-";
  const out: string[] = [];
  if (a.readOnlyHint) out.push("read-only");
  if (a.destructiveHint) out.push("destructive");
  if (a.idempotentHint) out.push("idempotent");
  return out.length ? out.join(",") : "-";
}

async function runDoctor(ctx: Context): Promise<number> {
  const config = await cliConfig(ctx);
  const fix = ctx.values["fix"] === true;
  const { doctor } = await import("../core/internal.ts");
  const { loadMcpServers } = await import("../core/internal.ts");
  // Spilled hook events need the project's MCP server names; a config whose servers cannot be read still gets
  // every other check.
  const baseServers = Object.keys(
    await loadMcpServers({ mcpConfigPath: config.mcpConfig, inline: config.mcpServers }).catch(() => ({})),
  );
  const report = doctor(config.store, {
    fix,
    applySpilled: (store) => applySpilledEvents(store, null, baseServers),
  });
  if (ctx.json) {
    printJson(ctx, report);
    return report.ok ? EXIT.ok : EXIT.error;
  }
  const out: string[] = [`store: ${report.store}`];
  for (const f of report.findings) {
    out.push(`- ${f.message}`);
    if (f.fix !== null) out.push(fix ? `  repaired: ${f.fix}` : `  tooldistill doctor --fix ${f.fix}`);
    if (f.command !== null) out.push(`  to fix: ${f.command}`);
  }
  for (const done of report.fixed) out.push(`done: ${done}`);
  if (report.findings.length === 0) out.push("no problem found");
  else if (report.ok) out.push("every problem found was repaired");
  else {
    const left = report.findings.filter((f) => f.fix === null || !fix).length;
    out.push(
      `${left} problem${left === 1 ? "" : "s"} left${fix ? "" : "; run tooldistill doctor --fix for the ones it can repair"}`,
    );
  }
  print(ctx, out.join("\n"));
  return report.ok ? EXIT.ok : EXIT.error;
}
