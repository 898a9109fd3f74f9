/**
 * Call-site coverage: every `call(...)` of a tool's code must have made a call in a replay that passed, so no
 * branch that calls a base tool reaches agents without having run once against a recorded answer. Which site made
 * each call is the host's record (the instrumented code passes the site's id, the host checks it), never the code's.
 */

import type { Problem, VerdictEvidence } from "../types.ts";
import type { CallSite } from "./call-sites.ts";

/**
 * The sites that ran in a replay that passed (`ran`) and those that did not, and one problem per site that never
 * ran. A site in `reached` made a call in a replay that failed: it is not covered, but it did run, and the
 * evidence says so instead of "never ran".
 */
export function siteCoverage(
  sites: readonly CallSite[],
  ran: Iterable<number>,
  reached: Iterable<number> = [],
): { callSites: NonNullable<VerdictEvidence["callSites"]>; problems: Problem[] } {
  const covered = new Set(ran);
  const inFailed = new Set(reached);
  const uncovered = sites.filter((s) => !covered.has(s.id));
  return {
    callSites: {
      covered: sites.length - uncovered.length,
      total: sites.length,
      uncovered: uncovered.map((s) => ({
        line: s.line,
        tool: s.tool,
        ...(inFailed.has(s.id) ? { inFailedReplay: true as const } : {}),
      })),
    },
    problems: uncovered.map((s) => ({
      rule: "call-site-not-covered",
      line: s.line,
      token: s.tool ?? "call",
      message: `call to '${s.tool ?? "?"}' never ran in replay: give a test input from a recorded run that takes this path, or remove it`,
    })),
  };
}
