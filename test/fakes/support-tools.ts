import { appendFileSync } from "node:fs";
import type { Executor, ToolDef } from "../../core/types.ts";

/**
 * In-process fake support-desk tools, the story: an agent that refunds. Reads are annotated read-only (as an
 * MCP server would declare them); refunds and ticket changes may write. Switches: `outage` makes tickets_find answer
 * 503; a refund of an order refunded before is refused (422), as a real payment API refuses it. Every executed call
 * is logged, and when SUPPORT_LOG names a file, appended there too (so a CLI process's writes can be counted).
 */
export interface SupportWorld {
  tools: ToolDef[];
  executor: Executor;
  log: { name: string; args: Record<string, unknown> }[];
  outage: boolean;
  refunded: Set<string>;
  /** Customer → ticket; a customer missing here has no open ticket. */
  tickets: Map<string, { id: string; order_id: string }>;
}

const READ_ONLY = { readOnlyHint: true };
const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object" as const,
  properties,
  required,
});

/** The tool definitions, for a config's `tools:` (a fresh copy each time). */
export function supportTools(): ToolDef[] {
  return [
    {
      name: "tickets_find",
      description: "Find the open ticket of a customer.",
      input_schema: obj({ customer: { type: "string" } }, ["customer"]),
      annotations: READ_ONLY,
    },
    {
      name: "orders_get",
      description: "Read an order.",
      input_schema: obj({ order_id: { type: "string" } }, ["order_id"]),
      annotations: READ_ONLY,
    },
    {
      name: "refunds_create",
      description: "Refund an order.",
      input_schema: obj({ order_id: { type: "string" }, amount: { type: "number" } }, ["order_id", "amount"]),
    },
    {
      name: "tickets_close",
      description: "Close a ticket with a note.",
      input_schema: obj({ ticket_id: { type: "string" }, note: { type: "string" } }, ["ticket_id", "note"]),
    },
  ];
}

/** A fresh world with customers ACME, Globex, Initech, Umbrella and Hooli, each with one open ticket. */
export function supportWorld(): SupportWorld {
  const world: SupportWorld = {
    tools: supportTools(),
    log: [],
    outage: false,
    refunded: new Set(),
    tickets: new Map(
      ["ACME", "Globex", "Initech", "Umbrella", "Hooli"].map((c) => [
        c,
        { id: `T-${c}`, order_id: `O-${c}` },
      ]),
    ),
    executor: async (name, args) => {
      world.log.push({ name, args });
      const file = process.env["SUPPORT_LOG"];
      if (file) appendFileSync(file, `${name} ${JSON.stringify(args)}\n`);
      const a = args as Record<string, string>;
      switch (name) {
        case "tickets_find": {
          if (world.outage) throw Object.assign(new Error("503 Service Unavailable"), { status: 503 });
          const ticket = world.tickets.get(a["customer"] ?? "");
          return { ticket: ticket ? { ...ticket, customer: a["customer"] } : null };
        }
        case "orders_get":
          return { id: a["order_id"], amount: 40, currency: "EUR" };
        case "refunds_create": {
          const order = a["order_id"] ?? "";
          if (Number(args["amount"]) !== 40) {
            throw Object.assign(new Error(`400 amount ${String(args["amount"])} exceeds the order`), {
              status: 400,
            });
          }
          if (world.refunded.has(order)) {
            throw Object.assign(new Error(`422 order ${order} was already refunded`), { status: 422 });
          }
          world.refunded.add(order);
          return { refund_id: `R-${order}`, status: "refunded" };
        }
        case "tickets_close":
          return { id: a["ticket_id"], status: "closed" };
        default:
          throw new Error(`unknown tool ${name}`);
      }
    },
  };
  return world;
}

/**
 * The file form of the world for a config (`executor: …#executeTool`, `tools: …#TOOLS`). An in-process CLI imports
 * this very module, so a test reads what the CLI's calls did in `SHARED_WORLD`.
 */
export const SHARED_WORLD = supportWorld();
export const executeTool: Executor = (name, args) => SHARED_WORLD.executor(name, args);
export const TOOLS: ToolDef[] = SHARED_WORLD.tools;

/** The tools of a newer deploy: tickets_find takes an optional `include_closed` (a compatible change). */
export const TOOLS_NEXT: ToolDef[] = supportTools().map((t) =>
  t.name === "tickets_find"
    ? {
        ...t,
        input_schema: {
          ...t.input_schema,
          properties: { ...(t.input_schema["properties"] as object), include_closed: { type: "boolean" } },
        },
      }
    : t,
);

/** The distilled tool of the tests: refund the order of a customer's open ticket, then close it. */
export const REFUND_TOOL = `import { distilledTool, call, notApplicable } from "tooldistill";

export default distilledTool({
  name: "refund_ticket",
  description: "Refund the order of a customer's open ticket and close the ticket.",
  inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
  async run({ customer }: { customer: string }) {
    const found = await call("tickets_find", { customer });
    if (!found.ticket) return notApplicable(\`no open ticket for \${customer}\`);
    const order = await call("orders_get", { order_id: found.ticket.order_id });
    const refund = await call("refunds_create", { order_id: order.id, amount: order.amount });
    await call("tickets_close", { ticket_id: found.ticket.id, note: \`refunded \${refund.refund_id}\` });
    return refund;
  },
});
`;

/** The agent's trial and error for ACME: 8 top-level base calls, one of them refused. */
export const SOURCE_RUN: [string, Record<string, unknown>][] = [
  ["tickets_find", { customer: "acme" }],
  ["tickets_find", { customer: "ACME" }],
  ["orders_get", { order_id: "T-ACME" }],
  ["orders_get", { order_id: "O-ACME" }],
  ["refunds_create", { order_id: "O-ACME", amount: 400 }],
  ["refunds_create", { order_id: "O-ACME", amount: 40 }],
  ["tickets_find", { customer: "ACME" }],
  ["tickets_close", { ticket_id: "T-ACME", note: "refunded R-O-ACME" }],
];
