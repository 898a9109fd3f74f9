import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  withLibrary,
  withRegistry
} from "./chunk-3OFSVOJB.js";
import {
  output,
  outputVerdict,
  promotionText,
  versionRow
} from "./chunk-UI6PSFEU.js";
import {
  EXIT
} from "./chunk-PLXZKH3A.js";
import "./chunk-6XGZWFWT.js";
import "./chunk-BD5LZ5WU.js";
import "./chunk-I5S26EEK.js";
import "./chunk-VDJMRFMR.js";
import {
  deprecate,
  isExposed,
  planText,
  prune
} from "./chunk-ASUB56OA.js";
import {
  promotionPreview,
  resolveVersion
} from "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import "./chunk-RTC3Y7I5.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import "./chunk-UEVEZT5O.js";
import "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import {
  isPlainObject
} from "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";

// cli/commands/lifecycle.ts
async function promote(ctx) {
  return withLibrary(ctx, async (td) => {
    const target = await resolveVersion(td.store, ctx.args.name, ctx.options.version, "newest-verified");
    const preview = await promotionPreview(td.store, ctx.args.name, ctx.options.version);
    const v = await td.promote(ctx.args.name, ctx.options);
    const { successes } = await td.store.getRunStats(v.name, v.version);
    const already = target.status === "active";
    output(
      ctx,
      { ...versionRow(v, successes), ...preview, already_active: already },
      () => already ? `${v.name} v${v.version} is already active: nothing changed` : promotionText(v, preview)
    );
    return EXIT.ok;
  });
}
async function deprecate2(ctx) {
  return withRegistry(ctx, async (store) => {
    const v = await deprecate({ store, exposureChanged: () => {
    } }, ctx.args.name, ctx.options);
    const { successes } = await store.getRunStats(v.name, v.version);
    output(ctx, versionRow(v, successes), () => `${v.name} v${v.version}: deprecated`);
    return EXIT.ok;
  });
}
async function verify(ctx) {
  const { version, live } = ctx.options;
  const allowWrites = ctx.options["allow-writes"];
  const options = { ...version === void 0 ? {} : { version }, ...freshInput(ctx.options) };
  return withLibrary(ctx, async (td) => {
    if (ctx.options["dry-run"]) {
      const plan = await td.planLiveVerification(ctx.args.name, { ...options, allowWrites });
      output(ctx, plan, () => planText(plan));
      return EXIT.ok;
    }
    const verdict = await td.verify(ctx.args.name, { ...options, live, allowWrites });
    if (!outputVerdict(ctx, verdict)) return EXIT.error;
    return await stillOutOfUse(td.store, verdict) ? EXIT.stillSuspect : EXIT.ok;
  });
}
async function stillOutOfUse(store, verdict) {
  if (verdict.status !== "suspect") return false;
  const v = await store.getVersion(verdict.name, verdict.version);
  return v !== null && !isExposed(v.status, v.problems);
}
function freshInput(options) {
  const { input, trace, live } = options;
  if ((input !== void 0 || trace !== void 0) && !live) {
    throw new DistillError(
      "USAGE",
      "--input and --trace go with --live: tooldistill verify <name> --live --input '<json>'"
    );
  }
  const out = trace === void 0 ? {} : { trace };
  if (input === void 0) return out;
  let parsed;
  try {
    parsed = JSON.parse(input);
  } catch (err) {
    throw new DistillError(
      "USAGE",
      `--input must be a JSON object, the tool's input (${err.message})`
    );
  }
  if (!isPlainObject(parsed))
    throw new DistillError("USAGE", "--input must be a JSON object, the tool's input");
  return { ...out, input: parsed };
}
async function prune2(ctx) {
  const days = ctx.options["older-than"];
  return withRegistry(ctx, async (store) => {
    const pruned = await prune(store, days === void 0 ? {} : { olderThanDays: days });
    output(
      ctx,
      pruned,
      () => pruned.length === 0 ? `nothing to prune${days === void 0 ? "" : ` older than ${days} days`}` : [
        ...pruned.map((p) => `removed ${p.name} v${p.version} (${p.status} since ${p.since})`),
        `${pruned.length} version${pruned.length === 1 ? "" : "s"} removed; the traces they came from are kept`
      ].join("\n")
    );
    return EXIT.ok;
  });
}
export {
  deprecate2 as deprecate,
  promote,
  prune2 as prune,
  verify
};
