/**
 * Call sites: every place where a tool's code calls a base tool through the `call` it imports from
 * "tooldistill". Verification counts which sites ran. Nothing is inserted into the source: the sandbox finds the
 * site of each call from where its `(` is (sandbox-sites.ts), so verification and live run the same bytes. What
 * this module refuses (`call` read as a value, spread arguments, the library reached another way) is what makes
 * that sound: every way to reach `call` is a site.
 */
import type { Binding, Node, NodePath } from "@babel/traverse";
import { DistillError, errorMessage } from "../errors.ts";
import { isDeclaredOutcome, OUTCOMES_ARG_INDEX } from "../trace/declared-outcomes.ts";
import type { Problem } from "../types.ts";
import { traverse } from "./babel-traverse.ts";
import { LIBRARY_PARAM } from "./module-body.ts";
import { propertyKey, stringValue } from "./static/static-values.ts";
import { parseTool, type ToolAst } from "./tool-syntax.ts";

type NodeOf<T extends Node["type"]> = Extract<Node, { type: T }>;
/** A base call as Babel sees it: `call(...)` or `call?.(...)`. */
export type CallNode = NodeOf<"CallExpression" | "OptionalCallExpression">;

/** The arguments of `call` that name the base tool and its arguments: a spread among them hides them. */
const CALL_SITE_ARG_INDEX = 2;

/** One `call(...)` in a tool's source. `tool` is the string-literal first argument, null when it is not one. */
export interface CallSite {
  /** 1-based, in source order (by where the `call` token starts). */
  id: number;
  line: number;
  tool: string | null;
  /**
   * The outcomes the site declares in its third argument (declared-outcomes.ts), sorted; absent when it declares
   * none. The host lets an outcome apply only at a site whose record has it, so the guest cannot claim one.
   */
  outcomes?: readonly string[];
  /** The offset in the source of the call's opening `(`: where the engine's stack places the call. */
  at?: number;
}

/** A tool's source (unchanged: what runs in verification is what runs live) and its sites in id order. */
export interface InstrumentedSource {
  source: string;
  sites: CallSite[];
}

/** A call site with its place in the parsed tree, for analyses that read its arguments. */
export interface LocatedCallSite extends CallSite {
  path: NodePath<CallNode>;
}

/** The call sites of a parsed source, and the uses of `call` that are not a site (so not countable). */
export interface LocatedCallSites {
  sites: LocatedCallSite[];
  /**
   * `call` read as a value, spread arguments in the name or arguments position, the library reached through
   * the sandbox's own names for it: instrumentation refuses these.
   */
  unsupported: Problem[];
}

const MODULE = "tooldistill";
const CALL_DIRECTLY = `call base tools directly: call("<base tool>", {...})`;

/**
 * Numbers every base call site, each with the offset of its `(` (`CallSite.at`), and returns the source as it
 * is: the sandbox places each call by that offset. Throws DistillError("PROPOSAL_INVALID") when the source does
 * not parse or uses `call` in a way whose calls could not be placed (read as a value, or with a spread name or
 * arguments). `located` reuses the sites `locateCallSites` found in the same source.
 */
export function instrumentCallSites(
  source: string,
  located: LocatedCallSites = locateCallSites(source),
): InstrumentedSource {
  const { sites, unsupported } = located;
  if (unsupported.length > 0) {
    const list = unsupported.map((p) => `line ${p.line ?? "?"}: ${p.message}`).join("; ");
    throw new DistillError("PROPOSAL_INVALID", `the tool's base calls cannot be counted: ${list}`);
  }
  return {
    source,
    sites: sites.map(({ id, line, tool, path, outcomes }) => ({
      id,
      line,
      tool,
      at: openParen(path.node, source),
      ...(outcomes ? { outcomes } : {}),
    })),
  };
}

/**
 * Parses a tool's source and finds its call sites: the calls of `call` as imported from "tooldistill"
 * (under any alias, or as `ns.call` of a namespace import), never a local binding that shadows it nor
 * another object's `.call`. Throws DistillError("PROPOSAL_INVALID") when the source does not parse. `ast`, when
 * given, must be `source`'s own tree (the static check's, `CheckedSource.ast`): the sites' offsets are read from it.
 */
export function locateCallSites(source: string, ast: ToolAst = parseSource(source)): LocatedCallSites {
  const program = programOf(ast);
  const found: { path: NodePath<CallNode>; start: number }[] = [];
  const unsupported: { problem: Problem; start: number }[] = [];
  const refuse = (node: Node, message: string): void => {
    const problem: Problem = { rule: "uncountable-call", message };
    if (node.loc) problem.line = node.loc.start.line;
    problem.token = source.slice(node.start ?? 0, node.end ?? 0).split("\n")[0] ?? "";
    unsupported.push({ problem, start: node.start ?? 0 });
  };
  const asSite = (callee: NodePath, token: Node): void => {
    const outer = outermost(callee);
    const parent = outer.parentPath;
    if (
      parent !== null &&
      (parent.isCallExpression() || parent.isOptionalCallExpression()) &&
      outer.key === "callee"
    ) {
      const spread = parent.node.arguments
        .slice(0, CALL_SITE_ARG_INDEX)
        .find((arg) => arg.type === "SpreadElement");
      if (spread) {
        refuse(
          spread,
          `a spread argument in call(...) hides the base tool's name or arguments: ${CALL_DIRECTLY}`,
        );
      }
      found.push({ path: parent as NodePath<CallNode>, start: token.start ?? 0 });
    } else {
      refuse(
        token,
        `'call' is used without being called, so its calls could not be counted: ${CALL_DIRECTLY}`,
      );
    }
  };

  for (const { binding, namespace } of libraryBindings(program)) {
    for (const ref of binding.referencePaths) {
      if (inTypePosition(ref)) continue;
      if (!namespace) {
        asSite(ref, ref.node);
        continue;
      }
      const member = ref.parentPath;
      const isObject =
        member !== null &&
        (member.isMemberExpression() || member.isOptionalMemberExpression()) &&
        ref.key === "object";
      const name = isObject ? staticMemberName(member.node) : null;
      if (name === "call") asSite(member!, member!.node);
      else if (name === null) {
        refuse(
          ref.node,
          `the namespace of "${MODULE}" is used as a value, which hides its calls: ${CALL_DIRECTLY}`,
        );
      }
    }
  }

  // The body's own ways to the library object: through them `call` could be reached without being counted.
  program.traverse({
    Identifier(path) {
      const name = path.node.name;
      if ((name !== LIBRARY_PARAM && name !== "arguments") || !path.isReferencedIdentifier()) return;
      if (path.scope.getBinding(name) !== undefined) return;
      if (name === LIBRARY_PARAM) {
        refuse(path.node, `'${name}' is the sandbox's own name for the library: ${CALL_DIRECTLY}`);
      } else if (path.findParent((p) => p.isFunction() && !p.isArrowFunctionExpression()) === null) {
        refuse(
          path.node,
          `'arguments' outside a function reaches the library, which hides its calls: ${CALL_DIRECTLY}`,
        );
      }
    },
  });

  found.sort((a, b) => a.start - b.start);
  const sites = found.map(({ path }, i): LocatedCallSite => {
    const first = path.node.arguments[0];
    const tool = first !== undefined && first.type !== "SpreadElement" ? stringValue(first) : null;
    const site: LocatedCallSite = { id: i + 1, line: path.node.loc?.start.line ?? 0, tool, path };
    const outcomes = declaredOutcomeNames(path.node);
    if (outcomes.length > 0) site.outcomes = outcomes;
    return site;
  });
  unsupported.sort((a, b) => a.start - b.start);
  return { sites, unsupported: unsupported.map((u) => u.problem) };
}

/**
 * The outcome keys a call site declares: the known names among the plain keys of a literal object in its third
 * argument, sorted. Anything the static check refuses (a computed key, a spread, an unknown name) declares
 * nothing, so the host never lets an outcome apply that the check did not read.
 */
function declaredOutcomeNames(node: CallNode): string[] {
  const options = node.arguments[OUTCOMES_ARG_INDEX];
  if (options === undefined || options.type !== "ObjectExpression") return [];
  const names = new Set<string>();
  for (const prop of options.properties) {
    if (prop.type !== "ObjectProperty" || prop.computed) continue;
    const key = propertyKey(prop);
    if (key !== null && isDeclaredOutcome(key) && prop.value.type === "ArrowFunctionExpression")
      names.add(key);
  }
  return [...names].sort();
}

/** Parses as the static check does (tool-syntax.ts); a failure is the proposal's, with Babel's message. */
function parseSource(source: string): ToolAst {
  try {
    return parseTool(source);
  } catch (err) {
    throw new DistillError("PROPOSAL_INVALID", `the tool's code does not parse: ${errorMessage(err)}`, {
      cause: err,
    });
  }
}

/** The program's path, with its scope (reused when the static check already walked this tree). */
function programOf(ast: ToolAst): NodePath<NodeOf<"Program">> {
  let program: NodePath<NodeOf<"Program">> | null = null;
  traverse()(ast, {
    Program(path) {
      program = path;
      path.stop();
    },
  });
  if (program === null) throw new DistillError("PROPOSAL_INVALID", "the tool's code has no program");
  return program;
}

/** The value bindings of "tooldistill"'s `call`: named imports under any alias, and namespace imports. */
function libraryBindings(program: NodePath<NodeOf<"Program">>): { binding: Binding; namespace: boolean }[] {
  const out: { binding: Binding; namespace: boolean }[] = [];
  for (const stmt of program.node.body) {
    if (stmt.type !== "ImportDeclaration" || stmt.source.value !== MODULE || stmt.importKind === "type") {
      continue;
    }
    for (const spec of stmt.specifiers) {
      let namespace: boolean;
      if (spec.type === "ImportNamespaceSpecifier") namespace = true;
      else if (spec.type === "ImportSpecifier" && spec.importKind !== "type") {
        const imported = spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value;
        if (imported !== "call") continue;
        namespace = false;
      } else continue;
      const binding = program.scope.getBinding(spec.local.name);
      if (binding !== undefined) out.push({ binding, namespace });
    }
  }
  return out;
}

/** Wrappers that leave the value they wrap unchanged: parentheses and erasable TypeScript. */
const TRANSPARENT: ReadonlySet<string> = new Set([
  "ParenthesizedExpression",
  "TSAsExpression",
  "TSSatisfiesExpression",
  "TSNonNullExpression",
  "TSTypeAssertion",
  "TSInstantiationExpression",
]);

/** The outermost of `(call as any)!`-style wrappers around `path`, so `(call)("x")` is still a direct call. */
function outermost(path: NodePath): NodePath {
  let current = path;
  while (current.parentPath !== null && TRANSPARENT.has(current.parentPath.node.type)) {
    current = current.parentPath;
  }
  return current;
}

/** True for `typeof call` in a type: erased before the code runs, so not a use. */
function inTypePosition(path: NodePath): boolean {
  let current: NodePath | null = path.parentPath;
  while (current !== null && current.node.type === "TSQualifiedName") current = current.parentPath;
  return current !== null && current.node.type === "TSTypeQuery";
}

function staticMemberName(node: NodeOf<"MemberExpression" | "OptionalMemberExpression">): string | null {
  if (!node.computed) return node.property.type === "Identifier" ? node.property.name : null;
  return stringValue(node.property);
}

/**
 * The offset of a call's opening `(`: the first `(` after its callee (and type arguments) that is not inside a
 * comment; only whitespace, comments and `?.` can come between.
 */
function openParen(node: CallNode, source: string): number {
  const typeArgs = (node as { typeArguments?: Node | null; typeParameters?: Node | null }).typeArguments;
  let i = Math.max(node.callee.end ?? 0, typeArgs?.end ?? 0);
  while (i < source.length) {
    const c = source[i];
    if (c === "(") return i;
    if (source.startsWith("//", i))
      i = source.indexOf("\n", i) === -1 ? source.length : source.indexOf("\n", i);
    else if (source.startsWith("/*", i))
      i = source.indexOf("*/", i + 2) === -1 ? source.length : source.indexOf("*/", i + 2) + 2;
    else i++;
  }
  throw new DistillError(
    "PROPOSAL_INVALID",
    `line ${node.loc?.start.line ?? "?"}: cannot find the start of a call's arguments`,
  );
}
