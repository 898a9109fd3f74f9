/** `promote`, `deprecate` and `verify`: moving a version through its lifecycle. */
import { deprecate as deprecateVersion } from "../../core/internal.ts";
import { type ContextOf, EXIT } from "../commands.ts";
import { output, outputVerdict, versionRow } from "../format.ts";
import { withLibrary, withStore } from "../project.ts";

/** Makes a version active (default: the newest verified one); a rollback re-verifies first. */
export async function promote(ctx: ContextOf<"promote">): Promise<number> {
  return withLibrary(ctx, async (td) => {
    const v = await td.promote(ctx.args.name, ctx.options);
    output(ctx, versionRow(td.store, v), () => `${v.name} v${v.version}: active`);
    return EXIT.ok;
  });
}

/** Deprecates a version (default: the active one). */
export async function deprecate(ctx: ContextOf<"deprecate">): Promise<number> {
  // Deprecating needs no executor or tools: the store alone, through the lifecycle's own rule.
  return withStore(ctx, "write", (store) => {
    const v = deprecateVersion({ store, exposureChanged: () => {} }, ctx.args.name, ctx.options);
    output(ctx, versionRow(store, v), () => `${v.name} v${v.version}: deprecated`);
    return EXIT.ok;
  });
}

/** Re-runs the three checks on a version; exits 1 when one fails. */
export async function verify(ctx: ContextOf<"verify">): Promise<number> {
  return withLibrary(ctx, async (td) => {
    const verdict = await td.verify(ctx.args.name, ctx.options);
    return outputVerdict(ctx, verdict) ? EXIT.ok : EXIT.error;
  });
}
