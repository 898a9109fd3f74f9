/** `promote`, `deprecate`, `verify` and `prune`: moving versions through their lifecycle. */

import type { RegistryData, Verdict } from "../../core/index.ts";
import { DistillError } from "../../core/index.ts";
import {
  deprecate as deprecateVersion,
  isExposed,
  isPlainObject,
  planText,
  promotionPreview,
  prune as pruneVersions,
  resolveVersion,
} from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output, outputVerdict, promotionText, versionRow } from "../format.ts";
import { withLibrary, withRegistry } from "../project.ts";

/**
 * Makes a version active (default: the newest verified one, else the active one); a rollback re-verifies first.
 * Prints the code that becomes active and, when it replaces an active version, the diff against it. The version
 * that is already active, named or not, is one answer: nothing changes and it exits 0.
 */
export async function promote(ctx: ContextOf<"promote">): Promise<number> {
  return withLibrary(ctx, async (td) => {
    const target = await resolveVersion(td.store, ctx.args.name, ctx.options.version, "newest-verified");
    const preview = await promotionPreview(td.store, ctx.args.name, ctx.options.version);
    const v = await td.promote(ctx.args.name, ctx.options);
    const { successes } = await td.store.getRunStats(v.name, v.version);
    const already = target.status === "active";
    output(ctx, { ...versionRow(v, successes), ...preview, already_active: already }, () =>
      already ? `${v.name} v${v.version} is already active: nothing changed` : promotionText(v, preview),
    );
    return EXIT.ok;
  });
}

/** Deprecates a version (default: the active one). */
export async function deprecate(ctx: ContextOf<"deprecate">): Promise<number> {
  // Deprecating needs no executor or tools: the store alone, through the lifecycle's own rule.
  return withRegistry(ctx, async (store) => {
    const v = await deprecateVersion({ store, exposureChanged: () => {} }, ctx.args.name, ctx.options);
    const { successes } = await store.getRunStats(v.name, v.version);
    output(ctx, versionRow(v, successes), () => `${v.name} v${v.version}: deprecated`);
    return EXIT.ok;
  });
}

/**
 * Re-runs the three checks on a version (default: the active one, else the newest suspect one) or, with --dry-run,
 * prints the plan of --live. Exits 1 when a check fails, 3 when they pass and the version stays suspect.
 */
export async function verify(ctx: ContextOf<"verify">): Promise<number> {
  const { version, live } = ctx.options;
  const allowWrites = ctx.options["allow-writes"];
  const options = { ...(version === undefined ? {} : { version }), ...freshInput(ctx.options) };
  return withLibrary(ctx, async (td) => {
    if (ctx.options["dry-run"]) {
      const plan = await td.planLiveVerification(ctx.args.name, { ...options, allowWrites });
      output(ctx, plan, () => planText(plan));
      return EXIT.ok;
    }
    const verdict = await td.verify(ctx.args.name, { ...options, live, allowWrites });
    if (!outputVerdict(ctx, verdict)) return EXIT.error;
    return (await stillOutOfUse(td.store, verdict)) ? EXIT.stillSuspect : EXIT.ok;
  });
}

/**
 * A pass that leaves the version suspect and not offered is not "usable again": CI must be able to tell (exit 3).
 * A suspect version whose only problem is a recovered avoided tool is still offered, so it is not.
 */
async function stillOutOfUse(store: RegistryData, verdict: Verdict): Promise<boolean> {
  if (verdict.status !== "suspect") return false;
  const v = await store.getVersion(verdict.name, verdict.version);
  return v !== null && !isExposed(v.status, v.problems);
}

/** `--input <json>` and `--trace <id>`: the fresh input of `verify --live`, checked before anything opens. */
function freshInput(options: ContextOf<"verify">["options"]): {
  input?: Record<string, unknown>;
  trace?: string;
} {
  const { input, trace, live } = options;
  if ((input !== undefined || trace !== undefined) && !live) {
    throw new DistillError(
      "USAGE",
      "--input and --trace go with --live: tooldistill verify <name> --live --input '<json>'",
    );
  }
  const out: { input?: Record<string, unknown>; trace?: string } = trace === undefined ? {} : { trace };
  if (input === undefined) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch (err) {
    throw new DistillError(
      "USAGE",
      `--input must be a JSON object, the tool's input (${(err as Error).message})`,
    );
  }
  if (!isPlainObject(parsed))
    throw new DistillError("USAGE", "--input must be a JSON object, the tool's input");
  return { ...out, input: parsed };
}

/** Removes rejected and superseded versions (older than N days with --older-than). */
export async function prune(ctx: ContextOf<"prune">): Promise<number> {
  const days = ctx.options["older-than"];
  return withRegistry(ctx, async (store) => {
    const pruned = await pruneVersions(store, days === undefined ? {} : { olderThanDays: days });
    output(ctx, pruned, () =>
      pruned.length === 0
        ? `nothing to prune${days === undefined ? "" : ` older than ${days} days`}`
        : [
            ...pruned.map((p) => `removed ${p.name} v${p.version} (${p.status} since ${p.since})`),
            `${pruned.length} version${pruned.length === 1 ? "" : "s"} removed; the traces they came from are kept`,
          ].join("\n"),
    );
    return EXIT.ok;
  });
}
