/**
 * The invoice agent: creates a draft invoice from a customer's latest order email, with fake Gmail and billing
 * tools. The loop is the README's SDK integration on `@anthropic-ai/sdk`.
 *
 *   npx node examples/invoice_agent/run.ts --customer ACME --outage         # discovery → proposal → verified → active
 *   npx node examples/invoice_agent/run.ts --customer Globex                # one distilled call (the outage is over)
 *   cd examples/invoice_agent && npx tooldistill tool-updated billing_import_from_email && npx tooldistill rebuild <name>
 *   npx node examples/invoice_agent/run.ts --customer Initech --schema-currency   # structured error, fallback, new version
 *
 * With ANTHROPIC_API_KEY (in the shell or the repository's .env) it uses a real model (--model, default the
 * config's distiller_model); without it, or with --scripted, the scripted model on 127.0.0.1.
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type Logger, loadConfig, ToolDistill } from "../../core/index.ts";
import { chooseModel, loadDotEnv, printStartup, runAgent, summaryLines } from "../shared/runner-kit.ts";
import { invoicePolicy } from "./scripted.ts";
import { setSwitches } from "./switches.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const SYSTEM =
  "You are a back-office assistant with access to the company mailbox and its billing system. Be brief.";

const USAGE = `usage: npx node examples/invoice_agent/run.ts [--customer ACME] [--outage] [--schema-currency]
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
      customer: { type: "string", default: "ACME" },
      outage: { type: "boolean", default: false },
      "schema-currency": { type: "boolean", default: false },
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
  setSwitches({ outage: values.outage, schema_currency: values["schema-currency"] });
  const { invoiceCreated } = await import("./tools.ts");

  const config = await loadConfig(resolve(values.config));
  const td = await ToolDistill.fromLoadedConfig(config, { logger });
  const model = await chooseModel({
    scripted: values.scripted,
    model: values.model ?? config.settings.distillerModel,
    policy: invoicePolicy,
  });
  try {
    console.log(`model: ${model.describe}`);
    console.log(`store: ${td.store.location}`);
    console.log(
      `switches: outage ${values.outage ? "on" : "off"}, schema_currency ${values["schema-currency"] ? "on" : "off"}`,
    );
    printStartup(td);
    const task = `Create a draft invoice for ${values.customer} from their latest order email.`;
    const traceId = await runAgent(td, model.client, {
      model: model.model,
      system: SYSTEM,
      task,
      maxSteps: Number(values["max-steps"]),
      taskSucceeded: () => invoiceCreated(values.customer),
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
