/**
 * What a trace keeps in memory of its own run (see `Trace`): a new run's state, and a stored run's read back.
 */
import type { RegistryData } from "../store/registry-store.ts";
import type { DistillContext } from "../tool-distill/context.ts";
import type { UsageTotals } from "../types.ts";

/** What a trace knows of its own run, kept in memory so that its synchronous methods never wait on the store. */
export interface TraceState {
  outcome: boolean | null;
  usage: UsageTotals;
  proposed: boolean;
  nudged: boolean;
  replaceName: string | null;
  /** Top-level base calls that finished (ok or error). */
  baseCalls: number;
}

/** The state of a run nothing was recorded for yet. */
export function newTraceState(): TraceState {
  return {
    outcome: null,
    usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    proposed: false,
    nudged: false,
    replaceName: null,
    baseCalls: 0,
  };
}

/** A stored trace's task and state (for `openTrace`), or null when there is no such trace. */
export async function loadTrace(
  ctx: { store: Pick<DistillContext["store"], "getTrace" | "getTraceFlags" | "countTopLevelBaseCalls"> },
  id: string,
): Promise<{ task: string; state: TraceState } | null> {
  const [t, flags, baseCalls] = await Promise.all([
    ctx.store.getTrace(id),
    ctx.store.getTraceFlags(id),
    ctx.store.countTopLevelBaseCalls(id),
  ]);
  if (!t) return null;
  const state: TraceState = {
    outcome: t.outcome,
    usage: { ...t.usage },
    proposed: flags.proposed,
    nudged: flags.nudged,
    replaceName: flags.replaceName,
    baseCalls,
  };
  return { task: t.task, state };
}

/** The "worth distilling" rule over a run's state: the one rule for the SDK's traces and the plugin's spans. */
export function isWorthDistilling(state: TraceState, minCallsToDistill: number): boolean {
  if (state.outcome !== true || state.proposed) return false;
  if (state.replaceName) return true;
  return state.baseCalls >= minCallsToDistill;
}

/** The same rule over a stored trace (the plugin's SessionEnd hook, which has no Trace of its own). */
export async function worthDistilling(
  data: RegistryData,
  traceId: string,
  minCallsToDistill: number,
): Promise<boolean> {
  const stored = await loadTrace({ store: data }, traceId);
  return stored !== null && isWorthDistilling(stored.state, minCallsToDistill);
}
