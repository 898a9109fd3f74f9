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
    const given = Object.hasOwn(out, key) ? out[key] : void 0;
    if (given === void 0 && "default" in sub) setOwn(out, key, structuredClone(sub["default"]));
    const now = Object.hasOwn(out, key) ? out[key] : void 0;
    if (now !== void 0) setOwn(out, key, applyDefaults(now, sub));
  }
  return out;
}
function sortKeys(value) {
  if (Array.isArray(value)) return value.map((v) => v === void 0 ? null : sortKeys(v));
  if (isPlainObject(value)) {
    const out = {};
    for (const key of Object.keys(value).sort()) {
      const v = value[key];
      if (v !== void 0) setOwn(out, key, sortKeys(v));
    }
    return out;
  }
  return value;
}
function setOwn(target, key, value) {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}
function receivedText(input) {
  try {
    return JSON.stringify(input) ?? null;
  } catch {
    return null;
  }
}
function stableStringify(value) {
  return JSON.stringify(sortKeys(value)) ?? "null";
}
function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function dangerousKeyPath(value) {
  const stack = [{ value, path: "" }];
  const seen = /* @__PURE__ */ new Set();
  for (let next = stack.pop(); next !== void 0; next = stack.pop()) {
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
      const child = v[key];
      if (key === "__proto__") return here;
      if (key === "constructor" && isPlainObject(child) && Object.hasOwn(child, "prototype")) {
        return `${here}.prototype`;
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      stack.push({ value: v[key], path: path === "" ? key : `${path}.${key}` });
    }
  }
  return null;
}
function dangerousKeyProblem(args) {
  const path = dangerousKeyPath(args);
  if (path === null) return null;
  return `the arguments have the key '${path.slice(0, 200)}', which tooldistill never sends (it can reach a prototype in the code that receives it): pass the data under another key`;
}

export {
  canonicalArgs,
  setOwn,
  receivedText,
  stableStringify,
  isPlainObject,
  dangerousKeyProblem
};
