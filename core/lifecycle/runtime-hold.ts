/**
 * Versions held back for a runtime failure, and code that would evade the hold. A version demoted for
 * `runtime_failure` comes back only by a live pass (or a person's promote); the same code proposed again with a
 * comment or other formatting is the same tool, so it is recognised by the fingerprint of its syntax tree
 * (verify/code-equivalence.ts) and gets the held version's state and evidence. A replacement with other code
 * waits for a live pass or a person too, instead of being activated by replay.
 */
import type { VersionRecord } from "../store/records.ts";
import type { RegistryData } from "../store/registry-store.ts";
import type { Verdict } from "../types.ts";
import { codeFingerprint } from "../verify/code-equivalence.ts";
import { noEvidence } from "../verify/verdict.ts";

/**
 * The version of `name` held back for a runtime failure, if any: the newest suspect or deprecated version whose
 * open problems include `runtime_failure` and that no later version replaced by becoming active.
 */
export function heldVersion(versions: readonly VersionRecord[]): VersionRecord | null {
  const held = versions
    .filter(
      (v) => (v.status === "suspect" || v.status === "deprecated") && v.problems.includes("runtime_failure"),
    )
    .at(-1);
  if (!held) return null;
  return versions.some((v) => v.status === "active" && v.version > held.version) ? null : held;
}

/** A held-back version of `name` whose code is `code` up to comments and formatting, or null. */
export async function equivalentHeld(
  store: RegistryData,
  name: string,
  code: string,
): Promise<VersionRecord | null> {
  const held = (await store.listVersions({ name })).filter(
    (v) => (v.status === "suspect" || v.status === "deprecated") && v.problems.includes("runtime_failure"),
  );
  if (held.length === 0) return null;
  const mine = codeFingerprint(code);
  if (mine === null) return null;
  for (const v of held.reverse()) {
    if (codeFingerprint(await store.readCode(v.name, v.version)) === mine) return v;
  }
  return null;
}

/** The answer to a proposal equivalent to held-back `v`: its state and evidence, and the only ways back. */
export function heldVerdict(v: VersionRecord): Verdict {
  const message =
    `the code is ${v.name} v${v.version} again (the same syntax tree; only comments or formatting differ), which is ${v.status} after a runtime failure: ` +
    `replay cannot clear that, so nothing new was stored. Fix what failed at run time, or have a person run tooldistill verify ${v.name} --version ${v.version} --live`;
  const notRun = {
    ok: false,
    problems: [{ rule: "not-run", message: "not run: the proposal is a held-back version" }],
  };
  return {
    name: v.name,
    version: v.version,
    status: v.status,
    checks: {
      static: { ok: false, problems: [{ rule: "held-back", message }] },
      replay: notRun,
      efficiency: notRun,
    },
    calls: v.verdict?.calls ?? null,
    baseline: v.baseline,
    limit: v.verdict?.limit ?? null,
    liveCalls: [],
    evidence: v.verdict?.evidence ?? noEvidence(),
  };
}

/** Why a passing replacement of a held-back version waits instead of being auto-promoted. */
export function holdText(name: string, version: number, held: VersionRecord): string {
  return `waits for tooldistill verify ${name} --version ${version} --live or tooldistill promote ${name}: it replaces v${held.version}, held back for runtime_failure, which only a live pass or a person clears`;
}
