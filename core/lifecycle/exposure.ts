/**
 * Which distilled tool versions agents are offered, how they are offered, and why a tool of a given name is not.
 * What a proposer can manufacture (many tools, runs of its own tools) never decides it alone: a tool a person
 * promoted is always offered; of the other slots a share is kept for new tools, oldest first; and no proposing
 * session takes more than its share while another's tool waits. The ranking is written down in docs/lifecycle.md.
 */

import { PROMOTED_BY_A_PERSON } from "../base-tools/tool-effects.ts";
import { type RunStats, type VersionRecord, versionKey } from "../store/records.ts";
import type { RegistryData } from "../store/registry-store.ts";
import type { Status, ToolDef } from "../types.ts";
import { isExposed } from "./lifecycle.ts";

/** Statuses of versions that passed verification and were or could have been used. */
const IN_USE_ONCE: readonly Status[] = ["verified", "active", "suspect", "deprecated"];

/** An exposed version and its successful runs (the order in which versions are offered). */
export interface ExposedCandidate {
  v: VersionRecord;
  runs: number;
}

/** Every exposed version (active, or suspect with only a recovered avoided tool) with its successful runs. */
export async function exposedCandidates(store: RegistryData): Promise<ExposedCandidate[]> {
  return candidatesOf(await store.listVersions(), await store.allRunStats());
}

/** The exposed versions among `versions`, each with its successful runs from `stats`. */
export function candidatesOf(
  versions: readonly VersionRecord[],
  stats: readonly RunStats[],
): ExposedCandidate[] {
  const successes = new Map(stats.map((s) => [versionKey(s), s.successes]));
  return exposedOf(versions).map((v) => ({ v, runs: successes.get(versionKey(v)) ?? 0 }));
}

/** The versions that may be offered at all (active, or suspect with only a recovered avoided tool). */
export function exposedOf(versions: readonly VersionRecord[]): VersionRecord[] {
  return versions.filter((v) => isExposed(v.status, v.problems));
}

/** A tool with fewer successful runs than this is new: new tools share the reserved slots, oldest first. */
export const NEW_TOOL_RUNS = 3;

/** The share of the slots (after person-promoted tools) kept for new tools, and the most one proposer may take. */
const NEW_SHARE = 1 / 4;
const PROPOSER_SHARE = 1 / 4;

/** True when a person promoted the version (`promote`), not auto_promote. */
export function promotedByPerson(v: VersionRecord): boolean {
  return v.verdict?.evidence.promotion === PROMOTED_BY_A_PERSON;
}

/**
 * Who proposed a version, for the per-proposer cap: its source run, with a Claude Code span's `.N` dropped so
 * every span of one session is one proposer. A version without a source run is its own proposer.
 */
export function proposerOf(v: VersionRecord): string {
  return v.sourceTrace === null ? `version:${v.name}` : v.sourceTrace.replace(/\.\d+$/, "");
}

/**
 * The versions offered, one per name (the newest): every version a person promoted (unless `max` is 0); then, within `max` minus
 * those, a share (a quarter, at least one) for new tools (fewer than NEW_TOOL_RUNS successful runs) oldest first,
 * then the rest by successful runs, at most a quarter of `max` (at least one) per proposer; slots left only by
 * that cap go last, by the same ranking. Listed by successful runs, then name.
 */
export function pickExposed(candidates: readonly ExposedCandidate[], max: number): VersionRecord[] {
  // One exposed version per name: the newest wins if both an active and a recovering suspect exist.
  const byName = new Map<string, ExposedCandidate>();
  for (const c of candidates) {
    const prev = byName.get(c.v.name);
    if (!prev || c.v.version > prev.v.version) byName.set(c.v.name, c);
  }
  // max_exposed_tools: 0 turns the offer off, person-promoted tools too.
  if (max <= 0) return [];
  const all = [...byName.values()];
  const person = all.filter((c) => promotedByPerson(c.v));
  const rest = all.filter((c) => !promotedByPerson(c.v));
  const slots = Math.max(0, max - person.length);
  const perProposer = Math.max(1, Math.ceil(max * PROPOSER_SHARE));
  const byRuns = (a: ExposedCandidate, b: ExposedCandidate) =>
    b.runs - a.runs || a.v.name.localeCompare(b.v.name);
  const byAge = (a: ExposedCandidate, b: ExposedCandidate) =>
    a.v.createdAt.localeCompare(b.v.createdAt) || a.v.name.localeCompare(b.v.name);
  const fresh = rest.filter((c) => c.runs < NEW_TOOL_RUNS).sort(byAge);
  const picked = new Set<ExposedCandidate>();
  const taken = new Map<string, number>();
  const take = (list: readonly ExposedCandidate[], upTo: number, capped: boolean) => {
    for (const c of list) {
      if (picked.size >= upTo) return;
      const owner = proposerOf(c.v);
      if (picked.has(c) || (capped && (taken.get(owner) ?? 0) >= perProposer)) continue;
      picked.add(c);
      taken.set(owner, (taken.get(owner) ?? 0) + 1);
    }
  };
  if (slots > 0) take(fresh, Math.min(fresh.length, Math.ceil(slots * NEW_SHARE)), true);
  take([...rest].sort(byRuns), slots, true);
  take([...rest].sort(byRuns), slots, false);
  return [...person, ...picked].sort(byRuns).map((c) => c.v);
}

/** Exposed versions as `pickExposed` ranks them (read from the store now). */
export async function exposedVersions(store: RegistryData, max: number): Promise<VersionRecord[]> {
  return pickExposed(await exposedCandidates(store), max);
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
    return `the distilled tool '${name}' is active but not offered now: max_exposed_tools (${maxExposed}) offers the tools a person promoted, then the most used distilled tools, with a share kept for new ones. Complete the task with the base tools.`;
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

/**
 * Why a call of `name` is not served by a client that offers only distilled tools (the plugin's td server): the
 * reason a distilled tool of that name is not offered, or that there is none (a base tool's name included: such a
 * client runs base tools itself, never by name through tooldistill).
 */
export async function notOfferedReason(
  store: RegistryData,
  name: string,
  maxExposed: number,
): Promise<string> {
  return (
    (await unavailableReason(store, name, maxExposed)) ??
    `there is no distilled tool '${name}' in this project; complete the task with the base tools`
  );
}

/** An exposed version as an Anthropic tool definition. */
export function toolDefinition(v: VersionRecord): ToolDef {
  // The static check made sure the schema is an object schema.
  return { name: v.name, description: v.description, input_schema: { ...v.inputSchema, type: "object" } };
}
