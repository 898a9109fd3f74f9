/**
 * Failures that are evidence about the caller, not the distilled tool. A tool that passes its input straight on
 * to a base tool cannot know whether the CRM knows that id: when the base tool refuses it, the caller gave an
 * input the base tool refuses, and a proven tool must not be demoted because another agent called it with bad
 * ids. The same holds for an input so large that passing it on exceeds the message limit of a base call. Pure:
 * the run's input, its failure and its calls in; who the failure is about out.
 *
 * "Passed straight through": a value is from the input when it is deep-equal to the input or to a value anywhere
 * in it (a property value, an array item, at any depth), or when it is a non-empty object or array all of whose
 * members are from the input. A refused call is the caller's only when every one of its arguments is from the
 * input: an argument the tool computed, looked up or wrote as a literal makes the refusal the tool's, as before.
 */

import type { SandboxCall, SandboxFailure } from "../sandbox/types.ts";
import { isPlainObject, stableStringify } from "../util/canonical.ts";

/** A failure attributed to the caller's input: the base tool and what of the input it refused, in words. */
export interface CallerAttribution {
  tool: string;
  /** The arguments of the refused call, every one passed straight through from the input (empty: its size). */
  arguments: string[];
  /** For the agent and `show`: what was refused and what to do. */
  message: string;
}

/**
 * Who a failed run's failure is about, when it is the caller: a base tool's refusal (a `call_failed` the host did
 * not raise itself, not an outage) of a call whose every argument came straight from `input`, or arguments over
 * the message limit (`maxMessageBytes`) when the input alone is larger than it. Null otherwise: the tool's.
 */
export function callerAttribution(
  input: Record<string, unknown>,
  failure: SandboxFailure,
  calls: readonly SandboxCall[],
  maxMessageBytes: number,
): CallerAttribution | null {
  if (failure.cause !== "tool" || failure.step === undefined || failure.tool === undefined) return null;
  const tool = failure.tool;
  if (failure.kind === "message_limit") {
    const bytes = Buffer.byteLength(JSON.stringify(input));
    if (bytes <= maxMessageBytes) return null;
    return {
      tool,
      arguments: [],
      message: `the input is ${bytes} bytes, more than the ${maxMessageBytes}-byte limit of one call's arguments, so the call to base tool '${tool}' could not be made: call the tool with a smaller input`,
    };
  }
  // A failure the host raised itself (a schema mismatch, an unknown tool, its own timeout) is not a refusal.
  if (failure.kind !== "call_failed" || failure.errorCode !== undefined) return null;
  const call = calls[failure.step - 1];
  if (!call || call.tool !== tool) return null;
  const keys = Object.keys(call.args);
  if (keys.length === 0) return null;
  const values = inputValues(input);
  if (!keys.every((k) => fromInput(call.args[k], values))) return null;
  const named = keys.map((k) => `'${k}'`).join(", ");
  return {
    tool,
    arguments: keys,
    message: `the input was refused by base tool '${tool}' for argument${keys.length === 1 ? "" : "s"} ${named} (passed straight through from this call's input): check the input and call the tool again with one the base tool accepts`,
  };
}

/** What the agent reads after the error: whose failure it is, and that the tool stays. */
export function callerConsequence(c: CallerAttribution): string {
  return `This failure is about the input, not the distilled tool, so the tool stays available: ${c.message}.`;
}

/** What a `caller` run records besides the failure's evidence (what `show` explains). */
export function callerEvidence(c: CallerAttribution): { tool: string; arguments: string[]; message: string } {
  return { tool: c.tool, arguments: c.arguments, message: c.message };
}

/** Every value in `input`, itself included, as stable JSON. */
function inputValues(input: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (value: unknown): void => {
    out.add(stableStringify(value));
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (isPlainObject(value)) for (const member of Object.values(value)) visit(member);
  };
  visit(input);
  return out;
}

/** Whether `value` was passed straight through from the input (see the module's comment). */
function fromInput(value: unknown, values: ReadonlySet<string>): boolean {
  if (values.has(stableStringify(value))) return true;
  const members = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : null;
  return members !== null && members.length > 0 && members.every((m) => fromInput(m, values));
}
