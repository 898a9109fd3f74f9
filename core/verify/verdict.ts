/**
 * The verdict of verification in all its forms: the proposal it answers (parsed here), the shape built from a
 * check report, one line for logs and history, the text a model reads and the report a person reads. One shape
 * for `propose_distilled_tool`, `verify`, `rebuild` and a distiller's retry.
 */

import type { Proposal } from "../distill/distiller.ts";
import { PROPOSE_TOOL_NAME } from "../distill/prompts.ts";
import { DistillError } from "../errors.ts";
import type { VersionRecord } from "../store/records.ts";
import {
  type CheckResult,
  NO_EVIDENCE,
  type Problem,
  type Status,
  type Verdict,
  type VerdictEvidence,
} from "../types.ts";
import { dangerousKeyProblem, isPlainObject } from "../util/canonical.ts";
import { boundedText } from "./proposal-limits.ts";
import type { CheckReport, TestInput } from "./types.ts";

/** The three checks, in the order they run (a failed one stops the next). */
const CHECK_ORDER = ["static", "replay", "efficiency"] as const;

/** What history records when a version passes: the checks in order, every one passed. */
export const ALL_CHECKS_PASSED = "all checks passed";

/** An evidence block with nothing measured yet. */
export function noEvidence(): VerdictEvidence {
  return { ...NO_EVIDENCE, writes: [] };
}

/** The evidence block as lines for a model or a person: only the parts that were measured. */
export function evidenceLines(e: VerdictEvidence): string[] {
  const lines: string[] = [];
  if (e.callSites) {
    lines.push(`call sites covered: ${e.callSites.covered}/${e.callSites.total}`);
    for (const u of e.callSites.uncovered) {
      const what = u.inFailedReplay ? "ran only in a replay that failed" : "never ran";
      lines.push(`  ${what}: line ${u.line}${u.tool ? ` (${u.tool})` : ""}`);
    }
  }
  if (e.literals) {
    lines.push(`literals checked: ${e.literals.checked}`);
    for (const w of e.literals.warned) lines.push(`  warned: ${w}`);
  }
  if (e.runs) {
    lines.push(
      `reproduces ${e.runs.reproduced} of ${e.runs.total} recorded run${e.runs.total === 1 ? "" : "s"}`,
    );
    for (const r of e.runs.notReproduced) lines.push(`  not reproduced: ${r.trace}: ${r.why}`);
  }
  if (e.writes.length) lines.push(`tools that may write: ${e.writes.join(", ")}`);
  if (e.promotion) lines.push(`promotion: ${e.promotion}`);
  return lines;
}

/** One problem as text: `line 5: call to 'x' — no such base tool` (no prefix without a line). */
export function formatProblem(p: Problem): string {
  return p.line === undefined ? p.message : `line ${p.line}: ${p.message}`;
}

/**
 * Reads one `test_inputs` entry: `{ trace, input }` names another recorded run (any entry with a `trace` key is
 * read so, which is how an input that has a `trace` property of its own is given); anything else is the input
 * itself, replayed against the source run. Returns the problem as text when the entry is neither.
 */
export function readTestInput(entry: unknown, index: number): TestInput | string {
  if (!isPlainObject(entry)) return `test_inputs[${index}] must be an input object`;
  const read = readEntry(entry);
  if (read === null) {
    return `test_inputs[${index}] has a 'trace' key, so it must be { "trace": "<id of a recorded run>", "input": { ...the tool's input } } and nothing else`;
  }
  // A caller's input with such a key is refused at run time (trace.ts), so no test input may have one.
  const dangerous = dangerousKeyProblem(read.input);
  if (dangerous !== null)
    return `test_inputs[${index}]: ${dangerous.replace("the arguments have", "the input has")}`;
  return read;
}

function readEntry(entry: Record<string, unknown>): TestInput | null {
  if (!Object.hasOwn(entry, "trace")) return { input: entry, trace: null };
  const { trace, input } = entry;
  const extra = Object.keys(entry).filter((k) => k !== "trace" && k !== "input");
  if (typeof trace !== "string" || trace === "" || !isPlainObject(input) || extra.length > 0) return null;
  return { input, trace };
}

/** The test inputs of a stored version or a proposal, read with `readTestInput`; an unreadable one throws. */
export function testInputsOf(entries: readonly unknown[]): TestInput[] {
  return entries.map((entry, i) => {
    const read = readTestInput(entry, i);
    if (typeof read === "string") throw new DistillError("PROPOSAL_INVALID", read);
    return read;
  });
}

/** The proposal in a `propose_distilled_tool` input, or every problem of its shape in one line. */
export function readProposal(input: unknown): Proposal | string {
  if (!isPlainObject(input)) return "the proposal must be an object { code, test_inputs }";
  const problems: string[] = [];
  const code = input["code"];
  const tests = input["test_inputs"];
  if (typeof code !== "string" || code.trim() === "")
    problems.push("'code' must be the whole TypeScript module as a string");
  if (!Array.isArray(tests)) {
    problems.push("'test_inputs' must be an array of input objects taken from this run");
  } else {
    for (const [i, entry] of tests.entries()) {
      const read = readTestInput(entry, i);
      if (typeof read === "string") problems.push(read);
    }
  }
  const unknown = Object.keys(input).filter((k) => k !== "code" && k !== "test_inputs");
  if (unknown.length)
    problems.push(
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `'${k}'`).join(", ")}: a proposal has only code and test_inputs`,
    );
  if (problems.length) return `invalid proposal: ${problems.join("; ")}`;
  return { code: code as string, test_inputs: tests as Record<string, unknown>[] };
}

/** Like `readProposal`, throwing DistillError("PROPOSAL_INVALID") with the problems. */
export function parseProposal(input: unknown): Proposal {
  const read = readProposal(input);
  if (typeof read === "string") throw new DistillError("PROPOSAL_INVALID", read);
  return read;
}

/** The verdict shape, from a stored version and the report of its checks. */
export function toVerdict(v: VersionRecord, status: Status, report: CheckReport): Verdict {
  return {
    name: v.name,
    version: v.version,
    status,
    checks: report.checks,
    calls: report.calls,
    baseline: report.baseline,
    limit: report.limit,
    liveCalls: report.liveCalls,
    evidence: report.evidence,
  };
}

/** The verdict of a proposal refused before it became a version (nothing was stored). */
export function rejectedVerdict(name: string, message: string): Verdict {
  const notRun = { ok: false, problems: [{ rule: "not-run", message: "not run: the proposal was refused" }] };
  return {
    name,
    version: 0,
    status: "rejected",
    checks: {
      static: { ok: false, problems: [{ rule: "proposal-refused", message }] },
      replay: notRun,
      efficiency: notRun,
    },
    calls: null,
    baseline: null,
    limit: null,
    liveCalls: [],
    evidence: noEvidence(),
  };
}

/** A one-line reason for logs and history evidence. */
export function reportSummary(report: Pick<CheckReport, "checks">): string {
  for (const key of CHECK_ORDER) {
    const c = report.checks[key];
    if (!c.ok) return `${key} check failed: ${c.problems.map((p) => p.message).join("; ")}`;
  }
  return ALL_CHECKS_PASSED;
}

/**
 * The outcome line, every problem, the call arithmetic, the live calls and (unless `evidence` is false) the
 * evidence block: shared by both text forms.
 */
function verdictBody(
  v: Verdict,
  evidence = true,
): { failed: (typeof CHECK_ORDER)[number] | undefined; lines: string[] } {
  const failed = CHECK_ORDER.find((k) => !v.checks[k].ok);
  const lines = [
    failed
      ? `rejected: ${v.name} v${v.version}: ${failed} check failed`
      : `verified: ${v.name} v${v.version}`,
  ];
  // Checks after the first failed one did not run: their "not run" notes would only repeat the failure.
  for (const key of CHECK_ORDER) {
    lines.push(...problemLines(v.checks[key]));
    if (key === failed) break;
  }
  if (v.calls !== null && v.baseline !== null && v.limit !== null) {
    const factor = v.baseline === 0 ? "" : ` × ${num(v.limit / v.baseline)}`;
    lines.push(`${v.calls} base calls; limit ${num(v.limit)} (baseline ${num(v.baseline)}${factor})`);
  }
  if (v.liveCalls.length > 0) lines.push(`ran live: ${v.liveCalls.join(", ")}`);
  if (evidence) lines.push(...evidenceLines(v.evidence));
  return { failed, lines };
}

/**
 * The text form of a verdict for a person at a terminal (`tooldistill verify`, `show`, `rebuild`): the same checks
 * as the model's, then what the version's status now means and which command moves it on. `show` prints the
 * evidence block in a section of its own (`evidence: false`).
 */
export function verdictReport(v: Verdict, options: { evidence?: boolean } = {}): string {
  const { failed, lines } = verdictBody(v, options.evidence ?? true);
  const id = `${v.name} v${v.version}`;
  if (v.status === "active") lines.push(`${id} is active: agents can call it.`);
  else if (v.status === "verified")
    lines.push(`${id} is verified: tooldistill promote ${v.name} makes it available to agents.`);
  else if (v.status === "deprecated") {
    lines.push(
      failed
        ? `${id} is deprecated: it no longer passes against the current base tools. The next successful agent run can propose a new version; tooldistill promote ${v.name} --version N rolls back to an earlier one that still passes.`
        : `${id} is deprecated; tooldistill promote ${v.name} --version ${v.version} makes it active again.`,
    );
  } else if (v.status === "suspect") {
    lines.push(
      `${id} is still suspect: a runtime failure is cleared only by a live pass of the calls that failed: tooldistill verify ${v.name} --version ${v.version} --live (reads run for real; add --allow-writes when a call that failed may write).`,
    );
  } else if (v.status === "rejected") {
    lines.push(
      `${id} is rejected: it is never offered to agents. An agent proposes a corrected version (it reuses v${v.version}), or tooldistill rebuild ${v.name} when a rebuild is queued.`,
    );
  } else if (v.status === "superseded") {
    lines.push(
      `${id} is superseded: a newer version was promoted before it was used. tooldistill promote ${v.name} --version ${v.version} makes it active after re-passing verification.`,
    );
  } else {
    lines.push(
      failed
        ? `${id} stays a draft: it is never offered to agents. An agent proposes a corrected version (or tooldistill rebuild ${v.name} when a rebuild is queued).`
        : `${id} is a draft.`,
    );
  }
  return lines.join("\n");
}

/** The text form of a verdict for a model: outcome, every problem, the call arithmetic, and what to do next. */
export function verdictText(v: Verdict): string {
  const { failed, lines } = verdictBody(v);
  let last: string;
  if (failed) {
    last = `Fix the problems above and call ${PROPOSE_TOOL_NAME} again with the whole corrected code.`;
  } else if (v.status === "active") {
    last = `${v.name} v${v.version} is active: agents can call it now.`;
  } else if (v.status === "verified") {
    last = `${v.name} v${v.version} is verified and waits for promote (tooldistill promote ${v.name}).`;
  } else {
    last = `${v.name} v${v.version} is ${v.status}.`;
  }
  // It goes into a model's context: bounded whatever the proposal made the checks say.
  return boundedText(lines.join("\n"), last);
}

function problemLines(check: CheckResult): string[] {
  return check.problems.map((p) => `- ${formatProblem(p)}`);
}

/** Up to two decimals, trailing zeros trimmed: 8.4, 12, 0.35. */
function num(n: number): string {
  return String(Number(n.toFixed(2)));
}
