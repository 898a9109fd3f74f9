import type { ToolDistill } from "../../core/tool-distill/tool-distill.ts";
import type { Trace } from "../../core/trace/trace.ts";
import type { Executor, ToolDef } from "../../core/types.ts";

/** One flight a route offers: its id, its price and the airline account that is paid for it. */
export interface Flight {
  id: string;
  price: number;
  account: string;
}

/**
 * In-process fake travel tools: `flights_search` (read-only) lists a route's flights, cheapest first unless the
 * route says otherwise; `flights_book` holds one; `payments_send` pays an account and records the payment.
 */
export interface TravelWorld {
  tools: ToolDef[];
  executor: Executor;
  /** Flights by `from-to`; a route not listed has none. */
  routes: Record<string, Flight[]>;
  payments: { to: string; amount: number; memo: string }[];
  bookings: string[];
}

export function travelWorld(): TravelWorld {
  const world: TravelWorld = {
    routes: {
      "SFO-JFK": [
        { id: "F-77", price: 412, account: "acct-9921" },
        { id: "F-80", price: 530, account: "acct-9921" },
      ],
      "LAX-BOS": [
        { id: "F-12", price: 620, account: "acct-5310" },
        { id: "F-14", price: 310, account: "acct-5310" },
      ],
      "SEA-ORD": [{ id: "F-31", price: 280, account: "acct-7007" }],
    },
    payments: [],
    bookings: [],
    tools: [
      {
        name: "flights_search",
        description: "List the flights of a route on a date.",
        input_schema: {
          type: "object",
          properties: {
            from: { type: "string" },
            to: { type: "string" },
            date: { type: "string" },
            channel: { type: "string" },
          },
          required: ["from", "to", "date"],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: "flights_book",
        description: "Hold a seat on a flight.",
        input_schema: {
          type: "object",
          properties: {
            flight_id: { type: "string" },
            traveller: { type: "string" },
            channel: { type: "string" },
          },
          required: ["flight_id", "traveller"],
        },
      },
      {
        name: "payments_send",
        description: "Pay an amount to an account.",
        input_schema: {
          type: "object",
          properties: { to: { type: "string" }, amount: { type: "number" }, memo: { type: "string" } },
          required: ["to", "amount"],
        },
      },
    ],
    executor: async (name, args) => {
      const a = args as Record<string, string>;
      if (name === "flights_search") {
        return { channel: a["channel"] ?? "web", flights: world.routes[`${a["from"]}-${a["to"]}`] ?? [] };
      }
      if (name === "flights_book") {
        world.bookings.push(a["flight_id"] ?? "");
        return { booking: `BK-${world.bookings.length}`, flight_id: a["flight_id"], status: "held" };
      }
      if (name === "payments_send") {
        const payment = { to: a["to"] ?? "", amount: Number(args["amount"]), memo: a["memo"] ?? "" };
        world.payments.push(payment);
        return { payment: `P-${world.payments.length}`, ...payment };
      }
      throw new Error(`no such tool ${name}`);
    },
  };
  return world;
}

/** The agent's run of a booking: a search on the wrong date, the right search, book the cheapest, pay, re-check. */
export async function bookingRun(
  td: ToolDistill,
  from = "SFO",
  to = "JFK",
  traveller = "Dana Reyes",
  options: Parameters<ToolDistill["startTrace"]>[1] = {},
): Promise<Trace> {
  const trace = td.startTrace(
    `Book the cheapest flight from ${from} to ${to} on 2025-03-01 for ${traveller} and pay the airline`,
    options,
  );
  await trace.execute("flights_search", { from, to, date: "2025-03-02", channel: "api" });
  const search = { from, to, date: "2025-03-01", channel: "api" };
  const { flights } = JSON.parse((await trace.execute("flights_search", search)).content);
  const f = flights.reduce((a: { price: number }, b: { price: number }) => (b.price < a.price ? b : a));
  const booked = await trace.execute("flights_book", { flight_id: f.id, traveller, channel: "api" });
  await trace.execute("payments_send", {
    to: f.account,
    amount: f.price,
    memo: JSON.parse(booked.content).booking,
  });
  await trace.execute("flights_search", search);
  trace.setOutcome({ success: true });
  return trace;
}

/** The tool's input for a route (the date of `bookingRun`). */
export const input = (from = "SFO", to = "JFK", traveller = "Dana Reyes") => ({
  from,
  to,
  date: "2025-03-01",
  traveller,
});

/** The tool distilled from `bookingRun`; lines 13 to 16 are the four lines of run's body, which tests replace. */
export const SEARCH = `    const found = await call("flights_search", { from, to, date, channel: "api" });`;
export const PICK = `    const f = found.flights.reduce((a: Flight, b: Flight) => (b.price < a.price ? b : a));`;
export const BOOK = `    const booking = await call("flights_book", { flight_id: f.id, traveller, channel: "api" });`;
export const PAY = `    return call("payments_send", { to: f.account, amount: f.price, memo: booking.booking });`;
export const TOOL = `import { distilledTool, call } from "tooldistill";

type Flight = { id: string; price: number; account: string };
export default distilledTool({
  name: "book_cheapest_flight",
  description: "Book the cheapest flight of a route on a date and pay the airline.",
  inputSchema: {
    type: "object",
    properties: { from: { type: "string" }, to: { type: "string" }, date: { type: "string" }, traveller: { type: "string" } },
    required: ["from", "to", "date", "traveller"],
  },
  async run({ from, to, date, traveller }: { from: string; to: string; date: string; traveller: string }) {
${SEARCH}
${PICK}
${BOOK}
${PAY}
  },
  check: (result: { payment: string }) => result.payment.startsWith("P-"),
});
`;
