import type { JsonSchema } from "./types.ts";

/**
 * Canonical arguments: schema defaults applied, keys sorted recursively, `undefined` dropped.
 * Replay matches calls on these, so `{a:1,b:undefined}` and `{a:1}` with default-filled `b` agree.
 */
export function canonicalArgs(args: Record<string, unknown>, schema?: JsonSchema): Record<string, unknown> {
  const withDefaults = schema ? applyDefaults(args, schema) : args;
  return sortKeys(withDefaults) as Record<string, unknown>;
}

/** Fills top-level and nested object defaults from a JSON Schema; never overwrites a given value. */
export function applyDefaults(value: unknown, schema: JsonSchema): unknown {
  if (!isPlainObject(value)) return value;
  const props = schema["properties"];
  if (!isPlainObject(props)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [key, sub] of Object.entries(props)) {
    if (!isPlainObject(sub)) continue;
    if (out[key] === undefined && "default" in sub) out[key] = structuredClone(sub["default"]);
    if (out[key] !== undefined) out[key] = applyDefaults(out[key], sub);
  }
  return out;
}

/** A deep copy with object keys sorted and `undefined` members dropped (as JSON would). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = value[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Stable JSON: equal values give equal strings whatever their key order. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

/** True for `{}`-style objects (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
