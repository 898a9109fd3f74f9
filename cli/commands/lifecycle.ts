/** `promote`, `deprecate`, `verify` and `prune`: moving versions through their lifecycle. */
import { DistillError } from "../../core/index.ts";
import {
  deprecate as deprecateVersion,
  isPlainObject,
  planText,
  promotionPreview,
  prune as pruneVersions,
} from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output, outputVerdict, promotionText, versionRow } from "../format.ts";
import { withLibrary, withRegistry } from "../project.ts";

/**
 * Makes a version active (default: the newest verified one); a rollback re-verifies first. Prints the code that
 * becomes active and, when it replaces an active version, the diff against it.
 */
export async function promote(ctx: ContextOf<"promote">): Promise<number> {
  return withLibrary(ctx, async (td) => {
    const preview = await promotionPreview(td.store, ctx.args.name, ctx.options.version);
    const v = await td.promote(ctx.args.name, ctx.options);
    const { successes } = await td.store.getRunStats(v.name, v.version);
    output(ctx, { ...versionRow(v, successes), ...preview }, () => promotionText(v, preview));
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

/** Re-runs the three checks on a version (or, with --dry-run, prints the plan of --live); exits 1 when one fails. */
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
    return outputVerdict(ctx, verdict) ? EXIT.ok : EXIT.error;
  });
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
