import type { Executor, ToolDef } from "../../core/types.ts";

/** In-process fake Gmail + billing tools with an outage switch and a schema-change switch, for tests. */
export interface InvoiceWorld {
  tools: ToolDef[];
  executor: Executor;
  /** Every executor call, in order. */
  log: { name: string; args: Record<string, unknown> }[];
  /** While true, billing_import_from_email fails like a service outage. */
  outage: boolean;
  /** While true, billing_create_invoice requires `currency` (behaviour only; the schema is not changed). */
  requireCurrency: boolean;
  invoices: { id: string; customer_id: string; lines: unknown[]; currency?: string; status: string }[];
}

const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object" as const,
  properties,
  required,
});

/** A fresh world; each test gets its own. */
export function invoiceWorld(): InvoiceWorld {
  const world: InvoiceWorld = {
    log: [],
    outage: false,
    requireCurrency: false,
    invoices: [],
    tools: [
      {
        name: "gmail_search",
        description: "Search email.",
        input_schema: obj({ query: { type: "string" }, since: { type: "string", default: "7d" } }, ["query"]),
      },
      {
        name: "gmail_get_message",
        description: "Read one email.",
        input_schema: obj({ id: { type: "string" } }, ["id"]),
      },
      {
        name: "billing_find_customer",
        description: "Find a customer by name.",
        input_schema: obj({ name: { type: "string" } }, ["name"]),
      },
      {
        name: "billing_create_invoice",
        description: "Create a draft invoice.",
        input_schema: obj(
          { customer_id: { type: "string" }, lines: { type: "array" }, currency: { type: "string" } },
          ["customer_id", "lines"],
        ),
      },
      {
        name: "billing_import_from_email",
        description: "Create a draft invoice straight from an order email.",
        input_schema: obj({ message_id: { type: "string" } }, ["message_id"]),
      },
      {
        name: "billing_list_invoices",
        description: "List invoices of a customer.",
        input_schema: obj({ customer_id: { type: "string" } }, ["customer_id"]),
      },
    ],
    executor: async (name, args) => {
      world.log.push({ name, args });
      const a = args as Record<string, string>;
      switch (name) {
        case "gmail_search":
          return [{ id: `msg-${a["query"]?.replace(/\W+/g, "-")}`, subject: "Order" }];
        case "gmail_get_message":
          return { id: a["id"], lines: [{ sku: "A-1", qty: 2, price: 10 }] };
        case "billing_find_customer":
          if (a["name"] === "Nobody") throw new Error(`no customer named ${a["name"]}`);
          return { id: `cus_${a["name"]?.toLowerCase()}`, name: a["name"] };
        case "billing_create_invoice": {
          if (world.requireCurrency && !a["currency"])
            throw new Error("missing required property 'currency'");
          const inv = {
            id: `inv_${world.invoices.length + 1}`,
            customer_id: a["customer_id"] ?? "",
            lines: (args["lines"] as unknown[]) ?? [],
            status: "draft",
          };
          world.invoices.push(inv);
          return inv;
        }
        case "billing_import_from_email":
          if (world.outage)
            throw Object.assign(new Error("503 Service Unavailable: billing import is down"), {
              status: 503,
            });
          return { id: `inv_${world.invoices.length + 1}`, status: "draft", from: a["message_id"] };
        case "billing_list_invoices":
          return world.invoices.filter((i) => i.customer_id === a["customer_id"]);
        default:
          throw new Error(`unknown tool ${name}`);
      }
    },
  };
  return world;
}
