/**
 * The host's side of `call(name, argsJSON)`: every base call a tool's code asks for is checked here (the call cap,
 * the allowlist, the size of its arguments, their shape), recorded in the run's own list of calls, and, once
 * dispatched, run on the host with its result checked (JSON, size) before the guest sees it. The guest's word is
 * never taken: what it sent is parsed here, and what went wrong is decided here.
 */
import { classifyBaseFailure } from "../base-tools/base-failure.ts";
import { DistillError, errorMessage } from "../errors.ts";
import { declaredOutcomeFor } from "../trace/declared-outcomes.ts";
import { dangerousKeyProblem, isPlainObject } from "../util/canonical.ts";
import { clip } from "../util/text.ts";
import type { CallSite } from "../verify/call-sites.ts";
import { MAX_ERROR_CHARS, MAX_NAME_CHARS } from "./sandbox-failures.ts";
import { OUTCOME_TAG } from "./sandbox-guest.ts";
import type { SandboxCall, SandboxFailure, SandboxLimits, SandboxRunRequest } from "./types.ts";

/** A call the gate let through, to be dispatched after the slice that asked for it. */
export interface AdmittedCall {
  call: SandboxCall;
  step: number;
}

/** Checks, records and runs the base calls of one run. */
export class CallGate {
  /** Every call asked for, in order, with its outcome: the run's record. */
  readonly calls: SandboxCall[] = [];
  readonly #limits: Pick<SandboxLimits, "maxCalls" | "maxMessageBytes">;
  readonly #allow: Set<string>;
  readonly #sites: readonly CallSite[] | undefined;

  constructor(
    limits: Pick<SandboxLimits, "maxCalls" | "maxMessageBytes">,
    req: Pick<SandboxRunRequest, "allow" | "sites">,
  ) {
    this.#limits = limits;
    this.#allow = new Set(req.allow);
    this.#sites = req.sites;
  }

  /**
   * One call the code asked for, from the JSON texts the guest handed over (null: not a string) and the id of
   * the call site the host found in the caller's stack (null: none it could trust). Returns the admitted call, or
   * the failure that stops the run (the call is recorded either way).
   */
  admit(
    nameJson: string | null,
    argsJson: string | null,
    site: number | null,
  ): AdmittedCall | SandboxFailure {
    const step = this.calls.length + 1;
    const rawName = nameJson === null ? null : parseString(nameJson);
    if (rawName === null) {
      return { kind: "code_error", cause: "tool", message: `call ${step}: the tool name must be a string` };
    }
    const name = clip(rawName, MAX_NAME_CHARS);
    const entry: SandboxCall = { tool: name, args: {}, ok: false };
    const bytes = argsJson === null ? 0 : Buffer.byteLength(argsJson);
    const max = this.#limits.maxMessageBytes;
    const args = argsJson === null || bytes > max ? null : parsePlainObject(argsJson);
    // The record keeps what was asked for, run or not.
    if (args !== null) entry.args = args;
    const refuse = (failure: Omit<SandboxFailure, "step" | "tool">, error: string): SandboxFailure => {
      entry.error = error;
      this.calls.push(entry);
      return { ...failure, step, tool: name };
    };
    if (this.#sites !== undefined) {
      // The site is the host's reading of the stack the prelude took inside `call` (sandbox-sites.ts): a call
      // it could not place, or placed at a site of another tool, could mark a site covered that never ran.
      const known = site !== null && Number.isInteger(site) ? this.#sites[site - 1] : undefined;
      if (known === undefined || known.id !== site || (known.tool !== null && known.tool !== rawName)) {
        const message = `call ${step} to '${name}' did not come from a call site of the tool's code: call base tools directly: call("<base tool>", {...})`;
        return refuse(
          { kind: "code_error", cause: "tool", message },
          "not run: no call site of the code made it",
        );
      }
      entry.site = known.id;
    }
    if (step > this.#limits.maxCalls) {
      const message = `the tool made more than ${this.#limits.maxCalls} base calls and was stopped`;
      return refuse(
        { kind: "call_limit", cause: "tool", message },
        `not run: more than ${this.#limits.maxCalls} base calls`,
      );
    }
    if (!this.#allow.has(rawName)) {
      const allowed = [...this.#allow].map((t) => `'${t}'`).join(", ") || "none";
      const message = `call ${step} to '${name}' is not allowed: this tool may call only ${allowed}`;
      return refuse(
        { kind: "not_allowed", cause: "tool", message },
        `not allowed: this tool may call only ${allowed}`,
      );
    }
    if (bytes > max) {
      const message = `the arguments of call ${step} to '${name}' are ${bytes} bytes, more than the ${max}-byte limit`;
      return refuse(
        { kind: "message_limit", cause: "tool", message },
        `not run: its arguments are ${bytes} bytes, more than the ${max}-byte limit`,
      );
    }
    if (args === null) {
      const message = `call ${step} to '${name}': the arguments must be a JSON object`;
      return refuse(
        { kind: "code_error", cause: "tool", message },
        "not run: its arguments are not a JSON object",
      );
    }
    // What is dispatched is what is matched and recorded: a key that canonical forms or the receiver could treat
    // as a prototype never goes out (canonical.ts says which).
    const dangerous = dangerousKeyProblem(args);
    if (dangerous !== null) {
      const message = `call ${step} to '${name}': ${dangerous}`;
      return refuse({ kind: "code_error", cause: "tool", message }, `not run: ${dangerous}`);
    }
    this.calls.push(entry);
    return { call: entry, step };
  }
}

/**
 * Runs an admitted call on the host (the main thread: the engine's worker only asks). Returns the result's JSON
 * text for the guest, or the failure (a base tool that could not answer is `infrastructure`; one that refused the
 * call is evidence against the tool). A failure with an outcome the call's site declared (`outcomes`, the host's
 * record of that site from the parse, never what the guest passed) returns OUTCOME_TAG and the outcome's name
 * instead, which the prelude's `parse` turns into the signal to run that site's handler.
 */
export async function performCall(
  host: SandboxRunRequest["call"],
  limits: Pick<SandboxLimits, "maxMessageBytes">,
  { call, step }: AdmittedCall,
  outcomes?: readonly string[],
): Promise<{ json: string } | SandboxFailure> {
  let output: unknown;
  try {
    output = await host(call.tool, call.args);
  } catch (err) {
    // A base tool's error text can be anything (a whole page, megabytes): it goes into messages clipped.
    call.error = clip(errorMessage(err), MAX_ERROR_CHARS);
    // Decided from out-of-band signals only (base-failure.ts): the message may echo what the tool sent.
    const classified = classifyBaseFailure(err);
    const declared = declaredOutcomeFor(classified.kind, outcomes);
    if (declared !== null) {
      call.outcome = declared;
      return { json: `${OUTCOME_TAG}${declared}` };
    }
    const cause = classified.kind === "infrastructure" ? "infrastructure" : "tool";
    const failure: SandboxFailure = {
      kind: "call_failed",
      cause,
      message: call.error,
      step,
      tool: call.tool,
    };
    if (err instanceof DistillError) failure.errorCode = err.code;
    return failure;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch (err) {
    call.error = `its result is not JSON-serialisable: ${errorMessage(err)}`;
    return {
      kind: "call_failed",
      cause: "infrastructure",
      message: `base tool '${call.tool}' returned a value that is not JSON-serialisable: ${errorMessage(err)}`,
      step,
      tool: call.tool,
    };
  }
  json ??= "null";
  const bytes = Buffer.byteLength(json);
  const max = limits.maxMessageBytes;
  if (bytes > max) {
    call.error = `its result is ${bytes} bytes, more than the ${max}-byte limit`;
    // The tool chose the arguments that got this answer (a page size, a wide query): it counts against the tool.
    return {
      kind: "message_limit",
      cause: "tool",
      message: `the result of call ${step} to '${call.tool}' is ${bytes} bytes, more than the ${max}-byte limit`,
      step,
      tool: call.tool,
    };
  }
  call.ok = true;
  call.output = JSON.parse(json);
  return { json };
}

/** Longest not-applicable reason kept: the agent reads it, so it is clipped like an error text. */
const MAX_REASON_CHARS = 1000;

/** The reason of `notApplicable(...)` from the JSON text the prelude sent (anything else is no reason given). */
export function readReason(json: string | null): string {
  const value = json === null ? null : parseString(json);
  return clip(value?.trim() || "no reason given", MAX_REASON_CHARS);
}

/** True for a failure, false for what `admit` or `perform` let through. */
export function isFailure(value: object): value is SandboxFailure {
  return "kind" in value && "cause" in value;
}

function parseString(json: string): string | null {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

function parsePlainObject(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}
