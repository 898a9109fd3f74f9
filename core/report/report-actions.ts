/** The report's base tool health and its next actions: what a person can do now, with the command. Pure. */
import type { BaseHealthRecord, VersionRecord } from "../store/records.ts";

/** One base tool's calls in the period and its recorded health. */
export interface BaseToolReport {
  tool: string;
  calls: number;
  errors: number;
  /** Infrastructure failures since it last answered (0: healthy as far as calls show). */
  consecutiveFailures: number;
  lastError: string | null;
  lastOkAt: string | null;
  probeOk: boolean | null;
}

/** Something a person can do now, with the command that does it. */
export interface ReportAction {
  kind: "promote" | "rebuild" | "verify" | "base-tool";
  tool: string;
  version: number | null;
  command: string;
  why: string;
}

/** Each base tool seen in the period's calls or in the health table: its calls, errors and health. */
export function baseToolReports(
  seen: Map<string, { calls: number; errors: number }>,
  health: BaseHealthRecord[],
): BaseToolReport[] {
  const names = new Set([...seen.keys(), ...health.map((h) => h.tool)]);
  return [...names].sort().map((tool) => {
    const h = health.find((x) => x.tool === tool);
    return {
      tool,
      calls: seen.get(tool)?.calls ?? 0,
      errors: seen.get(tool)?.errors ?? 0,
      consecutiveFailures: h?.consecutive ?? 0,
      lastError: h?.lastError ?? null,
      lastOkAt: h?.lastOkAt ?? null,
      probeOk: h?.probeOk ?? null,
    };
  });
}

/** What a person can do now: promote a waiting version, run a queued rebuild, re-verify a suspect one. */
export function actionsOf(versions: VersionRecord[], health: BaseHealthRecord[]): ReportAction[] {
  const out: ReportAction[] = [];
  for (const v of versions) {
    const at = { tool: v.name, version: v.version };
    if (v.status === "verified") {
      const why = v.verdict?.evidence.promotion ?? "verified; waits for a person to promote it";
      out.push({
        kind: "promote",
        ...at,
        command: `tooldistill promote ${v.name} --version ${v.version}`,
        why,
      });
    }
    if (v.queuedRebuild) {
      const why = v.rebuildNote ?? "queued for a rebuild";
      out.push({ kind: "rebuild", ...at, command: `tooldistill rebuild ${v.name}`, why });
    }
    if (v.status === "suspect") {
      const why = `suspect: ${v.problems.join(", ") || "open problems"}`;
      out.push({
        kind: "verify",
        ...at,
        command: `tooldistill verify ${v.name} --version ${v.version}`,
        why,
      });
    }
  }
  for (const h of health) {
    if (h.consecutive === 0) continue;
    const why = `${h.consecutive} infrastructure failure(s) in a row: ${h.lastError ?? "?"}`;
    out.push({ kind: "base-tool", tool: h.tool, version: null, command: "tooldistill health", why });
  }
  return out;
}
