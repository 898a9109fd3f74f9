/**
 * Which literal values reach a base call's arguments, and at which path: the provenance rule's walk from a
 * call's arguments expression through object and array literals, spreads, getters, `toJSON`, and writes to the
 * variables that hold them, to every literal string or number that JSON would send.
 */
import type { Node, NodePath } from "@babel/traverse";
import { propertyKey, stringValue } from "../static/static-values.ts";
import type { Folder } from "./provenance-fold.ts";
import {
  type Alt,
  isCheckable,
  type Limit,
  MAX_ALTERNATIVES,
  MAX_DEPTH,
  type NodeOf,
  pathStep,
} from "./provenance-values.ts";

/** Most parts of one call's arguments read (objects shared many times over multiply); beyond it, reported. */
export const MAX_VISITS = 20_000;

export const LIMIT_MESSAGES: Readonly<Record<Limit, (where: string) => string>> = Object.freeze({
  combinations: (where: string) =>
    `builds more than ${MAX_ALTERNATIVES} possible values for ${where} from literals`,
  depth: (where: string) => `reaches ${where} through more than ${MAX_DEPTH} nested steps from its literals`,
  size: (where: string) => `passes more than ${MAX_VISITS} parts to ${where}`,
});

/**
 * One literal value reaching a call's arguments at `path` (`.to`, `.lines[0].sku`, empty for the whole), or
 * a limit the arguments went past there.
 */
export type Reach =
  | { kind: "value"; node: Node; value: string | number; path: string }
  | { kind: "limit"; node: Node; why: Limit; path: string };

/** Walks a call's arguments to the literals that reach them. */
export class Reacher {
  readonly #folder: Folder;
  /** The folder it reads the code with, shared with the rule for writes. */
  get folder(): Folder {
    return this.#folder;
  }
  /** Parts of the current call's arguments read so far, against MAX_VISITS. */
  #visits = 0;

  constructor(folder: Folder) {
    this.#folder = folder;
  }

  /** Every checkable literal value that reaches the arguments expression `args`, with its path. */
  reaching(args: NodePath): Reach[] {
    const out: Reach[] = [];
    this.#visits = 0;
    this.#collect(args, "", out, new Set());
    if (this.#visits > MAX_VISITS) out.push({ kind: "limit", why: "size", node: args.node, path: "" });
    return out;
  }

  #collect(path: NodePath, at: string, out: Reach[], walking: Set<unknown>): void {
    if (walking.size > MAX_DEPTH) {
      out.push({ kind: "limit", why: "depth", node: path.node, path: at });
      return;
    }
    for (const alt of this.#folder.alternatives(path)) this.#collectAlt(alt, at, out, walking);
  }

  #collectAlt(alt: Alt, at: string, out: Reach[], walking: Set<unknown>): void {
    if (++this.#visits > MAX_VISITS) return;
    switch (alt.kind) {
      case "value":
        if (isCheckable(alt.value)) out.push({ kind: "value", node: alt.node, value: alt.value, path: at });
        return;
      case "overflow":
        out.push({ kind: "limit", why: alt.why, node: alt.node, path: at });
        return;
      case "function":
        return;
      case "object":
        // A cycle (`a.self = a`) adds nothing that the first pass did not see.
        if (walking.has(alt.path.node)) return;
        walking.add(alt.path.node);
        this.#collectLiteral(alt.path, at, out, walking);
        walking.delete(alt.path.node);
        break;
      case "unknown":
        break;
    }
    for (const owner of alt.owners) {
      if (walking.has(owner)) continue;
      walking.add(owner);
      for (const write of this.#folder.memberWritesOf(owner))
        this.#collect(write.value, at + write.path, out, walking);
      walking.delete(owner);
    }
  }

  #collectReturns(functions: Alt[], at: string, out: Reach[], walking: Set<unknown>): void {
    for (const alt of functions) {
      if (alt.kind !== "function") continue;
      for (const value of this.#folder.returns(alt.path)) this.#collectAlt(value, at, out, walking);
    }
  }

  /** The properties of an object literal, the elements of an array literal, spreads of literals included. */
  #collectLiteral(
    literal: NodePath<NodeOf<"ObjectExpression" | "ArrayExpression">>,
    at: string,
    out: Reach[],
    walking: Set<unknown>,
  ): void {
    if (literal.isObjectExpression()) {
      for (const prop of literal.get("properties")) {
        if (prop.isObjectProperty()) {
          const key =
            prop.node.computed && stringValue(prop.node.key) === null ? null : propertyKey(prop.node);
          const value = prop.get("value") as NodePath;
          if (key === "toJSON") this.#collectReturns(this.#folder.alternatives(value), at, out, walking);
          else this.#collect(value, at + pathStep(key), out, walking);
        } else if (prop.isObjectMethod()) {
          // JSON reads a getter's value, and an object's toJSON() stands for the whole object.
          const key =
            prop.node.computed && stringValue(prop.node.key) === null ? null : propertyKey(prop.node);
          const fn: Alt[] = [{ kind: "function", path: prop }];
          if (key === "toJSON" && prop.node.kind === "method") this.#collectReturns(fn, at, out, walking);
          else if (prop.node.kind === "get") this.#collectReturns(fn, at + pathStep(key), out, walking);
        } else if (prop.isSpreadElement()) {
          for (const alt of this.#folder.alternatives(prop.get("argument"))) {
            // Spreading an array into an object gives index keys; rare enough to read as unknown.
            if (alt.kind === "object" && !alt.path.isObjectExpression()) continue;
            this.#collectAlt(alt, at, out, walking);
          }
        }
      }
      return;
    }
    let index: number | null = 0;
    for (const element of (literal as NodePath<NodeOf<"ArrayExpression">>).get("elements")) {
      if (element.node === null) {
        if (index !== null) index++;
      } else if (element.isSpreadElement()) {
        for (const alt of this.#folder.elementsOf(element.get("argument"))) {
          this.#collectAlt(alt, at + pathStep(null), out, walking);
        }
        index = null;
      } else {
        this.#collect(element as NodePath, at + pathStep(index), out, walking);
        if (index !== null) index++;
      }
    }
  }
}
