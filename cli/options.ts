/**
 * The command line as data: which command, its positional arguments by name and its options typed by the
 * command's spec. Every problem with the command line is a DistillError("USAGE") raised here, before any command
 * runs, so main can tell a malformed command line (exit 2) from a refused command (exit 1).
 */
import { resolve } from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { DistillError } from "../core/read.ts";
import {
  COMMAND_NAMES,
  COMMANDS,
  type CommandName,
  GLOBAL_OPTIONS,
  GROUPS,
  globalUsage,
  groupUsage,
  usageOf,
} from "./commands.ts";
import type { CountOption, OptionSpec, OptionsSpec } from "./types.ts";

/** What a command line asks for: a help text to print, or a command to run with its checked input. */
export type CommandLine =
  | { kind: "help"; text: string }
  | {
      kind: "run";
      name: CommandName;
      /** Absolute path given with --config, if any. */
      configPath: string | undefined;
      json: boolean;
      options: Readonly<Record<string, string | number | boolean>>;
      args: Readonly<Record<string, string>>;
    };

/** Reads `argv` (without `node` and the script); relative paths resolve against `cwd`. */
export function parseCommandLine(argv: string[], cwd: string): CommandLine {
  const { name, group, rest } = findCommand(argv);
  const usage = name !== null ? usageOf(name) : group !== null ? groupUsage(group) : globalUsage();
  if (wantsHelp(argv)) return { kind: "help", text: usage };
  if (name === null) {
    throw usageError(group === null ? "no command given" : `'${group}' needs a command`, usage);
  }
  const spec = COMMANDS[name];
  const specs: OptionsSpec = { ...GLOBAL_OPTIONS, ...spec.options };
  const parsed = parseStrictly(rest, specs, usage);
  const positionals: readonly string[] = spec.positionals;
  if (parsed.positionals.length < positionals.length) {
    throw usageError(`missing <${positionals[parsed.positionals.length]}>`, usage);
  }
  if (parsed.positionals.length > positionals.length) {
    throw usageError(`unexpected argument '${parsed.positionals[positionals.length]}'`, usage);
  }
  const options: Record<string, string | number | boolean> = {};
  for (const [flag, option] of Object.entries(spec.options as OptionsSpec)) {
    const value = checkedValue(flag, option, parsed.values[flag], usage);
    if (value !== undefined) options[flag] = value;
  }
  for (const [flag, option] of Object.entries(spec.options as OptionsSpec)) {
    if (
      (option.type === "flag" || option.type === "text") &&
      option.requires &&
      options[flag] !== undefined &&
      options[flag] !== false &&
      options[option.requires] !== true
    ) {
      throw usageError(`--${flag} only goes with --${option.requires}`, usage);
    }
  }
  const config = parsed.values["config"];
  return {
    kind: "run",
    name,
    configPath: typeof config === "string" ? resolve(cwd, config) : undefined,
    json: parsed.values["json"] === true,
    options,
    args: Object.fromEntries(positionals.map((p, i) => [p, parsed.positionals[i]!])),
  };
}

/** A malformed command line: the problem, then the usage that shows the right form (none for a bad value). */
function usageError(problem: string, usage: string): DistillError {
  return new DistillError("USAGE", usage === "" ? problem : `${problem}\n\n${usage}`);
}

function parseStrictly(args: string[], specs: OptionsSpec, usage: string) {
  const config: ParseArgsOptionsConfig = {};
  for (const [flag, option] of Object.entries(specs)) {
    config[flag] =
      option.type === "flag"
        ? { type: "boolean", ...(option.short === undefined ? {} : { short: option.short }) }
        : { type: "string" };
  }
  try {
    return parseArgs({ args, options: config, allowPositionals: true, strict: true });
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (!(err instanceof Error && typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_"))) throw err;
    // parseArgs explains `--` escaping at length; the option's name and the usage say enough.
    const unknown = /^Unknown option '([^']+)'/.exec(err.message);
    throw usageError(unknown ? `unknown option '${unknown[1]}'` : err.message, usage);
  }
}

function checkedValue(
  flag: string,
  option: OptionSpec,
  raw: string | boolean | (string | boolean)[] | undefined,
  usage: string,
): string | number | boolean | undefined {
  if (option.type === "flag") return raw === true;
  if (raw === undefined) return undefined;
  if (option.type === "count") return positiveInteger(flag, option, raw);
  if (option.type === "choice" && !(option.values as readonly unknown[]).includes(raw)) {
    throw usageError(`--${flag} must be one of ${option.values.join(", ")} (got '${String(raw)}')`, usage);
  }
  return String(raw);
}

/** The one check of a whole-number flag; a bad value is one line naming the flag. */
function positiveInteger(flag: string, option: CountOption, raw: string | boolean | (string | boolean)[]) {
  const n = typeof raw === "string" && /^[1-9]\d*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= option.max)) {
    const max = option.max.toLocaleString("en-US");
    throw usageError(`--${flag} must be ${option.what} from 1 to ${max} (got '${String(raw)}')`, "");
  }
  return n;
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
function findCommand(argv: string[]): { name: CommandName | null; group: string | null; rest: string[] } {
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
    if (!GROUPS.includes(argv[words[0]!]!)) break;
  }
  const verb = words[0] === undefined ? undefined : argv[words[0]];
  if (verb === undefined) return { name: null, group: null, rest: argv };
  const isGroup = GROUPS.includes(verb);
  const sub = isGroup && words[1] !== undefined ? argv[words[1]] : undefined;
  const wanted = isGroup ? (sub === undefined ? null : `${verb} ${sub}`) : verb;
  const name = COMMAND_NAMES.find((n) => n === wanted) ?? null;
  if (wanted !== null && name === null) {
    if (isGroup) throw usageError(`unknown command '${wanted}'`, groupUsage(verb));
    throw usageError(`unknown command '${verb}'`, globalUsage());
  }
  const used = new Set(name !== null ? words.slice(0, isGroup ? 2 : 1) : []);
  return { name, group: isGroup ? verb : null, rest: argv.filter((_, i) => !used.has(i)) };
}
