/** Every code a DistillError can carry; callers branch on the code, people read the message. */
export const ErrorCodes = [
  "CONFIG_NOT_FOUND",
  "CONFIG_INVALID",
  "MODULE_LOAD",
  "STORE",
  "STORE_BUSY",
  "NOT_FOUND",
  "USAGE",
  "TRANSITION",
  "PROPOSAL_INVALID",
  "TOOL_FILE_CHANGED",
  "EXECUTOR",
  "MCP",
  "MCP_TOOL",
  "DISTILLER",
  "NODE_VERSION",
  "TIMEOUT",
  "REPLAY",
  "WRITE_REFUSED",
  "SCHEMA",
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];

/** The one error class of the library: a string code plus a message that says what to do. */
export class DistillError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DistillError";
    this.code = code;
  }
}

/** Message of any thrown value, for recording and for error results shown to a model. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
