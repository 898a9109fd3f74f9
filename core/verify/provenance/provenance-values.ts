/**
 * What an expression of a tool's code may evaluate to, as far as its source shows without running it: the
 * alternatives the provenance rule folds (a literal value, an object or array literal, a function, something
 * unknown, or a limit passed), how they combine, and the small readers of the syntax tree they need.
 */
import type { Binding, Node, NodePath } from "@babel/traverse";
import { stringValue } from "../static/static-values.ts";

export type NodeOf<T extends Node["type"]> = Extract<Node, { type: T }>;

/**
 * Most values one expression may fold to (conditionals multiply inside a concatenation). Beyond it the
 * expression is reported rather than checked in part, so a value cannot hide behind many others.
 */
export const MAX_ALTERNATIVES = 256;
/**
 * Deepest chain of steps followed from an argument to its literals (a const of a const, a property of an
 * object, a nested expression). Deeper chains are reported, not skipped, so depth cannot hide a value.
 */
export const MAX_DEPTH = 100;

export type Primitive = string | number | boolean | null | undefined;

/** What an expression may evaluate to, as far as the source shows without running it. */
export type Alt =
  /** A primitive made from literals only; `node` is where it is written (or folded, for a concatenation). */
  | { kind: "value"; node: Node; value: Primitive }
  /** An object or array literal: its properties and elements are followed one by one. */
  | { kind: "object"; path: NodePath<NodeOf<"ObjectExpression" | "ArrayExpression">>; owners: Binding[] }
  | { kind: "function"; path: NodePath }
  /** Anything else: the tool's input, a call's result, a computation. `owners` are variables that hold it. */
  | { kind: "unknown"; owners: Binding[] }
  /** Past one of the limits at `node`: reported, so that no value hides behind the limit. */
  | { kind: "overflow"; node: Node; why: Limit };

/**
 * What folding a call needs of the folder (provenance-fold.ts's Folder): the call folding is its own module, and
 * reaches the folder through this, so neither imports the other back.
 */
export interface Folding {
  /** What `path` may evaluate to. */
  alternatives(path: NodePath): Alt[];
  /** What the function at `fn` may return. */
  returns(fn: NodePath): Alt[];
}

/** Which limit an argument went past. */
export type Limit = "combinations" | "depth" | "size";

export const UNKNOWN: Alt = Object.freeze({ kind: "unknown", owners: [] as Binding[] }) as Alt;

/** Marks a combination that does not fold to a value. */
export const NOT_FOLDED: unique symbol = Symbol("not folded");

/**
 * Folds every combination of the parts' alternatives with `fold`; a combination with a part that is not a
 * primitive, or that `fold` refuses, is unknown: a literal joined to such a part is a format, not a value.
 */
export function combine(
  node: Node,
  parts: readonly Alt[][],
  fold: (values: Primitive[]) => Primitive | typeof NOT_FOLDED,
): Alt[] {
  let combos: Primitive[][] = [[]];
  let unknown = false;
  for (const part of parts) {
    const overflow = part.find((a) => a.kind === "overflow");
    if (overflow) return [overflow];
    const values = part.flatMap((a) => (a.kind === "value" ? [a.value] : []));
    if (values.length < part.length) unknown = true;
    if (combos.length * values.length > MAX_ALTERNATIVES)
      return [{ kind: "overflow", node, why: "combinations" }];
    combos = combos.flatMap((combo) => values.map((v) => [...combo, v]));
  }
  const out: Alt[] = unknown ? [UNKNOWN] : [];
  for (const combo of combos) {
    const value = fold(combo);
    out.push(value === NOT_FOLDED ? UNKNOWN : { kind: "value", node, value });
  }
  return out;
}

/**
 * Dedupes alternatives; an overflow anywhere inside stays one overflow. A union is not capped: each of its
 * values is a literal written in the source, so their number is bounded by the source's size.
 */
export function dedupe(alts: Alt[]): Alt[] {
  const seen = new Set<string>();
  const out: Alt[] = [];
  let unknownOwners: Binding[] | null = null;
  for (const alt of alts) {
    if (alt.kind === "overflow") return [alt];
    if (alt.kind === "unknown") {
      unknownOwners = [...(unknownOwners ?? []), ...alt.owners.filter((o) => !unknownOwners?.includes(o))];
      continue;
    }
    const key =
      alt.kind === "value"
        ? `v${alt.node.start}:${alt.node.end}:${typeof alt.value}:${String(alt.value)}`
        : `${alt.kind}${alt.path.node.start}:${alt.path.node.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(alt);
  }
  if (unknownOwners !== null) {
    out.push(unknownOwners.length === 0 ? UNKNOWN : { kind: "unknown", owners: unknownOwners });
  }
  return out;
}

/** True when `path` names the global `name` (no binding of the tool's shadows it). */
export function isGlobal(path: NodePath, name: string): boolean {
  return path.isIdentifier() && path.node.name === name && path.scope.getBinding(name) === undefined;
}

export function isFoldable(value: Primitive): value is string | number {
  return typeof value === "string" || typeof value === "number";
}

/** Booleans, null, undefined and the empty string say nothing about where a value came from. */
export function isCheckable(value: Primitive): value is string | number {
  return (typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value));
}

/** `.name`, `["two words"]`, `[0]`, or `[…]` for a key only known at run time. */
export function pathStep(key: string | number | null): string {
  if (key === null) return "[…]";
  if (typeof key === "number" || /^\d+$/.test(key)) return `[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** The key a member expression reads when it is written as a literal (`o.x`, `o["x"]`, `a[0]`), else null. */
export function memberKey(
  path: NodePath<NodeOf<"MemberExpression" | "OptionalMemberExpression">>,
): string | number | null {
  const node = path.node;
  if (!node.computed) return node.property.type === "Identifier" ? node.property.name : null;
  if (node.property.type === "NumericLiteral") return node.property.value;
  return stringValue(node.property);
}

/** True when the pattern `node` binds the variable `name`: which branch of a destructuring to follow. */
export function binds(node: Node, name: string): boolean {
  switch (node.type) {
    case "Identifier":
      return node.name === name;
    case "ObjectPattern":
      return node.properties.some((p) => binds(p, name));
    case "ObjectProperty":
      return binds(node.value, name);
    case "ArrayPattern":
      return node.elements.some((e) => e !== null && binds(e, name));
    case "AssignmentPattern":
      return binds(node.left, name);
    case "RestElement":
      return binds(node.argument, name);
    default:
      return false;
  }
}

export interface MemberWrite {
  /** The keys from the variable to the written property (`args.to` → ["to"]); null for a run-time key. */
  keys: (string | null)[];
  /** Appended with `.push(...)`/`.unshift(...)`: the written value is one element more. */
  path: string;
  value: NodePath;
}

/** Writes through a variable to what it holds: `v.a.b = x` and `v.list.push(x)`. */
export function memberWrites(binding: Binding): MemberWrite[] {
  const out: MemberWrite[] = [];
  for (const ref of binding.referencePaths) {
    const keys: (string | null)[] = [];
    let current: NodePath = ref;
    let parent = current.parentPath;
    while (
      parent !== null &&
      (parent.isMemberExpression() || parent.isOptionalMemberExpression()) &&
      current.key === "object"
    ) {
      const key = memberKey(parent);
      keys.push(key === null ? null : String(key));
      current = parent;
      parent = current.parentPath;
    }
    if (keys.length === 0 || parent === null) continue;
    const steps = keys.map((k) => pathStep(k)).join("");
    if (parent.isAssignmentExpression() && current.key === "left" && parent.node.operator === "=") {
      out.push({ keys, path: steps, value: parent.get("right") });
    } else if ((parent.isCallExpression() || parent.isOptionalCallExpression()) && current.key === "callee") {
      const method = keys[keys.length - 1];
      if (method === "push" || method === "unshift") {
        const container = keys.slice(0, -1);
        for (const arg of parent.get("arguments") as NodePath[]) {
          const value = arg.isSpreadElement() ? arg.get("argument") : arg;
          out.push({
            keys: container,
            path: container.map((k) => pathStep(k)).join("") + pathStep(null),
            value,
          });
        }
      }
    }
  }
  return out;
}
