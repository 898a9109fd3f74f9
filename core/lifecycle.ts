import { DistillError } from "./errors.ts";
import type { Store, VersionRecord } from "./store.ts";
import type { OpenProblem, Status } from "./types.ts";

/**
 * Legal moves of the lifecycle, from the reference's table. `deprecate` is legal from any status, so every
 * live status may go to deprecated; draft → active does not exist (auto_promote records draft → verified → active).
 */
const TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
  draft: ["verified", "deprecated"],
  verified: ["active", "deprecated"],
  active: ["suspect", "deprecated"],
  suspect: ["active", "deprecated"],
  deprecated: ["active"],
};

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

/** Finds the version a command means: the given number, or the one `pick` chooses (store reads only). */
export function resolveVersion(
  store: Store,
  name: string,
  version: number | undefined,
  pick: "active" | "newest-verified" | "active-or-newest",
): VersionRecord {
  const all = store.listVersions({ name });
  if (all.length === 0) {
    const names = [...new Set(store.listVersions().map((v) => v.name))];
    throw new DistillError(
      "NOT_FOUND",
      `no distilled tool named '${name}'${names.length ? ` (known: ${names.join(", ")})` : ""}`,
    );
  }
  if (version !== undefined) {
    const v = all.find((x) => x.version === version);
    if (!v)
      throw new DistillError(
        "NOT_FOUND",
        `${name} has no v${version} (versions: ${all.map((x) => x.version).join(", ")})`,
      );
    return v;
  }
  if (pick === "active-or-newest") return all.filter((x) => x.status === "active").at(-1) ?? all.at(-1)!;
  const wanted: Status = pick === "active" ? "active" : "verified";
  const found = all.filter((x) => x.status === wanted).at(-1);
  if (!found) {
    const summary = all.map((x) => `v${x.version} ${x.status}`).join(", ");
    throw new DistillError("NOT_FOUND", `${name} has no ${wanted} version (${summary}): pass --version N`);
  }
  return found;
}
