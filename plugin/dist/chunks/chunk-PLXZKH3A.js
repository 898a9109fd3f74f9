import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  Statuses
} from "./chunk-J2PGGSMV.js";

// cli/commands.ts
var EXIT = { ok: 0, error: 1, usage: 2, stillSuspect: 3 };
var GLOBAL_OPTIONS = {
  config: {
    type: "text",
    metavar: "<path>",
    help: "the config file (default ./tooldistill.yaml; paths in it are relative to its folder)"
  },
  json: { type: "flag", help: "machine-readable output" },
  help: { type: "flag", short: "h", help: "show help" }
};
var VERSION = {
  version: {
    type: "count",
    metavar: "N",
    max: 1e6,
    what: "a version number",
    help: "a version number (see tooldistill list)"
  }
};
var COMMANDS = {
  init: {
    synopsis: "init",
    summary: "create the store and a commented sample tooldistill.yaml",
    details: "Writes a commented sample tooldistill.yaml (or the --config path) and creates the store it names.\nAn existing config file is never overwritten: it is kept, and the store it names is created.",
    options: {},
    positionals: []
  },
  list: {
    synopsis: "list [--status S]",
    summary: "distilled tool versions",
    details: "Lists every distilled tool version with its status, open problems, baseline and successful runs.\nrejected: proposals that failed verification; superseded: verified versions a newer promotion replaced.",
    options: {
      status: {
        type: "choice",
        metavar: "S",
        values: Statuses,
        help: `only versions with this status (${Statuses.join(", ")})`
      }
    },
    positionals: []
  },
  show: {
    synopsis: "show <name> [--version N]",
    summary: "code, status history, checks, run stats and savings",
    details: "Shows one version (default: the active one, else the newest): its code, open problems, status history,\nthe checks of its last verification, its dependencies, run stats and savings against its baseline.",
    options: VERSION,
    positionals: ["name"]
  },
  "traces list": {
    synopsis: "traces list [--limit N]",
    summary: "recorded runs, newest first",
    details: "Lists recorded runs, newest first, with their outcome, top-level base calls and tokens.",
    options: {
      limit: {
        type: "count",
        metavar: "N",
        max: 1e6,
        what: "a number of traces",
        help: "how many traces to list (default 50)"
      }
    },
    positionals: []
  },
  "traces show": {
    synopsis: "traces show <id>",
    summary: "one recorded run with every call",
    details: "Shows one recorded run: task, outcome, token usage and every call in order, inner calls indented.",
    options: {},
    positionals: ["id"]
  },
  report: {
    synopsis: "report [--since <date>] [--html <file>]",
    summary: "what distilled tools did and saved, with charts in --html",
    details: "Per tool and overall: runs and success rate, base calls and tokens saved (per run and in total, measured\nagainst each tool's baseline runs, with how many runs that rests on), the status timeline with reasons,\nfailures by cause, base tool health and what waits for a person. --json prints the numbers; --html writes\none self-contained page with charts (nothing fetched over the network). Reads only.",
    options: {
      since: { type: "text", metavar: "<date>", help: "only runs from this date or time on (2026-01-31)" },
      html: { type: "text", metavar: "<file>", help: "also write the report as a self-contained HTML file" }
    },
    positionals: []
  },
  promote: {
    synopsis: "promote <name> [--version N]",
    summary: "activate a version (a rollback re-verifies first)",
    details: "Makes a version active (default: the newest verified one, else the active one), deprecates the previously\nactive one and marks older verified ones superseded. Prints the code, and for a replacement its diff against\nthe active version. A deprecated, superseded or suspect version must re-pass verification first. Promoting\nthe version that is already active changes nothing and exits 0, with or without --version.",
    options: VERSION,
    positionals: ["name"]
  },
  deprecate: {
    synopsis: "deprecate <name> [--version N]",
    summary: "take a version out of use",
    details: "Deprecates a version (default: the active one). Needs only the store.",
    options: VERSION,
    positionals: ["name"]
  },
  verify: {
    synopsis: "verify <name> [--version N] [--live [--allow-writes] [--dry-run] [--input|--trace]]",
    summary: "re-run the three checks",
    details: "Re-runs the static, replay and efficiency checks on a version (default: the active one, else the newest\nsuspect one) and applies the lifecycle. --live runs the calls of read-only base tools\n(annotations.readOnlyHint) for real and answers the calls of tools that may write from the source run's\nrecord; a write the record has no answer for refuses the command before anything runs, unless --allow-writes\nlets it write for real. --dry-run prints that plan, call by call, and runs nothing. Only a live pass clears a\nruntime failure. Exits 1 when a check fails or the command is refused, 3 when every check passed but the\nversion stays suspect (out of use).\n--input replays a fresh input instead of the test inputs (its writes are new); --trace replays the input of\nanother successful run against that run's record. A write a recorded run of the tool already sent with the\nsame arguments is never sent again: the command is refused, before that call, saying how to go on.",
    options: {
      ...VERSION,
      input: {
        type: "text",
        metavar: "<json>",
        requires: "live",
        help: "with --live: the tool's input to verify with (a JSON object), instead of its test inputs"
      },
      trace: {
        type: "text",
        metavar: "<id>",
        requires: "live",
        help: "with --live: a successful recorded run whose input (and record) to verify with"
      },
      live: { type: "flag", help: "run read-only calls live; answer writes from the record" },
      "allow-writes": {
        type: "flag",
        requires: "live",
        help: "with --live: run writes the record cannot answer, for real"
      },
      "dry-run": {
        type: "flag",
        requires: "live",
        help: "with --live: print which calls would run live and which from the record"
      }
    },
    positionals: ["name"]
  },
  prune: {
    synopsis: "prune [--older-than N]",
    summary: "remove rejected and superseded versions",
    details: "Removes rejected and superseded versions with their history and tool files (with --older-than, only those\nthat got that status more than N days ago). The traces they came from are kept; a tool's newest version is\nnever removed, so its number is never handed out again. Needs only the store.",
    options: {
      "older-than": {
        type: "count",
        metavar: "N",
        max: 1e5,
        what: "a number of days",
        help: "only versions rejected or superseded more than N days ago"
      }
    },
    positionals: []
  },
  "tool-updated": {
    synopsis: "tool-updated <base_tool>",
    summary: "react to a changed or recovered base tool",
    details: "Re-verifies the versions that depend on the base tool with a different stored schema, and queues a rebuild\nfor the versions that avoided it in their source run.",
    options: {},
    positionals: ["base_tool"]
  },
  health: {
    synopsis: "health [--no-probe]",
    summary: "compare base tools with the stored dependencies",
    details: "Compares the current base tool definitions with the fingerprints stored for every version and, with a\nhealth_probe configured, looks for recoveries of avoided tools.",
    options: { "no-probe": { type: "flag", help: "skip the health probe: compare schemas only" } },
    positionals: []
  },
  rebuild: {
    synopsis: "rebuild <name>",
    summary: "ask the distiller for a better version (calls the model)",
    details: "Hands the source run of a tool queued for rebuild to the distiller and verifies the result as a new version.\nThe built-in distiller calls Claude: ANTHROPIC_API_KEY must be set in the environment.",
    options: {},
    positionals: ["name"]
  },
  doctor: {
    synopsis: "doctor [--fix]",
    summary: "check the store; --fix repairs what loses nothing",
    details: "Checks the store: SQLite's integrity check, the lifecycle invariants (one active version per tool, stored\nverdicts, rebuild flags), tool files against their versions (missing, edited by hand, orphaned), hook events\nwaiting in spill files, and a registry lost while tools/ still holds files. Without --fix nothing changes and\neach problem says what --fix would do or which command fixes it. --fix applies the repairs that lose nothing\n(files are moved to orphaned/, never deleted). Exits 1 while a problem is left.",
    options: { fix: { type: "flag", help: "apply the repairs that lose nothing" } },
    positionals: []
  },
  export: {
    synopsis: "export <file> [--force]",
    summary: "write the whole registry to a file (backup, or to move stores)",
    details: "Writes every trace, call, version with its code, verdict, status history, dependency, run counter, cached\nvalue and Claude Code session of the store (a folder or a PostgreSQL database) into <file>, from one\nconsistent snapshot while other processes keep writing: JSON lines, a header line then one page of rows per\nline. The file appears only once complete. Read it back with tooldistill import.",
    options: { force: { type: "flag", help: "replace <file> if it exists" } },
    positionals: ["file"]
  },
  import: {
    synopsis: "import <file>",
    summary: "load an exported registry into an empty store",
    details: "Loads a file written by tooldistill export into the store of tooldistill.yaml (a new folder, or an empty\nPostgreSQL database), in one transaction: a damaged or cut-short file, or a store that is not empty, writes\nnothing. Ids, times and version numbers are kept, so the store goes on where the export left off.",
    options: {},
    positionals: ["file"]
  },
  copy: {
    synopsis: "copy --to <location>",
    summary: "copy the whole registry into another, empty store",
    details: `Copies the store of tooldistill.yaml into <location> (a folder, or a postgres:// URL; \${VAR} expands from
the environment), in one transaction on the target: all of it, or nothing when the target is not empty or
the copy fails. Then point store: at the new location.`,
    options: {
      to: {
        type: "text",
        metavar: "<location>",
        help: "the target: a folder, or postgres://user:password@host:5432/database"
      }
    },
    positionals: []
  },
  "mcp tools": {
    synopsis: "mcp tools",
    summary: "list the base tools the configured MCP servers expose",
    details: "Connects to every MCP server of mcp_config and mcpServers and lists their tools as the library names them\n(<server>__<tool>). Exits 1 when a server cannot be reached.",
    options: {},
    positionals: []
  }
};
var COMMAND_NAMES = Object.keys(COMMANDS);
var GROUPS = [
  ...new Set(COMMAND_NAMES.filter((n) => n.includes(" ")).map((n) => n.split(" ")[0]))
];
function optionLabel(flag, option) {
  const short = option.type === "flag" && option.short !== void 0 ? `-${option.short}, ` : "";
  return `${short}--${flag}${option.type === "flag" ? "" : ` ${option.metavar}`}`;
}
var HELP_COLUMN = Math.max(
  ...[GLOBAL_OPTIONS, ...COMMAND_NAMES.map((n) => COMMANDS[n].options)].flatMap(
    (options) => Object.entries(options).map(([flag, option]) => optionLabel(flag, option).length)
  )
) + 2;
function optionLines(options) {
  return Object.entries(options).map(
    ([flag, option]) => `  ${optionLabel(flag, option).padEnd(HELP_COLUMN)}${option.help}`
  );
}
function usageOf(name) {
  const c = COMMANDS[name];
  return [
    `Usage: tooldistill ${c.synopsis} [--config <path>] [--json]`,
    "",
    c.details,
    "",
    "Options:",
    ...optionLines(c.options),
    ...optionLines(GLOBAL_OPTIONS)
  ].join("\n");
}
function groupUsage(group) {
  const subs = COMMAND_NAMES.filter((n) => n.startsWith(`${group} `));
  return ["Usage:", ...subs.map((n) => `  tooldistill ${COMMANDS[n].synopsis}`)].join("\n");
}
function globalUsage() {
  const width = Math.max(...COMMAND_NAMES.map((n) => COMMANDS[n].synopsis.length)) + 2;
  return [
    "Usage: tooldistill <command> [options]",
    "",
    "Turn an agent's trial-and-error runs into verified, reusable tools.",
    "",
    "Commands:",
    ...COMMAND_NAMES.map((n) => `  ${COMMANDS[n].synopsis.padEnd(width)}${COMMANDS[n].summary}`),
    "",
    "Options:",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    "list, show and traces read the store without changing it; deprecate, prune and doctor need only the store; the",
    "others load the executor and tools (or MCP servers) from tooldistill.yaml. Only init creates a store.",
    "Run tooldistill <command> --help for a command's options."
  ].join("\n");
}

export {
  EXIT,
  GLOBAL_OPTIONS,
  COMMANDS,
  COMMAND_NAMES,
  GROUPS,
  usageOf,
  groupUsage,
  globalUsage
};
