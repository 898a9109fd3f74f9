/**
 * The static check: structural rules on a proposed distilled tool's source, before anything runs.
 * It gives early, clear errors naming line and token; the sandbox is what actually contains the code.
 * Here the source is parsed, the rules run over one state and the problems come out in source order; the rules
 * are in static-module.ts (top level), static-config.ts (the `distilledTool({...})` literal) and static-rules.ts
 * (the module's body).
 */
import { parse } from "@babel/parser";
import type { Node } from "@babel/traverse";
import type { CheckResult, JsonSchema, Problem, ToolDef } from "../../types.ts";
import { TOOL_NAME_PATTERN } from "../../util/tool-names.ts";
import { traverse } from "../babel-traverse.ts";
import { boundedProblems, sourceSizeProblem, treeSizeProblem } from "../proposal-limits.ts";
import { SourceTokens, tokenAt } from "../source-tokens.ts";
import { readConfig } from "./static-config.ts";
import { checkTopLevel } from "./static-module.ts";
import { BANNED_STATEMENTS, BODY_RULES, checkSomeBaseCall, reportWalkFailure } from "./static-rules.ts";

/** What the static check reads from a tool's source without running it. */
export interface ToolMeta {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Sorted, unique names of the current base tools the source calls through `call("<name>", …)`. */
  dependencies: string[];
  hasCheck: boolean;
}

/** The static check's verdict; `meta` is null when name, description or inputSchema could not be read as literals. */
export interface StaticCheckResult extends CheckResult {
  meta: ToolMeta | null;
}

export { TOOL_NAME_PATTERN };

/** What the rules share while one source is checked: where problems go, the base tools, what the tool calls. */
export interface CheckState {
  /** Records a problem at `node` (null: of the whole module, without a line) that names `token`. */
  add(node: Node | null, token: string | undefined, message: string): void;
  /** The source text problems name as their token. */
  readonly tokens: SourceTokens;
  /** The current base tools by name. */
  readonly baseByName: ReadonlyMap<string, ToolDef>;
  /** The base tools the source calls by a literal name that exists. */
  readonly dependencies: Set<string>;
  /** How many base calls the source makes outside check(), whether or not their tool exists. */
  baseCalls: number;
  /** The node of the config's `check` function: base calls inside it are refused. */
  checkFunction: Node | null;
  /** Statement types the banned-syntax rules report, so the top-level rule does not report them again. */
  readonly bannedStatements: ReadonlySet<string>;
}

interface Position {
  line: number;
  column: number;
}

interface Found {
  problem: Problem;
  line: number;
  column: number;
}

/** Checks a proposed tool's source against the current base tools; every problem is reported at once. */
export function staticCheck(source: string, baseTools: readonly ToolDef[]): StaticCheckResult {
  const found: Found[] = [];
  const record = (start: Position | undefined, token: string | undefined, message: string): void => {
    const problem: Problem = { message };
    if (start) problem.line = start.line;
    if (token !== undefined) problem.token = token;
    found.push({ problem, line: start?.line ?? Number.POSITIVE_INFINITY, column: start?.column ?? 0 });
  };
  const finish = (meta: ToolMeta | null): StaticCheckResult => {
    found.sort((a, b) => a.line - b.line || a.column - b.column);
    const problems = boundedProblems(found.map((f) => f.problem));
    return { ok: problems.length === 0, problems, meta };
  };
  // Bounded before anything walks the code: the size before parsing, the tree's counts before the rules.
  const tooLarge = sourceSizeProblem(source);
  if (tooLarge !== null) return { ok: false, problems: [tooLarge], meta: null };

  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(source, {
      sourceType: "module",
      // decorators-legacy only so that a decorator is reported as banned rather than as a parse failure
      plugins: ["typescript", "decorators-legacy"],
      errorRecovery: false,
    });
  } catch (err) {
    const syntax = syntaxProblem(err, source);
    record(syntax.at, syntax.token, syntax.message);
    return finish(null);
  }
  const tooBig = treeSizeProblem(ast);
  if (tooBig !== null) return { ok: false, problems: [tooBig], meta: null };

  const state: CheckState = {
    add: (node, token, message) => record(node?.loc?.start, token, message),
    tokens: new SourceTokens(source),
    baseByName: new Map(baseTools.map((t) => [t.name, t])),
    dependencies: new Set(),
    baseCalls: 0,
    checkFunction: null,
    bannedStatements: BANNED_STATEMENTS,
  };
  const object = checkTopLevel(state, ast.program.body);
  const config = object ? readConfig(state, object) : null;
  state.checkFunction = config?.checkFunction ?? null;
  try {
    traverse()(ast, BODY_RULES, undefined, state);
    checkSomeBaseCall(state);
  } catch (err) {
    reportWalkFailure(state, err, ast);
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
