import { isPlainObject } from "./canonical.ts";
import { DistillError } from "./errors.ts";
import { assertTransition, isExposed, resolveVersion, withoutProblems, withProblem } from "./lifecycle.ts";

export { resolveVersion };

import { staticCheck } from "./static-check.ts";
import type { Store, VersionRecord } from "./store.ts";
import type { OpenProblem, Status, ToolDef, Verdict } from "./types.ts";
import {
  type CheckReport,
  reportSummary,
  runChecks,
  type VerifyEnv,
  type VerifyOptions,
} from "./verification.ts";

/** Verification plus a hook that hears about every change of the exposed set (the plugin's list_changed). */
export interface RegistryEnv extends VerifyEnv {
  onExposureChange?(): void;
}

/** A proposal as the agent sends it to `propose_distilled_tool`. */
export interface ProposalInput {
  code: string;
  test_inputs: Record<string, unknown>[];
}

/** Why a proposal was refused before it became a version (nothing is stored then). */
export class ProposalError extends DistillError {
  constructor(message: string) {
    super("PROPOSAL_INVALID", message);
  }
}

/** Checks the shape of a `propose_distilled_tool` input. */
export function parseProposal(input: unknown): ProposalInput {
  if (!isPlainObject(input)) throw new ProposalError("the proposal must be an object { code, test_inputs }");
  const problems: string[] = [];
  const code = input["code"];
  const tests = input["test_inputs"];
  if (typeof code !== "string" || code.trim() === "")
    problems.push("'code' must be the whole TypeScript module as a string");
  if (!Array.isArray(tests) || !tests.every(isPlainObject)) {
    problems.push("'test_inputs' must be an array of input objects taken from this run");
  }
  const unknown = Object.keys(input).filter((k) => k !== "code" && k !== "test_inputs");
  if (unknown.length)
    problems.push(
      `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `'${k}'`).join(", ")}: a proposal has only code and test_inputs`,
    );
  if (problems.length) throw new ProposalError(`invalid proposal: ${problems.join("; ")}`);
  return { code: code as string, test_inputs: tests as Record<string, unknown>[] };
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
  };
}

/**
 * Stores a proposal as the next draft version of its tool and verifies it. The name, description and schema
 * are read from the code; a name that cannot be read is refused before anything is stored.
 */
export async function ingestProposal(
  env: RegistryEnv,
  sourceTrace: string | null,
  proposal: ProposalInput,
  options: VerifyOptions & { reason?: string } = {},
): Promise<Verdict> {
  const statics = staticCheck(proposal.code, env.tools());
  if (!statics.meta) {
    const listed = statics.problems.map((p) => (p.line ? `line ${p.line}: ${p.message}` : p.message));
    throw new ProposalError(
      `the tool's name, description and inputSchema could not be read, so nothing was stored:\n${listed.join("\n")}`,
    );
  }
  const version = env.store.createVersion({
    name: statics.meta.name,
    code: proposal.code,
    description: statics.meta.description,
    inputSchema: statics.meta.inputSchema,
    testInputs: proposal.test_inputs,
    sourceTrace,
    reason: options.reason ?? "proposed",
  });
  return verifyVersion(env, version, options);
}

/** Applies one status change with history; a concurrent change in between is reported, not overwritten. */
function move(
  env: RegistryEnv,
  v: VersionRecord,
  to: Status,
  problems: readonly OpenProblem[],
  reason: string,
  evidence?: unknown,
): VersionRecord {
  if (v.status !== to) assertTransition(v.name, v.version, v.status, to);
  const ok = env.store.setStatus({
    name: v.name,
    version: v.version,
    expect: v.status,
    to,
    problems,
    reason,
    evidence,
  });
  if (!ok) {
    throw new DistillError(
      "TRANSITION",
      `${v.name} v${v.version} changed while this command ran; run it again`,
    );
  }
  const wasExposed = isExposed(v.status, v.problems);
  const nowExposed = isExposed(to, problems);
  if (wasExposed !== nowExposed || (nowExposed && v.status !== to)) env.onExposureChange?.();
  return { ...v, status: to, problems: [...problems] };
}

/**
 * Verifies a version and applies the lifecycle: a passing draft becomes verified (active with auto_promote);
 * a passing suspect loses the problems replay can clear; a failing verified, active or suspect version is
 * deprecated; a failing draft stays a draft with its verdict.
 */
export async function verifyVersion(
  env: RegistryEnv,
  v: VersionRecord,
  options: VerifyOptions = {},
): Promise<Verdict> {
  const code = env.store.readCode(v.name, v.version);
  const report = await runChecks(env, v, code, options);
  const evidence = {
    verdict: report.checks,
    calls: report.calls,
    baseline: report.baseline,
    live: Boolean(options.live),
  };
  let current = v;
  if (report.passed) {
    env.store.setDependencies(v.name, v.version, report.dependencies);
    if (v.status === "draft") {
      current = move(env, current, "verified", [], "all three checks passed", evidence);
      if (env.settings.autoPromote) current = activate(env, current, "auto_promote");
    } else if (v.status === "suspect" || v.status === "active") {
      const cleared: OpenProblem[] = ["schema_changed", "dependency_missing"];
      if (options.live) cleared.push("runtime_failure");
      const left = withoutProblems(v.problems, cleared);
      const to: Status = left.length === 0 ? "active" : "suspect";
      if (to !== v.status || left.length !== v.problems.length) {
        current = move(
          env,
          current,
          to,
          left,
          `re-verification passed${options.live ? " (live)" : ""}`,
          evidence,
        );
        if (to === "active") current = deprecateOthers(env, current);
      }
    }
  } else if (v.status === "verified" || v.status === "active" || v.status === "suspect") {
    current = move(
      env,
      current,
      "deprecated",
      v.problems,
      `re-verification failed: ${reportSummary(report)}`,
      evidence,
    );
  }
  const verdict = toVerdict(current, current.status, report);
  env.store.setVerification(v.name, v.version, verdict, report.baselineTokens);
  return verdict;
}

/** Makes a verified version active and deprecates the previously active one. */
function activate(env: RegistryEnv, v: VersionRecord, reason: string): VersionRecord {
  const active = move(env, v, "active", [], reason);
  return deprecateOthers(env, active);
}

function deprecateOthers(env: RegistryEnv, active: VersionRecord): VersionRecord {
  for (const other of env.store.listVersions({ name: active.name })) {
    if (other.version === active.version) continue;
    if (other.status === "active" || other.status === "suspect") {
      move(env, other, "deprecated", other.problems, `replaced by v${active.version}`);
    }
  }
  return active;
}

/**
 * `promote`: without a version, the newest verified one. A deprecated or suspect version must re-pass
 * verification first (rollback); after a runtime failure only `verify --live` can clear it.
 */
export async function promote(
  env: RegistryEnv,
  name: string,
  options: { version?: number } = {},
): Promise<VersionRecord> {
  const v = resolveVersion(env.store, name, options.version, "newest-verified");
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
  if (v.status === "verified") return activate(env, v, "promoted");
  // Rollback or recovery: re-pass verification against the current base tools first.
  const report = await runChecks(env, v, env.store.readCode(v.name, v.version));
  if (!report.passed) {
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} cannot be promoted: ${reportSummary(report)}`,
    );
  }
  env.store.setDependencies(v.name, v.version, report.dependencies);
  env.store.setVerification(v.name, v.version, toVerdict(v, "active", report), report.baselineTokens);
  return activate(
    env,
    v,
    v.status === "deprecated" ? "rollback: re-verification passed" : "promoted after re-verification",
  );
}

/** `deprecate`: legal from any status but deprecated; needs only the store. */
export function deprecate(
  store: Store,
  name: string,
  options: { version?: number; reason?: string; onExposureChange?: () => void } = {},
): VersionRecord {
  const v = resolveVersion(store, name, options.version, "active");
  if (v.status === "deprecated")
    throw new DistillError("TRANSITION", `${name} v${v.version} is already deprecated`);
  const ok = store.setStatus({
    name,
    version: v.version,
    expect: v.status,
    to: "deprecated",
    problems: v.problems,
    reason: options.reason ?? "deprecated by the user",
  });
  if (!ok)
    throw new DistillError(
      "TRANSITION",
      `${name} v${v.version} changed while this command ran; run it again`,
    );
  if (isExposed(v.status, v.problems)) options.onExposureChange?.();
  return { ...v, status: "deprecated" };
}

/** Adds an open problem: an active version becomes suspect; a suspect one gains the problem. */
export function addProblem(
  env: RegistryEnv,
  v: VersionRecord,
  problem: OpenProblem,
  reason: string,
  evidence?: unknown,
): VersionRecord {
  if (v.status !== "active" && v.status !== "suspect") return v;
  const problems = withProblem(v.problems, problem);
  if (v.status === "suspect" && problems.length === v.problems.length) return v;
  return move(env, v, "suspect", problems, reason, evidence);
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

/** An exposed version as an Anthropic tool definition. */
export function toolDefinition(v: VersionRecord): ToolDef {
  return { name: v.name, description: v.description, input_schema: v.inputSchema };
}
