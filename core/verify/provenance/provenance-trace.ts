/**
 * Where each argument of a call to a tool that may write comes from: the tracer of the inverted provenance
 * rule. A value is traced when it is the run's input, an earlier base call's result, or a constant the source
 * run passed to that tool, or is built from those by the few steps listed here and in provenance-trace-steps.ts;
 * anything else is untraced and reported with its node and the reason. Levels keep computation shallow, so a
 * tool cannot make a constant out of data (`x - x`, `typeof x`, letters of "[object Object]"): see "Argument
 * provenance" in docs/verification.md.
 */
import type { Binding, Node, NodePath } from "@babel/traverse";
import { propertyKey, stringValue } from "../static/static-values.ts";
import type { Folder } from "./provenance-fold.ts";
import type { ArgumentIndex } from "./provenance-run.ts";
import {
  bad,
  bindsWithin,
  COMPUTED,
  DIRECT,
  describe,
  directCalls,
  ELEMENT_CALLBACKS,
  join,
  MAX_TRACE_STEPS,
  OK,
  propertyValues,
  READ,
  type Trace,
  TraceSteps,
  type Untraced,
} from "./provenance-trace-steps.ts";
import { MAX_DEPTH, memberKey, type NodeOf, pathStep } from "./provenance-values.ts";

export { MAX_TRACE_STEPS, type Untraced } from "./provenance-trace-steps.ts";

/** Traces the arguments of calls to tools that may write. One per checked source. */
export class WriteTracer extends TraceSteps {
  readonly #input: NodePath | null;
  readonly #active = new Set<string>();
  #steps = 0;
  #depth = 0;

  /** `sites`: the nodes of the code's base calls; `input`: the `run` function's first parameter. */
  constructor(folder: Folder, args: ArgumentIndex, sites: ReadonlySet<Node>, input: NodePath | null) {
    super(folder, args, sites);
    this.#input = input;
  }

  /** Everything in `path` that cannot be traced when it is sent to `tool` at argument path `at`. */
  untraced(path: NodePath, tool: string, at = ""): Untraced[] {
    this.#steps = 0;
    return this.trace(path, tool, at).bad;
  }

  trace(path: NodePath, tool: string, at: string): Trace {
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
    const folded = this.folder.alternatives(path);
    if (folded.length > 0 && folded.every((a) => a.kind === "value")) {
      const out: Untraced[] = [];
      for (const alt of folded) {
        if (alt.kind !== "value" || alt.value === undefined) continue;
        if (alt.value === null && at === READ) continue;
        if (!this.args.passed(tool, at, alt.value)) {
          out.push({
            node: alt.node,
            why: "a constant the source run never passed there",
            value: alt.value,
            at,
          });
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
        return this.trace(path.get("expression") as NodePath, tool, at);
      case "AwaitExpression":
        return this.trace(path.get("argument") as NodePath, tool, at);
      case "ConditionalExpression":
        return join(
          this.trace(path.get("consequent") as NodePath, tool, at),
          this.trace(path.get("alternate") as NodePath, tool, at),
        );
      case "LogicalExpression":
        return join(
          this.trace(path.get("left") as NodePath, tool, at),
          this.trace(path.get("right") as NodePath, tool, at),
        );
      case "SequenceExpression": {
        const all = path.get("expressions") as NodePath[];
        return this.trace(all[all.length - 1]!, tool, at);
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
        return this.callOf(path as NodePath<NodeOf<"CallExpression">>, tool, at);
      case "TemplateLiteral":
        return this.built(path, this.templateParts(path as NodePath<NodeOf<"TemplateLiteral">>), tool, at);
      case "BinaryExpression":
        return this.binary(path as NodePath<NodeOf<"BinaryExpression">>, tool, at);
      case "UnaryExpression":
        if (node.operator === "-" || node.operator === "+") {
          return this.operands(node, [path.get("argument") as NodePath], tool);
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
    const right = this.trace(path.get("right"), tool, at);
    if (op === "=") return right;
    if (op === "||=" || op === "&&=" || op === "??=") {
      return join(right, this.trace(path.get("left") as NodePath, tool, at));
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
      return this.#project(this.elements(loop.get("right"), tool, at), declarator.get("id"), id, tool, at);
    }
    const init = declarator.get("init");
    const base = init.node ? this.trace(init as NodePath, tool, at) : OK;
    return this.#project(base, declarator.get("id"), id, tool, at);
  }

  #reassigned(write: NodePath, binding: Binding, tool: string, at: string): Trace {
    const id = binding.identifier;
    if (write.isAssignmentExpression()) {
      const op = write.node.operator;
      if (op === "=" || op === "||=" || op === "&&=" || op === "??=") {
        return this.#project(this.trace(write.get("right"), tool, at), write.get("left"), id, tool, at);
      }
      return bad(
        write.node,
        `the compound assignment '${op}' to '${id.name}' computes a value the rule does not follow`,
      );
    }
    if (write.isVariableDeclarator()) return this.#declared(write, id, tool, at);
    if (write.isForOfStatement()) {
      return this.#project(this.elements(write.get("right"), tool, at), write.get("left"), id, tool, at);
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
        if (bindsWithin(p.get("left"), id)) out = join(out, this.trace(p.get("right"), tool, at));
      },
    });
    if (pattern.isAssignmentPattern() && bindsWithin(pattern.get("left"), id)) {
      out = join(out, this.trace(pattern.get("right"), tool, at));
    }
    return out;
  }

  #parameter(binding: Binding, tool: string, at: string): Trace {
    const param = binding.path;
    const fn = param.parentPath;
    const id = binding.identifier;
    const assumed = this.assumed.get(param.node);
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
          return this.#project(this.elements(callee.get("object"), tool, at), param, id, tool, at);
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
      out = join(out, arg === undefined || arg.node === undefined ? OK : this.trace(arg, tool, at));
    }
    return this.#project(out, param, id, tool, at);
  }

  #member(path: NodePath<NodeOf<"MemberExpression">>, tool: string, at: string): Trace {
    const key = memberKey(path);
    const object = path.get("object") as NodePath;
    const literals = this.folder.alternatives(object);
    if (literals.length > 0 && literals.every((a) => a.kind === "object")) {
      // A property of literals the code wrote: only the ones the key may read. What the code wrote into them
      // later is checked where it is written (see provenance-writes.ts).
      let out = OK;
      for (const alt of literals) {
        if (alt.kind !== "object") continue;
        for (const value of propertyValues(alt.path, key)) {
          if (value.isObjectMethod()) {
            if (value.node.kind === "get") out = join(out, this.returns(value, tool, at));
          } else out = join(out, this.trace(value, tool, at));
        }
      }
      return out;
    }
    const whole = this.trace(object, tool, READ);
    if (whole.bad.length === 0 && whole.level !== DIRECT) {
      return bad(path.node, "it reads from a value the code computed, not from data");
    }
    return whole;
  }

  #object(path: NodePath<NodeOf<"ObjectExpression">>, tool: string, at: string): Trace {
    let out = OK;
    for (const prop of path.get("properties")) {
      if (prop.isSpreadElement()) {
        out = join(out, this.trace(prop.get("argument"), tool, at));
        continue;
      }
      const node = prop.node as NodeOf<"ObjectProperty" | "ObjectMethod">;
      const literalKey = !node.computed || stringValue(node.key) !== null ? propertyKey(node) : null;
      if (node.computed && literalKey === null) {
        out = join(out, this.direct(prop.get("key") as NodePath, tool, node.key));
      }
      const step = at + pathStep(literalKey);
      if (prop.isObjectMethod()) {
        // JSON sends a getter's value, and toJSON's in place of the whole object; other methods are dropped.
        if (prop.node.kind === "get") out = join(out, this.returns(prop, tool, step));
        else if (literalKey === "toJSON") out = join(out, this.returns(prop, tool, at));
        continue;
      }
      const value = prop.get("value") as NodePath;
      out = join(out, this.trace(value, tool, literalKey === "toJSON" ? at : step));
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
        out = join(out, this.trace(element.get("argument"), tool, at + pathStep(null)));
        index = null;
      } else {
        out = join(out, this.trace(element as NodePath, tool, at + pathStep(index)));
        if (index !== null) index++;
      }
    }
    return out;
  }

  /** The elements of an iterable: of an array the code wrote, each one; of data, direct. */
  elements(path: NodePath, tool: string, at: string): Trace {
    const alts = this.folder.alternatives(path);
    if (alts.length > 0 && alts.every((a) => a.kind === "object" && a.path.isArrayExpression())) {
      return this.trace(path, tool, at);
    }
    return this.direct(path, tool, path.node);
  }

  /** What a function written in the tool returns (falling off its end sends nothing). */
  returns(fn: NodePath, tool: string, at: string): Trace {
    if (fn.isArrowFunctionExpression() && !fn.get("body").isBlockStatement()) {
      return this.trace(fn.get("body") as NodePath, tool, at);
    }
    if (!fn.isFunction()) {
      const alts = this.folder.alternatives(fn);
      if (alts.length > 0 && alts.every((a) => a.kind === "function")) {
        let out = OK;
        for (const a of alts) if (a.kind === "function") out = join(out, this.returns(a.path, tool, at));
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
    for (const r of returned) out = join(out, this.trace(r, tool, at));
    return out;
  }
}
