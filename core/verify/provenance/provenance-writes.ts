/**
 * The inverted provenance rule, for calls to tools that may write: each argument must be traced to the run's
 * input, an earlier base call's result, or a constant the source run passed to that tool; what the tracer
 * (provenance-trace.ts) cannot trace is rejected with its line and the reason. Writes into objects anywhere in
 * the code are checked where they are written, since any object may reach a call through an alias the rule
 * does not follow. The rule and its limits: "Argument provenance" in docs/verification.md.
 */
import type { Node, NodePath } from "@babel/traverse";
import type { LocatedCallSites } from "../call-sites.ts";
import { propertyKey } from "../static/static-values.ts";
import type { Folder } from "./provenance-fold.ts";
import { ArgumentIndex, type RunCall } from "./provenance-run.ts";
import { type Untraced, WriteTracer } from "./provenance-trace.ts";
import { memberKey, type NodeOf } from "./provenance-values.ts";

/** What every message of the rule ends with: where a written value may come from. */
export const WRITE_RULE =
  "a tool that may write takes each argument from its input, an earlier call's result, or a constant the source run passed to that tool";

/** One finding of the rule: the node it is about, the tool, and the message without the line. */
export interface WriteFinding {
  node: Node;
  message: string;
}

/** Methods that put their arguments into the object they are called on (from the given argument on). */
const INSERTS: Readonly<Record<string, number>> = Object.freeze({ push: 0, unshift: 0, splice: 2, fill: 0 });

/**
 * Checks every call to a tool in `writes` and every write into an object of a tool that calls one. `calls`
 * are the source run's base calls; `located` the code's call sites.
 */
export function checkWrites(
  folder: Folder,
  located: LocatedCallSites,
  calls: readonly RunCall[],
  writes: ReadonlySet<string>,
  show: (value: string | number | boolean | null) => string,
): WriteFinding[] {
  const writing = located.sites.filter((s) => s.tool !== null && writes.has(s.tool));
  if (writing.length === 0) return [];
  const program = writing[0]!.path.findParent((p) => p.isProgram());
  if (program === null) return [];
  const tracer = new WriteTracer(
    folder,
    new ArgumentIndex(calls),
    new Set(located.sites.map((s) => s.path.node)),
    runInput(program),
  );
  const out: WriteFinding[] = [];
  const report = (u: Untraced, tool: string, where: string) => {
    const what =
      u.value !== undefined
        ? `passes ${show(u.value)} to ${where}${u.at !== undefined && !u.at.includes("[…]") ? u.at : ""}, a constant the source run never passed there`
        : `cannot trace ${where}: ${u.why}`;
    out.push({ node: u.node, message: `${what}: ${WRITE_RULE.replace("that tool", tool)}` });
  };
  for (const site of writing) {
    const tool = site.tool!;
    const args = site.path.get("arguments") as NodePath[];
    const second = args[1];
    if (second === undefined || second.isSpreadElement()) continue;
    for (const u of tracer.untraced(second, tool)) report(u, tool, tool);
  }
  // Writes into objects: the value written must be traced for every tool that may write, since the object
  // may reach any of them through a name the rule does not follow.
  const tools = [...new Set(writing.map((s) => s.tool!))].sort();
  const check = checkFunction(program);
  program.traverse({
    enter(path) {
      if (path.node === check) {
        path.skip();
        return;
      }
      for (const written of writtenValues(path)) {
        if ("why" in written) {
          out.push({ node: written.node, message: `${written.why}: ${WRITE_RULE}` });
          continue;
        }
        if (resultOnly(written.target, program)) continue;
        for (const tool of tools) {
          for (const u of tracer.untraced(written.value, tool, "[…]")) {
            report(u, tool, `what is written into an object that may reach ${tool}`);
          }
        }
      }
    },
  });
  return out;
}

type Written = { value: NodePath; target: NodePath } | { node: Node; why: string };

/** The values that `path` writes into an object (a property, an element), or why it cannot be followed. */
function writtenValues(path: NodePath): Written[] {
  if (path.isAssignmentExpression()) {
    const left = path.get("left") as NodePath;
    const op = path.node.operator;
    if (left.isMemberExpression() || left.isOptionalMemberExpression()) {
      if (op === "=" || op === "||=" || op === "&&=" || op === "??=")
        return [{ value: path.get("right"), target: left }];
      return [
        {
          node: path.node,
          why: `the compound assignment '${op}' to a property computes a value the rule does not follow`,
        },
      ];
    }
    if (!left.isIdentifier() && hasMemberTarget(left)) return [{ value: path.get("right"), target: left }];
    return [];
  }
  if (path.isUpdateExpression() && !path.get("argument").isIdentifier()) {
    return [
      {
        node: path.node,
        why: `'${path.node.operator}' on a property computes a value the rule does not follow`,
      },
    ];
  }
  if (path.isForOfStatement() && hasMemberTarget(path.get("left")))
    return [{ value: path.get("right"), target: path.get("left") }];
  if (path.isCallExpression()) {
    const callee = path.get("callee");
    if (!callee.isMemberExpression()) return [];
    const method = memberKey(callee);
    const object = callee.get("object");
    const args = path.get("arguments") as NodePath[];
    if (
      object.isIdentifier() &&
      object.node.name === "Object" &&
      path.scope.getBinding("Object") === undefined
    ) {
      if (method === "assign") return args.slice(1).map((value) => ({ value, target: args[0]! }));
      if (method === "defineProperty" || method === "defineProperties" || method === "setPrototypeOf") {
        return [
          {
            node: path.node,
            why: `Object.${String(method)}() writes into an object in a way the rule does not follow`,
          },
        ];
      }
      return [];
    }
    if (typeof method === "string" && Object.hasOwn(INSERTS, method)) {
      return args
        .slice(INSERTS[method])
        .map((a) => ({ value: a.isSpreadElement() ? a.get("argument") : a, target: object }));
    }
  }
  return [];
}

function hasMemberTarget(pattern: NodePath): boolean {
  if (pattern.isMemberExpression()) return true;
  let found = false;
  pattern.traverse({
    MemberExpression(p) {
      // Only targets: a computed key inside a pattern is read, not written.
      if (p.parentPath.isPattern() || p.parentPath.isObjectProperty() || p.parentPath.isRestElement())
        found = true;
    },
  });
  return found;
}

/**
 * True when the object written into is a `const` object or array literal that only ever goes into the tool's
 * result (`results.push(...)` then `return { results }` in `run`): what is written there reaches no call.
 */
function resultOnly(target: NodePath, program: NodePath): boolean {
  let root: NodePath = target;
  while (root.isMemberExpression() || root.isOptionalMemberExpression())
    root = root.get("object") as NodePath;
  if (!root.isIdentifier()) return false;
  const binding = root.scope.getBinding(root.node.name);
  if (binding === undefined || binding.kind !== "const" || !binding.path.isVariableDeclarator()) return false;
  const init = binding.path.get("init");
  if (!(init.isObjectExpression() || init.isArrayExpression())) return false;
  const run = runFunction(program);
  for (const ref of binding.referencePaths) {
    let p: NodePath | null = ref;
    while (p?.parentPath?.isMemberExpression() && p.key === "object") p = p.parentPath;
    const parent = p?.parentPath;
    if (parent?.isCallExpression() && p?.key === "callee") continue; // results.push(…): the write itself
    if (parent?.isAssignmentExpression() && p?.key === "left") continue;
    // Returned from run, directly or inside literals of the returned value.
    let up: NodePath | null = ref.parentPath;
    while (
      up !== null &&
      (up.isObjectProperty() || up.isObjectExpression() || up.isArrayExpression() || up.isSpreadElement())
    )
      up = up.parentPath;
    if (up?.isReturnStatement() && up.getFunctionParent()?.node === run?.node) continue;
    return false;
  }
  return true;
}

/** The `distilledTool({...})` literal's property `name`. */
function configProperty(program: NodePath, name: string): NodePath | null {
  for (const stmt of program.get("body") as NodePath[]) {
    if (!stmt.isExportDefaultDeclaration()) continue;
    const call = stmt.get("declaration");
    if (!call.isCallExpression()) return null;
    const object = call.get("arguments")[0];
    if (!object?.isObjectExpression()) return null;
    for (const prop of object.get("properties")) {
      if (prop.isSpreadElement()) continue;
      if (propertyKey(prop.node as NodeOf<"ObjectProperty" | "ObjectMethod">) === name) return prop;
    }
  }
  return null;
}

/** The `run` function of the tool. */
function runFunction(program: NodePath): NodePath | null {
  const prop = configProperty(program, "run");
  if (prop === null) return null;
  if (prop.isObjectMethod()) return prop;
  const value = prop.get("value") as NodePath;
  return value.isFunction() ? value : null;
}

/** The run function's first parameter: the run's input. */
function runInput(program: NodePath): NodePath | null {
  const run = runFunction(program);
  return run?.isFunction() ? ((run.get("params") as NodePath[])[0] ?? null) : null;
}

function checkFunction(program: NodePath): Node | null {
  const prop = configProperty(program, "check");
  if (prop === null) return null;
  return prop.isObjectMethod() ? prop.node : ((prop.get("value") as NodePath).node ?? null);
}
