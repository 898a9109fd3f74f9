/**
 * Fake Gmail and billing tools (no real services) for the invoice demo.
 *
 * - `gmail_search` needs Gmail's `from:` operator to find a customer's mail.
 * - `billing_import_from_email` turns an order email into a draft invoice in one call; the `outage` switch takes
 *   it down (503), so the agent must take the longer path (read the email, find the customer, create the invoice).
 * - The `schema_currency` switch changes behaviour only: billing starts requiring `currency`, while the advertised
 *   schemas still say it is optional (as real APIs do). A distilled tool then fails at run time, not at start-up.
 *
 * Switches live in `.switches.json` next to this file (see switches.ts). Invoices are kept in memory per process.
 */

import type { ToolDef } from "../../core/index.ts";
import { switches } from "./switches.ts";

const CUSTOMERS = [
  { id: "cus_acme", name: "ACME", currency: "EUR" },
  { id: "cus_globex", name: "Globex", currency: "USD" },
  { id: "cus_initech", name: "Initech", currency: "USD" },
  { id: "cus_umbrella", name: "Umbrella", currency: "GBP" },
];

interface Line {
  sku: string;
  description: string;
  qty: number;
  unit_price: number;
}

const MESSAGES: {
  id: string;
  from: string;
  subject: string;
  date: string;
  currency: string;
  lines: Line[];
}[] = [
  {
    id: "msg-acme-1107",
    from: "ACME",
    subject: "Order #1107",
    date: "2025-06-02",
    currency: "EUR",
    lines: [
      { sku: "WID-10", description: "Widget, blue", qty: 40, unit_price: 12.5 },
      { sku: "GAD-02", description: "Gadget mount", qty: 8, unit_price: 39 },
    ],
  },
  {
    id: "msg-globex-2231",
    from: "Globex",
    subject: "Order #2231",
    date: "2025-06-03",
    currency: "USD",
    lines: [{ sku: "SPR-77", description: "Sprocket", qty: 500, unit_price: 0.8 }],
  },
  {
    id: "msg-initech-0918",
    from: "Initech",
    subject: "Order #0918 (TPS covers)",
    date: "2025-06-04",
    currency: "USD",
    lines: [
      { sku: "TPS-CV", description: "TPS report cover", qty: 1200, unit_price: 0.35 },
      { sku: "STP-RD", description: "Stapler, red", qty: 1, unit_price: 24 },
    ],
  },
  {
    id: "msg-umbrella-0042",
    from: "Umbrella",
    subject: "Order #0042",
    date: "2025-06-04",
    currency: "GBP",
    lines: [{ sku: "VIAL-5", description: "Sample vials", qty: 300, unit_price: 1.1 }],
  },
];

const str = (description: string) => ({ type: "string", description });
const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object" as const,
  properties,
  required,
});
const currency = str("ISO 4217 code; optional, defaults to the customer's billing currency.");

/** The base tools of `tooldistill.yaml` (`tools: ./tools.ts#TOOLS`); the currency switch never changes them. */
export const TOOLS: ToolDef[] = [
  {
    name: "gmail_search",
    description: "Search the mailbox with Gmail search syntax. Returns [{ id, from, subject, date }].",
    input_schema: obj({ query: str("Gmail search query."), since: { type: "string", default: "7d" } }, [
      "query",
    ]),
  },
  {
    name: "gmail_get_message",
    description: "Read one email: sender, subject, currency and order lines.",
    input_schema: obj({ id: str("Message id from gmail_search.") }, ["id"]),
  },
  {
    name: "billing_find_customer",
    description: "Find a billing customer by name.",
    input_schema: obj({ name: str("Customer name.") }, ["name"]),
  },
  {
    name: "billing_list_invoices",
    description: "List a customer's invoices.",
    input_schema: obj({ customer_id: str("Billing customer id.") }, ["customer_id"]),
  },
  {
    name: "billing_create_invoice",
    description: "Create a draft invoice from order lines.",
    input_schema: obj(
      {
        customer_id: str("Billing customer id."),
        lines: { type: "array", items: { type: "object" } },
        currency,
      },
      ["customer_id", "lines"],
    ),
  },
  {
    name: "billing_import_from_email",
    description: "Create a draft invoice straight from an order email, in one call.",
    input_schema: obj({ message_id: str("Message id from gmail_search."), currency }, ["message_id"]),
  },
];

interface Invoice {
  id: string;
  customer_id: string;
  currency: string;
  lines: Line[];
  total: number;
  status: "draft";
}

const invoices: Invoice[] = [];

function createInvoice(customerId: string, lines: Line[], cur: unknown): Invoice {
  const customer = CUSTOMERS.find((c) => c.id === customerId);
  if (!customer) throw new Error(`404 no customer '${customerId}'`);
  if (switches().schema_currency && !cur) throw new Error("missing required property 'currency'");
  const total = Math.round(lines.reduce((sum, l) => sum + l.qty * l.unit_price, 0) * 100) / 100;
  const inv: Invoice = {
    id: `inv_${customer.name.toLowerCase()}_${invoices.length + 1}`,
    customer_id: customerId,
    currency: typeof cur === "string" && cur ? cur : customer.currency,
    lines,
    total,
    status: "draft",
  };
  invoices.push(inv);
  return inv;
}

/** Runs one base tool (`executor: ./tools.ts#executeTool`). Throws to signal failure, as a real API errors. */
export function executeTool(name: string, args: Record<string, unknown>): unknown {
  const a = (key: string) => (typeof args[key] === "string" ? (args[key] as string) : "");
  switch (name) {
    case "gmail_search": {
      const from = /from:(\S+)/i.exec(a("query"))?.[1]?.toLowerCase();
      if (!from) return [];
      return MESSAGES.filter((m) => m.from.toLowerCase() === from).map(({ id, from: f, subject, date }) => ({
        id,
        from: f,
        subject,
        date,
      }));
    }
    case "gmail_get_message": {
      const m = MESSAGES.find((x) => x.id === a("id"));
      if (!m) throw new Error(`404 no message '${a("id")}'`);
      return m;
    }
    case "billing_find_customer": {
      const c = CUSTOMERS.find((x) => x.name.toLowerCase() === a("name").toLowerCase());
      if (!c) throw new Error(`404 no customer named '${a("name")}'`);
      return c;
    }
    case "billing_list_invoices":
      return invoices.filter((i) => i.customer_id === a("customer_id"));
    case "billing_create_invoice":
      return createInvoice(a("customer_id"), (args["lines"] as Line[]) ?? [], args["currency"]);
    case "billing_import_from_email": {
      if (switches().outage) throw new Error("503 Service Unavailable: billing import is down");
      const m = MESSAGES.find((x) => x.id === a("message_id"));
      if (!m) throw new Error(`404 no message '${a("message_id")}'`);
      const customer = CUSTOMERS.find((c) => c.name === m.from)!;
      return { ...createInvoice(customer.id, m.lines, args["currency"]), from_message: m.id };
    }
    default:
      throw new Error(`no such tool '${name}'`);
  }
}

/** `health_probe`: the import is reachable unless the outage switch is on. */
export function probe(name: string): boolean {
  return name === "billing_import_from_email" ? !switches().outage : TOOLS.some((t) => t.name === name);
}

/** The runner's own success check: this process created a draft invoice for the customer. */
export function invoiceCreated(customer: string): boolean {
  const c = CUSTOMERS.find((x) => x.name.toLowerCase() === customer.toLowerCase());
  return Boolean(c && invoices.some((i) => i.customer_id === c.id && i.status === "draft"));
}
