/**
 * The invoice demo's switches, kept in `.switches.json` next to this file (or where TOOLDISTILL_DEMO_STATE
 * points) so that every copy of the fake tools sees them: the runner's, the CLI's and the MCP server's.
 *
 *   npx node examples/invoice_agent/switches.ts                    # show them
 *   npx node examples/invoice_agent/switches.ts --outage            # billing_import_from_email answers 503
 *   npx node examples/invoice_agent/switches.ts --schema-currency   # billing requires `currency`
 *   npx node examples/invoice_agent/switches.ts --off              # all off
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readSwitches, switchFile, writeSwitches } from "../shared/runner-kit.ts";

/** The switches of this example. */
export type InvoiceSwitches = {
  /** `billing_import_from_email` answers 503. */
  outage: boolean;
  /** Billing requires `currency` on every invoice, while the advertised schemas still call it optional. */
  schema_currency: boolean;
};

const OFF: InvoiceSwitches = { outage: false, schema_currency: false };

/** The switch file of this example. */
export function stateFile(): string {
  return switchFile(dirname(fileURLToPath(import.meta.url)));
}

/** The switches as they are now (read on every call, so another process can flip them). */
export function switches(): InvoiceSwitches {
  return readSwitches(stateFile(), OFF);
}

/** Sets every switch at once. */
export function setSwitches(values: InvoiceSwitches): void {
  writeSwitches(stateFile(), { ...values });
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      outage: { type: "boolean" },
      "schema-currency": { type: "boolean" },
      off: { type: "boolean" },
    },
  });
  if (values.off || values.outage || values["schema-currency"]) {
    setSwitches({ outage: Boolean(values.outage), schema_currency: Boolean(values["schema-currency"]) });
  }
  console.log(`${stateFile()}: ${JSON.stringify(switches())}`);
}
