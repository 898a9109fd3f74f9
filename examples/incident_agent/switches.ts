/**
 * The incident demo's switches, kept in `.switches.json` next to this file (or where TOOLDISTILL_DEMO_STATE
 * points) so that every copy of the fake tools sees them: the runner's, the CLI's and the MCP server's.
 *
 *   npx node examples/incident_agent/switches.ts                    # show them
 *   npx node examples/incident_agent/switches.ts --outage           # deploys_rollback answers 503
 *   npx node examples/incident_agent/switches.ts --schema-reason    # deploys_rollback requires `reason`
 *   npx node examples/incident_agent/switches.ts --off              # all off
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readSwitches, switchFile, writeSwitches } from "../shared/runner-kit.ts";

/** The switches of this example. */
export type IncidentSwitches = {
  /** `deploys_rollback` answers 503. */
  outage: boolean;
  /** `deploys_rollback` requires `reason`, and its advertised schema says so. */
  schema_reason: boolean;
};

const OFF: IncidentSwitches = { outage: false, schema_reason: false };

/** The switch file of this example. */
export function stateFile(): string {
  return switchFile(dirname(fileURLToPath(import.meta.url)));
}

/** The switches as they are now (read on every call, so another process can flip them). */
export function switches(): IncidentSwitches {
  return readSwitches(stateFile(), OFF);
}

/** Sets every switch at once. */
export function setSwitches(values: IncidentSwitches): void {
  writeSwitches(stateFile(), { ...values });
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      outage: { type: "boolean" },
      "schema-reason": { type: "boolean" },
      off: { type: "boolean" },
    },
  });
  if (values.off || values.outage || values["schema-reason"]) {
    setSwitches({ outage: Boolean(values.outage), schema_reason: Boolean(values["schema-reason"]) });
  }
  console.log(`${stateFile()}: ${JSON.stringify(switches())}`);
  console.log("Restart Claude Code (or its MCP server) after a schema change: tool lists are read at start.");
}
