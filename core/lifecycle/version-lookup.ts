/**
 * Finding the version a command means, and what `promote` would activate: store reads only.
 */
import { DistillError } from "../errors.ts";
import type { VersionRecord } from "../store/records.ts";
import type { RegistryData } from "../store/registry-store.ts";
import type { Status } from "../types.ts";
import { lineDiff } from "../util/line-diff.ts";

/** Where versions are listed: a registry, or the embedded store read synchronously (the read-only CLI verbs). */
export interface VersionSource {
  listVersions(filter?: { name?: string; status?: Status }): VersionRecord[] | Promise<VersionRecord[]>;
}

/** What `promote` is about to make active: its code and, when it replaces an active version, the diff. */
export interface PromotionPreview {
  version: number;
  code: string;
  replaces: { version: number; diff: string } | null;
}

/** The code `promote` would activate and its diff against the active version (store reads only). */
export async function promotionPreview(
  store: RegistryData,
  name: string,
  version: number | undefined,
): Promise<PromotionPreview> {
  const v = await resolveVersion(store, name, version, "newest-verified");
  const code = await store.readCode(v.name, v.version);
  const active = (await store.listVersions({ name, status: "active" })).find((x) => x.version !== v.version);
  if (!active) return { version: v.version, code, replaces: null };
  const labels = { before: `${name} v${active.version} (active)`, after: `${name} v${v.version}` };
  return {
    version: v.version,
    code,
    replaces: {
      version: active.version,
      diff: lineDiff(await store.readCode(name, active.version), code, labels),
    },
  };
}

/**
 * How a command picks a version when none is given. `active`: the active one (deprecate). `newest-verified`: the
 * newest verified one, else the active one (promote: promoting the version that is already active changes nothing,
 * with or without --version). `active-or-suspect`: the active one, else the newest suspect one (verify: a suspect
 * version is exactly the one a person re-verifies). `active-or-newest`: the active one, else the newest (show).
 */
export type VersionPick = "active" | "newest-verified" | "active-or-suspect" | "active-or-newest";

/** The statuses a pick tries, in order, and how its error names them. */
const PICK_ORDER: Record<Exclude<VersionPick, "active-or-newest">, readonly Status[]> = {
  active: ["active"],
  "newest-verified": ["verified", "active"],
  "active-or-suspect": ["active", "suspect"],
};

/** Finds the version a command means: the given number, or the one `pick` chooses (store reads only). */
export async function resolveVersion(
  store: VersionSource,
  name: string,
  version: number | undefined,
  pick: VersionPick,
): Promise<VersionRecord> {
  const all = await store.listVersions({ name });
  if (all.length === 0) {
    const names = [...new Set((await store.listVersions()).map((v) => v.name))];
    throw new DistillError(
      "NOT_FOUND",
      `no distilled tool named '${name}'${names.length ? ` (known: ${names.join(", ")})` : ""}`,
    );
  }
  if (version !== undefined) {
    const v = all.find((x) => x.version === version);
    if (!v)
      throw new DistillError(
        "NOT_FOUND",
        `${name} has no v${version} (versions: ${all.map((x) => x.version).join(", ")})`,
      );
    return v;
  }
  if (pick === "active-or-newest") return all.filter((x) => x.status === "active").at(-1) ?? all.at(-1)!;
  const order = PICK_ORDER[pick];
  for (const wanted of order) {
    const found = all.filter((x) => x.status === wanted).at(-1);
    if (found) return found;
  }
  const summary = all.map((x) => `v${x.version} ${x.status}`).join(", ");
  throw new DistillError(
    "NOT_FOUND",
    `${name} has no ${order.join(" or ")} version (${summary}): pass --version N`,
  );
}
