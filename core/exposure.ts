/**
 * Which distilled tool versions agents are offered, how they are offered, and why a tool of a given name is not.
 */
import { isExposed } from "./lifecycle.ts";
import type { RegistryData } from "./registry-store.ts";
import type { Store, VersionRecord } from "./store.ts";
import type { Status, ToolDef } from "./types.ts";

/** Statuses of versions that passed verification and were or could have been used. */
const IN_USE_ONCE: readonly Status[] = ["verified", "active", "suspect", "deprecated"];

/** An exposed version and its successful runs (the order in which versions are offered). */
export interface ExposedCandidate {
  v: VersionRecord;
  runs: number;
}

/** Every exposed version (active, or suspect with only a recovered avoided tool) with its successful runs. */
export async function exposedCandidates(store: RegistryData): Promise<ExposedCandidate[]> {
  const exposed = (await store.listVersions()).filter((v) => isExposed(v.status, v.problems));
  const stats = await Promise.all(exposed.map((v) => store.getRunStats(v.name, v.version)));
  return exposed.map((v, i) => ({ v, runs: stats[i]!.successes }));
}

/** The same, read synchronously from the embedded store (the SQLite constructor, the plugin's early list). */
export function exposedCandidatesSync(store: Store): ExposedCandidate[] {
  return store
    .listVersions()
    .filter((v) => isExposed(v.status, v.problems))
    .map((v) => ({ v, runs: store.getRunStats(v.name, v.version).successes }));
}

/** The versions offered: one per name (the newest), by successful runs, capped at `max`. */
export function pickExposed(candidates: readonly ExposedCandidate[], max: number): VersionRecord[] {
  // One exposed version per name: the newest wins if both an active and a recovering suspect exist.
  const byName = new Map<string, ExposedCandidate>();
  for (const c of candidates) {
    const prev = byName.get(c.v.name);
    if (!prev || c.v.version > prev.v.version) byName.set(c.v.name, c);
  }
  return [...byName.values()]
    .sort((a, b) => b.runs - a.runs || a.v.name.localeCompare(b.v.name))
    .slice(0, Math.max(0, max))
    .map((c) => c.v);
}

/** Exposed versions, by successful runs, capped (read from the store now). */
export async function exposedVersions(store: RegistryData, max: number): Promise<VersionRecord[]> {
  return pickExposed(await exposedCandidates(store), max);
}

/** The same, synchronously, from the embedded store. */
export function exposedVersionsSync(store: Store, max: number): VersionRecord[] {
  return pickExposed(exposedCandidatesSync(store), max);
}

/**
 * Why a distilled tool of that name cannot be called now, for the model (and the person reading the trace):
 * disabled after a failure, deprecated, not promoted yet, or only a draft. Null when no version has the name.
 */
export async function unavailableReason(
  store: RegistryData,
  name: string,
  maxExposed: number,
): Promise<string | null> {
  const versions = await store.listVersions({ name });
  if (versions.length === 0) return null;
  if (versions.some((v) => isExposed(v.status, v.problems))) {
    return `the distilled tool '${name}' is active but not offered now: max_exposed_tools (${maxExposed}) offers only the most used distilled tools. Complete the task with the base tools.`;
  }
  const last = async (v: VersionRecord) =>
    (await store.getHistory(v.name, v.version)).at(-1)?.reason ?? "no reason recorded";
  const newest = (status: Status) => versions.filter((v) => v.status === status).at(-1);
  const suspect = newest("suspect");
  const verified = newest("verified");
  const deprecated = newest("deprecated");
  let why: string;
  if (suspect) {
    why = `the distilled tool '${name}' is disabled: v${suspect.version} is suspect (${suspect.problems.join(", ")}: ${await last(suspect)}) until it passes verification again`;
  } else if (verified) {
    why = `the distilled tool '${name}' is not active yet: v${verified.version} passed verification and waits for a person to run tooldistill promote ${name}`;
  } else if (deprecated && deprecated === versions.filter((v) => IN_USE_ONCE.includes(v.status)).at(-1)) {
    why = `the distilled tool '${name}' was taken out of use: v${deprecated.version} is deprecated (${await last(deprecated)})`;
  } else {
    const draft = newest("draft");
    const rejected = newest("rejected");
    why = draft
      ? `the distilled tool '${name}' has not passed verification: v${draft.version} is a draft`
      : rejected
        ? `the distilled tool '${name}' has not passed verification: v${rejected.version} was rejected (${await last(rejected)})`
        : `the distilled tool '${name}' has no version in use (${versions.map((v) => `v${v.version} ${v.status}`).join(", ")})`;
  }
  return `${why}. Complete the task with the base tools.`;
}

/** An exposed version as an Anthropic tool definition. */
export function toolDefinition(v: VersionRecord): ToolDef {
  // The static check made sure the schema is an object schema.
  return { name: v.name, description: v.description, input_schema: { ...v.inputSchema, type: "object" } };
}
