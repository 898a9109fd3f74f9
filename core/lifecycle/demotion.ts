/**
 * The demotion rule: when runtime failures of a distilled tool's own making are enough evidence to take it out of
 * use. One failure is a data point, not a verdict, unless the tool has not proved itself yet. Failures caused by a
 * base tool's outage (`infrastructure`) or the host's load (`host`) are no evidence at all: they are not counted,
 * not even as runs. Pure: outcomes in, a decision out.
 */
import type { DemotionRule } from "../config/settings.ts";
import type { RunOutcome } from "../store/records.ts";

/** Outcomes that say something about the tool, and so take a place in the rule's window. */
export const EVIDENCE_OUTCOMES: readonly RunOutcome[] = ["ok", "declared", "not_applicable", "tool"];

/** What the rule decided after a tool-caused failure, and why, in words for history and the agent. */
export interface DemotionDecision {
  demote: boolean;
  reason: string;
}

/**
 * Decides on the runs the rule looks at (`recent`: the newest evidence outcomes, newest first, the failure that
 * just happened included) and the tool's successful runs so far.
 */
export function decideDemotion(
  rule: DemotionRule,
  recent: readonly RunOutcome[],
  successes: number,
): DemotionDecision {
  const window = recent.slice(0, rule.window);
  const failures = window.filter((o) => o === "tool").length;
  const tally = `${failures} failure${failures === 1 ? "" : "s"} of its own in its last ${window.length} run${window.length === 1 ? "" : "s"}`;
  if (successes < rule.probation) {
    return {
      demote: true,
      reason: `it failed with only ${successes} successful run${successes === 1 ? "" : "s"} (fewer than the ${rule.probation} of demotion.probation)`,
    };
  }
  if (failures >= rule.failures) {
    return { demote: true, reason: `${tally} (demotion: ${rule.failures} in ${rule.window})` };
  }
  return {
    demote: false,
    reason: `${tally}; it is demoted at ${rule.failures} in ${rule.window} (demotion setting)`,
  };
}
