/**
 * What a proposer may learn of a recorded run. A replacement is replayed against runs of other agents, and its
 * code sees their inputs and answers there: whatever it says about them (an error's text, a check's message, a
 * call's arguments, a tool name it made up) is theirs, not the proposer's. So a run the proposer does not own
 * gives back host facts only: which run, which call by number, which base tool the host knows, which check.
 *
 * The proposer is the version's source trace (the run that proposed it, or the one a distiller or a rebuild worked
 * from). It owns a recorded run when that run is its own trace, or when both are spans of one Claude Code session
 * (ids `<session>.<span>`, source `claude-code`): one session is one agent. A version with no source trace was
 * given by whoever holds the store (the library's caller, the CLI), who can read every run anyway: it owns all.
 */

import type { SandboxFailure } from "../sandbox/types.ts";
import type { RegistryData } from "../store/registry-store.ts";
import { NO_EVIDENCE, type TraceRecord, type Verdict } from "../types.ts";
import { stableStringify } from "../util/canonical.ts";

/** Whether the proposer owns the recorded run of `trace` (see the module's comment for the rule). */
export type OwnsRun = (trace: string) => Promise<boolean>;

/** The ownership rule for the proposer `proposer` (a version's source trace; null: the store's holder). */
export function runOwnership(store: Pick<RegistryData, "getTrace">, proposer: string | null): OwnsRun {
  if (proposer === null) return async () => true;
  const traces = new Map<string, Promise<TraceRecord | null>>();
  const read = (id: string) => {
    let t = traces.get(id);
    if (t === undefined) {
      t = store.getTrace(id);
      traces.set(id, t);
    }
    return t;
  };
  return async (trace) => {
    if (trace === proposer) return true;
    const [mine, theirs] = await Promise.all([read(proposer), read(trace)]);
    if (mine === null || theirs === null) return false;
    if (mine.source !== "claude-code" || theirs.source !== "claude-code") return false;
    const session = sessionOf(mine.id);
    return session !== null && session === sessionOf(theirs.id);
  };
}

/** The session of a Claude Code span's trace id (`<session>.<span>`), or null for an id of another form. */
function sessionOf(traceId: string): string | null {
  const dot = traceId.lastIndexOf(".");
  return dot > 0 && /^\d+$/.test(traceId.slice(dot + 1)) ? traceId.slice(0, dot) : null;
}

/**
 * How a host fact names a call's tool: its name when it is a base tool the host knows (`known`), else a phrase;
 * a name the code made up could carry anything.
 */
export function knownTool(tool: string | undefined, known: (name: string) => boolean): string {
  return tool !== undefined && known(tool) ? `'${tool}'` : "a tool it may not call";
}

/** Why a replay of a run the proposer does not own failed, in host facts only (none of the code's own text). */
export function foreignFailure(f: SandboxFailure, known: (name: string) => boolean): string {
  const call = `call ${f.step ?? "?"} to ${knownTool(f.tool, known)}`;
  if (f.kind === "call_failed" && f.errorCode === "REPLAY") {
    return known(f.tool ?? "")
      ? `${call}: its arguments do not match the tool's current input schema`
      : `${call}: no such base tool`;
  }
  if (f.kind === "call_failed") {
    return `${call} failed as recorded in that run; a distilled tool must follow calls that succeeded`;
  }
  if (f.kind === "check_failed") return "check(result) did not hold";
  if (f.step !== undefined) return `${f.kind.replaceAll("_", " ")} at ${call}`;
  return `${f.kind.replaceAll("_", " ")} (the code's own message is not shown: the run is another agent's)`;
}

/**
 * Why a call of a replay of a run the proposer does not own matched nothing: the step, the tool, and the top-level
 * keys of the tool's input schema in which it differs from the nearest recorded call of that tool (no values).
 */
export function foreignMiss(
  step: number,
  tool: string,
  args: Record<string, unknown>,
  recorded: readonly { index: number; tool: string; args: Record<string, unknown> }[],
  declared: readonly string[],
): string {
  const head = `call ${step} to '${tool}' matches no recorded call`;
  const same = recorded.filter((f) => f.tool === tool);
  if (same.length === 0) return `${head}: that run never called '${tool}'`;
  const differs = (f: { args: Record<string, unknown> }) =>
    declared.filter((k) => stableStringify(f.args[k] ?? null) !== stableStringify(args[k] ?? null));
  let best = same[0]!;
  for (const f of same) if (differs(f).length < differs(best).length) best = f;
  const keys = differs(best);
  const how = keys.length === 0 ? "" : `, differing in ${keys.join(", ")}`;
  return `${head}; nearest recorded: call ${best.index}${how}`;
}

/**
 * The verdict of a version as a proposer who does not own its source run may see it (the same code proposed from
 * another run gets that version's verdict): the outcome and the call arithmetic, not the problems or evidence,
 * which speak of that run.
 */
export function withheldVerdict(v: Verdict): Verdict {
  const withheld = {
    rule: "withheld",
    message: `the same code is ${v.name} v${v.version}, verified from another agent's run: its problems are about that run and are not shown; change the code to have it verified against this run`,
  };
  const check = (c: Verdict["checks"]["static"]) => (c.ok ? c : { ok: false, problems: [withheld] });
  return {
    ...v,
    checks: {
      static: check(v.checks.static),
      replay: check(v.checks.replay),
      efficiency: check(v.checks.efficiency),
    },
    liveCalls: [],
    evidence: { ...NO_EVIDENCE, writes: [...v.evidence.writes] },
  };
}
