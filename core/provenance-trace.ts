/**
 * Where each argument of a call to a tool that may write comes from: the tracer of the inverted provenance
 * rule. A value is traced when it is the run's input, an earlier base call's result, or a constant the source
 * run passed to that tool, or is built from those by the few steps listed here; anything else is untraced and
 * reported with its node and the reason. Levels keep computation shallow, so a tool cannot make a constant out
 * of data (`x - x`, `typeof x`, letters of "[object Object]"): see "Argument provenance" in
 * docs/verification.md.
 */
import type { Binding, Node, NodePath } from "@babel/traverse";
import type { Folder } from "./provenance-fold.ts";
import { type ArgumentIndex, HOLE, type Piece } from "./provenance-run.ts";
import { isGlobal, MAX_DEPTH, memberKey, type NodeOf, pathStep } from "./provenance-values.ts";
import { propertyKey, stringValue } from "./static-values.ts";

/**
 * How far a traced value is from the data it was taken from. `direct`: the data itself or a part of it (a
 * property, an element, a substring, a case change); `built`: a string joined from direct values and the
 * run's own literal text; `computed`: arithmetic or a conversion of direct values. Only direct values may be
 * computed on or read from; a built one may be joined again; a computed one is only ever passed whole.
 */
export type Level = 0 | 1 | 2;
const DIRECT: Level = 0;
const BUILT: Level = 1;
const COMPUTED: Level = 2;

/** An argument part the rule could not trace, and why. */
export interface Untraced {
  node: Node;
  why: string;
  /** A literal the run never passed to the tool: its value, for the message. */
  value?: string | number | boolean | null;
}

interface Trace {
  level: Level;
  bad: Untraced[];
}

const OK: Trace = Object.freeze({ level: DIRECT, bad: [] }) as Trace;

/**
 * The argument path of a value that is read from or computed on, not sent: a constant there is explained by
 * any argument of the tool, and null or undefined send nothing (reading from them throws).
 */
const READ = "[…]<read>";

/** Most steps one write call's arguments may take to trace; beyond it the call is reported. */
export const MAX_TRACE_STEPS = 20_000;

/** Methods whose result is a part of their receiver (or a rearrangement of it): direct on a direct value. */
const SELECT: ReadonlySet<string> = new Set([
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
const TO_TEXT: ReadonlySet<string> = new Set(["toString", "toFixed", "toPrecision"]);
/** `Math.*` functions of numbers: computed. */
const MATH: ReadonlySet<string> = new Set(["round", "floor", "ceil", "trunc", "abs", "min", "max"]);
/** Global functions of one value. */
const NUMBER_OF: ReadonlySet<string> = new Set(["Number", "parseInt", "parseFloat"]);

/** Traces the arguments of calls to tools that may write. One per checked source. */
export class WriteTracer {
  readonly #folder: Folder;
  readonly #args: ArgumentIndex;
  readonly #sites: ReadonlySet<Node>;
  readonly #input: NodePath | null;
  readonly #active = new Set<string>();
  /** What reduce's accumulator is taken to be while its callback is traced. */
  readonly #assumed = new Map<Node, Trace>();
  #steps = 0;
  #depth = 0;

  /** `sites`: the nodes of the code's base calls; `input`: the `run` function's first parameter. */
  constructor(folder: Folder, args: ArgumentIndex, sites: ReadonlySet<Node>, input: NodePath | null) {
    this.#folder = folder;
    this.#args = args;
    this.#sites = sites;
    this.#input = input;
  }

  /** Everything in `path` that cannot be traced when it is sent to `tool` at argument path `at`. */
  untraced(path: NodePath, tool: string, at = ""): Untraced[] {
    this.#steps = 0;
    return this.#trace(path, tool, at).bad;
  }

  #trace(path: NodePath, tool: string, at: string): Trace {
    const key = `${path.node.start}:${path.node.end}:${path.node.type}\u0000${tool}\u0000${at}`;
    // Met again inside its own evaluation: the other definitions being traced decide.
    if (this.#active.has(key)) return OK;
    if (++this.#steps > MAX_TRACE_STEPS || this.#depth >= MAX_DEPTH) {
      return bad(path.node, "its arguments take too many steps to trace: simplify them");
    }
    this.#active.add(key);
    this.#depth++;
    try {
      return this.#evaluate(path, tool, at);
    } finally {
      this.#depth--;
      this.#active.delete(key);
    }
  }

  #evaluate(path: NodePath, tool: string, at: string): Trace {
    const node = path.node;
    const folded = this.#folder.alternatives(path);
    if (folded.length > 0 && folded.every((a) => a.kind === "value")) {
      const out: Untraced[] = [];
      for (const alt of folded) {
        if (alt.kind !== "value" || alt.value === undefined) continue;
        if (alt.value === null && at === READ) continue;
        if (!this.#args.passed(tool, at, alt.value)) {
          out.push({ node: alt.node, why: "a constant the source run never passed there", value: alt.value });
        }
      }
      return { level: DIRECT, bad: out };
    }
    switch (node.type) {
      case "ParenthesizedExpression":
      case "TSAsExpression":
      case "TSSatisfiesExpression":
      case "TSNonNullExpression":
      case "TSTypeAssertion":
      case "TSInstantiationExpression":
        return this.#trace(path.get("expression") as NodePath, tool, at);
      case "AwaitExpression":
        return this.#trace(path.get("argument") as NodePath, tool, at);
      case "ConditionalExpression":
        return join(
          this.#trace(path.get("consequent") as NodePath, tool, at),
          this.#trace(path.get("alternate") as NodePath, tool, at),
        );
      case "LogicalExpression":
        return join(
          this.#trace(path.get("left") as NodePath, tool, at),
          this.#trace(path.get("right") as NodePath, tool, at),
        );
      case "SequenceExpression": {
        const all = path.get("expressions") as NodePath[];
        return this.#trace(all[all.length - 1]!, tool, at);
      }
      case "AssignmentExpression":
        return this.#assigned(path as NodePath<NodeOf<"AssignmentExpression">>, tool, at);
      case "Identifier":
        return this.#identifier(path as NodePath<NodeOf<"Identifier">>, tool, at);
      case "MemberExpression":
      case "OptionalMemberExpression":
        return this.#member(path as NodePath<NodeOf<"MemberExpression">>, tool, at);
      case "CallExpression":
      case "OptionalCallExpression":
        return this.#call(path as NodePath<NodeOf<"CallExpression">>, tool, at);
      case "TemplateLiteral":
        return this.#built(path, this.#templateParts(path as NodePath<NodeOf<"TemplateLiteral">>), tool, at);
      case "BinaryExpression":
        return this.#binary(path as NodePath<NodeOf<"BinaryExpression">>, tool, at);
      case "UnaryExpression":
        if (node.operator === "-" || node.operator === "+") {
          return this.#operands(node, [path.get("argument") as NodePath], tool);
        }
        return bad(node, `the operator '${node.operator}' makes a value of its own`);
      case "ObjectExpression":
        return this.#object(path as NodePath<NodeOf<"ObjectExpression">>, tool, at);
      case "ArrayExpression":
        return this.#array(path as NodePath<NodeOf<"ArrayExpression">>, tool, at);
      case "ArrowFunctionExpression":
      case "FunctionExpression":
        // JSON drops a function: nothing of it is sent.
        return OK;
      case "TaggedTemplateExpression":
        return bad(node, "a tagged template (String.raw) builds text the rule does not follow");
      default:
        return bad(node, `a ${describe(node)} is not something the rule follows`);
    }
  }

  #assigned(path: NodePath<NodeOf<"AssignmentExpression">>, tool: string, at: string): Trace {
    const op = path.node.operator;
    const right = this.#trace(path.get("right"), tool, at);
    if (op === "=") return right;
    if (op === "||=" || op === "&&=" || op === "??=") {
      return join(right, this.#trace(path.get("left") as NodePath, tool, at));
    }
    return bad(path.node, `the compound assignment '${op}' computes a value the rule does not follow`);
  }

  /** A variable: every definition it has, wherever it is (no flow analysis), must be traced. */
  #identifier(path: NodePath<NodeOf<"Identifier">>, tool: string, at: string): Trace {
    const binding = path.scope.getBinding(path.node.name);
    if (binding === undefined) {
      return path.node.name === "undefined" ? OK : bad(path.node, `the global '${path.node.name}'`);
    }
    if (binding.kind === "hoisted" || binding.kind === "module") return OK; // a function, or `call` itself
    let out: Trace;
    if (binding.kind === "param") out = this.#parameter(binding, tool, at);
    else if (binding.kind === "const" || binding.kind === "let" || binding.kind === "var") {
      out = this.#declared(binding.path, binding.identifier, tool, at);
    } else return bad(path.node, `'${path.node.name}' is bound in a way the rule does not follow`);
    for (const write of binding.constantViolations)
      out = join(out, this.#reassigned(write, binding, tool, at));
    return out;
  }

  #declared(declarator: NodePath, id: Node, tool: string, at: string): Trace {
    if (!declarator.isVariableDeclarator()) return bad(id, "a declaration the rule does not follow");
    const loop = declarator.parentPath?.parentPath;
    if (loop?.isForOfStatement() && declarator.parentPath?.node === loop.node.left) {
      return this.#project(this.#elements(loop.get("right"), tool, at), declarator.get("id"), id, tool, at);
    }
    const init = declarator.get("init");
    const base = init.node ? this.#trace(init as NodePath, tool, at) : OK;
    return this.#project(base, declarator.get("id"), id, tool, at);
  }

  #reassigned(write: NodePath, binding: Binding, tool: string, at: string): Trace {
    const id = binding.identifier;
    if (write.isAssignmentExpression()) {
      const op = write.node.operator;
      if (op === "=" || op === "||=" || op === "&&=" || op === "??=") {
        return this.#project(this.#trace(write.get("right"), tool, at), write.get("left"), id, tool, at);
      }
      return bad(
        write.node,
        `the compound assignment '${op}' to '${id.name}' computes a value the rule does not follow`,
      );
    }
    if (write.isVariableDeclarator()) return this.#declared(write, id, tool, at);
    if (write.isForOfStatement()) {
      return this.#project(this.#elements(write.get("right"), tool, at), write.get("left"), id, tool, at);
    }
    if (write.isUpdateExpression()) {
      return bad(
        write.node,
        `'${write.node.operator}' on '${id.name}' computes a value the rule does not follow`,
      );
    }
    return bad(write.node, `'${id.name}' is assigned in a way the rule does not follow`);
  }

  /**
   * What a destructuring pattern gives the variable `id` out of a value traced as `base`: a part of it (the
   * same level), or a default written in the pattern, which is sent when the part is missing.
   */
  #project(base: Trace, pattern: NodePath, id: Node, tool: string, at: string): Trace {
    let out = base;
    pattern.traverse({
      AssignmentPattern: (p) => {
        if (bindsWithin(p.get("left"), id)) out = join(out, this.#trace(p.get("right"), tool, at));
      },
    });
    if (pattern.isAssignmentPattern() && bindsWithin(pattern.get("left"), id)) {
      out = join(out, this.#trace(pattern.get("right"), tool, at));
    }
    return out;
  }

  #parameter(binding: Binding, tool: string, at: string): Trace {
    const param = binding.path;
    const fn = param.parentPath;
    const id = binding.identifier;
    const assumed = this.#assumed.get(param.node);
    if (assumed !== undefined) return this.#project(assumed, param, id, tool, at);
    if (fn === null || !fn.isFunction() || typeof param.key !== "number") {
      return bad(id, `the parameter '${id.name}' of something the rule does not follow`);
    }
    // The run's input: direct, with any default the pattern writes.
    if (this.#input !== null && param.node === this.#input.node)
      return this.#project(OK, param, id, tool, at);
    const call = fn.parentPath;
    if (call?.isCallExpression() && fn.key === 0) {
      const callee = call.get("callee");
      const method = callee.isMemberExpression() ? memberKey(callee) : null;
      if (typeof method === "string" && ELEMENT_CALLBACKS.has(method) && callee.isMemberExpression()) {
        const element = method === "reduce" || method === "reduceRight" ? 1 : 0;
        if (param.key === element) {
          return this.#project(this.#elements(callee.get("object"), tool, at), param, id, tool, at);
        }
        if (param.key === element + 1) return { level: COMPUTED, bad: [] }; // the index
      }
    }
    // A function of the tool called only by name: its parameter is what each call passes.
    const calls = directCalls(fn);
    if (calls === null) {
      return bad(id, `the parameter '${id.name}' of a function the rule cannot follow to its calls`);
    }
    let out = OK;
    for (const c of calls) {
      const arg = c.get("arguments")[param.key] as NodePath | undefined;
      if (arg?.isSpreadElement()) return bad(arg.node, "a spread of arguments");
      out = join(out, arg === undefined || arg.node === undefined ? OK : this.#trace(arg, tool, at));
    }
    return this.#project(out, param, id, tool, at);
  }

  #member(path: NodePath<NodeOf<"MemberExpression">>, tool: string, at: string): Trace {
    const key = memberKey(path);
    const object = path.get("object") as NodePath;
    const literals = this.#folder.alternatives(object);
    if (literals.length > 0 && literals.every((a) => a.kind === "object")) {
      // A property of literals the code wrote: only the ones the key may read. What the code wrote into them
      // later is checked where it is written (see provenance-writes.ts).
      let out = OK;
      for (const alt of literals) {
        if (alt.kind !== "object") continue;
        for (const value of propertyValues(alt.path, key)) {
          if (value.isObjectMethod()) {
            if (value.node.kind === "get") out = join(out, this.#returns(value, tool, at));
          } else out = join(out, this.#trace(value, tool, at));
        }
      }
      return out;
    }
    const whole = this.#trace(object, tool, READ);
    if (whole.bad.length === 0 && whole.level !== DIRECT) {
      return bad(path.node, "it reads from a value the code computed, not from data");
    }
    return whole;
  }

  #call(path: NodePath<NodeOf<"CallExpression">>, tool: string, at: string): Trace {
    if (this.#sites.has(path.node)) return OK; // a base call's result
    const callee = path.get("callee") as NodePath;
    const args = path.get("arguments") as NodePath[];
    if (args.some((a) => a.isSpreadElement())) return bad(path.node, "a spread of arguments");
    const name = callee.isIdentifier() ? callee.node.name : null;
    if (name !== null && isGlobal(callee, name)) {
      if (name === "String") return this.#toText(args[0], tool);
      if (NUMBER_OF.has(name)) return this.#operands(path.node, args.slice(0, 1), tool);
      return bad(path.node, `${name}() makes a value the rule does not follow`);
    }
    if (callee.isMemberExpression() || callee.isOptionalMemberExpression()) {
      const method = memberKey(callee);
      const object = callee.get("object") as NodePath;
      const on = object.isIdentifier() && isGlobal(object, object.node.name) ? object.node.name : null;
      if (on === "Object" && method === "freeze") return args[0] ? this.#trace(args[0], tool, at) : OK;
      if (on === "Promise" && (method === "all" || method === "allSettled") && args[0]) {
        return this.#trace(args[0], tool, at);
      }
      if (on === "Object" && (method === "values" || method === "entries" || method === "keys") && args[0]) {
        return this.#direct(args[0], tool, path.node);
      }
      if (on === "Array" && method === "from" && args[0] && args.length === 1)
        return this.#direct(args[0], tool, path.node);
      if (on === "Math" && typeof method === "string" && MATH.has(method))
        return this.#operands(path.node, args, tool);
      if (on === "JSON" && method === "stringify" && args.length === 1) return this.#toText(args[0], tool);
      if (on !== null)
        return bad(path.node, `${on}.${String(method)}() makes a value the rule does not follow`);
      if (typeof method === "string" && SELECT.has(method)) return this.#direct(object, tool, path.node);
      if ((method === "reduce" || method === "reduceRight") && args[0]) {
        return this.#reduce(object, args[0], args[1], tool, at, path.node);
      }
      if ((method === "map" || method === "flatMap") && args[0]) {
        const receiver = this.#direct(object, tool, path.node);
        return join(receiver, this.#returns(args[0], tool, at));
      }
      if (method === "join") {
        const receiver = this.#direct(object, tool, path.node);
        const parts: Part[] = [{ hole: true }];
        if (args[0]) parts.push({ path: args[0] }, { hole: true });
        return join(receiver, this.#built(path, parts, tool, at, true));
      }
      if (typeof method === "string" && TO_TEXT.has(method)) {
        return { ...this.#direct(object, tool, path.node), level: BUILT };
      }
    }
    // A function written in the tool: what it returns.
    const functions = this.#folder.alternatives(callee);
    if (functions.length > 0 && functions.every((f) => f.kind === "function")) {
      let out = OK;
      for (const f of functions) if (f.kind === "function") out = join(out, this.#returns(f.path, tool, at));
      return out;
    }
    return bad(path.node, `${describeCall(callee)} makes a value the rule does not follow`);
  }

  /**
   * `xs.reduce(f, init)`: what `f` returns, its accumulator being an element, `init` or what `f` returned
   * before. Traced twice when the first pass finds `f` returns something less direct than it assumed, so an
   * accumulator cannot hide arithmetic on arithmetic.
   */
  #reduce(
    receiver: NodePath,
    cb: NodePath,
    init: NodePath | undefined,
    tool: string,
    at: string,
    where: Node,
  ): Trace {
    const elements = this.#direct(receiver, tool, where);
    const start = join(elements, init === undefined ? OK : this.#trace(init, tool, at));
    const accumulator = cb.isFunction() ? (cb.get("params") as NodePath[])[0] : undefined;
    if (accumulator === undefined) return join(start, this.#returns(cb, tool, at));
    let assumed = start;
    let returned = OK;
    for (let pass = 0; pass < 2; pass++) {
      this.#assumed.set(accumulator.node, { level: assumed.level, bad: [] });
      try {
        returned = this.#returns(cb, tool, at);
      } finally {
        this.#assumed.delete(accumulator.node);
      }
      if (returned.level <= assumed.level) break;
      assumed = { level: returned.level, bad: assumed.bad };
    }
    return join(start, returned);
  }

  /** A value read from or computed on: it must be direct. */
  #direct(path: NodePath, tool: string, where: Node): Trace {
    const t = this.#trace(path, tool, READ);
    if (t.bad.length === 0 && t.level !== DIRECT)
      return bad(where, "it works on a value the code computed, not on data");
    return { level: DIRECT, bad: t.bad };
  }

  #toText(arg: NodePath | undefined, tool: string): Trace {
    return arg === undefined ? OK : { ...this.#direct(arg, tool, arg.node), level: BUILT };
  }

  /** Arithmetic: every operand direct (a literal one a constant the run passed to the tool), the result computed. */
  #operands(node: Node, operands: NodePath[], tool: string): Trace {
    let out: Untraced[] = [];
    for (const o of operands) out = [...out, ...this.#direct(o, tool, node).bad];
    return { level: COMPUTED, bad: out };
  }

  #binary(path: NodePath<NodeOf<"BinaryExpression">>, tool: string, at: string): Trace {
    const op = path.node.operator;
    if (op === "+") return this.#built(path, this.#plusParts(path), tool, at);
    if (["-", "*", "/", "%", "**"].includes(op)) {
      return this.#operands(path.node, [path.get("left") as NodePath, path.get("right")], tool);
    }
    return bad(path.node, `the operator '${op}' makes a value of its own`);
  }

  /** `a + "-" + b`, flattened: each part a piece of text or a hole. */
  #plusParts(path: NodePath): Part[] {
    const unwrapped = path.isParenthesizedExpression() ? path.get("expression") : path;
    if (unwrapped.isBinaryExpression() && unwrapped.node.operator === "+") {
      return [
        ...this.#plusParts(unwrapped.get("left") as NodePath),
        ...this.#plusParts(unwrapped.get("right")),
      ];
    }
    return [{ path: unwrapped as NodePath }];
  }

  #templateParts(path: NodePath<NodeOf<"TemplateLiteral">>): Part[] {
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
  #built(at0: NodePath, parts: Part[], tool: string, at: string, joined = false): Trace {
    let out: Untraced[] = [];
    const shapes: Piece[][] = [[]];
    for (const part of parts) {
      if ("hole" in part) {
        for (const s of shapes) s.push(HOLE);
        continue;
      }
      const texts = "text" in part ? [part.text] : this.#literalTexts(part.path);
      if (texts === null) {
        const t = this.#trace((part as { path: NodePath }).path, tool, at);
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
      if (!this.#args.formatPassed(tool, at, shape, joined)) {
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
  #literalTexts(path: NodePath): string[] | null {
    const alts = this.#folder.alternatives(path);
    if (alts.length === 0 || !alts.every((a) => a.kind === "value")) return null;
    return alts.map((a) => (a.kind === "value" && a.value !== undefined ? String(a.value) : ""));
  }

  #object(path: NodePath<NodeOf<"ObjectExpression">>, tool: string, at: string): Trace {
    let out = OK;
    for (const prop of path.get("properties")) {
      if (prop.isSpreadElement()) {
        out = join(out, this.#trace(prop.get("argument"), tool, at));
        continue;
      }
      const node = prop.node as NodeOf<"ObjectProperty" | "ObjectMethod">;
      const literalKey = !node.computed || stringValue(node.key) !== null ? propertyKey(node) : null;
      if (node.computed && literalKey === null) {
        out = join(out, this.#direct(prop.get("key") as NodePath, tool, node.key));
      }
      const step = at + pathStep(literalKey);
      if (prop.isObjectMethod()) {
        // JSON sends a getter's value, and toJSON's in place of the whole object; other methods are dropped.
        if (prop.node.kind === "get") out = join(out, this.#returns(prop, tool, step));
        else if (literalKey === "toJSON") out = join(out, this.#returns(prop, tool, at));
        continue;
      }
      const value = prop.get("value") as NodePath;
      out = join(out, this.#trace(value, tool, literalKey === "toJSON" ? at : step));
    }
    return out;
  }

  #array(path: NodePath<NodeOf<"ArrayExpression">>, tool: string, at: string): Trace {
    let out = OK;
    let index: number | null = 0;
    for (const element of path.get("elements")) {
      if (element.node === null) {
        if (index !== null) index++;
      } else if (element.isSpreadElement()) {
        out = join(out, this.#trace(element.get("argument"), tool, at + pathStep(null)));
        index = null;
      } else {
        out = join(out, this.#trace(element as NodePath, tool, at + pathStep(index)));
        if (index !== null) index++;
      }
    }
    return out;
  }

  /** The elements of an iterable: of an array the code wrote, each one; of data, direct. */
  #elements(path: NodePath, tool: string, at: string): Trace {
    const alts = this.#folder.alternatives(path);
    if (alts.length > 0 && alts.every((a) => a.kind === "object" && a.path.isArrayExpression())) {
      return this.#trace(path, tool, at);
    }
    return this.#direct(path, tool, path.node);
  }

  /** What a function written in the tool returns (falling off its end sends nothing). */
  #returns(fn: NodePath, tool: string, at: string): Trace {
    if (fn.isArrowFunctionExpression() && !fn.get("body").isBlockStatement()) {
      return this.#trace(fn.get("body") as NodePath, tool, at);
    }
    if (!fn.isFunction()) {
      const alts = this.#folder.alternatives(fn);
      if (alts.length > 0 && alts.every((a) => a.kind === "function")) {
        let out = OK;
        for (const a of alts) if (a.kind === "function") out = join(out, this.#returns(a.path, tool, at));
        return out;
      }
      return bad(fn.node, "a callback the rule cannot see");
    }
    const returned: NodePath[] = [];
    fn.traverse({
      Function(inner) {
        inner.skip();
      },
      ReturnStatement(ret) {
        const arg = ret.get("argument");
        if (arg.node) returned.push(arg as NodePath);
      },
    });
    let out = OK;
    for (const r of returned) out = join(out, this.#trace(r, tool, at));
    return out;
  }
}

type Part = { hole: true } | { text: string } | { path: NodePath };

function bad(node: Node, why: string): Trace {
  return { level: DIRECT, bad: [{ node, why }] };
}

function join(a: Trace, b: Trace): Trace {
  if (b.bad.length === 0 && b.level <= a.level) return a;
  return { level: Math.max(a.level, b.level) as Level, bad: [...a.bad, ...b.bad] };
}

/** True when `pattern` binds the node `id` somewhere inside it. */
function bindsWithin(pattern: NodePath, id: Node): boolean {
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
function directCalls(fn: NodePath): NodePath<NodeOf<"CallExpression">>[] | null {
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
function propertyValues(
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

function describe(node: Node): string {
  return node.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function describeCall(callee: NodePath): string {
  if (callee.isMemberExpression()) {
    const method = memberKey(callee);
    return method === null ? "a computed method" : `.${String(method)}()`;
  }
  return callee.isIdentifier() ? `${callee.node.name}()` : "a call";
}
