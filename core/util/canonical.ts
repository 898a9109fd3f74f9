import type { JsonSchema } from "../types.ts";

/**
 * Canonical arguments: schema defaults applied, keys sorted recursively, `undefined` dropped.
 * Replay matches calls on these, so `{a:1,b:undefined}` and `{a:1}` with default-filled `b` agree. Every own key
 * is kept, `"__proto__"` included: what is matched and recorded is what was sent.
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
    const given = Object.hasOwn(out, key) ? out[key] : undefined;
    if (given === undefined && "default" in sub) setOwn(out, key, structuredClone(sub["default"]));
    const now = Object.hasOwn(out, key) ? out[key] : undefined;
    if (now !== undefined) setOwn(out, key, applyDefaults(now, sub));
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
      if (v !== undefined) setOwn(out, key, sortKeys(v));
    }
    return out;
  }
  return value;
}

/**
 * Sets an own data property, even for `"__proto__"`: plain assignment of that key calls the prototype setter
 * instead, so the key would vanish from the copy while the original (and the executor) still had it.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}

/**
 * The JSON text of an input exactly as a tool receives it (key order kept, no defaults filled; the sandbox hands
 * the guest this same text), or null when it is not JSON. The store keeps it so that replay gives a recorded run
 * the input the run was given, not its canonical form.
 */
export function receivedText(input: unknown): string | null {
  try {
    return JSON.stringify(input) ?? null;
  } catch {
    return null;
  }
}

/** Stable JSON: equal values give equal strings whatever their key order. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

/** True for `{}`-style objects (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The path of the first key in `value` that would reach an object's prototype in code that merges it (a base
 * tool's server, a library on the way): `__proto__` anywhere, or `prototype` directly under `constructor`. Null
 * when there is none. `constructor` and `prototype` alone are ordinary field names and stay allowed.
 */
export function dangerousKeyPath(value: unknown): string | null {
  // An explicit stack, not recursion: arguments nested deeper than the call stack are still walked to the end.
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  // A value handed over in process (not parsed from JSON) may refer back to itself.
  const seen = new Set<object>();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: v, path } = next;
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: `${path}[${i}]` });
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) {
      const here = path === "" ? key : `${path}.${key}`;
      const child = (v as Record<string, unknown>)[key];
      if (key === "__proto__") return here;
      if (key === "constructor" && isPlainObject(child) && Object.hasOwn(child, "prototype")) {
        return `${here}.prototype`;
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      stack.push({ value: (v as Record<string, unknown>)[key], path: path === "" ? key : `${path}.${key}` });
    }
  }
  return null;
}

/** Why arguments with a dangerous key are refused (see `dangerousKeyPath`), naming the key; null when none. */
export function dangerousKeyProblem(args: unknown): string | null {
  const path = dangerousKeyPath(args);
  if (path === null) return null;
  return `the arguments have the key '${path.slice(0, 200)}', which tooldistill never sends (it can reach a prototype in the code that receives it): pass the data under another key`;
}
