/**
 * The base tool definitions a version was verified against, and what a current definition means for it. A
 * version keeps every definition (by fingerprint) it passed verification with, so instances whose definitions
 * differ (a rolling deploy) each find theirs in the set and leave the version alone; a definition not in the set
 * is classified against the newest one that is (core/base-tools/definition-change.ts). Pure: records in, a verdict out.
 */

import type { VerifiedDefinition } from "../store/records.ts";
import type { ToolDef } from "../types.ts";
import { classifySchemaChange } from "./definition-change.ts";
import { fingerprint } from "./fingerprint.ts";

/** What a base tool's current definition is to a version: known, gone, or a change of some kind. */
export type DefinitionStatus = "known" | "missing" | "cosmetic" | "compatible" | "breaking";

/** The status of one dependency, with what changed. */
export interface DefinitionCheck {
  status: DefinitionStatus;
  reasons: string[];
}

const ORDER: readonly DefinitionStatus[] = ["known", "cosmetic", "compatible", "breaking", "missing"];

/** The more serious of two statuses (missing is the most: nothing can be verified against a tool that is gone). */
export function worse(a: DefinitionStatus, b: DefinitionStatus): DefinitionStatus {
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}

/**
 * Judges `current` (undefined: the tool is not offered) against the definitions a version was verified with;
 * `passed` is what the version's calls pass to it (null: cannot be told), so a change no call is affected by is
 * compatible.
 */
export function checkDefinition(
  known: readonly VerifiedDefinition[],
  current: ToolDef | undefined,
  fingerprintOf: (tool: ToolDef) => string | null = fingerprint,
  passed: ReadonlySet<string> | null = null,
): DefinitionCheck {
  if (current === undefined) return { status: "missing", reasons: ["is no longer offered"] };
  const fp = fingerprintOf(current);
  if (fp !== null && known.some((k) => k.fingerprint === fp)) return { status: "known", reasons: [] };
  const newest = known.filter((k) => k.definition !== null).at(-1);
  if (!newest?.definition) {
    return {
      status: "breaking",
      reasons: [
        "its definition changed, and the one the version was verified against was not kept (stored by an older tooldistill), so the change cannot be judged",
      ],
    };
  }
  const change = classifySchemaChange(newest.definition, current, passed);
  // A different fingerprint with no difference the classifier sees (e.g. no annotations against empty ones).
  if (change.kind === "same") return { status: "cosmetic", reasons: ["its definition changed only in form"] };
  return { status: change.kind, reasons: change.reasons };
}
