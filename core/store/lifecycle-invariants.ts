/**
 * The lifecycle invariants of a store, checked whenever it opens. Every lifecycle change is one transaction,
 * so a crash leaves none of these broken; a store written by an older build, edited by hand or restored from a
 * mismatched backup may. The safe repairs (the outcome an interrupted command was heading for, or dropping a
 * flag that no longer means anything) happen at open; the rest need a verification and name the command.
 */
import { errorMessage } from "../errors.ts";
import type { Logger, Status } from "../types.ts";
import { type VersionRecord, versionKey } from "./records.ts";
import type { RegistryData } from "./registry-store.ts";

/** One broken invariant: what is wrong, and either the automatic repair or the command that fixes it. */
export interface LifecycleProblem {
  name: string;
  versions: number[];
  message: string;
  /** What the open check (writable) and `doctor --fix` do about it; null when only `command` can fix it. */
  repair: string | null;
  /** The command a person runs when there is no automatic repair. */
  command: string | null;
  /** Applies the repair; called inside one transaction with every other repair. */
  apply?: (tx: RegistryData) => Promise<unknown>;
}

const REPAIRED = "repaired when the store was opened";

/** Statuses a version only reaches with a verdict, stored in the same transaction. */
const NEEDS_VERDICT: readonly Status[] = ["verified", "active", "suspect", "rejected", "superseded"];
/** Statuses that are never rebuilt. */
const NEVER_REBUILT: readonly Status[] = ["deprecated", "rejected", "superseded"];

/** Every broken invariant, by tool name then version. Reads only. */
export async function checkLifecycle(store: RegistryData): Promise<LifecycleProblem[]> {
  const versions = await store.listVersions();
  if (versions.length === 0) return [];
  const problems: LifecycleProblem[] = [];
  const byName = new Map<string, VersionRecord[]>();
  for (const v of versions) byName.set(v.name, [...(byName.get(v.name) ?? []), v]);

  // At most one active version per tool: the one that became active last is what the interrupted promote meant.
  for (const [name, all] of byName) {
    const active = all.filter((v) => v.status === "active");
    if (active.length < 2) continue;
    const order = new Map<VersionRecord, number>();
    for (const v of active) order.set(v, await store.lastActivation(v.name, v.version));
    const keep = active.reduce((a, b) => (order.get(b)! > order.get(a)! ? b : a));
    const others = active.filter((v) => v !== keep);
    problems.push({
      name,
      versions: active.map((v) => v.version),
      message: `${name} has ${active.length} active versions (${active.map((v) => `v${v.version}`).join(", ")})`,
      repair: `v${keep.version}, which became active last, stays active; ${others.map((v) => `v${v.version}`).join(", ")} deprecated`,
      command: null,
      apply: async (tx) => {
        for (const v of others) {
          await tx.setStatus({
            name,
            version: v.version,
            expect: "active",
            to: "deprecated",
            problems: v.problems,
            reason: `${REPAIRED}: v${keep.version} was active too and became active last`,
          });
        }
      },
    });
  }

  const history = new Map((await store.latestHistory()).map((h) => [versionKey(h), h]));
  for (const v of versions) {
    const id = `${v.name} v${v.version}`;
    // Only a version agents use or may use again is rebuilt: a flag on any other means nothing.
    if (NEVER_REBUILT.includes(v.status) && v.queuedRebuild) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but still queued for a rebuild`,
        repair: "the rebuild queue flag is cleared",
        command: null,
        apply: (s) => s.setQueuedRebuild(v.name, v.version, false, null),
      });
    }
    if (NEEDS_VERDICT.includes(v.status) && v.verdict === null) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but has no stored verdict (an interrupted verification)`,
        repair: null,
        command: `run \`tooldistill verify ${v.name} --version ${v.version}\``,
      });
    }
    if (v.status === "active" && v.problems.length > 0) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is active with open problems (${v.problems.join(", ")})`,
        repair: "it becomes suspect, as every open problem makes it",
        command: null,
        apply: (s) =>
          s.setStatus({
            name: v.name,
            version: v.version,
            expect: "active",
            to: "suspect",
            problems: v.problems,
            reason: `${REPAIRED}: active with open problems`,
          }),
      });
    }
    if (v.status === "suspect" && v.problems.length === 0) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is suspect without an open problem`,
        repair: null,
        command: `run \`tooldistill verify ${v.name} --version ${v.version}\` (a pass makes it active again)`,
      });
    }
    const last = history.get(versionKey(v));
    if (last && last.to !== v.status) {
      problems.push({
        name: v.name,
        versions: [v.version],
        message: `${id} is ${v.status} but its history ends at ${last.to}`,
        repair: `the history records the change to ${v.status}`,
        command: null,
        apply: (s) =>
          s.addHistory({
            name: v.name,
            version: v.version,
            from: last.to,
            to: v.status,
            reason: `${REPAIRED}: the history lacked this change`,
            evidence: null,
          }),
      });
    }
  }
  return problems;
}

/**
 * The check a store runs when it opens: repairs the safe problems in one transaction when writable, warns about
 * the rest (naming the command that fixes each) and returns what is left.
 */
export async function checkOnOpen(
  store: RegistryData,
  readOnly: boolean,
  logger: Logger,
): Promise<LifecycleProblem[]> {
  const found = await checkLifecycle(store);
  if (found.length === 0) return [];
  const repairable = found.filter((p) => p.repair !== null);
  let left = found;
  if (!readOnly && repairable.length > 0) {
    try {
      await store.transaction(async (tx) => {
        for (const p of repairable) await p.apply?.(tx);
      });
      for (const p of repairable) logger.warn(`tooldistill: repaired the store: ${p.message}; ${p.repair}`);
      left = found.filter((p) => p.repair === null);
    } catch (err) {
      logger.warn(`tooldistill: could not repair the store now: ${errorMessage(err)}`);
    }
  }
  for (const p of left) {
    const fix = p.command ?? "run `tooldistill doctor --fix`";
    logger.warn(`tooldistill: ${p.message}: ${fix}`);
  }
  return left;
}
