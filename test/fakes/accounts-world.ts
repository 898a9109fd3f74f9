import type { Executor, ToolDef } from "../../core/types.ts";

/**
 * In-process fake IT-onboarding tools for the recovery stories: HR lookups are read-only; creating an account and
 * adding it to a group may write. Creating an account that exists answers 409, as a directory API does. Every
 * executed call is logged.
 */
export interface AccountsWorld {
  tools: ToolDef[];
  executor: Executor;
  log: { name: string; args: Record<string, unknown> }[];
  /** Accounts by email. */
  accounts: Set<string>;
}

const obj = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object" as const,
  properties,
  required,
});

/** A fresh world with hires E1 to E5 in HR and no accounts. */
export function accountsWorld(): AccountsWorld {
  const world: AccountsWorld = {
    tools: [
      {
        name: "hr_lookup",
        description: "Read a hire from HR.",
        input_schema: obj({ employee_id: { type: "string" } }, ["employee_id"]),
        annotations: { readOnlyHint: true },
      },
      {
        name: "accounts_create",
        description: "Create a directory account.",
        input_schema: obj({ email: { type: "string" }, name: { type: "string" } }, ["email", "name"]),
      },
      {
        name: "groups_add",
        description: "Add an account to a group.",
        input_schema: obj({ email: { type: "string" }, group: { type: "string" } }, ["email", "group"]),
      },
    ],
    log: [],
    accounts: new Set(),
    executor: async (name, args) => {
      world.log.push({ name, args });
      const a = args as Record<string, string>;
      switch (name) {
        case "hr_lookup": {
          const id = a["employee_id"] ?? "";
          if (!/^E\d$/.test(id)) throw Object.assign(new Error(`404 no hire ${id}`), { status: 404 });
          return { email: `${id.toLowerCase()}@example.com`, name: `Hire ${id}`, team: "eng" };
        }
        case "accounts_create": {
          const email = a["email"] ?? "";
          if (world.accounts.has(email)) {
            throw Object.assign(new Error(`409 account ${email} already exists`), { status: 409 });
          }
          world.accounts.add(email);
          return { email, created: true };
        }
        case "groups_add":
          return { email: a["email"], group: a["group"], added: true };
        default:
          throw new Error(`unknown tool ${name}`);
      }
    },
  };
  return world;
}

/** The distilled tool of the stories: look the hire up, create the account, add it to the team's group. */
export const ONBOARD_TOOL = `import { distilledTool, call } from "tooldistill";

export default distilledTool({
  name: "onboard_hire",
  description: "Create the directory account of a new hire and add it to the team's group.",
  inputSchema: { type: "object", properties: { employee_id: { type: "string" } }, required: ["employee_id"] },
  async run({ employee_id }: { employee_id: string }) {
    const hire = await call("hr_lookup", { employee_id });
    const account = await call("accounts_create", { email: hire.email, name: hire.name });
    await call("groups_add", { email: account.email, group: hire.team });
    return account;
  },
});
`;

/** The agent's discovery run for E1: 6 top-level base calls, two of them wrong. */
export const ONBOARD_RUN: [string, Record<string, unknown>][] = [
  ["hr_lookup", { employee_id: "e1" }],
  ["hr_lookup", { employee_id: "E1" }],
  ["accounts_create", { email: "e1@example.com", name: "Hire E1" }],
  ["groups_add", { email: "e1@example.com", group: "eng" }],
  ["hr_lookup", { employee_id: "E1" }],
  ["hr_lookup", { employee_id: "E1" }],
];
