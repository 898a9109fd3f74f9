import { DistillError } from "../errors.ts";
import type { OpenProblem, Status } from "../types.ts";

/**
 * Legal moves of the lifecycle, from the reference's table plus the hygiene statuses. `deprecate` is legal from
 * every status a version can be used or promoted from; draft → active does not exist (auto_promote records
 * draft → verified → active). A draft that fails verification is `rejected` (a person's `verify` that passes
 * still makes it verified); promoting a version makes the older verified ones `superseded`, which a person can
 * still promote (after re-verification) or deprecate.
 */
const TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
  draft: ["verified", "rejected", "deprecated"],
  verified: ["active", "superseded", "deprecated"],
  active: ["suspect", "deprecated"],
  suspect: ["active", "deprecated"],
  deprecated: ["active"],
  rejected: ["verified"],
  superseded: ["active", "deprecated"],
};

/** Statuses `tooldistill prune` removes: nothing uses them and no command brings them back without a person. */
export const PRUNABLE: readonly Status[] = ["rejected", "superseded"];

/** True when the lifecycle allows `from → to`. */
export function canTransition(from: Status, to: Status): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Throws a TRANSITION error that says what is allowed instead. */
export function assertTransition(name: string, version: number, from: Status, to: Status): void {
  if (canTransition(from, to)) return;
  const allowed = TRANSITIONS[from];
  throw new DistillError(
    "TRANSITION",
    `${name} v${version} is ${from}: it cannot become ${to} (from ${from} it can become ${allowed.join(" or ")})`,
  );
}

/** A version is exposed to agents if active, or suspect with a recovered avoided tool as its only problem. */
export function isExposed(status: Status, problems: readonly OpenProblem[]): boolean {
  if (status === "active") return true;
  return status === "suspect" && problems.length === 1 && problems[0] === "avoided_tool_recovered";
}

/** Adds a problem to a set, keeping it sorted and unique. */
export function withProblem(problems: readonly OpenProblem[], problem: OpenProblem): OpenProblem[] {
  return [...new Set([...problems, problem])].sort();
}

/** Removes problems from a set. */
export function withoutProblems(
  problems: readonly OpenProblem[],
  remove: readonly OpenProblem[],
): OpenProblem[] {
  return problems.filter((p) => !remove.includes(p));
}
