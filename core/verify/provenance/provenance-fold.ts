/**
 * The provenance rule's folding of a tool's code: what each expression may evaluate to, following constants,
 * variables and their later assignments, destructuring, parameters, properties of literals, conditionals,
 * concatenations and local functions. Memoised per node, bounded in depth.
 */
import type { Binding, Node, NodePath } from "@babel/traverse";
import type { CallNode } from "../call-sites.ts";
import { propertyKey, stringValue } from "../static/static-values.ts";
import { foldCall } from "./provenance-calls.ts";
import {
  type Alt,
  binds,
  combine,
  dedupe,
  type Folding,
  isFoldable,
  MAX_DEPTH,
  type MemberWrite,
  memberKey,
  memberWrites,
  NOT_FOLDED,
  type NodeOf,
  UNKNOWN,
} from "./provenance-values.ts";

/** Array methods whose callback's first parameter is an element of the array. */
const ELEMENT_CALLBACKS: ReadonlySet<string> = new Set([
  "map",
  "flatMap",
  "forEach",
  "filter",
  "find",
  "findLast",
  "some",
  "every",
]);

/** Follows literals through the code: constants, conditionals, concatenations, local functions. */
export class Folder implements Folding {
  readonly #memo = new Map<Node, Alt[]>();
  readonly #active = new Set<Node>();
  /** Variables being evaluated, with the values found for them so far. */
  readonly #sofar = new Map<Binding, Alt[]>();
  readonly #writes = new Map<Binding, MemberWrite[]>();
  #depth = 0;

  /** What `path` may evaluate to. Memoised per node: the bindings it follows do not change. */
  alternatives(path: NodePath): Alt[] {
    const node = path.node;
    const memo = this.#memo.get(node);
    if (memo !== undefined) return memo;
    // A node met again inside its own evaluation is recursion: the other branches give its literals.
    if (this.#active.has(node)) return [UNKNOWN];
    if (this.#depth >= MAX_DEPTH) return [{ kind: "overflow", node, why: "depth" }];
    this.#active.add(node);
    this.#depth++;
    try {
      const alts = dedupe(this.#evaluate(path));
      this.#memo.set(node, alts);
      return alts;
    } finally {
      this.#depth--;
      this.#active.delete(node);
    }
  }

  #evaluate(path: NodePath): Alt[] {
    const node = path.node;
    switch (node.type) {
      case "ParenthesizedExpression":
      case "TSAsExpression":
      case "TSSatisfiesExpression":
      case "TSNonNullExpression":
      case "TSTypeAssertion":
      case "TSInstantiationExpression":
      case "AwaitExpression":
        return this.alternatives(
          path.get(node.type === "AwaitExpression" ? "argument" : "expression") as NodePath,
        );
      case "StringLiteral":
      case "NumericLiteral":
      case "BooleanLiteral":
        return [{ kind: "value", node, value: node.value }];
      case "NullLiteral":
        return [{ kind: "value", node, value: null }];
      case "TemplateLiteral": {
        const parts = (path.get("expressions") as NodePath[]).map((e) => this.alternatives(e));
        return combine(node, parts, (values) => {
          let text = node.quasis[0]?.value.cooked ?? "";
          for (let i = 0; i < values.length; i++) {
            text += String(values[i]) + (node.quasis[i + 1]?.value.cooked ?? "");
          }
          return text;
        });
      }
      case "BinaryExpression":
        return this.#binary(path as NodePath<NodeOf<"BinaryExpression">>);
      case "UnaryExpression": {
        if (node.operator === "void") return [{ kind: "value", node, value: undefined }];
        if (node.operator !== "-" && node.operator !== "+") return [UNKNOWN];
        const sign = node.operator === "-" ? -1 : 1;
        return combine(node, [this.alternatives(path.get("argument") as NodePath)], ([v]) =>
          typeof v === "number" ? sign * v : NOT_FOLDED,
        );
      }
      case "ConditionalExpression":
        return [
          ...this.alternatives(path.get("consequent") as NodePath),
          ...this.alternatives(path.get("alternate") as NodePath),
        ];
      case "LogicalExpression":
        return [
          ...this.alternatives(path.get("left") as NodePath),
          ...this.alternatives(path.get("right") as NodePath),
        ];
      case "SequenceExpression": {
        const expressions = path.get("expressions") as NodePath[];
        const last = expressions[expressions.length - 1];
        return last === undefined ? [UNKNOWN] : this.alternatives(last);
      }
      case "AssignmentExpression":
        return node.operator === "=" ? this.alternatives(path.get("right") as NodePath) : [UNKNOWN];
      case "Identifier":
        return this.#identifier(path as NodePath<NodeOf<"Identifier">>);
      case "MemberExpression":
      case "OptionalMemberExpression": {
        const key = memberKey(path as NodePath<NodeOf<"MemberExpression" | "OptionalMemberExpression">>);
        return this.alternatives(path.get("object") as NodePath).flatMap((alt) => this.member(alt, key));
      }
      case "CallExpression":
      case "OptionalCallExpression":
        return foldCall(this, path as NodePath<CallNode>);
      case "ObjectExpression":
      case "ArrayExpression":
        return [
          {
            kind: "object",
            path: path as NodePath<NodeOf<"ObjectExpression" | "ArrayExpression">>,
            owners: [],
          },
        ];
      case "ArrowFunctionExpression":
      case "FunctionExpression":
      case "FunctionDeclaration":
        return [{ kind: "function", path }];
      default:
        return [UNKNOWN];
    }
  }

  #binary(path: NodePath<NodeOf<"BinaryExpression">>): Alt[] {
    const node = path.node;
    const op = node.operator;
    if (!["+", "-", "*", "/", "%", "**"].includes(op)) return [UNKNOWN];
    const parts = [this.alternatives(path.get("left") as NodePath), this.alternatives(path.get("right"))];
    return combine(node, parts, ([a, b]) => {
      const operands = typeof a === "string" || typeof b === "string" ? "string" : "number";
      if (!isFoldable(a) || !isFoldable(b)) return NOT_FOLDED;
      if (op === "+") return operands === "string" ? String(a) + String(b) : (a as number) + (b as number);
      if (typeof a !== "number" || typeof b !== "number") return NOT_FOLDED;
      const result =
        op === "-" ? a - b : op === "*" ? a * b : op === "/" ? a / b : op === "%" ? a % b : a ** b;
      return Number.isFinite(result) ? result : NOT_FOLDED;
    });
  }

  /**
   * A variable's value: its initialiser (or the elements a for…of or an array callback gives it), and every
   * value assigned to it later. Read inside one of its own assignments (`to = to + "x"`), it is its value so far.
   */
  #identifier(path: NodePath<NodeOf<"Identifier">>): Alt[] {
    const name = path.node.name;
    const binding = path.scope.getBinding(name);
    if (binding === undefined) {
      return name === "undefined" ? [{ kind: "value", node: path.node, value: undefined }] : [UNKNOWN];
    }
    const sofar = this.#sofar.get(binding);
    if (sofar !== undefined) return [...sofar, UNKNOWN];
    const alts: Alt[] = [];
    this.#sofar.set(binding, alts);
    try {
      if (binding.kind === "hoisted" && binding.path.isFunctionDeclaration()) {
        alts.push({ kind: "function", path: binding.path });
      } else if (binding.kind === "const" || binding.kind === "let" || binding.kind === "var") {
        alts.push(...this.#declared(binding.path, binding.identifier));
      } else if (binding.kind === "param") {
        alts.push(...this.#parameter(binding.path, binding.identifier));
      } else {
        alts.push(UNKNOWN);
      }
      for (const write of binding.constantViolations)
        alts.push(...this.#reassigned(write, binding.identifier));
      // Later writes to its properties (`args.to = "x"`) belong to what the variable holds.
      return alts.map((alt) =>
        alt.kind === "object" || alt.kind === "unknown" ? { ...alt, owners: [...alt.owners, binding] } : alt,
      );
    } finally {
      this.#sofar.delete(binding);
    }
  }

  #declared(declarator: NodePath, id: NodeOf<"Identifier">): Alt[] {
    if (!declarator.isVariableDeclarator()) return [UNKNOWN];
    const declaration = declarator.parentPath;
    const loop = declaration?.parentPath;
    let base: Alt[];
    if (loop?.isForOfStatement() && declaration?.node === loop.node.left) {
      base = this.elementsOf(loop.get("right"));
    } else {
      const init = declarator.get("init");
      base = init.node
        ? this.alternatives(init as NodePath)
        : [{ kind: "value", node: id, value: undefined }];
    }
    return this.#project(base, declarator.get("id") as NodePath, id);
  }

  #parameter(param: NodePath, id: NodeOf<"Identifier">): Alt[] {
    const fn = param.parentPath;
    let base: Alt[] = [UNKNOWN];
    const call = fn?.parentPath;
    if (
      fn?.isFunction() &&
      param.key === 0 &&
      call !== null &&
      call !== undefined &&
      (call.isCallExpression() || call.isOptionalCallExpression()) &&
      fn.key === 0
    ) {
      const callee = call.get("callee") as NodePath;
      if (callee.isMemberExpression() || callee.isOptionalMemberExpression()) {
        const method = memberKey(callee);
        if (method !== null && ELEMENT_CALLBACKS.has(String(method))) {
          base = [UNKNOWN, ...this.elementsOf(callee.get("object") as NodePath)];
        }
      }
    }
    return this.#project(base, param, id);
  }

  #reassigned(write: NodePath, id: NodeOf<"Identifier">): Alt[] {
    if (write.isAssignmentExpression()) {
      if (write.node.operator !== "=") return [UNKNOWN];
      return this.#project(this.alternatives(write.get("right")), write.get("left") as NodePath, id);
    }
    if (write.isVariableDeclarator()) return this.#declared(write, id);
    if (write.isForOfStatement()) {
      return this.#project(this.elementsOf(write.get("right")), write.get("left") as NodePath, id);
    }
    // ++, +=, for…in and the like: a value combined with what was there is a format.
    return [UNKNOWN];
  }

  /** What the pattern `pattern` binds to the variable `id` when it destructures a value that may be any of `base`. */
  #project(base: Alt[], pattern: NodePath, id: NodeOf<"Identifier">): Alt[] {
    if (pattern.isIdentifier()) return pattern.node.name === id.name ? base : [UNKNOWN];
    if (pattern.isAssignmentPattern()) {
      const inner = [...base, ...this.alternatives(pattern.get("right"))];
      return this.#project(inner, pattern.get("left") as NodePath, id);
    }
    if (pattern.isObjectPattern()) {
      for (const prop of pattern.get("properties")) {
        if (!binds(prop.node, id.name)) continue;
        if (!prop.isObjectProperty()) return [UNKNOWN]; // a rest element
        const key = prop.node.computed && stringValue(prop.node.key) === null ? null : propertyKey(prop.node);
        const next = base.flatMap((alt) => this.member(alt, key));
        return this.#project(next, prop.get("value") as NodePath, id);
      }
    }
    if (pattern.isArrayPattern()) {
      const elements = pattern.get("elements");
      for (let i = 0; i < elements.length; i++) {
        const element = elements[i]!;
        if (element.node === null || !binds(element.node, id.name)) continue;
        if (element.isRestElement()) return [UNKNOWN];
        return this.#project(
          base.flatMap((alt) => this.member(alt, i)),
          element as NodePath,
          id,
        );
      }
    }
    return [UNKNOWN];
  }

  /** The value of property `key` (null: a key only known at run time) of a value that may be `alt`. */
  member(alt: Alt, key: string | number | null): Alt[] {
    const written = alt.kind === "object" || alt.kind === "unknown" ? this.#writesTo(alt.owners, key) : [];
    if (alt.kind === "unknown") return [UNKNOWN, ...written];
    if (alt.kind !== "object") return [UNKNOWN];
    const literal = alt.path;
    if (literal.isArrayExpression()) {
      const index = typeof key === "number" ? key : key !== null && /^\d+$/.test(key) ? Number(key) : null;
      if (key !== null && index === null) return [UNKNOWN, ...written]; // length, a method, …
      const out: Alt[] = [...written];
      // Where an element stands; null after a spread, when any later element may be the one asked for.
      let position: number | null = 0;
      for (const element of literal.get("elements")) {
        if (element.isSpreadElement()) {
          out.push(...this.elementsOf(element.get("argument")));
          position = null;
          continue;
        }
        if (element.node !== null && (index === null || position === null || position === index)) {
          out.push(...this.alternatives(element as NodePath));
        }
        if (position !== null) position++;
      }
      return out.length > 0 ? out : [{ kind: "value", node: literal.node, value: undefined }];
    }
    const out: Alt[] = [...written];
    for (const prop of (literal as NodePath<NodeOf<"ObjectExpression">>).get("properties")) {
      if (prop.isSpreadElement()) {
        out.push(...this.alternatives(prop.get("argument")).flatMap((a) => this.member(a, key)));
        continue;
      }
      const node = prop.node as NodeOf<"ObjectProperty" | "ObjectMethod">;
      const name = node.computed && stringValue(node.key) === null ? null : propertyKey(node);
      if (key !== null && name !== null && name !== String(key)) continue;
      if (prop.isObjectMethod() && prop.node.kind === "get") out.push(...this.returns(prop));
      else if (prop.isObjectMethod()) out.push({ kind: "function", path: prop });
      else out.push(...this.alternatives(prop.get("value") as NodePath));
    }
    return out.length > 0 ? out : [{ kind: "value", node: literal.node, value: undefined }];
  }

  /** Values assigned to `owner.key` (or any property, for a key known only at run time) of these variables. */
  #writesTo(owners: readonly Binding[], key: string | number | null): Alt[] {
    const out: Alt[] = [];
    for (const owner of owners) {
      for (const write of this.memberWritesOf(owner)) {
        if (write.keys.length !== 1) continue;
        const written = write.keys[0];
        if (key === null || written === null || written === String(key)) {
          out.push(...this.alternatives(write.value));
        }
      }
    }
    return out;
  }

  /** Writes through the variable `binding` to what it holds (memoised). */
  memberWritesOf(binding: Binding): MemberWrite[] {
    let writes = this.#writes.get(binding);
    if (writes === undefined) {
      writes = memberWrites(binding);
      this.#writes.set(binding, writes);
    }
    return writes;
  }

  /** The elements of an iterable, as far as literals show them; unknown for anything else. */
  elementsOf(path: NodePath): Alt[] {
    return this.alternatives(path).flatMap((alt) =>
      alt.kind === "object" && alt.path.isArrayExpression() ? this.member(alt, null) : [UNKNOWN],
    );
  }

  /** What a function written in the tool returns (undefined, never checked, when it falls off its end). */
  returns(fn: NodePath): Alt[] {
    if (fn.isArrowFunctionExpression() && !fn.get("body").isBlockStatement()) {
      return this.alternatives(fn.get("body") as NodePath);
    }
    const out: Alt[] = [];
    fn.traverse({
      Function(inner) {
        inner.skip();
      },
      ReturnStatement: (ret) => {
        const arg = ret.get("argument");
        if (arg.node) out.push(...this.alternatives(arg as NodePath));
      },
    });
    // Falling off the end, or `return;`, gives undefined, which is never checked.
    return out.length > 0 ? out : [UNKNOWN];
  }
}
