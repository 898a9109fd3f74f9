/**
 * The static check's shared types: what a rule is, the state every rule reads and reports to, and what the check
 * reads from a tool's source. A leaf: it imports no value and no rule, so rules and the check can both import it.
 */
import type { Node, Visitor } from "@babel/traverse";
import type { CheckResult, JsonSchema, ToolDef } from "../../types.ts";
import type { SourceTokens } from "../source-tokens.ts";
import type { ToolAst } from "../tool-syntax.ts";

/** The Babel node of one `type`. */
export type NodeOf<T extends Node["type"]> = Extract<Node, { type: T }>;

/** A member access, optional (`o?.x`) or not. */
export type MemberNode = NodeOf<"MemberExpression" | "OptionalMemberExpression">;

/** A statement of the module's top level. */
export type Statement = NodeOf<"Program">["body"][number];

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

/**
 * A static check bound to exactly what it checked: this source against this base tool list (the same array), with
 * the tree it parsed, so that the rest of one verification reuses the one parse instead of parsing again.
 */
export interface CheckedSource extends StaticCheckResult {
  readonly source: string;
  readonly tools: readonly ToolDef[];
  /** The parsed tree; null when the source was refused before or while parsing, or its tree was too large. */
  readonly ast: ToolAst | null;
}

/** The keys `distilledTool({...})` accepts. */
export type ConfigKey = "name" | "description" | "inputSchema" | "run" | "check";

/** A key of the config literal: `key: value` or a method. */
export type ConfigProperty = NodeOf<"ObjectProperty" | "ObjectMethod">;

/** What the `distilledTool({...})` literal says, read before any rule reports on it; null fields were unreadable. */
export interface ToolConfig {
  /** The object literal itself. */
  object: NodeOf<"ObjectExpression">;
  /** The first property of each known key. */
  properties: ReadonlyMap<ConfigKey, ConfigProperty>;
  name: string | null;
  description: string | null;
  /** The schema as its literals spell it, and the nodes that are not literals; null without the key. */
  schemaLiteral: { value: unknown; notLiterals: Node[] } | null;
  /** Why the schema is too large to compile on the host (json-schema-limits.ts); empty when it is not. */
  schemaLimits: readonly string[];
  /** The schema as metadata: a plain object of literals within the limits, else null. */
  inputSchema: JsonSchema | null;
  hasCheck: boolean;
  /** The check function's node when `check` is a function: base calls inside it are refused. */
  checkFunction: Node | null;
}

/** Values a message's `{{placeholder}}`s are filled with. */
export type MessageData = Readonly<Record<string, string | number>>;

/** What the rules share while one source is checked: where problems go, the base tools, what the tool calls. */
export interface CheckState {
  /** Records `rule`'s message `messageId` at `node` (null: of the whole module, without a line), naming `token`. */
  report<M extends string>(
    rule: StaticRule<M>,
    messageId: M,
    node: Node | null,
    token: string | undefined,
    data?: MessageData,
  ): void;
  /** The source text problems name as their token. */
  readonly tokens: SourceTokens;
  /** The current base tools by name. */
  readonly baseByName: ReadonlyMap<string, ToolDef>;
  /** The base tools the source calls by a literal name that exists. */
  readonly dependencies: Set<string>;
  /** How many base calls the source makes outside check(), whether or not their tool exists. */
  baseCalls: number;
  /** The config literal as read, or null when the module has no `export default distilledTool({...})`. */
  readonly config: ToolConfig | null;
  /** The node of the config's `check` function: base calls inside it are refused. */
  readonly checkFunction: Node | null;
  /** Statement types the walk's rules report, so the top-level rule does not report them again. */
  readonly walkedStatements: ReadonlySet<string>;
}

/** A base call outside check(): `call(...)` of the imported `call`. */
export type BaseCallNode = NodeOf<"CallExpression">;

/**
 * One static check rule, as ESLint has them: a stable kebab-case id (a Problem's `rule`), a one-line description
 * (docs/verification.md lists them), its messages by id with `{{placeholder}}`s, and the checks it adds to the one
 * pass over a source: the top level, the config literal, visitors of the one walk, each base call, the end.
 */
export interface StaticRule<M extends string = string> {
  readonly id: string;
  readonly description: string;
  readonly messages: Readonly<Record<M, string>>;
  /** Runs on the module's top-level statements, before the walk. */
  readonly program?: (state: CheckState, body: readonly Statement[]) => void;
  /** Runs on the `distilledTool({...})` literal, when the module has one, before the walk. */
  readonly config?: (state: CheckState, config: ToolConfig) => void;
  /** Visitors of the one walk over the module's body (type positions and imports are not walked). */
  readonly visitor?: Visitor<CheckState>;
  /** Runs on each base call outside check(), during the walk. */
  readonly baseCall?: (state: CheckState, node: BaseCallNode) => void;
  /** Runs once after the walk. */
  readonly end?: (state: CheckState) => void;
}
