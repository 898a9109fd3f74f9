import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  COMMANDS,
  COMMAND_NAMES,
  EXIT,
  GLOBAL_OPTIONS,
  GROUPS,
  globalUsage,
  groupUsage,
  usageOf
} from "./chunk-PLXZKH3A.js";
import "./chunk-BD5LZ5WU.js";
import "./chunk-G4NVZV74.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import {
  DistillError,
  errorMessage
} from "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";

// cli/dispatch.ts
var LOADERS = {
  init: () => import("./init-HCZADWZJ.js").then((m) => m.init),
  list: () => import("./versions-V422LYBY.js").then((m) => m.list),
  show: () => import("./versions-V422LYBY.js").then((m) => m.show),
  "traces list": () => import("./traces-K3U4BDNI.js").then((m) => m.tracesList),
  "traces show": () => import("./traces-K3U4BDNI.js").then((m) => m.tracesShow),
  report: () => import("./report-47T6OXHZ.js").then((m) => m.report),
  promote: () => import("./lifecycle-SJ3RA7XY.js").then((m) => m.promote),
  deprecate: () => import("./lifecycle-SJ3RA7XY.js").then((m) => m.deprecate),
  verify: () => import("./lifecycle-SJ3RA7XY.js").then((m) => m.verify),
  prune: () => import("./lifecycle-SJ3RA7XY.js").then((m) => m.prune),
  "tool-updated": () => import("./changes-QW3WBJY4.js").then((m) => m.toolUpdated),
  health: () => import("./changes-QW3WBJY4.js").then((m) => m.health),
  rebuild: () => import("./changes-QW3WBJY4.js").then((m) => m.rebuild),
  doctor: () => import("./doctor-IWUJR26P.js").then((m) => m.doctor),
  export: () => import("./transfer-I7DLGZAE.js").then((m) => m.exportRegistry),
  import: () => import("./transfer-I7DLGZAE.js").then((m) => m.importRegistry),
  copy: () => import("./transfer-I7DLGZAE.js").then((m) => m.copy),
  "mcp tools": () => import("./mcp-Y3EJ7CUV.js").then((m) => m.mcpTools)
};
async function runCommand(name, ctx) {
  const body = await LOADERS[name]();
  return body(ctx);
}

// cli/options.ts
import { resolve } from "node:path";
import { parseArgs } from "node:util";
function parseCommandLine(argv, cwd) {
  const { name, group, rest } = findCommand(argv);
  const usage = name !== null ? usageOf(name) : group !== null ? groupUsage(group) : globalUsage();
  if (wantsHelp(argv)) return { kind: "help", text: usage };
  if (name === null) {
    throw usageError(group === null ? "no command given" : `'${group}' needs a command`, usage);
  }
  const spec = COMMANDS[name];
  const specs = { ...GLOBAL_OPTIONS, ...spec.options };
  const parsed = parseStrictly(rest, specs, usage);
  const positionals = spec.positionals;
  if (parsed.positionals.length < positionals.length) {
    throw usageError(`missing <${positionals[parsed.positionals.length]}>`, usage);
  }
  if (parsed.positionals.length > positionals.length) {
    throw usageError(`unexpected argument '${parsed.positionals[positionals.length]}'`, usage);
  }
  const options = {};
  for (const [flag, option] of Object.entries(spec.options)) {
    const value = checkedValue(flag, option, parsed.values[flag], usage);
    if (value !== void 0) options[flag] = value;
  }
  for (const [flag, option] of Object.entries(spec.options)) {
    if ((option.type === "flag" || option.type === "text") && option.requires && options[flag] !== void 0 && options[flag] !== false && options[option.requires] !== true) {
      throw usageError(`--${flag} only goes with --${option.requires}`, usage);
    }
  }
  const config = parsed.values["config"];
  return {
    kind: "run",
    name,
    configPath: typeof config === "string" ? resolve(cwd, config) : void 0,
    json: parsed.values["json"] === true,
    options,
    args: Object.fromEntries(positionals.map((p, i) => [p, parsed.positionals[i]]))
  };
}
function usageError(problem, usage) {
  return new DistillError("USAGE", usage === "" ? problem : `${problem}

${usage}`);
}
function parseStrictly(args, specs, usage) {
  const config = {};
  for (const [flag, option] of Object.entries(specs)) {
    config[flag] = option.type === "flag" ? { type: "boolean", ...option.short === void 0 ? {} : { short: option.short } } : { type: "string" };
  }
  try {
    return parseArgs({ args, options: config, allowPositionals: true, strict: true });
  } catch (err) {
    const code = err?.code;
    if (!(err instanceof Error && typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_"))) throw err;
    const unknown = /^Unknown option '([^']+)'/.exec(err.message);
    throw usageError(unknown ? `unknown option '${unknown[1]}'` : err.message, usage);
  }
}
function checkedValue(flag, option, raw, usage) {
  if (option.type === "flag") return raw === true;
  if (raw === void 0) return void 0;
  if (option.type === "count") return positiveInteger(flag, option, raw);
  if (option.type === "choice" && !option.values.includes(raw)) {
    throw usageError(`--${flag} must be one of ${option.values.join(", ")} (got '${String(raw)}')`, usage);
  }
  return String(raw);
}
function positiveInteger(flag, option, raw) {
  const n = typeof raw === "string" && /^[1-9]\d*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= option.max)) {
    const max = option.max.toLocaleString("en-US");
    throw usageError(`--${flag} must be ${option.what} from 1 to ${max} (got '${String(raw)}')`, "");
  }
  return n;
}
function wantsHelp(argv) {
  for (const token of argv) {
    if (token === "--") return false;
    if (token === "--help" || token === "-h") return true;
  }
  return false;
}
function findCommand(argv) {
  const words = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const token = argv[i];
    if (token === "--") break;
    if (token === "--config") {
      i++;
      continue;
    }
    if (token.startsWith("-")) continue;
    words.push(i);
    if (!GROUPS.includes(argv[words[0]])) break;
  }
  const verb = words[0] === void 0 ? void 0 : argv[words[0]];
  if (verb === void 0) return { name: null, group: null, rest: argv };
  const isGroup = GROUPS.includes(verb);
  const sub = isGroup && words[1] !== void 0 ? argv[words[1]] : void 0;
  const wanted = isGroup ? sub === void 0 ? null : `${verb} ${sub}` : verb;
  const name = COMMAND_NAMES.find((n) => n === wanted) ?? null;
  if (wanted !== null && name === null) {
    if (isGroup) throw usageError(`unknown command '${wanted}'`, groupUsage(verb));
    throw usageError(`unknown command '${verb}'`, globalUsage());
  }
  const used = new Set(name !== null ? words.slice(0, isGroup ? 2 : 1) : []);
  return { name, group: isGroup ? verb : null, rest: argv.filter((_, i) => !used.has(i)) };
}

// cli/main.ts
var processIO = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  cwd: process.cwd()
};
async function main(argv, io = processIO) {
  let running = false;
  try {
    const line = parseCommandLine(argv, io.cwd);
    if (line.kind === "help") {
      io.stdout(`${line.text}
`);
      return EXIT.ok;
    }
    running = true;
    const { configPath, json, options, args } = line;
    return await runCommand(line.name, { io, configPath, json, options, args });
  } catch (err) {
    if (err instanceof DistillError) {
      io.stderr(`tooldistill: ${err.message}
`);
      return err.code === "USAGE" && !running ? EXIT.usage : EXIT.error;
    }
    const detail = err instanceof Error ? err.stack ?? err.message : errorMessage(err);
    io.stderr(`tooldistill: internal error \u2014 please report it
${detail}
`);
    return EXIT.error;
  }
}
export {
  main,
  processIO
};
