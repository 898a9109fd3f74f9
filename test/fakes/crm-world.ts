import type { Executor, ToolDef } from "../../core/types.ts";

/**
 * In-process fake CRM and payments tools, for failures that are about the caller: `crm_find_customer` refuses an
 * id it does not know (404, as a real CRM does), `payments_charge` refuses more than 1000 EUR (422). Every call is
 * logged; `charges` holds the charges made.
 */
export interface CrmWorld {
  tools: ToolDef[];
  executor: Executor;
  log: { name: string; args: Record<string, unknown> }[];
  charges: { customer_id: string; amount_cents: number }[];
}

export function crmWorld(): CrmWorld {
  const customers = new Set(["C-1", "C-2", "C-3"]);
  const world: CrmWorld = {
    log: [],
    charges: [],
    tools: [
      {
        name: "crm_find_customer",
        description: "Find a customer by id.",
        input_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        annotations: { readOnlyHint: true },
      },
      {
        name: "payments_charge",
        description: "Charge a customer an amount in cents, with a note.",
        input_schema: {
          type: "object",
          properties: {
            customer_id: { type: "string" },
            amount_cents: { type: "number" },
            note: { type: "string" },
          },
          required: ["customer_id", "amount_cents"],
        },
      },
    ],
    executor: async (name, args) => {
      world.log.push({ name, args });
      if (name === "crm_find_customer") {
        const id = String(args["id"]);
        if (!customers.has(id)) throw Object.assign(new Error(`404 no customer ${id}`), { status: 404 });
        return { id, name: `Customer ${id}` };
      }
      if (name === "payments_charge") {
        const cents = Number(args["amount_cents"]);
        if (cents > 100_000) {
          throw Object.assign(new Error(`422 ${cents} cents is over the 100000 limit`), { status: 422 });
        }
        const charge = { customer_id: String(args["customer_id"]), amount_cents: cents };
        world.charges.push(charge);
        return { charge_id: `ch-${world.charges.length}`, ...charge };
      }
      throw new Error(`no such tool ${name}`);
    },
  };
  return world;
}

/** The file form for a config (`executor: …#executeTool`, `tools: …#TOOLS`); tests read what it did here. */
export const SHARED_CRM = crmWorld();
export const executeTool: Executor = (name, args) => SHARED_CRM.executor(name, args);
export const TOOLS: ToolDef[] = SHARED_CRM.tools;

/**
 * A proven payment tool: finds the customer the caller names, charges units × unit price (cents). The amount is
 * computed from the input without constants: a tool that may write takes no number of its own (provenance).
 */
export const CHARGE_TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "charge_customer",
  description: "Charge a CRM customer units at a unit price in cents, with a note.",
  inputSchema: {
    type: "object",
    properties: {
      customer_id: { type: "string" },
      units: { type: "number" },
      unit_price_cents: { type: "number" },
      note: { type: "string" },
    },
    required: ["customer_id", "units", "unit_price_cents", "note"],
  },
  async run({ customer_id, units, unit_price_cents, note }: { customer_id: string; units: number; unit_price_cents: number; note: string }) {
    const customer = await call("crm_find_customer", { id: customer_id });
    return call("payments_charge", { customer_id: customer.id, amount_cents: units * unit_price_cents, note });
  },
});
`;
