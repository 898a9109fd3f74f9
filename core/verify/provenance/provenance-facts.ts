/**
 * What the provenance rule reads from the store besides the source run: the base calls of the source runs of
 * the earlier verified versions of the same tool. A replacement (a rebuild after a base tool recovered, say)
 * may pass a tool that may write the constants and formats an earlier version was verified with, though its
 * own source run took another path.
 */

import type { VersionRecord } from "../../store/records.ts";
import type { RegistryData } from "../../store/registry-store.ts";
import type { RunCall } from "./provenance-run.ts";

/** Most earlier versions whose source runs are read: the newest ones. */
export const MAX_EARLIER_VERSIONS = 10;

/** The finished base calls of the source runs of earlier, once verified versions of `version`'s tool. */
export async function earlierRunCalls(store: RegistryData, version: VersionRecord): Promise<RunCall[]> {
  const earlier = (await store.listVersions({ name: version.name }))
    .filter((v) => v.version < version.version && v.status !== "draft" && v.status !== "rejected")
    .sort((a, b) => b.version - a.version)
    .slice(0, MAX_EARLIER_VERSIONS);
  const traces = new Set(
    earlier.flatMap((v) => (v.sourceTrace && v.sourceTrace !== version.sourceTrace ? [v.sourceTrace] : [])),
  );
  const out: RunCall[] = [];
  for (const trace of traces) {
    for (const c of await store.getCalls(trace)) {
      if (c.kind === "base" && c.status !== "started")
        out.push({ tool: c.tool, args: c.args, ok: c.status === "ok" });
    }
  }
  return out;
}
