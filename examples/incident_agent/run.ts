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
import { type Logger, loadConfig, ToolDistill } from "../../core/index.ts";
import { chooseModel, loadDotEnv, printStartup, runAgent, summaryLines } from "../shared/runner-kit.ts";
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
    console.log(`store: ${td.store.location}`);
    console.log(
      `switches: outage ${values.outage ? "on" : "off"}, schema_reason ${values["schema-reason"] ? "on" : "off"}`,
    );
    printStartup(td);
    const task = `Alert ${values.alert} is firing. Find what caused it, mitigate it, and note what you did on the alert.`;
    const traceId = await runAgent(td, model.client, {
      model: model.model,
      system: SYSTEM,
      task,
      maxSteps: Number(values["max-steps"]),
      taskSucceeded: () => incidentMitigated(values.alert),
    });
    console.log("");
    for (const line of await summaryLines(td.store, traceId)) console.log(line);
    return 0;
  } finally {
    await model.close();
    await td.close();
  }
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
