/**
 * What is stored of a call's outcome: the one rule both the registry's tables (tables/calls.ts) and the synchronous
 * Store the hooks record through apply. A leaf, so a hook bundle that records calls carries none of the tables.
 */
import type { BaseFailureClass } from "../base-tools/base-failure.ts";
import { recordableError, recordableOutput } from "../trace/recordable.ts";
import type { CallRecord } from "../types.ts";
import type { CallOutcome, NewCall } from "./records.ts";

/** The columns a new call is stored with: its status, what is kept of its outcome, and what was clipped. */
export interface RecordedOutcome {
  status: CallRecord["status"];
  output: string | null;
  error: string | null;
  note: string | null;
  clipped: boolean;
  failure: BaseFailureClass | null;
}

function joinNotes(...notes: (string | null)[]): string | null {
  const kept = notes.filter((n): n is string => n !== null && n !== "");
  return kept.length === 0 ? null : kept.join("; ");
}

/**
 * What is stored of a new call's outcome (none yet: started): outputs and errors clipped at `maxOutputBytes`,
 * the call's note saying so. Every registry store records calls through this.
 */
export function recordedOutcome(
  call: NewCall,
  outcome: CallOutcome | null,
  maxOutputBytes: number,
): RecordedOutcome {
  const status: CallRecord["status"] = outcome === null ? "started" : "output" in outcome ? "ok" : "error";
  const out =
    outcome !== null && "output" in outcome ? recordableOutput(outcome.output, maxOutputBytes) : null;
  const err = outcome !== null && "error" in outcome ? recordableError(outcome.error, maxOutputBytes) : null;
  return {
    status,
    output: out?.text ?? null,
    error: err?.text ?? null,
    note: joinNotes(call.note ?? null, out?.note ?? null, err?.note ?? null),
    clipped: out?.clipped ?? false,
    failure: (outcome !== null && "error" in outcome ? outcome.failure : undefined) ?? null,
  };
}
