/**
 * Versions of distilled tools and the lifecycle actions on them: ingesting a proposal, verifying, promoting,
 * deprecating, adding an open problem, and which versions agents are offered. Every status change goes
 * through `commit`, one transaction with its history and whatever else belongs to it.
 */
import type { DistillContext } from "./context.ts";
import type { Proposal } from "./distiller.ts";
import { DistillError } from "./errors.ts";
import { assertTransition, isExposed, withoutProblems, withProblem } from "./lifecycle.ts";
import { staticCheck } from "./static-check.ts";
import type { Store, VersionRecord } from "./store.ts";
import { toolNameProblem } from "./tool-names.ts";
import type { OpenProblem, Problem, Status, ToolDef, Verdict } from "./types.ts";
import { formatProblem, reportSummary, toVerdict } from "./verdict.ts";
import { runChecks, type VerifyOptions } from "./verification.ts";

/**
 * Stores a proposal as the next draft version of its tool and verifies it. The name, description and schema
 * are read from the code; a name that cannot be read is refused before anything is stored.
 */
export async function ingestProposal(
  ctx: DistillContext,
  sourceTrace: string | null,
  proposal: Proposal,
  options: VerifyVersionOptions & { reason?: string } = {},
): Promise<Verdict> {
  const statics = staticCheck(proposal.code, ctx.tools());
  const listed = (problems: readonly Problem[]) => problems.map(formatProblem).join("\n");
  if (!statics.meta) {
    throw new DistillError(
      "PROPOSAL_INVALID",
      `the tool's name, description and inputSchema could not be read, so nothing was stored:\n${listed(statics.problems)}`,
    );
  }
  // The name becomes a folder under tools/: one that is not a valid name is refused before anything is written.
  if (toolNameProblem(statics.meta.name) !== null) {
    const named = statics.problems.filter((p) => p.token === statics.meta?.name);
    throw new DistillError(
      "PROPOSAL_INVALID",
      `the tool's name cannot be used, so nothing was stored:\n${listed(named.length ? named : [{ message: toolNameProblem(statics.meta.name)! }])}`,
    );
  }
  const version = ctx.store.createVersion({
    name: statics.meta.name,
    code: proposal.code,
    description: statics.meta.description,
    inputSchema: statics.meta.inputSchema,
    testInputs: proposal.test_inputs,
    sourceTrace,
    reason: options.reason ?? "proposed",
  });
  return verifyVersion(ctx, version, options);
}

/** One status change of a version, from the status it had when the command read it. */
interface Move {
  v: VersionRecord;
  to: Status;
  problems: readonly OpenProblem[];
  reason: string;
  evidence?: unknown;
}

/**
 * Writes status changes and everything that belongs with them (`also`: the verdict, dependencies, queue flags)
 * in one transaction, so a process killed at any statement leaves either all of it or none. Each change applies
 * only if the version still has the status the command read; otherwise nothing is written and the command is
 * asked to run again. Exposure changes are announced after the commit.
 */
function commit(
  ctx: Pick<DistillContext, "store" | "exposureChanged">,
  moves: readonly Move[],
  also?: () => void,
): void {
  for (const m of moves) if (m.v.status !== m.to) assertTransition(m.v.name, m.v.version, m.v.status, m.to);
  ctx.store.transaction(() => {
    for (const m of moves) {
      const ok = ctx.store.setStatus({
        name: m.v.name,
        version: m.v.version,
        expect: m.v.status,
        to: m.to,
        problems: m.problems,
        reason: m.reason,
        evidence: m.evidence,
      });
      if (!ok) {
        throw new DistillError(
          "TRANSITION",
          `${m.v.name} v${m.v.version} changed while this command ran; run it again`,
        );
      }
    }
    also?.();
  });
  const changed = moves.some((m) => {
    const was = isExposed(m.v.status, m.v.problems);
    const now = isExposed(m.to, m.problems);
    return was !== now || (now && m.v.status !== m.to);
  });
  if (changed) ctx.exposureChanged();
}

/** The version after a move, for chaining moves of one version (draft → verified → active). */
function after(m: Move): VersionRecord {
  return { ...m.v, status: m.to, problems: [...m.problems] };
}

/** Moves that make `v` active: itself, and every other active or suspect version of its name deprecated. */
function activation(ctx: DistillContext, v: VersionRecord, reason: string, evidence?: unknown): Move[] {
  const moves: Move[] = [{ v, to: "active", problems: [], reason, evidence }];
  for (const other of ctx.store.listVersions({ name: v.name })) {
    if (other.version === v.version) continue;
    if (other.status === "active" || other.status === "suspect") {
      moves.push({
        v: other,
        to: "deprecated",
        problems: other.problems,
        reason: `replaced by v${v.version}`,
      });
    }
  }
  return moves;
}

/** Options of one verification that belong to its commit. */
export interface VerifyVersionOptions extends VerifyOptions {
  /** A rebuild's target: its queue flag is cleared in the same transaction when the new version passes. */
  clearQueueOf?: { name: string; version: number };
}

/**
 * Verifies a version and applies the lifecycle: a passing draft becomes verified (active with auto_promote);
 * a passing suspect loses the problems replay can clear; a failing verified, active or suspect version is
 * deprecated; a failing draft stays a draft with its verdict. The status changes, the verdict, the dependencies
 * and the deprecation of a replaced version are one transaction.
 */
export async function verifyVersion(
  ctx: DistillContext,
  v: VersionRecord,
  options: VerifyVersionOptions = {},
): Promise<Verdict> {
  const code = ctx.store.readCode(v.name, v.version);
  const report = await runChecks(ctx, v, code, options);
  const evidence = {
    verdict: report.checks,
    calls: report.calls,
    baseline: report.baseline,
    live: Boolean(options.live),
  };
  const moves: Move[] = [];
  if (report.passed) {
    if (v.status === "draft") {
      const verified: Move = { v, to: "verified", problems: [], reason: "all three checks passed", evidence };
      moves.push(verified);
      if (ctx.settings.autoPromote) moves.push(...activation(ctx, after(verified), "auto_promote"));
    } else if (v.status === "suspect" || v.status === "active") {
      const cleared: OpenProblem[] = ["schema_changed", "dependency_missing"];
      if (options.live) cleared.push("runtime_failure");
      const left = withoutProblems(v.problems, cleared);
      const to: Status = left.length === 0 ? "active" : "suspect";
      if (to !== v.status || left.length !== v.problems.length) {
        const reason = `re-verification passed${options.live ? " (live)" : ""}`;
        if (to === "active") moves.push(...activation(ctx, v, reason, evidence));
        else moves.push({ v, to, problems: left, reason, evidence });
      }
    }
  } else if (v.status === "verified" || v.status === "active" || v.status === "suspect") {
    moves.push({
      v,
      to: "deprecated",
      problems: v.problems,
      reason: `re-verification failed: ${reportSummary(report)}`,
      evidence,
    });
  }
  const own = moves.filter((m) => m.v.version === v.version).at(-1);
  const final = own ? after(own) : v;
  const verdict = toVerdict(final, final.status, report);
  commit(ctx, moves, () => {
    if (report.passed) ctx.store.setDependencies(v.name, v.version, report.dependencies);
    // A draft's recorded runs are chosen now (the replaced version's); later verifications replay the same ones.
    if (v.status === "draft") ctx.store.setReplayRuns(v.name, v.version, report.replayRuns);
    ctx.store.setVerification(v.name, v.version, verdict, report.baselineTokens);
    const target = options.clearQueueOf;
    if (report.passed && target) ctx.store.setQueuedRebuild(target.name, target.version, false, null);
  });
  return verdict;
}

/**
 * `promote`: without a version, the newest verified one. A deprecated or suspect version must re-pass
 * verification first (rollback); after a runtime failure only `verify --live` can clear it. Activating it and
 * deprecating the one it replaces are one transaction.
 */
export async function promote(
  ctx: DistillContext,
  name: string,
  options: { version?: number } = {},
): Promise<VersionRecord> {
  const v = resolveVersion(ctx.store, name, options.version, "newest-verified");
  if (v.status === "active") throw new DistillError("TRANSITION", `${name} v${v.version} is already active`);
  if (v.status === "draft") {
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} is a draft that has not passed verification: run tooldistill verify ${name} --version ${v.version}`,
    );
  }
  if (v.problems.includes("runtime_failure")) {
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} failed at run time: only tooldistill verify ${name} --version ${v.version} --live can clear that`,
    );
  }
  if (v.status === "verified") {
    commit(ctx, activation(ctx, v, "promoted"));
    return { ...v, status: "active", problems: [] };
  }
  // Rollback or recovery: re-pass verification against the current base tools first.
  const report = await runChecks(ctx, v, ctx.store.readCode(v.name, v.version));
  if (!report.passed) {
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} cannot be promoted: ${reportSummary(report)}`,
    );
  }
  const reason =
    v.status === "deprecated" ? "rollback: re-verification passed" : "promoted after re-verification";
  commit(ctx, activation(ctx, v, reason), () => {
    ctx.store.setDependencies(v.name, v.version, report.dependencies);
    ctx.store.setVerification(v.name, v.version, toVerdict(v, "active", report), report.baselineTokens);
  });
  return { ...v, status: "active", problems: [] };
}

/** `deprecate`: legal from any status but deprecated; needs only the store. Its queue flag goes with it. */
export function deprecate(
  ctx: Pick<DistillContext, "store" | "exposureChanged">,
  name: string,
  options: { version?: number; reason?: string } = {},
): VersionRecord {
  const v = resolveVersion(ctx.store, name, options.version, "active");
  if (v.status === "deprecated")
    throw new DistillError("TRANSITION", `${name} v${v.version} is already deprecated`);
  commit(ctx, [
    { v, to: "deprecated", problems: v.problems, reason: options.reason ?? "deprecated by the user" },
  ]);
  return { ...v, status: "deprecated", queuedRebuild: false, rebuildNote: null };
}

/**
 * Adds an open problem: an active version becomes suspect; a suspect one gains the problem. `also` is written in
 * the same transaction (a runtime failure's call record, a rebuild's queue flag).
 */
export function addProblem(
  ctx: DistillContext,
  v: VersionRecord,
  problem: OpenProblem,
  reason: string,
  evidence?: unknown,
  also?: () => void,
): VersionRecord {
  const changes = v.status === "active" || v.status === "suspect";
  const problems = changes ? withProblem(v.problems, problem) : v.problems;
  const moves: Move[] =
    changes && !(v.status === "suspect" && problems.length === v.problems.length)
      ? [{ v, to: "suspect", problems, reason, evidence }]
      : [];
  if (moves.length === 0 && !also) return v;
  commit(ctx, moves, also);
  return moves[0] ? after(moves[0]) : v;
}

/** Exposed versions (active, or suspect with only a recovered avoided tool), by successful runs, capped. */
export function exposedVersions(store: Store, max: number): VersionRecord[] {
  const candidates = store
    .listVersions()
    .filter((v) => isExposed(v.status, v.problems))
    .map((v) => ({ v, runs: store.getRunStats(v.name, v.version).successes }));
  // One exposed version per name: the newest wins if both an active and a recovering suspect exist.
  const byName = new Map<string, { v: VersionRecord; runs: number }>();
  for (const c of candidates) {
    const prev = byName.get(c.v.name);
    if (!prev || c.v.version > prev.v.version) byName.set(c.v.name, c);
  }
  return [...byName.values()]
    .sort((a, b) => b.runs - a.runs || a.v.name.localeCompare(b.v.name))
    .slice(0, Math.max(0, max))
    .map((c) => c.v);
}

/**
 * Why a distilled tool of that name cannot be called now, for the model (and the person reading the trace):
 * disabled after a failure, deprecated, not promoted yet, or only a draft. Null when no version has the name.
 */
export function unavailableReason(store: Store, name: string, maxExposed: number): string | null {
  const versions = store.listVersions({ name });
  if (versions.length === 0) return null;
  if (versions.some((v) => isExposed(v.status, v.problems))) {
    return `the distilled tool '${name}' is active but not offered now: max_exposed_tools (${maxExposed}) offers only the most used distilled tools. Complete the task with the base tools.`;
  }
  const last = (v: VersionRecord) =>
    store.getHistory(v.name, v.version).at(-1)?.reason ?? "no reason recorded";
  const newest = (status: Status) => versions.filter((v) => v.status === status).at(-1);
  const suspect = newest("suspect");
  const verified = newest("verified");
  const deprecated = newest("deprecated");
  let why: string;
  if (suspect) {
    why = `the distilled tool '${name}' is disabled: v${suspect.version} is suspect (${suspect.problems.join(", ")}: ${last(suspect)}) until it passes verification again`;
  } else if (verified) {
    why = `the distilled tool '${name}' is not active yet: v${verified.version} passed verification and waits for a person to run tooldistill promote ${name}`;
  } else if (deprecated && deprecated === versions.filter((v) => v.status !== "draft").at(-1)) {
    why = `the distilled tool '${name}' was taken out of use: v${deprecated.version} is deprecated (${last(deprecated)})`;
  } else {
    const draft = newest("draft") ?? versions.at(-1)!;
    why = `the distilled tool '${name}' has not passed verification: v${draft.version} is a draft`;
  }
  return `${why}. Complete the task with the base tools.`;
}

/** An exposed version as an Anthropic tool definition. */
export function toolDefinition(v: VersionRecord): ToolDef {
  // The static check made sure the schema is an object schema.
  return { name: v.name, description: v.description, input_schema: { ...v.inputSchema, type: "object" } };
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
