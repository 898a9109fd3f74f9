/**
 * Argument provenance: every literal value that a tool's code can pass to a base call must be explained by
 * its source run. A value the run read from a base tool's response is hard-coded (the tool reproduces the
 * run and fails on every other task); a value the run never used at all is unexplained (the recorded attack:
 * an account built from two strings, in a branch replay never took). Pure: source text and run facts in,
 * problems out. The rule, its examples and its limits are written down in docs/verification.md.
 */
import type { Binding, Node, NodePath } from "@babel/traverse";
import { type CallNode, type LocatedCallSite, locateCallSites } from "./call-sites.ts";
import { propertyKey, stringValue } from "./static-values.ts";
import { oneLine } from "./text.ts";
import type { Problem } from "./types.ts";

type NodeOf<T extends Node["type"]> = Extract<Node, { type: T }>;

/** One base call of the source run, in the order it was made (calls inside distilled tools included). */
export interface RunCall {
  tool: string;
  args: Record<string, unknown>;
  /** The response, when the call answered. */
  output?: unknown;
  ok: boolean;
}

/** What the provenance rule knows of the source run: its task, the proposal's test inputs, its base calls. */
export interface RunFacts {
  /** The source run's task text. */
  task: string;
  /** The proposal's test inputs. */
  inputs: readonly Record<string, unknown>[];
  /** The source run's base calls in order, inner ones included. */
  calls: readonly RunCall[];
}

/** The rule's findings: how many literal values were checked (each literal once per argument it reaches). */
export interface ProvenanceReport {
  checked: number;
  problems: Problem[];
}

/** Strings shorter than this must match whole: a 3-character substring of some response is no evidence. */
export const MIN_SUBSTRING_CHARS = 4;
/**
 * Most values one expression may fold to (conditionals multiply inside a concatenation). Beyond it the
 * expression is reported rather than checked in part, so a value cannot hide behind many others.
 */
export const MAX_ALTERNATIVES = 256;
/** Longest value shown in a message. */
const MAX_SHOWN_CHARS = 80;
/**
 * Deepest chain of steps followed from an argument to its literals (a const of a const, a property of an
 * object, a nested expression). Deeper chains are reported, not skipped, so depth cannot hide a value.
 */
export const MAX_DEPTH = 100;
/** Most parts of one call's arguments read (objects shared many times over multiply); beyond it, reported. */
export const MAX_VISITS = 20_000;
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

/**
 * Checks every literal string or number that can reach a base call's arguments as a whole value against the
 * source run: it must not be first seen in a base tool's response (unless the task text or a test input has
 * it), and it must have been seen somewhere (task, test inputs, that tool's recorded arguments, any
 * response). Throws DistillError("PROPOSAL_INVALID") only when the source does not parse.
 */
export function checkArgumentProvenance(source: string, facts: RunFacts): ProvenanceReport {
  const { sites } = locateCallSites(source);
  const folder = new Folder();
  const run = new RunIndex(facts);
  const found = new Map<string, { problem: Problem; start: number }>();
  const checked = new Set<string>();

  const report = (node: Node, problem: Problem): void => {
    const key = `${problem.line}\u0000${problem.token}\u0000${problem.message}`;
    if (!found.has(key)) found.set(key, { problem, start: node.start ?? 0 });
  };

  for (const site of sites) {
    const tool = site.tool;
    // A call without a literal name has no recorded arguments to compare with; the static check refuses it.
    if (tool === null) continue;
    const args = argumentsOf(site);
    if (args === null) continue;
    for (const reach of folder.reaching(args)) {
      const problemAt = (message: string): Problem => {
        const problem: Problem = { message };
        if (reach.node.loc) problem.line = reach.node.loc.start.line;
        problem.token = tokenOf(reach.node, source);
        return problem;
      };
      const where = `${tool}${reach.path}`;
      if (reach.kind === "limit") {
        report(
          reach.node,
          problemAt(`${LIMIT_MESSAGES[reach.why](where)}: simplify it so each value can be checked`),
        );
        continue;
      }
      const value = reach.value;
      const key = `${site.id}\u0000${reach.path}\u0000${reach.node.start}\u0000${typeof value}:${value}`;
      if (checked.has(key)) continue;
      checked.add(key);
      const first = run.firstSeen(value);
      if (first !== null && first.kind === "response") {
        report(
          reach.node,
          problemAt(
            `hard-codes ${show(value)}, which the source run read from ${first.tool}'s result: take it from that call's result`,
          ),
        );
      } else if (first === null || !run.explains(value, tool)) {
        report(reach.node, problemAt(`passes ${show(value)} to ${where}, a value the source run never used`));
      }
    }
  }

  const problems = [...found.values()]
    .sort((a, b) => (a.problem.line ?? 0) - (b.problem.line ?? 0) || a.start - b.start)
    .map((f) => f.problem);
  return { checked: checked.size, problems };
}

/** The expression a site passes as the base tool's arguments, or null when there is none to read. */
function argumentsOf(site: LocatedCallSite): NodePath | null {
  const args = site.path.get("arguments") as NodePath[];
  const second = args[1];
  // A spread in the arguments is refused by instrumentation, which verification runs on the same source.
  if (second === undefined || second.isSpreadElement()) return null;
  return second;
}

/** How a value is shown in a message: strings quoted, on one line and clipped. */
function show(value: string | number): string {
  return typeof value === "number" ? String(value) : `'${oneLine(value, MAX_SHOWN_CHARS)}'`;
}

/** A literal's token is its value (as the static check does for names); any other expression, its text. */
function tokenOf(node: Node, source: string): string {
  const literal = node.type === "StringLiteral" || node.type === "TemplateLiteral" ? stringValue(node) : null;
  if (literal !== null) return oneLine(literal, 40);
  const text = source.slice(node.start ?? 0, node.end ?? 0);
  return text.length <= 40 && !text.includes("\n") ? text : (text.match(/^\S+/)?.[0] ?? text);
}

// ---- folding the code -------------------------------------------------------------------------------

type Primitive = string | number | boolean | null | undefined;

/** What an expression may evaluate to, as far as the source shows without running it. */
type Alt =
  /** A primitive made from literals only; `node` is where it is written (or folded, for a concatenation). */
  | { kind: "value"; node: Node; value: Primitive }
  /** An object or array literal: its properties and elements are followed one by one. */
  | { kind: "object"; path: NodePath<NodeOf<"ObjectExpression" | "ArrayExpression">>; owners: Binding[] }
  | { kind: "function"; path: NodePath }
  /** Anything else: the tool's input, a call's result, a computation. `owners` are variables that hold it. */
  | { kind: "unknown"; owners: Binding[] }
  /** Past one of the limits at `node`: reported, so that no value hides behind the limit. */
  | { kind: "overflow"; node: Node; why: Limit };

/** Which limit an argument went past. */
type Limit = "combinations" | "depth" | "size";

const LIMIT_MESSAGES: Readonly<Record<Limit, (where: string) => string>> = Object.freeze({
  combinations: (where: string) =>
    `builds more than ${MAX_ALTERNATIVES} possible values for ${where} from literals`,
  depth: (where: string) => `reaches ${where} through more than ${MAX_DEPTH} nested steps from its literals`,
  size: (where: string) => `passes more than ${MAX_VISITS} parts to ${where}`,
});

/**
 * One literal value reaching a call's arguments at `path` (`.to`, `.lines[0].sku`, empty for the whole), or
 * a limit the arguments went past there.
 */
type Reach =
  | { kind: "value"; node: Node; value: string | number; path: string }
  | { kind: "limit"; node: Node; why: Limit; path: string };

const UNKNOWN: Alt = Object.freeze({ kind: "unknown", owners: [] as Binding[] }) as Alt;

/** Follows literals through the code: constants, conditionals, concatenations, local functions. */
class Folder {
  readonly #memo = new Map<Node, Alt[]>();
  readonly #active = new Set<Node>();
  /** Variables being evaluated, with the values found for them so far. */
  readonly #sofar = new Map<Binding, Alt[]>();
  readonly #writes = new Map<Binding, MemberWrite[]>();
  #depth = 0;
  /** Parts of the current call's arguments read so far, against MAX_VISITS. */
  #visits = 0;

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
    for (const alt of this.alternatives(path)) this.#collectAlt(alt, at, out, walking);
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
      for (const write of this.#memberWrites(owner))
        this.#collect(write.value, at + write.path, out, walking);
      walking.delete(owner);
    }
  }

  #collectReturns(functions: Alt[], at: string, out: Reach[], walking: Set<unknown>): void {
    for (const alt of functions) {
      if (alt.kind !== "function") continue;
      for (const value of this.#returns(alt.path)) this.#collectAlt(value, at, out, walking);
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
          if (key === "toJSON") this.#collectReturns(this.alternatives(value), at, out, walking);
          else this.#collect(value, at + pathStep(key), out, walking);
        } else if (prop.isObjectMethod()) {
          // JSON reads a getter's value, and an object's toJSON() stands for the whole object.
          const key =
            prop.node.computed && stringValue(prop.node.key) === null ? null : propertyKey(prop.node);
          const fn: Alt[] = [{ kind: "function", path: prop }];
          if (key === "toJSON" && prop.node.kind === "method") this.#collectReturns(fn, at, out, walking);
          else if (prop.node.kind === "get") this.#collectReturns(fn, at + pathStep(key), out, walking);
        } else if (prop.isSpreadElement()) {
          for (const alt of this.alternatives(prop.get("argument"))) {
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
        for (const alt of this.elementsOf(element.get("argument"))) {
          this.#collectAlt(alt, at + pathStep(null), out, walking);
        }
        index = null;
      } else {
        this.#collect(element as NodePath, at + pathStep(index), out, walking);
        if (index !== null) index++;
      }
    }
  }

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
        return this.#call(path as NodePath<CallNode>);
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
      if (prop.isObjectMethod() && prop.node.kind === "get") out.push(...this.#returns(prop));
      else if (prop.isObjectMethod()) out.push({ kind: "function", path: prop });
      else out.push(...this.alternatives(prop.get("value") as NodePath));
    }
    return out.length > 0 ? out : [{ kind: "value", node: literal.node, value: undefined }];
  }

  /** Values assigned to `owner.key` (or any property, for a key known only at run time) of these variables. */
  #writesTo(owners: readonly Binding[], key: string | number | null): Alt[] {
    const out: Alt[] = [];
    for (const owner of owners) {
      for (const write of this.#memberWrites(owner)) {
        if (write.keys.length !== 1) continue;
        const written = write.keys[0];
        if (key === null || written === null || written === String(key)) {
          out.push(...this.alternatives(write.value));
        }
      }
    }
    return out;
  }

  #memberWrites(binding: Binding): MemberWrite[] {
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

  #call(path: NodePath<CallNode>): Alt[] {
    const node = path.node;
    const callee = path.get("callee") as NodePath;
    const args = path.get("arguments") as NodePath[];
    if (args.some((a) => a.isSpreadElement())) return [UNKNOWN];
    const argAlts = args.map((a) => this.alternatives(a));
    const out: Alt[] = [];

    if (isGlobal(callee, "String")) {
      return combine(node, argAlts.slice(0, 1), ([v]) => (isFoldable(v) ? String(v) : NOT_FOLDED));
    }
    if (callee.isMemberExpression() || callee.isOptionalMemberExpression()) {
      const method = memberKey(callee);
      const object = callee.get("object") as NodePath;
      // Freezing changes nothing that JSON shows.
      if (method === "freeze" && isGlobal(object, "Object")) return argAlts[0] ?? [UNKNOWN];
      const objects = this.alternatives(object);
      if (method === "join") {
        out.push(...objects.flatMap((alt) => this.#join(node, alt, argAlts[0])));
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
    for (const alt of this.alternatives(callee)) {
      out.push(...(alt.kind === "function" ? this.#returns(alt.path) : [UNKNOWN]));
    }
    return out;
  }

  #join(node: Node, alt: Alt, separator: Alt[] | undefined): Alt[] {
    if (alt.kind !== "object" || !alt.path.isArrayExpression()) return [UNKNOWN];
    const elements = alt.path.get("elements");
    if (elements.some((e) => e.node === null || e.isSpreadElement())) return [UNKNOWN];
    const parts = [separator ?? [{ kind: "value", node, value: "," } as Alt]];
    for (const e of elements) parts.push(this.alternatives(e as NodePath));
    return combine(node, parts, ([sep, ...items]) => {
      if (typeof sep !== "string" || !items.every((i) => isFoldable(i) || i === null || i === undefined)) {
        return NOT_FOLDED;
      }
      return items.map((i) => (i === null || i === undefined ? "" : String(i))).join(sep);
    });
  }

  #returns(fn: NodePath): Alt[] {
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

/** Marks a combination that does not fold to a value. */
const NOT_FOLDED: unique symbol = Symbol("not folded");

/**
 * Folds every combination of the parts' alternatives with `fold`; a combination with a part that is not a
 * primitive, or that `fold` refuses, is unknown: a literal joined to such a part is a format, not a value.
 */
function combine(
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
function dedupe(alts: Alt[]): Alt[] {
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
function isGlobal(path: NodePath, name: string): boolean {
  return path.isIdentifier() && path.node.name === name && path.scope.getBinding(name) === undefined;
}

function isFoldable(value: Primitive): value is string | number {
  return typeof value === "string" || typeof value === "number";
}

/** Booleans, null, undefined and the empty string say nothing about where a value came from. */
function isCheckable(value: Primitive): value is string | number {
  return (typeof value === "string" && value !== "") || (typeof value === "number" && Number.isFinite(value));
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

/** `.name`, `["two words"]`, `[0]`, or `[…]` for a key only known at run time. */
function pathStep(key: string | number | null): string {
  if (key === null) return "[…]";
  if (typeof key === "number" || /^\d+$/.test(key)) return `[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** The key a member expression reads when it is written as a literal (`o.x`, `o["x"]`, `a[0]`), else null. */
function memberKey(
  path: NodePath<NodeOf<"MemberExpression" | "OptionalMemberExpression">>,
): string | number | null {
  const node = path.node;
  if (!node.computed) return node.property.type === "Identifier" ? node.property.name : null;
  if (node.property.type === "NumericLiteral") return node.property.value;
  return stringValue(node.property);
}

/** True when the pattern `node` binds the variable `name`: which branch of a destructuring to follow. */
function binds(node: Node, name: string): boolean {
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

interface MemberWrite {
  /** The keys from the variable to the written property (`args.to` → ["to"]); null for a run-time key. */
  keys: (string | null)[];
  /** Appended with `.push(...)`/`.unshift(...)`: the written value is one element more. */
  path: string;
  value: NodePath;
}

/** Writes through a variable to what it holds: `v.a.b = x` and `v.list.push(x)`. */
function memberWrites(binding: Binding): MemberWrite[] {
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

// ---- the source run ---------------------------------------------------------------------------------

/** Where a value was seen in the source run; `tool` names the call for arguments and responses. */
type Seen =
  | { kind: "task" }
  | { kind: "input" }
  | { kind: "arguments"; tool: string }
  | { kind: "response"; tool: string };

/** One place of the run, in order, with its text prepared for lookups. */
interface Place {
  seen: Seen;
  data: Leaves | null;
  text: string | null;
}

/** The string and number leaves of a JSON value (object keys are names, not values, and are left out). */
interface Leaves {
  strings: Set<string>;
  numbers: Set<number>;
  /** Every string leaf joined by a separator no checked value contains, for one substring search. */
  joined: string;
}

const JOIN = "\u0000";

/** The source run's places in the order the run saw them: task text, test inputs, then each call's arguments and response. */
class RunIndex {
  readonly #places: Place[] = [];
  readonly #first = new Map<string, Seen | null>();

  constructor(facts: RunFacts) {
    this.#places.push({ seen: { kind: "task" }, data: null, text: facts.task });
    for (const input of facts.inputs)
      this.#places.push({ seen: { kind: "input" }, data: leaves(input), text: null });
    for (const call of facts.calls) {
      this.#places.push({
        seen: { kind: "arguments", tool: call.tool },
        data: leaves(call.args),
        text: null,
      });
      if (call.output !== undefined) {
        this.#places.push({
          seen: { kind: "response", tool: call.tool },
          data: leaves(call.output),
          text: null,
        });
      }
    }
  }

  /** Where the run first saw `value`, or null when it never did. */
  firstSeen(value: string | number): Seen | null {
    const key = `${typeof value}:${value}`;
    if (this.#first.has(key)) return this.#first.get(key) ?? null;
    const place = this.#places.find((p) => appearsIn(value, p));
    const seen = place?.seen ?? null;
    this.#first.set(key, seen);
    return seen;
  }

  /** True when the task, a test input, a response or `tool`'s own recorded arguments have `value`. */
  explains(value: string | number, tool: string): boolean {
    return this.#places.some(
      (p) => (p.seen.kind !== "arguments" || p.seen.tool === tool) && appearsIn(value, p),
    );
  }
}

function appearsIn(value: string | number, place: Place): boolean {
  if (place.text !== null) return appearsInText(value, place.text);
  const data = place.data;
  if (data === null) return false;
  if (typeof value === "number") return data.numbers.has(value) || data.strings.has(String(value));
  if (data.strings.has(value)) return true;
  if (/^-?\d+(\.\d+)?$/.test(value) && data.numbers.has(Number(value)) && String(Number(value)) === value) {
    return true;
  }
  if (value.length < MIN_SUBSTRING_CHARS) return false;
  if (!value.includes(JOIN)) return data.joined.includes(value);
  for (const leaf of data.strings) if (leaf.includes(value)) return true;
  return false;
}

/**
 * In prose (the task text): a string of MIN_SUBSTRING_CHARS or more anywhere; a shorter string or a number
 * only as a whole token, so `7` is not found in `17` nor `EU` in `EUR`.
 */
function appearsInText(value: string | number, text: string): boolean {
  if (typeof value === "string" && value.length >= MIN_SUBSTRING_CHARS) return text.includes(value);
  const escaped = String(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern =
    typeof value === "number"
      ? new RegExp(`(?<![\\d.])${escaped}(?!\\d|\\.\\d)`)
      : new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "u");
  return pattern.test(text);
}

/** The leaves of a JSON value, walked without recursion so deep data cannot exhaust the stack. */
function leaves(root: unknown): Leaves {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") strings.add(value);
    else if (typeof value === "number") numbers.add(value);
    else if (typeof value === "object" && value !== null) {
      // One at a time: spreading a huge array into push() would exceed the argument limit.
      for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
    }
  }
  return { strings, numbers, joined: [...strings].join(JOIN) };
}
