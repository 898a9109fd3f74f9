/**
 * How a ToolDistill's traces reach what the recorder must not import (running a distilled tool, a proposal, the
 * fallback distiller) and what decides whether a name is offered: the exposed set in memory, or, for a client that
 * offers only distilled tools (`distilledOnly`), the store at the call.
 */

import { handleProposal } from "../distill/proposal.ts";
import { fallbackDistill } from "../distill/rebuild.ts";
import { exposedVersions, notOfferedReason, unavailableReason } from "../lifecycle/exposure.ts";
import type { ExposureCache } from "../lifecycle/exposure-cache.ts";
import { runExposed } from "../trace/distilled-run.ts";
import type { TraceHost } from "../trace/trace.ts";
import type { DistillContext } from "./context.ts";

/** The host of every trace of one ToolDistill; `ready` resolves when calls may run (the start-up review ended). */
export function traceHost(
  ctx: DistillContext,
  exposure: ExposureCache,
  ready: () => Promise<void>,
): TraceHost {
  const max = ctx.settings.maxExposedTools;
  return {
    ctx,
    ready,
    runDistilled: async (trace, name, input, options = {}) => {
      // Such a client lists from memory but answers from the store: another process may have changed the set a
      // moment ago, and a tool it no longer offers must not run (Claude Code may still call it).
      const offered = options.distilledOnly ? await exposedVersions(ctx.store, max) : exposure.versions();
      const r = await runExposed(ctx, offered, trace, name, input, options);
      if (r && !r.isError && r.notApplicable === undefined) exposure.ran(name);
      return r;
    },
    propose: (trace, input, options) => handleProposal(ctx, trace.id, input, options),
    unavailableReason: (name) => unavailableReason(ctx.store, name, max),
    notOffered: (name) => notOfferedReason(ctx.store, name, max),
    fallbackDistill: (trace) => fallbackDistill(ctx, trace.id),
  };
}
