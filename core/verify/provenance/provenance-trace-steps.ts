/**
 * The steps of the write tracer (provenance-trace.ts) over calls and text: what a call of a base tool, a
 * method, a global function or a function of the tool gives, and text joined from parts (concatenations,
 * templates, `join`), with the levels that keep computation shallow and the small readers they share.
 */
import type { Binding, Node, NodePath } from "@babel/traverse";
import { propertyKey, stringValue } from "../static/static-values.ts";
import type { Folder } from "./provenance-fold.ts";
import { type ArgumentIndex, HOLE, type Piece } from "./provenance-run.ts";
import { isGlobal, memberKey, type NodeOf } from "./provenance-values.ts";

/**
 * How far a traced value is from the data it was taken from. `direct`: the data itself or a part of it (a
 * property, an element, a substring, a case change); `built`: a string joined from direct values and the
 * run's own literal text; `computed`: arithmetic or a conversion of direct values. Only direct values may be
 * computed on or read from; a built one may be joined again; a computed one is only ever passed whole.
 */
export type Level = 0 | 1 | 2;
export const DIRECT: Level = 0;
export const BUILT: Level = 1;
export const COMPUTED: Level = 2;

/** An argument part the rule could not trace, and why. */
export interface Untraced {
  node: Node;
  why: string;
  /** A literal the run never passed to the tool: its value, for the message. */
  value?: string | number | boolean | null;
  /** The argument path it is sent at (`.to`), when known. */
  at?: string;
}

export interface Trace {
  level: Level;
  bad: Untraced[];
}

export const OK: Trace = Object.freeze({ level: DIRECT, bad: [] }) as Trace;

/**
 * The argument path of a value that is read from or computed on, not sent: a constant there is explained by
 * any argument of the tool, and null or undefined send nothing (reading from them throws).
 */
export const READ = "[…]<read>";

/** Most steps one write call's arguments may take to trace; beyond it the call is reported. */
export const MAX_TRACE_STEPS = 20_000;

/** Methods whose result is a part of their receiver (or a rearrangement of it): direct on a direct value. */
export const SELECT: ReadonlySet<string> = new Set([
  "slice",
  "substring",
  "at",
  "charAt",
  "split",
  "trim",
  "trimStart",
  "trimEnd",
  "toLowerCase",
  "toUpperCase",
  "toLocaleLowerCase",
  "toLocaleUpperCase",
  "normalize",
  "filter",
  "find",
  "findLast",
  "flat",
  "reverse",
  "toReversed",
  "sort",
  "toSorted",
]);
/** Array methods whose callback's first parameter is an element of the receiver. */
export const ELEMENT_CALLBACKS: ReadonlySet<string> = new Set([
  "reduce",
  "reduceRight",
  "map",
  "flatMap",
  "forEach",
  "filter",
  "find",
  "findLast",
  "some",
  "every",
  "findIndex",
  "findLastIndex",
]);
/** Conversions to text of a direct value: built (never read from again). */
export const TO_TEXT: ReadonlySet<string> = new Set(["toString", "toFixed", "toPrecision"]);
/** `Math.*` functions of numbers: computed. */
export const MATH: ReadonlySet<string> = new Set(["round", "floor", "ceil", "trunc", "abs", "min", "max"]);
/** Global functions of one value. */
export const NUMBER_OF: ReadonlySet<string> = new Set(["Number", "parseInt", "parseFloat"]);

/** The call and text steps, over the tracer's own `trace` and `returns`. */
export abstract class TraceSteps {
  protected readonly folder: Folder;
  protected readonly args: ArgumentIndex;
  protected readonly sites: ReadonlySet<Node>;
  /** What reduce's accumulator is taken to be while its callback is traced. */
  protected readonly assumed = new Map<Node, Trace>();

  constructor(folder: Folder, args: ArgumentIndex, sites: ReadonlySet<Node>) {
    this.folder = folder;
    this.args = args;
    this.sites = sites;
  }

  /** What `path` gives when it is sent to `tool` at `at`. */
  abstract trace(path: NodePath, tool: string, at: string): Trace;
  /** What a function of the tool returns when that is sent to `tool` at `at`. */
  abstract returns(fn: NodePath, tool: string, at: string): Trace;

  protected callOf(path: NodePath<NodeOf<"CallExpression">>, tool: string, at: string): Trace {
    if (this.sites.has(path.node)) return OK; // a base call's result
    const callee = path.get("callee") as NodePath;
    const args = path.get("arguments") as NodePath[];
    if (args.some((a) => a.isSpreadElement())) return bad(path.node, "a spread of arguments");
    const name = callee.isIdentifier() ? callee.node.name : null;
    if (name !== null && isGlobal(callee, name)) {
      if (name === "String") return this.toText(args[0], tool);
      if (NUMBER_OF.has(name)) return this.operands(path.node, args.slice(0, 1), tool);
      return bad(path.node, `${name}() makes a value the rule does not follow`);
    }
    if (callee.isMemberExpression() || callee.isOptionalMemberExpression()) {
      const method = memberKey(callee);
      const object = callee.get("object") as NodePath;
      const on = object.isIdentifier() && isGlobal(object, object.node.name) ? object.node.name : null;
      if (on === "Object" && method === "freeze") return args[0] ? this.trace(args[0], tool, at) : OK;
      if (on === "Promise" && (method === "all" || method === "allSettled") && args[0]) {
        return this.trace(args[0], tool, at);
      }
      if (on === "Object" && (method === "values" || method === "entries" || method === "keys") && args[0]) {
        return this.direct(args[0], tool, path.node);
      }
      if (on === "Array" && method === "from" && args[0] && args.length === 1)
        return this.direct(args[0], tool, path.node);
      if (on === "Math" && typeof method === "string" && MATH.has(method))
        return this.operands(path.node, args, tool);
      if (on === "JSON" && method === "stringify" && args.length === 1) return this.toText(args[0], tool);
      if (on !== null)
        return bad(path.node, `${on}.${String(method)}() makes a value the rule does not follow`);
      if (typeof method === "string" && SELECT.has(method)) return this.direct(object, tool, path.node);
      if ((method === "reduce" || method === "reduceRight") && args[0]) {
        return this.reduce(object, args[0], args[1], tool, at, path.node);
      }
      if ((method === "map" || method === "flatMap") && args[0]) {
        const receiver = this.direct(object, tool, path.node);
        return join(receiver, this.returns(args[0], tool, at));
      }
      if (method === "join") {
        const receiver = this.direct(object, tool, path.node);
        const parts: Part[] = [{ hole: true }];
        if (args[0]) parts.push({ path: args[0] }, { hole: true });
        return join(receiver, this.built(path, parts, tool, at, true));
      }
      if (typeof method === "string" && TO_TEXT.has(method)) {
        return { ...this.direct(object, tool, path.node), level: BUILT };
      }
    }
    // A function written in the tool: what it returns.
    const functions = this.folder.alternatives(callee);
    if (functions.length > 0 && functions.every((f) => f.kind === "function")) {
      let out = OK;
      for (const f of functions) if (f.kind === "function") out = join(out, this.returns(f.path, tool, at));
      return out;
    }
    return bad(path.node, `${describeCall(callee)} makes a value the rule does not follow`);
  }

  /**
   * `xs.reduce(f, init)`: what `f` returns, its accumulator being an element, `init` or what `f` returned
   * before. Traced twice when the first pass finds `f` returns something less direct than it assumed, so an
   * accumulator cannot hide arithmetic on arithmetic.
   */
  protected reduce(
    receiver: NodePath,
    cb: NodePath,
    init: NodePath | undefined,
    tool: string,
    at: string,
    where: Node,
  ): Trace {
    const elements = this.direct(receiver, tool, where);
    const start = join(elements, init === undefined ? OK : this.trace(init, tool, at));
    const accumulator = cb.isFunction() ? (cb.get("params") as NodePath[])[0] : undefined;
    if (accumulator === undefined) return join(start, this.returns(cb, tool, at));
    let assumed = start;
    let returned = OK;
    for (let pass = 0; pass < 2; pass++) {
      this.assumed.set(accumulator.node, { level: assumed.level, bad: [] });
      try {
        returned = this.returns(cb, tool, at);
      } finally {
        this.assumed.delete(accumulator.node);
      }
      if (returned.level <= assumed.level) break;
      assumed = { level: returned.level, bad: assumed.bad };
    }
    return join(start, returned);
  }

  /** A value read from or computed on: it must be direct. */
  protected direct(path: NodePath, tool: string, where: Node): Trace {
    const t = this.trace(path, tool, READ);
    if (t.bad.length === 0 && t.level !== DIRECT)
      return bad(where, "it works on a value the code computed, not on data");
    return { level: DIRECT, bad: t.bad };
  }

  protected toText(arg: NodePath | undefined, tool: string): Trace {
    return arg === undefined ? OK : { ...this.direct(arg, tool, arg.node), level: BUILT };
  }

  /** Arithmetic: every operand direct (a literal one a constant the run passed to the tool), the result computed. */
  protected operands(node: Node, operands: NodePath[], tool: string): Trace {
    let out: Untraced[] = [];
    for (const o of operands) out = [...out, ...this.direct(o, tool, node).bad];
    return { level: COMPUTED, bad: out };
  }

  protected binary(path: NodePath<NodeOf<"BinaryExpression">>, tool: string, at: string): Trace {
    const op = path.node.operator;
    if (op === "+") return this.built(path, this.plusParts(path), tool, at);
    if (["-", "*", "/", "%", "**"].includes(op)) {
      return this.operands(path.node, [path.get("left") as NodePath, path.get("right")], tool);
    }
    return bad(path.node, `the operator '${op}' makes a value of its own`);
  }

  /** `a + "-" + b`, flattened: each part a piece of text or a hole. */
  protected plusParts(path: NodePath): Part[] {
    const unwrapped = path.isParenthesizedExpression() ? path.get("expression") : path;
    if (unwrapped.isBinaryExpression() && unwrapped.node.operator === "+") {
      return [
        ...this.plusParts(unwrapped.get("left") as NodePath),
        ...this.plusParts(unwrapped.get("right")),
      ];
    }
    return [{ path: unwrapped as NodePath }];
  }

  protected templateParts(path: NodePath<NodeOf<"TemplateLiteral">>): Part[] {
    const parts: Part[] = [];
    const expressions = path.get("expressions") as NodePath[];
    path.node.quasis.forEach((q, i) => {
      if (q.value.cooked) parts.push({ text: q.value.cooked });
      if (expressions[i]) parts.push({ path: expressions[i]! });
    });
    return parts;
  }

  /**
   * Text joined from parts: each part that folds to literals is literal text, every other part must be direct
   * or built (a hole), and the literal text in order, with something between, must be the text of a value
   * the run passed to the tool there (the run's own format).
   */
  protected built(at0: NodePath, parts: Part[], tool: string, at: string, joined = false): Trace {
    let out: Untraced[] = [];
    const shapes: Piece[][] = [[]];
    for (const part of parts) {
      if ("hole" in part) {
        for (const s of shapes) s.push(HOLE);
        continue;
      }
      const texts = "text" in part ? [part.text] : this.literalTexts(part.path);
      if (texts === null) {
        const t = this.trace((part as { path: NodePath }).path, tool, at);
        if (t.bad.length === 0 && t.level === COMPUTED) {
          out.push({
            node: (part as { path: NodePath }).path.node,
            why: "text joined with a computed value",
          });
        }
        out = [...out, ...t.bad];
        for (const s of shapes) s.push(HOLE);
        continue;
      }
      // A conditional among the literals gives several formats; each must be the run's.
      const next: Piece[][] = [];
      for (const s of shapes) for (const text of texts) next.push([...s, text]);
      shapes.splice(0, shapes.length, ...next.slice(0, 64));
    }
    for (const shape of shapes) {
      if (!this.args.formatPassed(tool, at, shape, joined)) {
        out.push({
          node: at0.node,
          why: "its literal text is not the text of a value the source run passed there",
        });
        break;
      }
    }
    return { level: BUILT, bad: out };
  }

  /** The texts a part folds to when it is made of literals only, or null. */
  protected literalTexts(path: NodePath): string[] | null {
    const alts = this.folder.alternatives(path);
    if (alts.length === 0 || !alts.every((a) => a.kind === "value")) return null;
    return alts.map((a) => (a.kind === "value" && a.value !== undefined ? String(a.value) : ""));
  }
}

export type Part = { hole: true } | { text: string } | { path: NodePath };

export function bad(node: Node, why: string): Trace {
  return { level: DIRECT, bad: [{ node, why }] };
}

export function join(a: Trace, b: Trace): Trace {
  if (b.bad.length === 0 && b.level <= a.level) return a;
  return { level: Math.max(a.level, b.level) as Level, bad: [...a.bad, ...b.bad] };
}

/** True when `pattern` binds the node `id` somewhere inside it. */
export function bindsWithin(pattern: NodePath, id: Node): boolean {
  if (pattern.node === id) return true;
  let found = false;
  pattern.traverse({
    Identifier(p) {
      if (p.node === id) found = true;
    },
  });
  return found;
}

/** The calls of a function the tool declared by name, when every use of the name is a direct call; else null. */
export function directCalls(fn: NodePath): NodePath<NodeOf<"CallExpression">>[] | null {
  let binding: Binding | undefined;
  if (fn.isFunctionDeclaration() && fn.node.id) binding = fn.parentPath?.scope.getBinding(fn.node.id.name);
  else if (fn.parentPath?.isVariableDeclarator() && fn.key === "init") {
    const id = fn.parentPath.node.id;
    if (id.type === "Identifier") binding = fn.parentPath.scope.getBinding(id.name);
  }
  if (binding === undefined || binding.constantViolations.length > 0) return null;
  const calls: NodePath<NodeOf<"CallExpression">>[] = [];
  for (const ref of binding.referencePaths) {
    const parent = ref.parentPath;
    if (!(parent?.isCallExpression() && ref.key === "callee")) return null;
    calls.push(parent);
  }
  return calls;
}

/** The value expressions an object or array literal gives for `key` (all of them for a key known only at run time). */
export function propertyValues(
  literal: NodePath<NodeOf<"ObjectExpression" | "ArrayExpression">>,
  key: string | number | null,
): NodePath[] {
  const out: NodePath[] = [];
  if (literal.isArrayExpression()) {
    const index = typeof key === "number" ? key : key !== null && /^\d+$/.test(key) ? Number(key) : null;
    literal.get("elements").forEach((e, i) => {
      if (e.node === null) return;
      if (e.isSpreadElement()) out.push(e.get("argument"));
      else if (index === null || index === i) out.push(e as NodePath);
    });
    return out;
  }
  for (const prop of (literal as NodePath<NodeOf<"ObjectExpression">>).get("properties")) {
    if (prop.isSpreadElement()) {
      out.push(prop.get("argument"));
      continue;
    }
    const node = prop.node as NodeOf<"ObjectProperty" | "ObjectMethod">;
    const name = node.computed && stringValue(node.key) === null ? null : propertyKey(node);
    if (key !== null && name !== null && name !== String(key)) continue;
    if (prop.isObjectProperty()) out.push(prop.get("value") as NodePath);
    else out.push(prop as NodePath); // a method or getter: traced as a function (dropped) or refused below
  }
  return out;
}

export function describe(node: Node): string {
  return node.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

export function describeCall(callee: NodePath): string {
  if (callee.isMemberExpression()) {
    const method = memberKey(callee);
    return method === null ? "a computed method" : `.${String(method)}()`;
  }
  return callee.isIdentifier() ? `${callee.node.name}()` : "a call";
}
