/**
 * Versions of distilled tools and the lifecycle actions on them: verifying, promoting, deprecating, adding an open
 * problem. Every status change goes through `commit`, one transaction with its history and whatever else belongs
 * to it (the verdict, dependencies, the definitions verified against, the replaced version's new status).
 */
import type { DistillContext } from "./context.ts";
import { DistillError } from "./errors.ts";
import { recordedFailures } from "./failure-evidence.ts";
import { fingerprint } from "./fingerprint.ts";
import { assertTransition, isExposed, PRUNABLE, withoutProblems, withProblem } from "./lifecycle.ts";
import { lineDiff } from "./line-diff.ts";
import type { PrunedVersion, Store, VersionRecord } from "./store.ts";
import { autoPromotion, mayWrite, PROMOTED_BY_A_PERSON } from "./tool-effects.ts";
import type { OpenProblem, Status, Verdict } from "./types.ts";
import { reportSummary, toVerdict } from "./verdict.ts";
import { type CheckReport, runChecks, type VerifyOptions } from "./verification.ts";

/** One status change of a version, from the status it had when the command read it. */
export interface Move {
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
export function commit(
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

/**
 * Moves that make `v` active: itself; every other active or suspect version of its name deprecated (a rollback
 * target); every older verified one superseded (it was never used, and is no longer the newest).
 */
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
    } else if (other.status === "verified" && other.version < v.version) {
      moves.push({ v: other, to: "superseded", problems: [], reason: `v${v.version} was promoted` });
    }
  }
  return moves;
}

/** Options of one verification that belong to its commit. */
export interface VerifyVersionOptions extends VerifyOptions {
  /** A rebuild's target: its queue flag is cleared in the same transaction when the new version passes. */
  clearQueueOf?: { name: string; version: number };
  /** Open problems a pass also clears (runtime_failure, when every failure was an outage that is over). */
  clears?: readonly OpenProblem[];
  /** Why this verification runs, for the history (default: re-verification). */
  why?: string;
}

/** Verifications running in this process, so an identical proposal waits for the first instead of racing it. */
const running = new WeakMap<Store, Map<string, Promise<Verdict>>>();

/** The verification of `v` running in this process, if any. */
export function runningVerification(store: Store, v: VersionRecord): Promise<Verdict> | undefined {
  return running.get(store)?.get(`${v.name}\u0000${v.version}`);
}

/**
 * Verifies a version and applies the lifecycle: a passing draft (or rejected version) becomes verified, and active
 * when auto_promote allows it; a passing suspect loses the problems replay can clear; a failing draft is rejected;
 * a failing verified, active, suspect or superseded version is deprecated. The status changes, the verdict, the
 * dependencies, the definitions verified against and the replaced version's new status are one transaction.
 */
export function verifyVersion(
  ctx: DistillContext,
  v: VersionRecord,
  options: VerifyVersionOptions = {},
): Promise<Verdict> {
  const key = `${v.name}\u0000${v.version}`;
  let inFlight = running.get(ctx.store);
  if (!inFlight) {
    inFlight = new Map();
    running.set(ctx.store, inFlight);
  }
  const mine = inFlight;
  const promise = verifyAndCommit(ctx, v, options).finally(() => {
    if (mine.get(key) === promise) mine.delete(key);
  });
  mine.set(key, promise);
  return promise;
}

async function verifyAndCommit(
  ctx: DistillContext,
  v: VersionRecord,
  options: VerifyVersionOptions,
): Promise<Verdict> {
  const code = ctx.store.readCode(v.name, v.version);
  const report = await runChecks(ctx, v, code, options);
  const policy = options.livePolicy;
  // The live reads led to a write the record cannot answer: nothing ran for real, and nothing is stored.
  if (policy && policy.refused().length > 0) throw new DistillError("WRITE_REFUSED", policy.refusal(v));
  report.evidence.writes = mayWrite(report.meta?.dependencies ?? [], ctx.baseTool);
  const evidence = {
    verdict: report.checks,
    calls: report.calls,
    baseline: report.baseline,
    live: Boolean(options.live),
  };
  const moves: Move[] = [];
  const why = options.why ?? "re-verification";
  report.evidence.promotion = v.verdict?.evidence.promotion ?? null;
  if (report.passed) {
    if (v.status === "draft" || v.status === "rejected") {
      const verified: Move = { v, to: "verified", problems: [], reason: "all three checks passed", evidence };
      moves.push(verified);
      const auto = autoPromotion(ctx.settings.autoPromote, report.evidence.writes);
      report.evidence.promotion = auto.text;
      if (auto.activate) moves.push(...activation(ctx, after(verified), auto.text));
    } else if (v.status === "suspect" || v.status === "active") {
      const cleared: OpenProblem[] = ["schema_changed", "dependency_missing", ...(options.clears ?? [])];
      if (options.live && liveCoversFailures(ctx, v, options)) cleared.push("runtime_failure");
      const left = withoutProblems(v.problems, cleared);
      const to: Status = left.length === 0 ? "active" : "suspect";
      if (to !== v.status || left.length !== v.problems.length) {
        const reason = `${why} passed${options.live ? " (live)" : ""}`;
        if (to === "active") moves.push(...activation(ctx, v, reason, evidence));
        else moves.push({ v, to, problems: left, reason, evidence });
      }
    }
  } else if (v.status === "draft") {
    moves.push({ v, to: "rejected", problems: [], reason: reportSummary(report), evidence });
  } else if (v.status !== "deprecated" && v.status !== "rejected") {
    moves.push({
      v,
      to: "deprecated",
      problems: v.problems,
      reason: `${why} failed: ${reportSummary(report)}`,
      evidence,
    });
  }
  const own = moves.filter((m) => m.v.version === v.version).at(-1);
  const final = own ? after(own) : v;
  const verdict = toVerdict(final, final.status, report);
  commit(ctx, moves, () => {
    if (report.passed) storeVerified(ctx, v, report);
    // A draft's recorded runs are chosen now (the replaced version's); later verifications replay the same ones.
    if (v.status === "draft") ctx.store.setReplayRuns(v.name, v.version, report.replayRuns);
    ctx.store.setVerification(v.name, v.version, verdict, report.baselineTokens);
    const target = options.clearQueueOf;
    if (report.passed && target) ctx.store.setQueuedRebuild(target.name, target.version, false, null);
  });
  return verdict;
}

/**
 * A live pass clears a runtime failure only when the calls that failed ran live this time: a failure at a write
 * that was answered from the record is not shown fixed (`--allow-writes` runs it for real).
 */
function liveCoversFailures(ctx: DistillContext, v: VersionRecord, options: VerifyVersionOptions): boolean {
  const ran = options.livePolicy?.liveTools();
  if (!ran) return true;
  const failed = recordedFailures(ctx.store.getHistory(v.name, v.version));
  return failed.every((f) => f.tool === null || ran.has(f.tool));
}

/**
 * What a pass records besides the verdict: the dependencies as read from the code, and the current definition of
 * each base tool it calls added to the set of definitions the version was verified against.
 */
function storeVerified(ctx: DistillContext, v: VersionRecord, report: CheckReport): void {
  ctx.store.setDependencies(v.name, v.version, report.dependencies);
  const defs = report.dependencies.flatMap((d) => {
    const def = ctx.baseTool(d.baseTool);
    const fp = fingerprint(def);
    return d.avoided || !def || fp === null
      ? []
      : [{ baseTool: d.baseTool, fingerprint: fp, definition: def }];
  });
  ctx.store.addVerifiedDefinitions(v.name, v.version, defs);
}

/**
 * `promote`: without a version, the newest verified one. A deprecated, superseded or suspect version must re-pass
 * verification first (rollback); after a runtime failure only `verify --live` can clear it. Activating it,
 * deprecating the one it replaces and superseding older verified ones are one transaction; the verdict records
 * that a person promoted it.
 */
export async function promote(
  ctx: DistillContext,
  name: string,
  options: { version?: number } = {},
): Promise<VersionRecord> {
  const v = resolveVersion(ctx.store, name, options.version, "newest-verified");
  if (v.status === "active") throw new DistillError("TRANSITION", `${name} v${v.version} is already active`);
  if (v.status === "draft" || v.status === "rejected") {
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} is ${v.status === "draft" ? "a draft that has not passed" : "rejected: it failed"} verification: run tooldistill verify ${name} --version ${v.version}`,
    );
  }
  if (v.problems.includes("runtime_failure")) {
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} failed at run time: only tooldistill verify ${name} --version ${v.version} --live can clear that`,
    );
  }
  const byPerson = (verdict: Verdict): Verdict => ({
    ...verdict,
    status: "active",
    evidence: { ...verdict.evidence, promotion: PROMOTED_BY_A_PERSON },
  });
  if (v.status === "verified") {
    commit(ctx, activation(ctx, v, "promoted"), () => {
      if (v.verdict) ctx.store.setVerification(v.name, v.version, byPerson(v.verdict), v.baselineTokens);
    });
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
  report.evidence.writes = mayWrite(report.meta?.dependencies ?? [], ctx.baseTool);
  const reason =
    v.status === "suspect" ? "promoted after re-verification" : "rollback: re-verification passed";
  commit(ctx, activation(ctx, v, reason), () => {
    storeVerified(ctx, v, report);
    ctx.store.setVerification(
      v.name,
      v.version,
      byPerson(toVerdict(v, "active", report)),
      report.baselineTokens,
    );
  });
  return { ...v, status: "active", problems: [] };
}

/** `deprecate`: legal from any status that can still be used or promoted; needs only the store. */
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

/**
 * `prune`: removes rejected and superseded versions (only those that got their status more than `olderThanDays`
 * days ago, when given) with their rows and files, keeping the traces they came from. Needs only the store.
 */
export function prune(store: Store, options: { olderThanDays?: number } = {}): PrunedVersion[] {
  const days = options.olderThanDays;
  if (days !== undefined && !(Number.isFinite(days) && days >= 0)) {
    throw new DistillError("USAGE", `prune: the age must be a number of days ≥ 0 (got ${days})`);
  }
  const before = days === undefined ? null : new Date(Date.now() - days * 86_400_000).toISOString();
  return store.pruneVersions(PRUNABLE, before);
}

/** What `promote` is about to make active: its code and, when it replaces an active version, the diff. */
export interface PromotionPreview {
  version: number;
  code: string;
  replaces: { version: number; diff: string } | null;
}

/** The code `promote` would activate and its diff against the active version (store reads only). */
export function promotionPreview(store: Store, name: string, version: number | undefined): PromotionPreview {
  const v = resolveVersion(store, name, version, "newest-verified");
  const code = store.readCode(v.name, v.version);
  const active = store.listVersions({ name, status: "active" }).find((x) => x.version !== v.version);
  if (!active) return { version: v.version, code, replaces: null };
  const labels = { before: `${name} v${active.version} (active)`, after: `${name} v${v.version}` };
  return {
    version: v.version,
    code,
    replaces: { version: active.version, diff: lineDiff(store.readCode(name, active.version), code, labels) },
  };
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
