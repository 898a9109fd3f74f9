/**
 * `npm run demo`: the four steps of a demo, offline, in a temporary store. Each step runs what a person would
 * type (the example's run.ts with the scripted model, or the tooldistill CLI) as its own process, then reads the
 * numbers back from the store: top-level base calls, inner calls, model tokens, versions and their statuses.
 *
 *   npm run demo                     # the incident demo
 *   npm run demo -- --example invoice
 *   npm run demo -- --keep           # keep the temporary folder to look around with the CLI
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import type { RegistryStore } from "../core/index.ts";
import { SqliteRegistryStore } from "../core/internal.ts";
import { REPO_ROOT, type RunNumbers, runNumbers, SCRIPTED_ENV, STATE_ENV } from "./shared/runner-kit.ts";

/** One step of a demo: runner invocations or CLI verbs, in order. */
interface StepDef {
  title: string;
  commands: ({ run: string[] } | { cli: string[] })[];
}

/** A demo: its example folder and its four steps. */
interface DemoDef {
  example: "incident" | "invoice";
  dir: string;
  /** The base tool whose outage ends in step 3. */
  recovered: string;
  steps: StepDef[];
}

/** The name the agent gave its tool, filled in when a command needs it (`rebuild <name>`). */
const NAME = "<name>";

const DEMOS: Record<DemoDef["example"], DemoDef> = {
  incident: {
    example: "incident",
    dir: join(REPO_ROOT, "examples", "incident_agent"),
    recovered: "deploys_rollback",
    steps: [
      {
        title: "Discovery while deploys_rollback is down → proposal → verified → active",
        commands: [{ run: ["--alert", "A-1042", "--outage"] }],
      },
      { title: "Reuse: another alert, one distilled call", commands: [{ run: ["--alert", "A-1057"] }] },
      {
        title: "The rollback is back: tool-updated queues a rebuild, rebuild uses it",
        commands: [{ cli: ["tool-updated", "deploys_rollback"] }, { cli: ["rebuild", NAME] }],
      },
      {
        title:
          "deploys_rollback's schema now requires `reason`: caught at start-up, deprecated, fallback, new version",
        commands: [{ run: ["--alert", "A-1063", "--schema-reason"] }],
      },
    ],
  },
  invoice: {
    example: "invoice",
    dir: join(REPO_ROOT, "examples", "invoice_agent"),
    recovered: "billing_import_from_email",
    steps: [
      {
        title: "Discovery while billing_import_from_email is down → proposal → verified → active",
        commands: [{ run: ["--customer", "ACME", "--outage"] }],
      },
      { title: "Reuse: another customer, one distilled call", commands: [{ run: ["--customer", "Globex"] }] },
      {
        title: "The import is back: tool-updated queues a rebuild, rebuild uses it",
        commands: [{ cli: ["tool-updated", "billing_import_from_email"] }, { cli: ["rebuild", NAME] }],
      },
      {
        title: "Billing now requires `currency` (schema unchanged): structured error, fallback, new version",
        commands: [{ run: ["--customer", "Initech", "--schema-currency"] }],
      },
    ],
  },
};

/** A version as a step leaves it. */
export interface VersionState {
  name: string;
  version: number;
  status: string;
  problems: string[];
  /** Base calls of its last verification's replay. */
  calls: number | null;
  baseline: number | null;
  liveCalls: string[];
  /** The reason of its last status change. */
  lastChange: string | null;
}

/** What one step did, read back from the store. */
export interface StepReport {
  step: number;
  title: string;
  commands: string[];
  output: string;
  /** The run the step recorded (steps that run the agent). */
  run: RunNumbers | null;
  /** The error text of a distilled call that failed in the run, if one did. */
  structuredError: string | null;
  versions: VersionState[];
}

/** Options of `runDemo`. */
export interface DemoOptions {
  /** Working folder (config, store, switches); a temporary one by default, removed unless `keep`. */
  dir?: string;
  keep?: boolean;
  /** Hears each step as it completes (the console printer of `npm run demo`). */
  onStep?: (report: StepReport) => void;
  /** Hears each command before it runs. */
  onCommand?: (command: string) => void;
}

/**
 * Writes the example's config into `work` with its module references made absolute (so the store lands in
 * `work`), and returns the environment that keeps every process of the demo offline and its switches in `work`.
 */
export function prepareWorkDir(
  example: DemoDef["example"],
  work: string,
): { config: string; env: NodeJS.ProcessEnv; runner: string } {
  const demo = DEMOS[example];
  const config = join(work, "tooldistill.yaml");
  const yaml = readFileSync(join(demo.dir, "tooldistill.yaml"), "utf8").replace(
    /^(\w+): \.\/([\w.-]+)#/gm,
    (_m, key: string, file: string) => `${key}: ${join(demo.dir, file)}#`,
  );
  writeFileSync(config, yaml);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [STATE_ENV]: join(work, "switches.json"),
    [SCRIPTED_ENV]: "1",
  };
  delete env["ANTHROPIC_API_KEY"];
  delete env["ANTHROPIC_BASE_URL"];
  return { config, env, runner: join(demo.dir, "run.ts") };
}

/** Runs a demo's four steps against the scripted model and returns what each did, read from the store. */
export async function runDemo(example: DemoDef["example"], options: DemoOptions = {}): Promise<StepReport[]> {
  const demo = DEMOS[example];
  const work = options.dir ?? mkdtempSync(join(tmpdir(), `tooldistill-demo-${example}-`));
  const { config, env } = prepareWorkDir(example, work);
  const reports: StepReport[] = [];
  try {
    for (const [i, step] of demo.steps.entries()) {
      const before = new Set(await listTraceIds(work));
      const commands: string[] = [];
      let output = "";
      for (const command of step.commands) {
        let argv: string[];
        let shown: string;
        if ("run" in command) {
          argv = [join(demo.dir, "run.ts"), ...command.run, "--scripted", "--config", config];
          shown = `npx node ${relative(REPO_ROOT, join(demo.dir, "run.ts"))} ${command.run.join(" ")}`;
        } else {
          const name = command.cli.includes(NAME) ? await toolName(work) : NAME;
          const args = command.cli.map((a) => (a === NAME ? name : a));
          argv = [join(REPO_ROOT, "bin", "tooldistill.js"), ...args, "--config", config];
          shown = `npx tooldistill ${args.join(" ")}`;
        }
        commands.push(shown);
        options.onCommand?.(shown);
        const r = spawnSync(process.execPath, argv, { cwd: work, env, encoding: "utf8" });
        output += `$ ${shown}\n${r.stdout}${r.stderr}`;
        if (r.status !== 0) {
          throw new Error(`step ${i + 1}: '${shown}' exited with ${r.status}:\n${r.stdout}${r.stderr}`);
        }
      }
      const report = await readStep(work, i + 1, step.title, commands, output, before);
      reports.push(report);
      options.onStep?.(report);
    }
    return reports;
  } finally {
    if (!options.keep && !options.dir) rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Writes `tooldistill report --html` of the demo's store to `file` (outside the temporary folder, so it outlives
 * it) with the CLI a person would use, and returns the path.
 */
export function writeReport(work: string, file: string): string {
  const argv = [
    join(REPO_ROOT, "bin", "tooldistill.js"),
    "report",
    "--html",
    file,
    "--config",
    join(work, "tooldistill.yaml"),
  ];
  const r = spawnSync(process.execPath, argv, { cwd: work, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tooldistill report failed (exit ${r.status}): ${r.stderr}`);
  return file;
}

async function withStore<T>(work: string, fn: (store: RegistryStore) => Promise<T>): Promise<T> {
  const store = SqliteRegistryStore.open(join(work, ".tooldistill"));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function listTraceIds(work: string): Promise<string[]> {
  return withStore(work, async (store) => (await store.listTraces(1000)).map((t) => t.id));
}

function toolName(work: string): Promise<string> {
  return withStore(work, async (store) => {
    const name = (await store.listVersions()).at(-1)?.name;
    if (!name) throw new Error("no distilled tool in the store yet");
    return name;
  });
}

function readStep(
  work: string,
  step: number,
  title: string,
  commands: string[],
  output: string,
  before: Set<string>,
): Promise<StepReport> {
  return withStore(work, async (store) => {
    const trace = (await store.listTraces(1000)).find((t) => !before.has(t.id)) ?? null;
    const failed = trace
      ? (await store.getCalls(trace.id)).find((c) => c.kind === "distilled" && c.status === "error")
      : undefined;
    const versions: StepReport["versions"] = [];
    for (const v of await store.listVersions()) {
      versions.push({
        name: v.name,
        version: v.version,
        status: v.status,
        problems: [...v.problems],
        calls: v.verdict?.calls ?? null,
        baseline: v.baseline,
        liveCalls: v.verdict?.liveCalls ?? [],
        lastChange: (await store.getHistory(v.name, v.version)).at(-1)?.reason ?? null,
      });
    }
    return {
      step,
      title,
      commands,
      output,
      run: trace ? await runNumbers(store, trace.id) : null,
      structuredError: failed?.error ?? null,
      versions,
    };
  });
}

// ---- the console printer of npm run demo ------------------------------------------------------------

const fmt = (n: number) => n.toLocaleString("en-US");

function versionText(v: VersionState): string {
  const problems = v.problems.length ? ` (${v.problems.join(", ")})` : "";
  const calls = v.calls === null ? "" : `, ${v.calls} base calls per run`;
  return `${v.name} v${v.version}: ${v.status}${problems}${calls}${v.lastChange ? ` — ${v.lastChange}` : ""}`;
}

function printStep(r: StepReport, total: number, verbose: boolean): void {
  console.log(`\n━━ Step ${r.step} of ${total}: ${r.title}`);
  if (verbose) {
    for (const line of r.output.trimEnd().split("\n")) console.log(`│ ${line}`);
  } else {
    for (const c of r.commands) console.log(`$ ${c}`);
  }
  console.log("\nWhat the store says:");
  if (r.run) {
    const inner = r.run.distilledCalls
      .map((d) => `${d.tool} v${d.version} ${d.ok ? "ok" : "failed"}, ${d.innerCalls} inner calls`)
      .join("; ");
    console.log(`  top-level base calls: ${r.run.topLevelBaseCalls} (${r.run.failedBaseCalls} failed)`);
    console.log(`  distilled calls:      ${r.run.distilledCalls.length}${inner ? ` (${inner})` : ""}`);
    console.log(`  inner calls:          ${r.run.innerCalls}`);
    console.log(
      `  model tokens:         ${fmt(r.run.tokens)} (scripted model: estimated from request sizes)`,
    );
    console.log(`  outcome:              ${r.run.outcome ? "success" : "failure"}`);
  }
  if (r.structuredError) {
    console.log("  structured error the agent got:");
    for (const line of r.structuredError.split("\n")) console.log(`    ${line}`);
  }
  for (const v of r.versions) console.log(`  ${versionText(v)}`);
}

function printSummary(reports: StepReport[]): void {
  console.log("\n━━ Summary (every number read from the store)");
  const rows = reports.map((r) => {
    const last = r.versions.filter((v) => v.status === "active").at(-1);
    return [
      String(r.step),
      r.run ? String(r.run.topLevelBaseCalls) : "-",
      r.run ? String(r.run.distilledCalls.length) : "-",
      r.run ? String(r.run.innerCalls) : "-",
      r.run ? fmt(r.run.tokens) : "-",
      r.versions.map((v) => `v${v.version} ${v.status}`).join(", "),
      last ? `v${last.version}: ${last.calls ?? "?"} calls` : "-",
    ];
  });
  const head = ["step", "base calls", "distilled", "inner", "tokens", "versions", "active tool"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      example: { type: "string", default: "incident" },
      keep: { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
    },
  });
  const example = values.example;
  if (example !== "incident" && example !== "invoice") {
    console.error(`unknown example '${example}': use incident or invoice`);
    process.exit(2);
  }
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), `tooldistill-demo-${example}-`));
  console.log(`tooldistill demo: ${example} agent, four steps, scripted model (offline), store in ${dir}`);
  try {
    const reports = await runDemo(example, {
      dir,
      onStep: (r) => printStep(r, DEMOS[example].steps.length, !values.quiet),
    });
    printSummary(reports);
    const report = writeReport(dir, join(tmpdir(), `tooldistill-demo-${example}-report.html`));
    console.log(`\nThe report (runs, savings, timeline; open it in a browser): ${report}`);
    console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    if (values.keep) {
      console.log(`The store is kept: npx tooldistill list --config ${join(dir, "tooldistill.yaml")}`);
    }
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}
