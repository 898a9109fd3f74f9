/**
 * What a version's history says about the runtime failures that made it suspect: their causes and the base tools
 * they failed at. Each demotion records its failures as evidence (`failures`; an older build recorded one
 * `failure`); a failure recorded before causes existed gets the cause its error text gives. Pure.
 */
import type { FailureCause } from "../sandbox/types.ts";
import type { HistoryRecord } from "../store/records.ts";

/** One runtime failure as the history recorded it. */
export interface RecordedFailure {
  cause: FailureCause;
  /** The base tool whose call failed, or null (the tool's own code failed). */
  tool: string | null;
}

/** The runtime failures recorded since the version was last active; empty when there are none. */
export function recordedFailures(history: readonly HistoryRecord[]): RecordedFailure[] {
  const lastActive = history.findLastIndex((h) => h.to === "active");
  const out: RecordedFailure[] = [];
  for (const h of history.slice(lastActive + 1)) {
    const e = h.evidence as { failures?: unknown; failure?: unknown } | null;
    if (e === null || typeof e !== "object") continue;
    const failures = Array.isArray(e.failures) ? e.failures : e.failure ? [e.failure] : [];
    for (const f of failures as { cause?: unknown; message?: unknown; tool?: unknown }[]) {
      const tool = typeof f.tool === "string" ? f.tool : null;
      if (f.cause === "tool" || f.cause === "infrastructure" || f.cause === "host") {
        out.push({ cause: f.cause, tool });
        continue;
      }
      const text = typeof f.message === "string" ? f.message : "";
      out.push({ cause: LEGACY_OUTAGE_TEXT.test(text) ? "infrastructure" : "tool", tool });
    }
  }
  return out;
}

/**
 * How an older tooldistill told an outage from its text, kept only to read the evidence it recorded without a
 * cause. Every failure recorded now carries the cause the host decided from out-of-band signals
 * (base-failure.ts), so this text never decides anything about a new failure.
 */
const LEGACY_OUTAGE_TEXT =
  /\b(50[0-4]|429|408)\b|service unavailable|bad gateway|gateway time-?out|too many requests|rate.?limit|\btimed out\b|request timeout|socket hang up|connection (?:closed|reset|refused|lost)|not connected|fetch failed|server (?:gone|exited|closed|unavailable)|unavailable|\bis down\b|\boutage\b|message too large|payload too large/i;
