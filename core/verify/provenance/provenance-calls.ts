/**
 * What calls in a tool's code fold to, for the provenance rule: `String(x)`, string methods and `join` over
 * literals, `Object.freeze(x)`, and the return values of functions written in the tool.
 */
import type { Node, NodePath } from "@babel/traverse";
import type { CallNode } from "../call-sites.ts";
import {
  type Alt,
  combine,
  type Folding,
  isFoldable,
  isGlobal,
  memberKey,
  NOT_FOLDED,
  type Primitive,
  UNKNOWN,
} from "./provenance-values.ts";

/** A function's call folds to what the function returns; one of these methods to its value on literals. */
export function foldCall(folder: Folding, path: NodePath<CallNode>): Alt[] {
  const node = path.node;
  const callee = path.get("callee") as NodePath;
  const args = path.get("arguments") as NodePath[];
  if (args.some((a) => a.isSpreadElement())) return [UNKNOWN];
  const argAlts = args.map((a) => folder.alternatives(a));
  const out: Alt[] = [];

  if (isGlobal(callee, "String")) {
    return combine(node, argAlts.slice(0, 1), ([v]) => (isFoldable(v) ? String(v) : NOT_FOLDED));
  }
  if (callee.isMemberExpression() || callee.isOptionalMemberExpression()) {
    const method = memberKey(callee);
    const object = callee.get("object") as NodePath;
    // Freezing changes nothing that JSON shows.
    if (method === "freeze" && isGlobal(object, "Object")) return argAlts[0] ?? [UNKNOWN];
    const objects = folder.alternatives(object);
    if (method === "join") {
      out.push(...objects.flatMap((alt) => foldJoin(folder, node, alt, argAlts[0])));
    } else if (typeof method === "string" && Object.hasOwn(STRING_METHODS, method)) {
      const fold = STRING_METHODS[method]!;
      out.push(
        ...combine(node, [objects, ...argAlts], ([self, ...rest]) =>
          typeof self === "string" ? fold(self, rest) : NOT_FOLDED,
        ),
      );
    }
  }
  // A function written in the tool, or a method of an object literal whatever its name: what it returns.
  for (const alt of folder.alternatives(callee)) {
    out.push(...(alt.kind === "function" ? folder.returns(alt.path) : [UNKNOWN]));
  }
  return out;
}

/** `[..].join(sep)` over an array literal whose elements all fold. */
function foldJoin(folder: Folding, node: Node, alt: Alt, separator: Alt[] | undefined): Alt[] {
  if (alt.kind !== "object" || !alt.path.isArrayExpression()) return [UNKNOWN];
  const elements = alt.path.get("elements");
  if (elements.some((e) => e.node === null || e.isSpreadElement())) return [UNKNOWN];
  const parts = [separator ?? [{ kind: "value", node, value: "," } as Alt]];
  for (const e of elements) parts.push(folder.alternatives(e as NodePath));
  return combine(node, parts, ([sep, ...items]) => {
    if (typeof sep !== "string" || !items.every((i) => isFoldable(i) || i === null || i === undefined)) {
      return NOT_FOLDED;
    }
    return items.map((i) => (i === null || i === undefined ? "" : String(i))).join(sep);
  });
}

/**
 * String methods folded on literal strings, each bounded so a fold never makes a huge string. Arguments must
 * be literals of the right type; anything else leaves the call unfolded.
 */
const STRING_METHODS: Readonly<
  Record<string, (self: string, args: Primitive[]) => Primitive | typeof NOT_FOLDED>
> = Object.freeze({
  toLowerCase: (s) => s.toLowerCase(),
  toUpperCase: (s) => s.toUpperCase(),
  toLocaleLowerCase: (s) => s.toLowerCase(),
  toLocaleUpperCase: (s) => s.toUpperCase(),
  trim: (s) => s.trim(),
  trimStart: (s) => s.trimStart(),
  trimEnd: (s) => s.trimEnd(),
  normalize: (s) => s.normalize(),
  concat: (s, args) => (args.every(isFoldable) ? s + args.map(String).join("") : NOT_FOLDED),
  slice: (s, args) =>
    args.every((a) => typeof a === "number") ? s.slice(...(args as number[])) : NOT_FOLDED,
  substring: (s, args) =>
    args.every((a) => typeof a === "number") ? s.substring(...(args as [number, number?])) : NOT_FOLDED,
  replace: (s, [from, to]) =>
    typeof from === "string" && typeof to === "string" ? s.replace(from, to) : NOT_FOLDED,
  replaceAll: (s, [from, to]) =>
    typeof from === "string" && typeof to === "string" && s.length * (to.length + 1) <= 10_000
      ? s.replaceAll(from, to)
      : NOT_FOLDED,
  repeat: (s, [n]) => (typeof n === "number" && n >= 0 && s.length * n <= 10_000 ? s.repeat(n) : NOT_FOLDED),
  padStart: (s, [n, fill]) =>
    typeof n === "number" && n <= 10_000 && (fill === undefined || typeof fill === "string")
      ? s.padStart(n, fill)
      : NOT_FOLDED,
  padEnd: (s, [n, fill]) =>
    typeof n === "number" && n <= 10_000 && (fill === undefined || typeof fill === "string")
      ? s.padEnd(n, fill)
      : NOT_FOLDED,
});
