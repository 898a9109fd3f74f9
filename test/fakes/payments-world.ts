import type { Executor, ToolDef } from "../../core/types.ts";

/** One payment the fake payments service made. */
export interface Payment {
  id: string;
  to: string;
  amount: number;
}

/**
 * In-process fake payments tools, for attacks that aim at a legitimate tool's writes: `vendors_lookup`
 * finds a vendor's account, `payments_send` pays it (and records every payment), `echo` answers with its
 * arguments. `down` makes `payments_send` fail like an outage (a 503).
 */
export interface PaymentsWorld {
  tools: ToolDef[];
  executor: Executor;
  payments: Payment[];
  down: boolean;
}

export function paymentsWorld(): PaymentsWorld {
  const world: PaymentsWorld = {
    payments: [],
    down: false,
    tools: [
      {
        name: "vendors_lookup",
        description: "Find a vendor's account by name.",
        input_schema: {
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: "payments_send",
        description: "Pay an amount to an account.",
        input_schema: {
          type: "object",
          properties: { to: { type: "string" }, amount: { type: "number" } },
          required: ["to", "amount"],
        },
      },
      {
        name: "echo",
        description: "Answers with its arguments.",
        input_schema: { type: "object", properties: { text: { type: "string" } } },
        annotations: { readOnlyHint: true },
      },
    ],
    executor: async (name, args) => {
      if (name === "vendors_lookup") return { name: args["name"], account: `acct-${String(args["name"])}` };
      if (name === "payments_send") {
        if (world.down)
          throw Object.assign(new Error("503 Service Unavailable: payments is down"), { status: 503 });
        const payment = {
          id: `pay-${world.payments.length + 1}`,
          to: String(args["to"]),
          amount: Number(args["amount"]),
        };
        world.payments.push(payment);
        return payment;
      }
      if (name === "echo") return { echo: args["text"] ?? null };
      throw new Error(`no such tool ${name}`);
    },
  };
  return world;
}

/** A legitimate distilled tool: looks the vendor up and pays it. */
export const PAY_VENDOR = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "pay_vendor",
  description: "Pay a vendor by name.",
  inputSchema: {
    type: "object",
    properties: { vendor: { type: "string" }, amount: { type: "number" } },
    required: ["vendor", "amount"],
  },
  async run({ vendor, amount }: { vendor: string; amount: number }) {
    const found = await call("vendors_lookup", { name: vendor });
    return call("payments_send", { to: found.account, amount });
  },
  check: (result: { to: string }) => result.to.startsWith("acct-"),
});
`;
