import { DistillError } from "../errors.ts";
import type { JsonSchema } from "../types.ts";

/** What a distilled tool module declares; `run` calls base tools only through `call`. */
export interface DistilledToolDefinition<Input = Record<string, unknown>, Result = unknown> {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  run(input: Input): Promise<Result>;
  check?: (result: Result) => boolean;
}

/**
 * Declares a distilled tool. Tool modules import it for types and editor help; the sandbox supplies its own
 * copy when it runs a module, so this one only hands the definition back.
 */
export function distilledTool<Input = Record<string, unknown>, Result = unknown>(
  definition: DistilledToolDefinition<Input, Result>,
): DistilledToolDefinition<Input, Result> {
  return definition;
}

/**
 * What a call does when its base tool answers a known business error instead of a result: each key names one
 * outcome of the executor's error contract (`conflict` 409, `notFound` 404, `gone` 410, `unprocessable` 422), each
 * value is an arrow function whose result stands for the call's (`() => call("<lookup>", {...})`) or that ends the
 * tool (`() => notApplicable("why")`). The host decides that an outcome applies, never the tool.
 */
export interface DeclaredOutcomes {
  // biome-ignore lint/suspicious/noExplicitAny: the handler stands for the call, whose result is any JSON.
  conflict?: () => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  notFound?: () => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  gone?: () => any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  unprocessable?: () => any;
}

/**
 * Calls a base tool from a distilled tool, with the business outcomes it declares (a literal object, read by the
 * static check). Only the sandbox can run it: a tool module imported directly would bypass verification, so this
 * copy refuses.
 */
export async function call(
  tool: string,
  _args?: Record<string, unknown>,
  _outcomes?: DeclaredOutcomes,
  // biome-ignore lint/suspicious/noExplicitAny: base tool results are whatever JSON the tool returns.
): Promise<any> {
  throw new DistillError(
    "USAGE",
    `call('${tool}') runs only inside the tooldistill sandbox: run distilled tools through trace.execute, not by importing them`,
  );
}

/**
 * Ends a distilled tool on purpose: the task is not one it can do ("no open ticket for this customer"). The agent
 * gets a plain answer telling it to go on with the base tools, and the tool's status does not change. Write
 * `return notApplicable("why")`; nothing after it runs. Only the sandbox can run it, like `call`.
 */
export function notApplicable(reason: string): never {
  throw new DistillError(
    "USAGE",
    `notApplicable(${JSON.stringify(reason)}) runs only inside the tooldistill sandbox: run distilled tools through trace.execute`,
  );
}
