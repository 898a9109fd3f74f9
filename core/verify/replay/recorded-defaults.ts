/**
 * The schemas replay matches calls with. A recorded call is stored with the defaults of the schema its base tool
 * had then (core/trace/trace.ts), so when a base tool goes back to a schema without a defaulted property (a rollback),
 * the recorded `{ query, since: "7d" }` no longer equals the same call made now, `{ query }`, though the tool's
 * code did not change. Matching then applies the old default too: the property comes back into the schema replay
 * uses, with its default and nothing else (pinned to that value where the schema refuses extra properties, so
 * replay accepts no call the base tool would refuse but one passing exactly that default).
 */

import type { VerifiedDefinition } from "../../store/records.ts";
import type { JsonSchema, ToolDef } from "../../types.ts";
import { isPlainObject, stableStringify } from "../../util/canonical.ts";

/**
 * `tools` with, for each base tool, the top-level properties a definition in `verified` declared with a default
 * and the current schema no longer declares, added back with that default (a property whose definitions disagree
 * on its default is left out: which one a recorded call got cannot be told).
 */
export function withRecordedDefaults(
  tools: ReadonlyMap<string, ToolDef>,
  verified: readonly VerifiedDefinition[],
): ReadonlyMap<string, ToolDef> {
  const out = new Map(tools);
  for (const [name, tool] of tools) {
    const current = properties(tool.input_schema);
    const defaults = new Map<string, unknown>();
    const conflicting = new Set<string>();
    for (const k of verified) {
      if (k.baseTool !== name || !k.definition) continue;
      for (const [key, sub] of Object.entries(properties(k.definition.input_schema))) {
        if (Object.hasOwn(current, key) || !isPlainObject(sub) || !("default" in sub)) continue;
        const seen = defaults.get(key);
        if (defaults.has(key) && stableStringify(seen) !== stableStringify(sub["default"]))
          conflicting.add(key);
        else defaults.set(key, sub["default"]);
      }
    }
    for (const key of conflicting) defaults.delete(key);
    if (defaults.size === 0) continue;
    const closed = tool.input_schema["additionalProperties"] === false;
    const added = Object.fromEntries(
      [...defaults].map(([key, value]) => [
        key,
        closed ? { const: value, default: value } : { default: value },
      ]),
    );
    out.set(name, { ...tool, input_schema: { ...tool.input_schema, properties: { ...current, ...added } } });
  }
  return out;
}

function properties(schema: JsonSchema): Record<string, unknown> {
  const p = schema["properties"];
  return isPlainObject(p) ? p : {};
}
