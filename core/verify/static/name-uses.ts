/**
 * Where a tool's code spells a name that the name rules judge: an identifier that reads a binding, a member it
 * reads (`o.x`, `o["x"]`), and a property key (in a destructuring pattern it reads a property, in an object
 * literal it only defines one). The rules that refuse names share these visitors, so each judges the same places.
 */
import type { Node, NodePath, Visitor } from "@babel/traverse";
import { isMember, memberName, propertyKey } from "./static-values.ts";
import type { CheckState, MemberNode, NodeOf } from "./types.ts";

/** Judges one spelled name; `isObjectKey` is true for a key an object literal only defines. */
export type NameCheck = (state: CheckState, name: string, node: Node, isObjectKey: boolean) => void;

/**
 * True for an identifier that reads or declares a binding: not a plain property key, a member's property or a
 * label (a computed key or member is an expression, so it counts).
 */
export function isBindingName(path: NodePath<NodeOf<"Identifier">>): boolean {
  const { parent } = path;
  const asKey = (parent.type === "ObjectProperty" || parent.type === "ObjectMethod") && path.key === "key";
  const asProperty = isMember(parent) && path.key === "property";
  const asLabel =
    (parent.type === "LabeledStatement" ||
      parent.type === "BreakStatement" ||
      parent.type === "ContinueStatement") &&
    path.key === "label";
  return !(((asKey || asProperty) && !("computed" in parent && parent.computed)) || asLabel);
}

/**
 * The visitors that hand `check` every name the code spells, each where it is spelled; `member`, when given, also
 * sees every member access (a rule's visitor has one function per node type).
 */
export function nameUses(
  check: NameCheck,
  member?: (state: CheckState, node: MemberNode) => void,
): Visitor<CheckState> {
  return {
    "MemberExpression|OptionalMemberExpression"(path, state) {
      const node = path.node as MemberNode;
      const name = memberName(node);
      if (name !== null) check(state, name, node.property, false);
      member?.(state, node);
    },
    "ObjectProperty|ObjectMethod"(path, state) {
      const node = path.node as NodeOf<"ObjectProperty" | "ObjectMethod">;
      if (node.type === "ObjectProperty" && node.shorthand) return; // the value names the same binding
      const name = propertyKey(node);
      if (name !== null) check(state, name, node.key, path.parent.type !== "ObjectPattern");
    },
    Identifier(path, state) {
      if (isBindingName(path)) check(state, path.node.name, path.node, false);
    },
  };
}
