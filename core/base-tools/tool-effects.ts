/**
 * What a base tool may do to the world, as its definition declares it, and what that means for promotion. A tool
 * is read-only only when its definition says so: `annotations.readOnlyHint: true` (what an MCP server declares,
 * and what an SDK tool may carry next to its `input_schema`). Everything else may write. Pure.
 */
import type { ToolDef } from "../types.ts";

/** The `auto_promote` setting: false (a person promotes), true (read-only tools only), or "all". */
export type AutoPromote = boolean | "all";

/** True only when the definition declares the tool read-only. */
export function isReadOnly(tool: ToolDef | undefined): boolean {
  return tool?.annotations?.readOnlyHint === true;
}

/** The tools among `names` that may write (not declared read-only, or no longer offered), sorted and unique. */
export function mayWrite(names: Iterable<string>, baseTool: (name: string) => ToolDef | undefined): string[] {
  return [...new Set(names)].filter((n) => !isReadOnly(baseTool(n))).sort();
}

/** Whether a version that just passed verification becomes active at once, and the words the verdict says it with. */
export function autoPromotion(
  setting: AutoPromote,
  writes: readonly string[],
): { activate: boolean; text: string } {
  if (setting === "all") return { activate: true, text: "auto_promote: all" };
  if (setting === false)
    return { activate: false, text: "waits for tooldistill promote (auto_promote: false)" };
  if (writes.length === 0) return { activate: true, text: "auto_promote (read-only tools only)" };
  return {
    activate: false,
    text: `waits for tooldistill promote: it calls tools that may write (${writes.join(", ")}); auto_promote: true promotes read-only tools only (auto_promote: all promotes every tool)`,
  };
}

/** The promotion text of a version a person promoted. */
export const PROMOTED_BY_A_PERSON = "promoted by a person (tooldistill promote)";
