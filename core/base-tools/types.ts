/**
 * What the reactions to base tool changes report, shared by the review (tool-changes.ts) and recovery
 * (recovery.ts): a leaf of types, so neither imports the other's types back.
 */
import type { BaseHealthRecord } from "../store/records.ts";
import type { OpenProblem, Status } from "../types.ts";
import type { DefinitionStatus } from "./verified-definitions.ts";

/** A base tool's health as `health()` reports it. */
export type BaseToolHealth = BaseHealthRecord;

/** One version a change touched. */
export interface ChangeEntry {
  name: string;
  version: number;
  from: Status;
  to: Status;
  problems: OpenProblem[];
  reason: string;
  queuedRebuild: boolean;
  /** How the base tool's definition changed for this version (null: not a definition change). */
  change: Exclude<DefinitionStatus, "known"> | null;
}

/** What `onToolUpdated`, `health` and the start-up review did, per affected version. */
export interface ChangeReport {
  changes: ChangeEntry[];
  messages: string[];
}

/** A health report: the change report, what the probe said per tool, and every base tool's health record. */
export interface HealthReport extends ChangeReport {
  probed: { tool: string; recovered: boolean; error?: string }[];
  baseTools: BaseToolHealth[];
}
