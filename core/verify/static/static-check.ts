/**
 * The static check: structural rules on a proposed distilled tool's source, before anything runs.
 * It gives early, clear errors naming line and token; the sandbox is what actually contains the code.
 * Here the source is parsed once, bounded, the config literal read, and the rules (rules/index.ts) run over one
 * state in one walk; the problems come out in source order, each with the id of the rule that found it. The
 * result is bound to the source and tools it checked (`CheckedSource`), so a proposal is checked and parsed once:
 * its verification reuses the check, and call sites and provenance read its tree.
 */
import type { Node, NodePath, Visitor } from "@babel/traverse";
import type { Problem, ToolDef } from "../../types.ts";
import { TOOL_NAME_PATTERN } from "../../util/tool-names.ts";
import { traverse } from "../babel-traverse.ts";
import { boundedProblems, sourceSizeProblem, treeSizeProblem } from "../proposal-limits.ts";
import { SourceTokens, tokenAt } from "../source-tokens.ts";
import { parseTool, type ToolAst } from "../tool-syntax.ts";
import { isImported, isInside, MODULE } from "./library-import.ts";
import { RULES } from "./rules/index.ts";
import { readConfig } from "./static-config.ts";
import { stringValue } from "./static-values.ts";
import type { CheckedSource, CheckState, MessageData, NodeOf, StaticCheckResult, ToolMeta } from "./types.ts";

export type { CheckedSource, StaticCheckResult, ToolMeta };
export { TOOL_NAME_PATTERN };

/**
 * The ids of the problems the check itself reports, not a rule: the source could not be parsed, bounded or
 * analysed, or there were too many problems to list. docs/verification.md lists them with the rules.
 */
export const CHECK_PROBLEM_IDS = {
  parseError: "parse-error",
  duplicateDeclaration: "duplicate-declaration",
  analysisFailed: "analysis-failed",
} as const;

interface Position {
  line: number;
  column: number;
}

interface Found {
  problem: Problem;
  line: number;
  column: number;
}

/** A message with its `{{placeholder}}`s filled in; one pass, so a value that spells a placeholder stays as it is. */
export function formatMessage(template: string, data: MessageData = {}): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) =>
    Object.hasOwn(data, key) ? String(data[key]) : whole,
  );
}

/** Checks a proposed tool's source against the current base tools; every problem is reported at once. */
export function staticCheck(source: string, baseTools: readonly ToolDef[]): StaticCheckResult {
  const { ok, problems, meta } = checkSource(source, baseTools);
  return { ok, problems, meta };
}

/**
 * The check of `source` against `baseTools`: `known` when it checked exactly this source against this same tool
 * list, so one proposal is checked (and parsed) once, else a new check. Anything else checked is checked again.
 */
export function checkedSource(
  source: string,
  baseTools: readonly ToolDef[],
  known: CheckedSource | undefined,
): CheckedSource {
  return known !== undefined && known.source === source && known.tools === baseTools
    ? known
    : checkSource(source, baseTools);
}

/** `staticCheck`, bound to the source and tools it checked and with the tree it parsed, for reuse. */
export function checkSource(source: string, baseTools: readonly ToolDef[]): CheckedSource {
  const found: Found[] = [];
  const record = (
    rule: string,
    start: Position | undefined,
    token: string | undefined,
    message: string,
  ): void => {
    const problem: Problem = { rule, message };
    if (start) problem.line = start.line;
    if (token !== undefined) problem.token = token;
    found.push({ problem, line: start?.line ?? Number.POSITIVE_INFINITY, column: start?.column ?? 0 });
  };
  const refused = (problem: Problem): CheckedSource => ({
    ok: false,
    problems: [problem],
    meta: null,
    source,
    tools: baseTools,
    ast: null,
  });
  let ast: ToolAst | null = null;
  const finish = (meta: ToolMeta | null): CheckedSource => {
    found.sort((a, b) => a.line - b.line || a.column - b.column);
    const problems = boundedProblems(found.map((f) => f.problem));
    return { ok: problems.length === 0, problems, meta, source, tools: baseTools, ast };
  };
  // Bounded before anything walks the code: the size before parsing, the tree's counts before the rules.
  const tooLarge = sourceSizeProblem(source);
  if (tooLarge !== null) return refused(tooLarge);

  try {
    ast = parseTool(source);
  } catch (err) {
    const syntax = syntaxProblem(err, source);
    record(CHECK_PROBLEM_IDS.parseError, syntax.at, syntax.token, syntax.message);
    return finish(null);
  }
  const tooBig = treeSizeProblem(ast);
  if (tooBig !== null) return refused(tooBig);

  const body = ast.program.body;
  const config = readConfig(body);
  const state: CheckState = {
    report: (rule, messageId, node, token, data) =>
      record(rule.id, node?.loc?.start, token, formatMessage(rule.messages[messageId], data)),
    tokens: new SourceTokens(source),
    baseByName: new Map(baseTools.map((t) => [t.name, t])),
    dependencies: new Set(),
    baseCalls: 0,
    config,
    checkFunction: config?.checkFunction ?? null,
    walkedStatements: WALKED_STATEMENTS,
  };
  for (const rule of RULES) rule.program?.(state, body);
  if (config !== null) for (const rule of RULES) rule.config?.(state, config);
  try {
    traverse()(ast, WALK, undefined, state);
    for (const rule of RULES) rule.end?.(state);
  } catch (err) {
    reportWalkFailure(record, err, ast);
  }

  if (config === null || config.name === null || config.description === null || config.inputSchema === null) {
    return finish(null);
  }
  return finish({
    name: config.name,
    description: config.description,
    inputSchema: config.inputSchema,
    dependencies: [...state.dependencies].sort(),
    hasCheck: config.hasCheck,
  });
}

/** Imports are judged by the top-level rules; type positions are erased before the code runs. */
const NOT_WALKED = [
  "ImportDeclaration",
  "TSTypeAnnotation",
  "TSTypeParameterDeclaration",
  "TSTypeParameterInstantiation",
  "TSInterfaceDeclaration",
  "TSTypeAliasDeclaration",
  "TSDeclareFunction",
  "TSType",
] as const;

const BASE_CALL_RULES = RULES.filter((r) => r.baseCall !== undefined);

/**
 * The check's own part of the walk, before every rule's visitors: it skips what is not walked, and finds the base
 * calls outside check() (counted, their dependencies noted) and hands each to the rules' `baseCall`.
 */
const CHECK_VISITOR: Visitor<CheckState> = {
  ...Object.fromEntries(NOT_WALKED.map((type) => [type, (path: NodePath) => path.skip()])),
  CallExpression(path, state) {
    const { callee } = path.node;
    if (callee.type !== "Identifier" || callee.name !== "call" || !isImported(path, "call")) return;
    // check-reads-result reports a call inside check(); it is no base call of the tool.
    if (isInside(path, state.checkFunction)) return;
    state.baseCalls++;
    const first = path.node.arguments[0];
    const tool = first ? stringValue(first) : null;
    if (tool !== null && state.baseByName.has(tool)) state.dependencies.add(tool);
    for (const rule of BASE_CALL_RULES) rule.baseCall!(state, path.node as NodeOf<"CallExpression">);
  },
};

/** One walk runs every rule's visitors: each node type gets the check's function first, then the rules' in order. */
function mergeVisitors(visitors: readonly Visitor<CheckState>[]): Visitor<CheckState> {
  const merged: Record<string, { enter: unknown[] }> = Object.create(null);
  for (const visitor of visitors) {
    for (const [key, handler] of Object.entries(visitor)) {
      merged[key] ??= { enter: [] };
      merged[key].enter.push(handler);
    }
  }
  return merged as unknown as Visitor<CheckState>;
}

const WALK = mergeVisitors([CHECK_VISITOR, ...RULES.flatMap((r) => (r.visitor ? [r.visitor] : []))]);

/**
 * The statement types some rule's visitor reports (`Class` is Babel's alias of `ClassDeclaration` here), so the
 * top-level rule does not report them a second time.
 */
const WALKED_STATEMENTS: ReadonlySet<string> = new Set(
  RULES.flatMap((r) => Object.keys(r.visitor ?? {}))
    .flatMap((key) => key.split("|"))
    .map((type) => (type === "Class" ? "ClassDeclaration" : type)),
);

/** A parse failure: Babel's message without its `(line:column)` suffix, and the token there. */
function syntaxProblem(
  err: unknown,
  source: string,
): { at: Position | undefined; token: string | undefined; message: string } {
  // Nesting deep enough to exhaust the parser's stack is a property of the code, not a fault of the host.
  if (err instanceof RangeError)
    return { at: undefined, token: undefined, message: "the code nests too deeply to be parsed: flatten it" };
  if (!(err instanceof SyntaxError)) throw err;
  const loc = (err as SyntaxError & { loc?: Position & { index: number } }).loc;
  const message = `syntax error: ${err.message.replace(/\.? \(\d+:\d+\)$/, "")}`;
  return { at: loc, token: loc === undefined ? undefined : tokenAt(source, loc.index), message };
}

/**
 * A failed walk as a problem. Babel's scope tracker throws `Duplicate declaration "x"` without a location instead
 * of reporting it: the second declaration of that name is found by a walk without scopes and named with its line.
 */
function reportWalkFailure(
  record: (rule: string, start: Position | undefined, token: string | undefined, message: string) => void,
  err: unknown,
  ast: Node,
): void {
  const message = err instanceof Error ? err.message : String(err);
  const duplicate = /^Duplicate declaration "([^"]+)"/.exec(message);
  if (duplicate === null) {
    record(
      CHECK_PROBLEM_IDS.analysisFailed,
      undefined,
      undefined,
      `the code could not be analysed: ${message}`,
    );
    return;
  }
  const name = duplicate[1]!;
  const declared: Node[] = [];
  traverse()(ast, {
    noScope: true,
    Identifier(path) {
      if (path.node.name === name && path.isBindingIdentifier()) declared.push(path.node);
    },
  });
  const why =
    name === "call" || name === "distilledTool" || name === "notApplicable"
      ? `it is imported from "${MODULE}" and cannot be declared again`
      : "give each declaration its own name";
  const at = declared[1] ?? declared[0];
  record(
    CHECK_PROBLEM_IDS.duplicateDeclaration,
    at?.loc?.start,
    name,
    `'${name}' is declared twice in the same scope: ${why}`,
  );
}
