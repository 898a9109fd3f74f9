/**
 * What syntax spells without running it: string literals, property keys, member names and JSON-like literals,
 * read through the erasable TypeScript wrappers. The static check reads a tool's name, schema and base calls
 * this way; anything that needs evaluating is unknowable to it.
 */
import type { Node } from "@babel/traverse";
import type { MemberNode, NodeOf } from "./types.ts";

export type { MemberNode, NodeOf };

/** Looks through erasable TypeScript wrappers (`as const`, `satisfies`, `!`, parentheses). */
export function unwrap(node: Node): Node {
  let current = node;
  while (
    current.type === "TSAsExpression" ||
    current.type === "TSSatisfiesExpression" ||
    current.type === "TSNonNullExpression" ||
    current.type === "ParenthesizedExpression"
  ) {
    current = current.expression;
  }
  return current;
}

/** A string literal's value (a template without expressions counts), or null. */
export function stringValue(input: Node): string | null {
  const node = unwrap(input);
  if (node.type === "StringLiteral") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) {
    const quasi = node.quasis[0];
    return quasi ? (quasi.value.cooked ?? quasi.value.raw) : "";
  }
  return null;
}

/** The name a property key spells: plain identifiers, string and number literals, literal computed keys. */
export function propertyKey(prop: NodeOf<"ObjectProperty" | "ObjectMethod">): string | null {
  const key = prop.key;
  if (!prop.computed && key.type === "Identifier") return key.name;
  if (key.type === "NumericLiteral") return String(key.value);
  return stringValue(key);
}

/** True for `o.x` and `o?.x`. */
export function isMember(node: Node): node is MemberNode {
  return node.type === "MemberExpression" || node.type === "OptionalMemberExpression";
}

/** The property a member expression reads when it is statically known (`o.x`, `o["x"]`, ``o[`x`]``). */
export function memberName(node: MemberNode): string | null {
  const prop = node.property;
  if (!node.computed) return prop.type === "Identifier" ? prop.name : null;
  return stringValue(prop);
}

/** The keys of an object literal, or null when a spread or computed key makes them unknowable statically. */
export function literalKeys(object: NodeOf<"ObjectExpression">): Map<string, Node> | null {
  const keys = new Map<string, Node>();
  for (const prop of object.properties) {
    if (prop.type === "SpreadElement") return null;
    const key = propertyKey(prop);
    if (key === null) return null;
    keys.set(key, prop.key);
  }
  return keys;
}

/** Evaluates a JSON-like literal; nodes that are not literals are pushed onto `bad`. */
export function literalValue(input: Node, bad: Node[]): unknown {
  const node = unwrap(input);
  switch (node.type) {
    case "StringLiteral":
    case "NumericLiteral":
    case "BooleanLiteral":
      return node.value;
    case "NullLiteral":
      return null;
    case "TemplateLiteral": {
      const value = stringValue(node);
      if (value === null) bad.push(node);
      return value;
    }
    case "UnaryExpression":
      if (node.operator === "-" && node.argument.type === "NumericLiteral") return -node.argument.value;
      break;
    case "ArrayExpression":
      return node.elements.map((el) => {
        if (el === null || el.type === "SpreadElement") {
          bad.push(el ?? node);
          return null;
        }
        return literalValue(el, bad);
      });
    case "ObjectExpression": {
      const out: Record<string, unknown> = {};
      for (const prop of node.properties) {
        const key = prop.type === "ObjectProperty" && !prop.computed ? propertyKey(prop) : null;
        if (prop.type !== "ObjectProperty" || key === null) {
          bad.push(prop);
          continue;
        }
        // defineProperty so that a `__proto__` key stays data and never swaps the prototype
        Object.defineProperty(out, key, {
          value: literalValue(prop.value, bad),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
  bad.push(node);
  return undefined;
}
