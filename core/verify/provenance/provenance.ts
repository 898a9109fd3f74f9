/**
 * Argument provenance: every literal value that a tool's code can pass to a base call must be explained by
 * its source run. A value the run read from a base tool's response is hard-coded (the tool reproduces the
 * run and fails on every other task); a value the run never used at all is unexplained (the recorded attack:
 * an account built from two strings, in a branch replay never took). Pure: source text and run facts in,
 * problems out. The rule, its examples and its limits are written down in docs/verification.md.
 *
 * The rule is here; the folding of the code is in provenance-fold.ts (expressions), provenance-calls.ts
 * (calls) and provenance-values.ts (the alternatives), the walk from a call's arguments to its literals in
 * provenance-reach.ts, and the source run in provenance-run.ts.
 */
import type { Node, NodePath } from "@babel/traverse";
import type { Problem } from "../../types.ts";
import { oneLine } from "../../util/text.ts";
import { type LocatedCallSite, type LocatedCallSites, locateCallSites } from "../call-sites.ts";
import { boundedProblems } from "../proposal-limits.ts";
import { stringValue } from "../static/static-values.ts";
import { Folder } from "./provenance-fold.ts";
import { LIMIT_MESSAGES, Reacher } from "./provenance-reach.ts";
import { type RunFacts, RunIndex } from "./provenance-run.ts";
import { checkWrites } from "./provenance-writes.ts";

export { MAX_VISITS } from "./provenance-reach.ts";
export { MIN_SUBSTRING_CHARS, type RunCall, type RunFacts } from "./provenance-run.ts";
export { MAX_ALTERNATIVES, MAX_DEPTH } from "./provenance-values.ts";

/**
 * The rule's findings: how many literal values were checked (each literal once per argument it reaches), the
 * ones rejected, and the ones accepted only because this task's text or a test input has them.
 */
export interface ProvenanceReport {
  checked: number;
  problems: Problem[];
  /** Accepted, but a parameter of this task written into the code: the tool may not fit another task. */
  warnings: Problem[];
}

/** Longest value shown in a message. */
const MAX_SHOWN_CHARS = 80;

/**
 * Checks every literal string or number that can reach a base call's arguments as a whole value against the
 * source run: it must not be first seen in a base tool's response (unless the task text or a test input has
 * it), and it must have been seen somewhere (task, test inputs, that tool's recorded arguments, any
 * response). `located` reuses call sites already located in `source`. Throws DistillError("PROPOSAL_INVALID")
 * only when the source does not parse.
 */
export function checkArgumentProvenance(
  source: string,
  facts: RunFacts,
  located: LocatedCallSites = locateCallSites(source),
): ProvenanceReport {
  const reacher = new Reacher(new Folder());
  const run = new RunIndex(facts);
  const found = new Map<string, { problem: Problem; start: number }>();
  const warned = new Map<string, { problem: Problem; start: number }>();
  const checked = new Set<string>();

  const report = (into: typeof found, node: Node, problem: Problem): void => {
    const key = `${problem.line}\u0000${problem.token}\u0000${problem.message}`;
    if (!into.has(key)) into.set(key, { problem, start: node.start ?? 0 });
  };

  for (const site of located.sites) {
    const tool = site.tool;
    // A call without a literal name has no recorded arguments to compare with; the static check refuses it.
    if (tool === null) continue;
    const args = argumentsOf(site);
    if (args === null) continue;
    for (const reach of reacher.reaching(args)) {
      const problemAt = (rule: string, message: string): Problem => {
        const problem: Problem = { rule, message };
        if (reach.node.loc) problem.line = reach.node.loc.start.line;
        problem.token = tokenOf(reach.node, source);
        return problem;
      };
      const where = `${tool}${reach.path}`;
      if (reach.kind === "limit") {
        report(
          found,
          reach.node,
          problemAt(
            "provenance-limit",
            `${LIMIT_MESSAGES[reach.why](where)}: simplify it so each value can be checked`,
          ),
        );
        continue;
      }
      const value = reach.value;
      const key = `${site.id}\u0000${reach.path}\u0000${reach.node.start}\u0000${typeof value}:${value}`;
      if (checked.has(key)) continue;
      checked.add(key);
      const first = run.firstSeen(value);
      if (first !== null && first.kind === "response") {
        report(
          found,
          reach.node,
          problemAt(
            "provenance-from-result",
            `hard-codes ${show(value)}, which the source run read from ${first.tool}'s result: take it from that call's result`,
          ),
        );
      } else if (first === null || !run.explains(value, tool)) {
        report(
          found,
          reach.node,
          problemAt(
            "provenance-unexplained",
            `passes ${show(value)} to ${where}, a value the source run never used`,
          ),
        );
      } else if (first.kind === "task" || first.kind === "input") {
        const source = first.kind === "task" ? "the task text" : "a test input";
        report(
          warned,
          reach.node,
          problemAt(
            "provenance-task-value",
            `passes ${show(value)} to ${where}, a value of this task (${source}): take it from the tool's input if it changes between tasks`,
          ),
        );
      }
    }
  }

  // Calls to tools that may write: every argument traced, not only the literals (the inverted rule).
  const shown = new Set([...found.values()].map((f) => `${f.problem.line}\u0000${f.problem.token}`));
  for (const finding of checkWrites(
    reacher.folder,
    located,
    [...facts.calls, ...(facts.earlier ?? [])],
    new Set(facts.writes ?? []),
    showAny,
  )) {
    const problem: Problem = {
      rule: "provenance-write",
      message: finding.message,
      token: tokenOf(finding.node, source),
    };
    if (finding.node.loc) problem.line = finding.node.loc.start.line;
    // A literal the rule above already rejected at this place is not reported twice.
    if (shown.has(`${problem.line}\u0000${problem.token}`)) continue;
    report(found, finding.node, problem);
  }
  return {
    checked: checked.size,
    problems: boundedProblems(inOrder(found)),
    warnings: boundedProblems(inOrder(warned)),
  };
}

function inOrder(found: Map<string, { problem: Problem; start: number }>): Problem[] {
  return [...found.values()]
    .sort((a, b) => (a.problem.line ?? 0) - (b.problem.line ?? 0) || a.start - b.start)
    .map((f) => f.problem);
}

/** The expression a site passes as the base tool's arguments, or null when there is none to read. */
function argumentsOf(site: LocatedCallSite): NodePath | null {
  const args = site.path.get("arguments") as NodePath[];
  const second = args[1];
  // A spread in the arguments is refused by instrumentation, which verification runs on the same source.
  if (second === undefined || second.isSpreadElement()) return null;
  return second;
}

/** A constant of any kind as a message shows it. */
function showAny(value: string | number | boolean | null): string {
  return typeof value === "string" || typeof value === "number" ? show(value) : String(value);
}

/** How a value is shown in a message: strings quoted, on one line and clipped. */
function show(value: string | number): string {
  return typeof value === "number" ? String(value) : `'${oneLine(value, MAX_SHOWN_CHARS)}'`;
}

/** A literal's token is its value (as the static check does for names); any other expression, its text. */
function tokenOf(node: Node, source: string): string {
  const literal = node.type === "StringLiteral" || node.type === "TemplateLiteral" ? stringValue(node) : null;
  if (literal !== null) return oneLine(literal, 40);
  const text = source.slice(node.start ?? 0, node.end ?? 0);
  return text.length <= 40 && !text.includes("\n") ? text : (text.match(/^\S+/)?.[0] ?? text);
}
