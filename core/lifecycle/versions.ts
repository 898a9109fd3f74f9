/**
 * Versions of distilled tools and the lifecycle actions on them: verifying, promoting, deprecating, adding an open
 * problem. Every status change goes through `commit`, one transaction with its history and whatever else belongs
 * to it (the verdict, dependencies, the definitions verified against, the replaced version's new status).
 */

import { fingerprint } from "../base-tools/fingerprint.ts";
import { autoPromotion, mayWrite, PROMOTED_BY_A_PERSON } from "../base-tools/tool-effects.ts";
import { DistillError } from "../errors.ts";
import { type PrunedVersion, type VersionRecord, versionKey } from "../store/records.ts";
import type { RegistryData, RegistryStore } from "../store/registry-store.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import type { OpenProblem, Status, Verdict } from "../types.ts";
import type { CheckReport, VerifyOptions } from "../verify/types.ts";
import { reportSummary, toVerdict } from "../verify/verdict.ts";
import { runChecks } from "../verify/verification.ts";
import { recordedFailures } from "./failure-evidence.ts";
import { assertTransition, isExposed, PRUNABLE, withoutProblems, withProblem } from "./lifecycle.ts";
import { heldVersion, holdText } from "./runtime-hold.ts";
import { resolveVersion } from "./version-lookup.ts";

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
export async function commit(
  ctx: Pick<DistillContext, "store" | "exposureChanged">,
  moves: readonly Move[],
  also?: (tx: RegistryData) => Promise<void>,
): Promise<void> {
  for (const m of moves) if (m.v.status !== m.to) assertTransition(m.v.name, m.v.version, m.v.status, m.to);
  await ctx.store.transaction(async (tx) => {
    for (const m of moves) {
      const ok = await tx.setStatus({
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
    await also?.(tx);
  });
  const changed = moves.some((m) => {
    const was = isExposed(m.v.status, m.v.problems);
    const now = isExposed(m.to, m.problems);
    return was !== now || (now && m.v.status !== m.to);
  });
  if (changed) await ctx.exposureChanged();
}

/** The version after a move, for chaining moves of one version (draft → verified → active). */
function after(m: Move): VersionRecord {
  return { ...m.v, status: m.to, problems: [...m.problems] };
}

/**
 * Moves that make `v` active: itself; every other active or suspect version of its name deprecated (a rollback
 * target); every older verified one superseded (it was never used, and is no longer the newest).
 */
async function activation(
  ctx: DistillContext,
  v: VersionRecord,
  reason: string,
  evidence?: unknown,
): Promise<Move[]> {
  const moves: Move[] = [{ v, to: "active", problems: [], reason, evidence }];
  for (const other of await ctx.store.listVersions({ name: v.name })) {
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
const running = new WeakMap<RegistryStore, Map<string, Promise<Verdict>>>();

/** The verification of `v` running in this process, if any. */
export function runningVerification(store: RegistryStore, v: VersionRecord): Promise<Verdict> | undefined {
  return running.get(store)?.get(versionKey(v));
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
  const key = versionKey(v);
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
  const code = await ctx.store.readCode(v.name, v.version);
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
  // The lifecycle is decided and written under the tool's lock, against the version as stored now: a process
  // that changed it meanwhile wins, and this one is asked to run again (commit's check).
  return ctx.store.withToolLock(v.name, () => commitVerification(ctx, v, report, evidence, options));
}

async function commitVerification(
  ctx: DistillContext,
  v: VersionRecord,
  report: CheckReport,
  evidence: unknown,
  options: VerifyVersionOptions,
): Promise<Verdict> {
  const moves: Move[] = [];
  const why = options.why ?? "re-verification";
  report.evidence.promotion = v.verdict?.evidence.promotion ?? null;
  if (report.passed) {
    if (v.status === "draft" || v.status === "rejected") {
      const verified: Move = { v, to: "verified", problems: [], reason: "all three checks passed", evidence };
      moves.push(verified);
      const held = heldVersion(await ctx.store.listVersions({ name: v.name }));
      const auto = held
        ? { activate: false, text: holdText(v.name, v.version, held) }
        : autoPromotion(ctx.settings.autoPromote, report.evidence.writes);
      report.evidence.promotion = auto.text;
      if (auto.activate) moves.push(...(await activation(ctx, after(verified), auto.text)));
    } else if (
      v.status === "verified" &&
      options.live &&
      heldVersion(await ctx.store.listVersions({ name: v.name }))
    ) {
      // The live pass a replacement of a version held back for a runtime failure waits for.
      moves.push(...(await activation(ctx, v, `${why} passed (live)`, evidence)));
    } else if (v.status === "suspect" || v.status === "active") {
      const cleared: OpenProblem[] = ["schema_changed", "dependency_missing", ...(options.clears ?? [])];
      if (options.live && (await liveCoversFailures(ctx, v, options))) cleared.push("runtime_failure");
      const left = withoutProblems(v.problems, cleared);
      const to: Status = left.length === 0 ? "active" : "suspect";
      if (to !== v.status || left.length !== v.problems.length) {
        const reason = `${why} passed${options.live ? " (live)" : ""}`;
        if (to === "active") moves.push(...(await activation(ctx, v, reason, evidence)));
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
  await commit(ctx, moves, async (tx) => {
    if (report.passed) await storeVerified(ctx, tx, v, report);
    // A draft's recorded runs are chosen now (the replaced version's); later verifications replay the same ones.
    if (v.status === "draft") await tx.setReplayRuns(v.name, v.version, report.replayRuns);
    await tx.setVerification(v.name, v.version, verdict, report.baselineTokens);
    const target = options.clearQueueOf;
    if (report.passed && target) await tx.setQueuedRebuild(target.name, target.version, false, null);
  });
  return verdict;
}

/**
 * A live pass clears a runtime failure only when the calls that failed ran live this time: a failure at a write
 * that was answered from the record is not shown fixed (`--allow-writes` runs it for real), unless that record was
 * made after the failure (`--trace` of a later run that did the task): the base tool did that write since.
 */
async function liveCoversFailures(
  ctx: DistillContext,
  v: VersionRecord,
  options: VerifyVersionOptions,
): Promise<boolean> {
  const policy = options.livePolicy;
  if (!policy) return true;
  const history = await ctx.store.getHistory(v.name, v.version);
  const failed = recordedFailures(history);
  const lastFailure = history.findLast((h) => h.to === "suspect")?.at ?? null;
  const ran = policy.liveTools();
  const later = policy.recordAt !== null && lastFailure !== null && policy.recordAt > lastFailure;
  if (later) for (const tool of policy.recordTools()) ran.add(tool);
  return failed.every((f) => f.tool === null || ran.has(f.tool));
}

/**
 * What a pass records besides the verdict: the dependencies as read from the code, and the current definition of
 * each base tool it calls added to the set of definitions the version was verified against.
 */
async function storeVerified(
  ctx: DistillContext,
  tx: RegistryData,
  v: VersionRecord,
  report: CheckReport,
): Promise<void> {
  await tx.setDependencies(v.name, v.version, report.dependencies);
  const defs = report.dependencies.flatMap((d) => {
    const def = ctx.baseTool(d.baseTool);
    const fp = fingerprint(def);
    return d.avoided || !def || fp === null
      ? []
      : [{ baseTool: d.baseTool, fingerprint: fp, definition: def }];
  });
  await tx.addVerifiedDefinitions(v.name, v.version, defs);
}

/**
 * `promote`: without a version, the newest verified one (else the active one). The active version is returned
 * unchanged: promoting it again changes nothing. A deprecated, superseded or suspect version must re-pass
 * verification first (rollback); after a runtime failure only `verify --live` can clear it. Activating it,
 * deprecating the one it replaces and superseding older verified ones are one transaction; the verdict records
 * that a person promoted it.
 */
export async function promote(
  ctx: DistillContext,
  name: string,
  options: { version?: number } = {},
): Promise<VersionRecord> {
  // Under the tool's lock, with the versions read inside it: two promotions of one tool never interleave.
  return ctx.store.withToolLock(name, () => promoteLocked(ctx, name, options));
}

async function promoteLocked(
  ctx: DistillContext,
  name: string,
  options: { version?: number },
): Promise<VersionRecord> {
  const v = await resolveVersion(ctx.store, name, options.version, "newest-verified");
  // Already active: the one meaning of promote, named or by default, is "make it the active one"; that holds.
  if (v.status === "active") return v;
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
    await commit(ctx, await activation(ctx, v, "promoted"), async (tx) => {
      if (v.verdict) await tx.setVerification(v.name, v.version, byPerson(v.verdict), v.baselineTokens);
    });
    return { ...v, status: "active", problems: [] };
  }
  // Rollback or recovery: re-pass verification against the current base tools first.
  const report = await runChecks(ctx, v, await ctx.store.readCode(v.name, v.version));
  if (!report.passed) {
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} cannot be promoted: ${reportSummary(report)}`,
    );
  }
  report.evidence.writes = mayWrite(report.meta?.dependencies ?? [], ctx.baseTool);
  const reason =
    v.status === "suspect" ? "promoted after re-verification" : "rollback: re-verification passed";
  await commit(ctx, await activation(ctx, v, reason), async (tx) => {
    await storeVerified(ctx, tx, v, report);
    await tx.setVerification(
      v.name,
      v.version,
      byPerson(toVerdict(v, "active", report)),
      report.baselineTokens,
    );
  });
  return { ...v, status: "active", problems: [] };
}

/** `deprecate`: legal from any status that can still be used or promoted; needs only the store. */
export async function deprecate(
  ctx: Pick<DistillContext, "store" | "exposureChanged">,
  name: string,
  options: { version?: number; reason?: string } = {},
): Promise<VersionRecord> {
  const v = await resolveVersion(ctx.store, name, options.version, "active");
  if (v.status === "deprecated")
    throw new DistillError("TRANSITION", `${name} v${v.version} is already deprecated`);
  await commit(ctx, [
    { v, to: "deprecated", problems: v.problems, reason: options.reason ?? "deprecated by the user" },
  ]);
  return { ...v, status: "deprecated", queuedRebuild: false, rebuildNote: null };
}

/**
 * Adds an open problem: an active version becomes suspect; a suspect one gains the problem. `also` is written in
 * the same transaction (a runtime failure's call record, a rebuild's queue flag).
 */
export async function addProblem(
  ctx: DistillContext,
  v: VersionRecord,
  problem: OpenProblem,
  reason: string,
  evidence?: unknown,
  also?: (tx: RegistryData) => Promise<void>,
): Promise<VersionRecord> {
  const changes = v.status === "active" || v.status === "suspect";
  const problems = changes ? withProblem(v.problems, problem) : v.problems;
  const moves: Move[] =
    changes && !(v.status === "suspect" && problems.length === v.problems.length)
      ? [{ v, to: "suspect", problems, reason, evidence }]
      : [];
  if (moves.length === 0 && !also) return v;
  await commit(ctx, moves, also);
  return moves[0] ? after(moves[0]) : v;
}

/**
 * `prune`: removes rejected and superseded versions (only those that got their status more than `olderThanDays`
 * days ago, when given) with their rows and files, keeping the traces they came from. Needs only the store.
 */
export async function prune(
  store: RegistryData,
  options: { olderThanDays?: number } = {},
): Promise<PrunedVersion[]> {
  const days = options.olderThanDays;
  if (days !== undefined && !(Number.isFinite(days) && days >= 0)) {
    throw new DistillError("USAGE", `prune: the age must be a number of days ≥ 0 (got ${days})`);
  }
  const before = days === undefined ? null : new Date(Date.now() - days * 86_400_000).toISOString();
  return store.pruneVersions(PRUNABLE, before);
}
