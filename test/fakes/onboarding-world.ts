import type { Executor, ToolDef } from "../../core/types.ts";

/**
 * In-process fake IT-onboarding tools, issue 20's story. Reads (HR, directory lookup, catalog) are read-only;
 * writes: create an account (409 when one exists for the email), add to a group, order a laptop, send mail.
 * `mail_send` declares `idempotentHint: true` (it takes the message as its key) and is flaky: it answers 503 for
 * the next `mailFailures` sends. Errors carry their HTTP status as the executor's error contract reads it. Every
 * executed call is logged, writes in `writes` too.
 */
export interface OnboardingWorld {
  tools: ToolDef[];
  executor: Executor;
  log: { name: string; args: Record<string, unknown>; ok: boolean }[];
  /** Email → account; an account here makes directory_create_account answer 409. */
  accounts: Map<string, { id: string; email: string; name: string }>;
  groups: Map<string, Set<string>>;
  orders: { order_id: string; sku: string; ship_to: string }[];
  mails: { to: string; subject: string; body: string }[];
  mailFailures: number;
}

/** The writes of the world: the calls whose effects a re-verification must not repeat. */
export const WRITES: ReadonlySet<string> = new Set([
  "directory_create_account",
  "directory_add_to_group",
  "laptops_order",
  "mail_send",
]);

const READ_ONLY = { readOnlyHint: true };
const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object" as const,
  properties,
  required,
});

/** An error as an HTTP client library throws one: the status out of band, the text free. */
function httpError(status: number, message: string): Error {
  return Object.assign(new Error(message), { status });
}

/** The tool definitions (a fresh copy each time); `laptops_order` has an optional `priority` with a default. */
export function onboardingTools(): ToolDef[] {
  return [
    {
      name: "hr_get_hire",
      description: "Read a new hire's record from HR.",
      input_schema: obj({ hire_id: { type: "string" } }, ["hire_id"]),
      annotations: READ_ONLY,
    },
    {
      name: "directory_find_account",
      description: "Find a directory account by email.",
      input_schema: obj({ email: { type: "string" } }, ["email"]),
      annotations: READ_ONLY,
    },
    {
      name: "catalog_find_laptop",
      description: "Find a laptop in the catalog by model.",
      input_schema: obj({ model: { type: "string" } }, ["model"]),
      annotations: READ_ONLY,
    },
    {
      name: "directory_create_account",
      description: "Create a directory account.",
      input_schema: obj({ email: { type: "string" }, name: { type: "string" } }, ["email", "name"]),
    },
    {
      name: "directory_add_to_group",
      description: "Add an account to a group.",
      input_schema: obj({ account_id: { type: "string" }, group: { type: "string" } }, [
        "account_id",
        "group",
      ]),
    },
    {
      name: "laptops_order",
      description: "Order a laptop for a person.",
      input_schema: obj(
        {
          sku: { type: "string" },
          ship_to: { type: "string" },
          priority: { type: "string", enum: ["normal", "rush"], default: "normal" },
        },
        ["sku", "ship_to"],
      ),
    },
    {
      name: "mail_send",
      description: "Send an email (the message is its own idempotency key).",
      input_schema: obj({ to: { type: "string" }, subject: { type: "string" }, body: { type: "string" } }, [
        "to",
        "subject",
        "body",
      ]),
      annotations: { idempotentHint: true },
    },
  ];
}

/** Hires H-1 … H-5; `existing` lists the emails whose accounts were made already (a half-done onboarding). */
export function onboardingWorld(existing: readonly string[] = []): OnboardingWorld {
  const hires: Record<string, { name: string; email: string; team: string; laptop: string }> = {
    "H-1": { name: "Ana Lima", email: "ana@corp.example", team: "eng", laptop: "mbp-14" },
    "H-2": { name: "Ben Okafor", email: "ben@corp.example", team: "eng", laptop: "mbp-14" },
    "H-3": { name: "Cleo Park", email: "cleo@corp.example", team: "sales", laptop: "xps-13" },
    "H-4": { name: "Dev Shah", email: "dev@corp.example", team: "sales", laptop: "xps-13" },
    "H-5": { name: "Eva Rossi", email: "eva@corp.example", team: "eng", laptop: "mbp-14" },
  };
  const catalog: Record<string, string> = { "mbp-14": "LT-MBP14", "xps-13": "LT-XPS13" };
  const world: OnboardingWorld = {
    tools: onboardingTools(),
    log: [],
    accounts: new Map(),
    groups: new Map([
      ["eng", new Set()],
      ["sales", new Set()],
    ]),
    orders: [],
    mails: [],
    mailFailures: 0,
    executor: async (name, args) => {
      const entry = { name, args: structuredClone(args), ok: false };
      world.log.push(entry);
      const answer = run(name, args);
      entry.ok = true;
      return answer;
    },
  };
  let accountSeq = 0;
  const makeAccount = (email: string, name: string) => {
    const account = { id: `acct-${++accountSeq}`, email, name };
    world.accounts.set(email, account);
    return account;
  };
  for (const email of existing) {
    const hire = Object.values(hires).find((h) => h.email === email);
    makeAccount(email, hire?.name ?? email);
  }
  const run = (name: string, args: Record<string, unknown>): unknown => {
    const text = (k: string) => String(args[k]);
    switch (name) {
      case "hr_get_hire": {
        const hire = hires[text("hire_id")];
        if (!hire) throw httpError(404, `no hire ${text("hire_id")}`);
        return { hire_id: text("hire_id"), ...hire };
      }
      case "directory_find_account": {
        const account = world.accounts.get(text("email"));
        if (!account) throw httpError(404, `no account for ${text("email")}`);
        return account;
      }
      case "catalog_find_laptop": {
        const sku = catalog[text("model")];
        if (!sku) throw httpError(404, `no laptop model ${text("model")}`);
        return { model: text("model"), sku };
      }
      case "directory_create_account": {
        if (world.accounts.has(text("email")))
          throw httpError(409, `account ${text("email")} already exists`);
        return makeAccount(text("email"), text("name"));
      }
      case "directory_add_to_group": {
        const group = world.groups.get(text("group"));
        if (!group) throw httpError(404, `no group ${text("group")}`);
        group.add(text("account_id"));
        return { account_id: text("account_id"), group: text("group"), members: group.size };
      }
      case "laptops_order": {
        const order = {
          order_id: `ORD-${world.orders.length + 1}`,
          sku: text("sku"),
          ship_to: text("ship_to"),
        };
        world.orders.push(order);
        return order;
      }
      case "mail_send": {
        if (world.mailFailures > 0) {
          world.mailFailures--;
          throw httpError(503, "503 Service Unavailable: mail relay busy");
        }
        world.mails.push({ to: text("to"), subject: text("subject"), body: text("body") });
        return { message_id: `MSG-${world.mails.length}` };
      }
    }
    throw httpError(400, `no such tool ${name}`);
  };
  return world;
}

/** The discovery run for hire H-1 (whose account a failed earlier attempt made): trial and error, a 409, a retry. */
export const DISCOVERY: readonly [string, Record<string, unknown>][] = [
  ["hr_get_hire", { hire_id: "H-1" }],
  ["directory_find_account", { email: "ana.lima@corp.example" }],
  ["directory_create_account", { email: "ana@corp.example", name: "Ana Lima" }],
  ["directory_find_account", { email: "ana@corp.example" }],
  ["directory_add_to_group", { account_id: "acct-1", group: "engineering" }],
  ["directory_add_to_group", { account_id: "acct-1", group: "eng" }],
  ["catalog_find_laptop", { model: "MacBook Pro 14" }],
  ["catalog_find_laptop", { model: "mbp-14" }],
  ["laptops_order", { sku: "LT-MBP14", ship_to: "Ana Lima" }],
  ["mail_send", { to: "ana@corp.example", subject: "Welcome", body: "Welcome Ana Lima: laptop order ORD-1" }],
  ["mail_send", { to: "ana@corp.example", subject: "Welcome", body: "Welcome Ana Lima: laptop order ORD-1" }],
];

/** The tool the agent proposes: a 409 at the account is declared, and continues with the lookup. */
export const ONBOARD_HIRE = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "onboard_hire",
  description: "Onboard a new hire: directory account, team group, laptop, welcome mail.",
  inputSchema: { type: "object", properties: { hire_id: { type: "string" } }, required: ["hire_id"] },
  async run({ hire_id }) {
    const hire = await call("hr_get_hire", { hire_id });
    const account = await call("directory_create_account", { email: hire.email, name: hire.name }, {
      conflict: () => call("directory_find_account", { email: hire.email }),
    });
    await call("directory_add_to_group", { account_id: account.id, group: hire.team });
    const laptop = await call("catalog_find_laptop", { model: hire.laptop });
    const order = await call("laptops_order", { sku: laptop.sku, ship_to: hire.name });
    await call("mail_send", {
      to: hire.email,
      subject: "Welcome",
      body: \`Welcome \${hire.name}: laptop order \${order.order_id}\`,
    });
    return { account_id: account.id, order_id: order.order_id };
  },
  check: (result) => typeof result.account_id === "string" && typeof result.order_id === "string",
});
`;
