/**
 * What a change of a base tool's definition means for the distilled tools that call it. Pure: two definitions
 * in, a classification with its reasons out.
 *
 * - `cosmetic`: only text changed (descriptions, titles, examples, the annotations' title): nothing to do.
 * - `compatible`: every call that was valid stays valid (an optional property added, a constraint relaxed, a
 *   required property made optional, a hint changed): re-verify, and keep the status when it passes.
 * - `breaking`: a call that was valid may not be any more (a required property added, a property removed or
 *   retyped, a constraint tightened), or the change is one this classifier cannot judge: suspect at once, then
 *   re-verify.
 *
 * For one distilled tool, given the properties its calls pass, a removed or changed property that no call of
 * the tool passes cannot make one of its calls invalid, so that change is compatible for it.
 */

import type { JsonSchema, ToolDef } from "../types.ts";
import { isPlainObject, stableStringify } from "../util/canonical.ts";

/** The kind of a definition change, from least to most serious. */
export type SchemaChangeKind = "same" | "cosmetic" | "compatible" | "breaking";

/** A classified change: its kind and, for each thing that changed, one line saying what. */
export interface SchemaChange {
  kind: SchemaChangeKind;
  reasons: string[];
}

/**
 * One thing that changed, with the top-level input property it is about (null: the tool or the whole schema);
 * `closes` marks the input refusing extra properties from now on.
 */
interface Finding {
  kind: SchemaChangeKind;
  reason: string;
  property: string | null;
  closes?: true;
}

const ORDER: readonly SchemaChangeKind[] = ["same", "cosmetic", "compatible", "breaking"];

/** Keywords that only document a schema. */
const TEXT_KEYWORDS = new Set(["description", "title", "examples", "$comment", "deprecated"]);
/** Numeric bounds where a larger value is looser. */
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);
/** Numeric bounds where a smaller value is looser. */
const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
/** Keywords handled one by one below; any other keyword that changes is judged breaking. */
const STRUCTURAL = new Set([
  "type",
  "properties",
  "required",
  "enum",
  "const",
  "items",
  "additionalProperties",
  "default",
]);

/**
 * Classifies the change from `before` to `after` (the same base tool, two definitions). With `passed`, the
 * top-level properties a distilled tool's calls pass to it (null or absent: cannot be told, so every change
 * counts), the change is judged for that tool: see `judged`.
 */
export function classifySchemaChange(
  before: ToolDef,
  after: ToolDef,
  passed: ReadonlySet<string> | null = null,
): SchemaChange {
  const found = new Found();
  if ((before.description ?? "") !== (after.description ?? ""))
    found.add("cosmetic", "the tool's description changed");
  compareAnnotations({ ...before.annotations }, { ...after.annotations }, found);
  compareSchema(before.input_schema, after.input_schema, "input", found);
  const declared = isPlainObject(after.input_schema["properties"]) ? after.input_schema["properties"] : {};
  return judged(found.findings, passed, new Set(Object.keys(declared)));
}

/**
 * The findings as they matter to a tool whose calls pass `passed` (null: every finding counts as found). A
 * breaking finding about a property no call passes (it was removed, retyped, constrained) becomes compatible:
 * re-verified, the status unchanged. A property that is now required stays breaking (the calls do not pass it),
 * and so does a removed property a call passes, whether the new schema refuses it (`additionalProperties: false`)
 * or, allowing extra properties, no longer says what it does (the base tool may ignore what the call asks for).
 * The input refusing extra properties is compatible when every property the calls pass is `declared`.
 */
function judged(
  findings: readonly Finding[],
  passed: ReadonlySet<string> | null,
  declared: ReadonlySet<string>,
): SchemaChange {
  let kind: SchemaChangeKind = "same";
  const reasons: string[] = [];
  for (const f of findings) {
    let why: string | null = null;
    if (passed !== null && f.kind === "breaking") {
      if (f.property !== null && !passed.has(f.property)) why = `no call of this tool passes ${f.property}`;
      else if (f.closes && [...passed].every((p) => declared.has(p)))
        why = "the calls of this tool pass only declared properties";
    }
    const k = why === null ? f.kind : "compatible";
    if (ORDER.indexOf(k) > ORDER.indexOf(kind)) kind = k;
    reasons.push(why === null ? f.reason : `${f.reason} (${why})`);
  }
  return { kind, reasons };
}

class Found {
  readonly findings: Finding[] = [];
  /** The top-level property being compared, if any: what the findings made now are about. */
  property: string | null = null;
  add(kind: SchemaChangeKind, reason: string, property: string | null = this.property, closes = false): void {
    this.findings.push(closes ? { kind, reason, property, closes } : { kind, reason, property });
  }
}

function compareAnnotations(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  found: Found,
): void {
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (stableStringify(before[key]) === stableStringify(after[key])) continue;
    // The title is text; a hint (read-only, destructive, …) changes how calls are judged: re-verify.
    if (key === "title") found.add("cosmetic", "the annotations' title changed");
    else
      found.add("compatible", `annotation ${key} changed from ${show(before[key])} to ${show(after[key])}`);
  }
}

function compareSchema(before: unknown, after: unknown, at: string, found: Found): void {
  if (stableStringify(before) === stableStringify(after)) return;
  if (!isPlainObject(before) || !isPlainObject(after)) {
    found.add("breaking", `${at}: the schema changed shape`);
    return;
  }
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    const a = before[key];
    const b = after[key];
    if (stableStringify(a) === stableStringify(b)) continue;
    if (TEXT_KEYWORDS.has(key)) {
      found.add("cosmetic", `${at}: ${key} changed`);
    } else if (UPPER_BOUNDS.has(key) || LOWER_BOUNDS.has(key)) {
      compareBound(key, a, b, at, found);
    } else if (!STRUCTURAL.has(key)) {
      found.add("breaking", `${at}: '${key}' changed from ${show(a)} to ${show(b)}`);
    }
  }
  compareType(before["type"], after["type"], at, found);
  compareRequired(before, after, at, found);
  compareProperties(before, after, at, found);
  compareEnum(before, after, at, found);
  if (stableStringify(before["const"]) !== stableStringify(after["const"])) {
    found.add(after["const"] === undefined ? "compatible" : "breaking", `${at}: const changed`);
  }
  if (stableStringify(before["items"]) !== stableStringify(after["items"])) {
    compareSchema(before["items"] ?? {}, after["items"] ?? {}, `${at}[]`, found);
  }
  compareAdditional(before["additionalProperties"], after["additionalProperties"], at, found);
  if (stableStringify(before["default"]) !== stableStringify(after["default"])) {
    // Recorded calls are matched with defaults applied: a new default changes what a call means.
    found.add(
      "compatible",
      `${at}: default changed from ${show(before["default"])} to ${show(after["default"])}`,
    );
  }
}

function compareBound(key: string, a: unknown, b: unknown, at: string, found: Found): void {
  const looser =
    b === undefined ||
    (typeof a === "number" && typeof b === "number" && (UPPER_BOUNDS.has(key) ? b > a : b < a));
  found.add(looser ? "compatible" : "breaking", `${at}: ${key} changed from ${show(a)} to ${show(b)}`);
}

function types(value: unknown): Set<string> | null {
  if (value === undefined) return null;
  if (typeof value === "string") return new Set([value]);
  if (Array.isArray(value) && value.every((t) => typeof t === "string")) return new Set(value as string[]);
  return new Set(["?"]);
}

function compareType(a: unknown, b: unknown, at: string, found: Found): void {
  if (stableStringify(a) === stableStringify(b)) return;
  const before = types(a);
  const after = types(b);
  // No type is every type: dropping it widens, adding one narrows.
  const widened =
    after === null ||
    (before !== null && [...before].every((t) => after.has(t) || (t === "integer" && after.has("number"))));
  found.add(widened ? "compatible" : "breaking", `${at}: type changed from ${show(a)} to ${show(b)}`);
}

function requiredOf(schema: JsonSchema): Set<string> {
  const r = schema["required"];
  return new Set(Array.isArray(r) ? r.filter((x): x is string => typeof x === "string") : []);
}

function compareRequired(before: JsonSchema, after: JsonSchema, at: string, found: Found): void {
  const a = requiredOf(before);
  const b = requiredOf(after);
  for (const name of b) if (!a.has(name)) found.add("breaking", `${at}: '${name}' is now required`);
  for (const name of a) {
    if (!b.has(name)) found.add("compatible", `${at}: '${name}' is no longer required`);
  }
}

function compareProperties(before: JsonSchema, after: JsonSchema, at: string, found: Found): void {
  const a = isPlainObject(before["properties"]) ? before["properties"] : {};
  const b = isPlainObject(after["properties"]) ? after["properties"] : {};
  const requiredAfter = requiredOf(after);
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const where = at === "input" ? name : `${at}.${name}`;
    // Findings under a top-level property are about it: a tool whose calls never pass it is not affected.
    const outer = found.property;
    if (at === "input") found.property = name;
    if (!(name in b)) {
      // A call that passes it may now be refused, or have it ignored.
      found.add("breaking", `${where} was removed`);
    } else if (!(name in a)) {
      found.add(
        requiredAfter.has(name) ? "breaking" : "compatible",
        `${where} was added${requiredAfter.has(name) ? " (required)" : " (optional)"}`,
        requiredAfter.has(name) ? null : found.property,
      );
    } else {
      compareSchema(a[name], b[name], where, found);
    }
    found.property = outer;
  }
}

function compareEnum(before: JsonSchema, after: JsonSchema, at: string, found: Found): void {
  const a = before["enum"];
  const b = after["enum"];
  if (stableStringify(a) === stableStringify(b)) return;
  if (!Array.isArray(b)) {
    found.add("compatible", `${at}: enum removed`);
    return;
  }
  if (!Array.isArray(a)) {
    found.add("breaking", `${at}: enum added`);
    return;
  }
  const allowed = new Set(b.map((x) => stableStringify(x)));
  const removed = a.filter((x) => !allowed.has(stableStringify(x)));
  found.add(
    removed.length ? "breaking" : "compatible",
    removed.length
      ? `${at}: enum no longer allows ${removed.map(show).join(", ")}`
      : `${at}: enum allows more values`,
  );
}

function compareAdditional(a: unknown, b: unknown, at: string, found: Found): void {
  if (stableStringify(a) === stableStringify(b)) return;
  const closedBefore = a === false;
  const closedAfter = b === false;
  if (closedAfter && !closedBefore) {
    found.add("breaking", `${at}: extra properties are no longer allowed`, found.property, at === "input");
  } else if (closedBefore && !closedAfter) found.add("compatible", `${at}: extra properties are now allowed`);
  else found.add("breaking", `${at}: additionalProperties changed`);
}

function show(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
