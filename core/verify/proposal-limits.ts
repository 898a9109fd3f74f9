/**
 * Bounds on the analysis of one proposal, which runs on the host's own thread: a proposal's size is measured
 * before it is parsed, and its syntax tree is counted (nodes, call sites, nesting) before any rule walks it, so
 * no proposal can keep the host busy for long or answer with a verdict that floods the model's context. None
 * of these depends on the proposal's cooperation. Pure. The figures are in docs/verification.md.
 */
import type { Node } from "@babel/traverse";
import type { Problem } from "../types.ts";
import { clip } from "../util/text.ts";

/** Largest source of a distilled tool, in UTF-8 bytes. The demos' tools are about 2 kB. */
export const MAX_SOURCE_BYTES = 32_768;
/** Most lines of a distilled tool's source. */
export const MAX_SOURCE_LINES = 1000;
/** Most syntax-tree nodes: about what MAX_SOURCE_BYTES of plain code parses to. */
export const MAX_AST_NODES = 12_000;
/** Most `call(...)` sites: a run makes at most `limits.maxCalls` (200 by default) calls anyway. */
export const MAX_CALL_SITES = 200;
/** Deepest nesting of the syntax tree: every later walk over it is bounded by this. */
export const MAX_AST_DEPTH = 200;
/** Most problems one check reports; the rest are counted in one last line. */
export const MAX_PROBLEMS = 50;
/** Longest text of a verdict handed to a model; longer ones are clipped with a count. */
export const MAX_VERDICT_CHARS = 24_000;

const SHRINK =
  "a distilled tool is a short fixed sequence of base calls: split it or remove what it does not need";

/** Why `source` is too large to analyse, or null. Checked before it is parsed. */
export function sourceSizeProblem(source: string): Problem | null {
  // A UTF-8 byte is at least a UTF-16 unit's worth: only a source near the limit needs measuring.
  const bytes = source.length * 3 <= MAX_SOURCE_BYTES ? source.length : Buffer.byteLength(source, "utf8");
  if (bytes > MAX_SOURCE_BYTES) {
    return {
      rule: "source-too-large",
      token: "source",
      message: `the source is ${bytes} bytes, over the limit of ${MAX_SOURCE_BYTES}: ${SHRINK}`,
    };
  }
  let lines = 1;
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) {
    if (++lines > MAX_SOURCE_LINES) {
      return {
        rule: "source-too-large",
        line: MAX_SOURCE_LINES + 1,
        token: "source",
        message: `the source has more than ${MAX_SOURCE_LINES} lines: ${SHRINK}`,
      };
    }
  }
  return null;
}

/** Whether a node is a call of a function named `call` (`call(…)`, `x.call(…)`): an upper bound of the call sites. */
function looksLikeCallSite(node: Node): boolean {
  if (node.type !== "CallExpression" && node.type !== "OptionalCallExpression") return false;
  const callee = node.callee;
  if (callee.type === "Identifier") return callee.name === "call";
  if (callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression") {
    return callee.property.type === "Identifier" && callee.property.name === "call";
  }
  return false;
}

/**
 * Counts the syntax tree without recursion and stops at the first limit passed: nodes, nesting, call sites.
 * Returns the problem for the limit passed, or null. Runs before any rule walks the tree.
 */
export function treeSizeProblem(ast: Node): Problem | null {
  let nodes = 0;
  let sites = 0;
  const stack: { node: Node; depth: number }[] = [{ node: ast, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const at = node.loc ? { line: node.loc.start.line } : {};
    if (++nodes > MAX_AST_NODES) {
      return {
        rule: "tree-too-large",
        ...at,
        token: "source",
        message: `the code has more than ${MAX_AST_NODES} syntax nodes: ${SHRINK}`,
      };
    }
    if (depth > MAX_AST_DEPTH) {
      return {
        rule: "tree-too-large",
        ...at,
        token: "source",
        message: `the code nests more than ${MAX_AST_DEPTH} levels deep: flatten it`,
      };
    }
    if (looksLikeCallSite(node) && ++sites > MAX_CALL_SITES) {
      return {
        rule: "tree-too-large",
        ...at,
        token: "call",
        message: `the code has more than ${MAX_CALL_SITES} call sites: ${SHRINK}`,
      };
    }
    for (const key of Object.keys(node) as (keyof Node)[]) {
      if (key === "loc" || key === "leadingComments" || key === "trailingComments" || key === "innerComments")
        continue;
      const child = node[key] as unknown;
      if (Array.isArray(child)) {
        for (const c of child) if (isNode(c)) stack.push({ node: c, depth: depth + 1 });
      } else if (isNode(child)) {
        stack.push({ node: child, depth: depth + 1 });
      }
    }
  }
  return null;
}

function isNode(value: unknown): value is Node {
  return (
    typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
  );
}

/** The first MAX_PROBLEMS problems, then one line counting the rest. */
export function boundedProblems(problems: Problem[]): Problem[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  const more = problems.length - MAX_PROBLEMS;
  return [
    ...problems.slice(0, MAX_PROBLEMS).map((p) => ({ ...p, message: clip(p.message, 1000) })),
    {
      rule: "too-many-problems",
      message: `and ${more} more problem${more === 1 ? "" : "s"}: fix these and propose again to see the rest`,
    },
  ];
}

/** A verdict's text clipped to MAX_VERDICT_CHARS, saying how much was left out; `last` is always kept whole. */
export function boundedText(body: string, last?: string): string {
  const clipped = clip(body, MAX_VERDICT_CHARS);
  return last === undefined ? clipped : `${clipped}\n${last}`;
}
