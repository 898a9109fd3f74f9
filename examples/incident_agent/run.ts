/**
 * The incident agent: an alert fires on a service whose upstream dependency just shipped a bad deploy; the agent
 * finds the deploy and reverts it. The loop is the README's SDK integration on `@anthropic-ai/sdk`.
 *
 *   npx node examples/incident_agent/run.ts --alert A-1042 --outage      # discovery → proposal → verified → active
 *   npx node examples/incident_agent/run.ts --alert A-1057               # one distilled call
 *   cd examples/incident_agent && npx tooldistill tool-updated deploys_rollback && npx tooldistill rebuild <name>
 *   npx node examples/incident_agent/run.ts --alert A-1063 --schema-reason   # caught at start-up, new version
 *
 * With ANTHROPIC_API_KEY (in the shell or the repository's .env) it uses a real model (--model, default the
 * config's distiller_model); without it, or with --scripted, the scripted model on 127.0.0.1.
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type Anthropic from "@anthropic-ai/sdk";
import { type Logger, loadConfig, ToolDistill } from "../../core/index.ts";
import { chooseModel, clip, loadDotEnv, summaryLines } from "../shared/runner-kit.ts";
import { incidentPolicy } from "./scripted.ts";
import { setSwitches } from "./switches.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const SYSTEM =
  "You are an on-call assistant with access to the company's alerting, service catalog and deploy tools. " +
  "Find what caused the alert, mitigate it, and note what you did on the alert. Be brief.";

const USAGE = `usage: npx node examples/incident_agent/run.ts [--alert A-1042] [--outage] [--schema-reason]
                      [--scripted] [--model NAME] [--config FILE] [--max-steps N]`;

const logger: Logger = {
  info: (m) => console.log(`  ${m}`),
  warn: (m) => console.error(`  warning: ${m}`),
  error: (m) => console.error(`  error: ${m}`),
};

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      alert: { type: "string", default: "A-1042" },
      outage: { type: "boolean", default: false },
      "schema-reason": { type: "boolean", default: false },
      scripted: { type: "boolean", default: false },
      model: { type: "string" },
      config: { type: "string", default: join(HERE, "tooldistill.yaml") },
      "max-steps": { type: "string", default: "30" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  loadDotEnv();
  // The switches first: the tools module advertises its schemas as they are when the config imports it.
  setSwitches({ outage: values.outage, schema_reason: values["schema-reason"] });
  const { incidentMitigated } = await import("./tools.ts");

  const config = await loadConfig(resolve(values.config));
  const td = await ToolDistill.fromLoadedConfig(config, { logger });
  const model = await chooseModel({
    scripted: values.scripted,
    model: values.model ?? config.settings.distillerModel,
    policy: incidentPolicy,
  });
  try {
    console.log(`model: ${model.describe}`);
    console.log(`store: ${td.store.root}`);
    console.log(
      `switches: outage ${values.outage ? "on" : "off"}, schema_reason ${values["schema-reason"] ? "on" : "off"}`,
    );
    await reactToStartup(td);
    const task = `Alert ${values.alert} is firing. Find what caused it, mitigate it, and note what you did on the alert.`;
    const traceId = await runAgent(td, model.client, model.model, task, Number(values["max-steps"]), () =>
      incidentMitigated(values.alert),
    );
    console.log("");
    for (const line of summaryLines(td.store, traceId)) console.log(line);
    return 0;
  } finally {
    await model.close();
    await td.close();
  }
}

/**
 * check_schemas_on_start has already compared the tools with the stored fingerprints; a version it made
 * suspect(schema_changed) is re-verified now, before any call, so a broken one is deprecated, never offered.
 */
async function reactToStartup(td: ToolDistill): Promise<void> {
  for (const c of td.startupReport?.changes ?? []) {
    console.log(`start-up: ${c.name} v${c.version} ${c.from} → ${c.to} (${c.reason})`);
    if (!c.problems.includes("schema_changed")) continue;
    const verdict = await td.verify(c.name, { version: c.version });
    const failed = (["static", "replay", "efficiency"] as const).find((k) => !verdict.checks[k].ok);
    const why = failed
      ? `: ${failed} check failed: ${verdict.checks[failed].problems[0]?.message ?? ""}`
      : "";
    console.log(`re-verified ${c.name} v${c.version}: ${verdict.status}${why}`);
  }
}

/** The README's agent loop. Returns the trace id. */
async function runAgent(
  td: ToolDistill,
  client: Anthropic,
  modelName: string,
  task: string,
  maxSteps: number,
  taskSucceeded: () => boolean,
): Promise<string> {
  const trace = td.startTrace(task);
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: task }];
  const offered = td.activeTools().map((t) => t.name);
  console.log(`distilled tools offered: ${offered.length ? offered.join(", ") : "none"}`);
  console.log(`task: ${task}\n`);
  let finished = false;
  let n = 0;
  for (let step = 0; step < maxSteps; step++) {
    const tools = [...td.tools(), ...td.activeTools(), td.proposeTool()] as Anthropic.Tool[];
    const resp = await client.messages.create({
      model: modelName,
      max_tokens: 4096,
      system: SYSTEM,
      tools,
      messages,
    });
    trace.recordUsage(resp.usage);
    messages.push({ role: "assistant", content: resp.content });
    for (const block of resp.content) {
      if (block.type === "text" && block.text.trim()) {
        for (const line of block.text.trim().split("\n")) console.log(`  model: ${line}`);
      }
    }
    if (resp.stop_reason !== "tool_use") {
      if (trace.outcome === null) trace.setOutcome({ success: taskSucceeded() });
      const nudge = trace.distillNudge();
      if (nudge) {
        console.log(
          `  tooldistill: the run is worth distilling (${trace.baseCallCount()} base calls): nudging the agent`,
        );
        messages.push({ role: "user", content: nudge });
        continue;
      }
      finished = true;
      break;
    }
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of resp.content) {
      if (block.type !== "tool_use") continue;
      n++;
      const out = await trace.execute(block.name, block.input);
      const input =
        block.name === "propose_distilled_tool" ? "{ code, test_inputs }" : JSON.stringify(block.input);
      console.log(`  ${String(n).padStart(2)}. ${block.name} ${input}`);
      if (block.name === "propose_distilled_tool" || out.content.startsWith("Distilled tool '")) {
        for (const line of out.content.split("\n")) console.log(`      ${line}`);
      } else {
        console.log(`      ${out.isError ? "✗" : "→"} ${clip(out.content)}`);
      }
      results.push({
        type: "tool_result",
        tool_use_id: block.id,
        content: out.content,
        is_error: out.isError,
      });
    }
    messages.push({ role: "user", content: results });
  }
  if (!finished) trace.setOutcome({ success: false });
  await trace.finish();
  return trace.id;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    console.error(USAGE);
    process.exitCode = 1;
  },
);
