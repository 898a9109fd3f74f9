import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/canonical.ts
function canonicalArgs(args, schema) {
  const withDefaults = schema ? applyDefaults(args, schema) : args;
  return sortKeys(withDefaults);
}
function applyDefaults(value, schema) {
  if (!isPlainObject(value)) return value;
  const props = schema["properties"];
  if (!isPlainObject(props)) return value;
  const out = { ...value };
  for (const [key, sub] of Object.entries(props)) {
    if (!isPlainObject(sub)) continue;
    if (out[key] === void 0 && "default" in sub) out[key] = structuredClone(sub["default"]);
    if (out[key] !== void 0) out[key] = applyDefaults(out[key], sub);
  }
  return out;
}
function sortKeys(value) {
  if (Array.isArray(value)) return value.map((v) => v === void 0 ? null : sortKeys(v));
  if (isPlainObject(value)) {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      const v = value[key];
      if (v !== void 0) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
function stableStringify(value) {
  return JSON.stringify(sortKeys(value)) ?? "null";
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export {
  canonicalArgs,
  stableStringify,
  isPlainObject
};
