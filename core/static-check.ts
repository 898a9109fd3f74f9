/**
 * The static check: structural rules on a proposed distilled tool's source, before anything runs.
 * It gives early, clear errors naming line and token; the sandbox is what actually contains the code.
 */
import { parse } from "@babel/parser";
import traverseModule, { type Node, type NodePath, type Visitor } from "@babel/traverse";
import { isPlainObject } from "./canonical.ts";
import { suggestion } from "./did-you-mean.ts";
import { ABSENT_GLOBALS, ABSENT_MEMBERS, NO_CLOCK } from "./sandbox-guest.ts";
import type { CheckResult, JsonSchema, Problem, ToolDef } from "./types.ts";

type Traverse = typeof traverseModule.default;
// @babel/traverse is CommonJS: Node's ESM loader hands us `module.exports`, a bundler may hand us the function.
const traverse: Traverse =
  (traverseModule as { default?: Traverse }).default ?? (traverseModule as unknown as Traverse);

type NodeOf<T extends Node["type"]> = Extract<Node, { type: T }>;

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

/** A distilled tool's name: it must fit Claude Code's 64-character cap after the plugin's 28-character prefix. */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{2,35}$/;

const MODULE = "tooldistill";
const ONLY_IMPORT = `only { distilledTool, call } from "${MODULE}"`;
const FAIL_FAST = "a failed base call must fail the tool so the agent can fall back";
const BOUNDED = "use for…of over a bounded list";
const NON_ERASABLE = "non-erasable TypeScript";
const CONFIG_KEYS = ["name", "description", "inputSchema", "run", "check"] as const;
const REQUIRED_CONFIG_KEYS = ["name", "description", "inputSchema", "run"] as const;
const TOP_LEVEL = "only imports and one export default distilledTool({...}) are allowed at top level";

/**
 * Names that reach outside the tool's own data; banned as identifiers and as property names. The globals the
 * sandbox leaves out (timers, eval, …: ABSENT_GLOBALS) are banned too, each with its own reason.
 */
const ESCAPE_HATCHES: ReadonlySet<string> = new Set([
  "globalThis",
  "global",
  "process",
  "require",
  "module",
  "Buffer",
  "fetch",
  "constructor",
  "prototype",
  "Reflect",
  "clearImmediate",
  "arguments",
  "import",
]);

/** Top-level statements that a more specific rule already reports, so they do not get the generic message too. */
const REPORTED_ELSEWHERE: ReadonlySet<string> = new Set([
  "TSEnumDeclaration",
  "TSModuleDeclaration",
  "TSImportEqualsDeclaration",
  "ClassDeclaration",
  "TryStatement",
  "WhileStatement",
  "DoWhileStatement",
  "ForStatement",
  "ForInStatement",
  "LabeledStatement",
  "DebuggerStatement",
]);

/** One problem as text: `line 5: call to 'x' — no such base tool` (no prefix without a line). */
export function formatProblem(p: Problem): string {
  return p.line === undefined ? p.message : `line ${p.line}: ${p.message}`;
}

interface Found {
  problem: Problem;
  line: number;
  column: number;
}

/** Checks a proposed tool's source against the current base tools; every problem is reported at once. */
export function staticCheck(source: string, baseTools: readonly ToolDef[]): StaticCheckResult {
  const found: Found[] = [];
  const add = (node: Node | null, token: string | undefined, message: string): void => {
    const start = node?.loc?.start;
    const problem: Problem = { message };
    if (start) problem.line = start.line;
    if (token !== undefined) problem.token = token;
    found.push({ problem, line: start?.line ?? Number.POSITIVE_INFINITY, column: start?.column ?? 0 });
  };
  const finish = (meta: ToolMeta | null): StaticCheckResult => {
    found.sort((a, b) => a.line - b.line || a.column - b.column);
    const problems = found.map((f) => f.problem);
    return { ok: problems.length === 0, problems, meta };
  };

  let ast: ReturnType<typeof parse>;
  try {
    ast = parse(source, {
      sourceType: "module",
      // decorators-legacy only so that a decorator is reported as banned rather than as a parse failure
      plugins: ["typescript", "decorators-legacy"],
      errorRecovery: false,
    });
  } catch (err) {
    found.push(syntaxProblem(err, source));
    return finish(null);
  }

  const tokens = new Tokens(source);
  const tokenOf = (node: Node): string => tokens.of(node);
  const baseByName = new Map(baseTools.map((t) => [t.name, t]));
  const dependencies = new Set<string>();
  let callCount = 0;

  const config = checkTopLevel(ast.program.body, add, tokens);
  const read = config ? readConfig(config, baseByName, add, tokens) : null;

  const checkName = (name: string, node: Node, isObjectKey: boolean): void => {
    if (name.startsWith("__")) {
      add(node, name, `'${name}' is not allowed: names starting with __ are reserved`);
    } else if (!isObjectKey && Object.hasOwn(ABSENT_GLOBALS, name)) {
      add(node, name, `'${name}' is not available: ${ABSENT_GLOBALS[name]}`);
    } else if (!isObjectKey && ESCAPE_HATCHES.has(name)) {
      add(
        node,
        name,
        name === "require"
          ? `'require' is not allowed: ${ONLY_IMPORT}`
          : `'${name}' is not allowed in a distilled tool`,
      );
    }
  };

  const checkBaseCall = (node: NodeOf<"CallExpression">): void => {
    callCount++;
    const [first, second] = node.arguments;
    const toolName = first ? stringValue(first) : null;
    if (first === undefined || toolName === null) {
      add(
        first ?? node,
        first ? tokenOf(first) : "call",
        "call needs a string-literal base tool name as its first argument so dependencies can be read",
      );
      return;
    }
    const tool = baseByName.get(toolName);
    if (tool === undefined) {
      const typed = toolName.startsWith("mcp__") ? toolName.slice("mcp__".length) : toolName;
      add(
        first,
        toolName,
        `call to '${toolName}' — no such base tool${suggestion(typed, baseByName.keys())}`,
      );
      return;
    }
    dependencies.add(toolName);
    if (second === undefined) checkArguments(tool, new Map(), node, add);
    else if (second.type === "ObjectExpression") {
      const keys = literalKeys(second);
      if (keys !== null) checkArguments(tool, keys, second, add);
    }
  };

  const skip = (path: NodePath): void => path.skip();
  const visitor: Visitor = {
    // Imports are judged by the top-level rules; type positions are erased before the code runs.
    ImportDeclaration: skip,
    TSTypeAnnotation: skip,
    TSTypeParameterDeclaration: skip,
    TSTypeParameterInstantiation: skip,
    TSInterfaceDeclaration: skip,
    TSTypeAliasDeclaration: skip,
    TSDeclareFunction: skip,
    TSType: skip,

    TryStatement(path) {
      add(path.node, "try", `'try' is not allowed: ${FAIL_FAST}`);
    },
    WhileStatement(path) {
      add(path.node, "while", `'while' is not allowed: ${BOUNDED}`);
    },
    DoWhileStatement(path) {
      add(path.node, "do", `'do' is not allowed: ${BOUNDED}`);
    },
    ForStatement(path) {
      add(path.node, "for", `'for(;;)' is not allowed: ${BOUNDED}`);
    },
    ForInStatement(path) {
      add(path.node, "for", "'for…in' is not allowed: use for…of over Object.keys(...)");
    },
    Class(path) {
      add(path.node, "class", "'class' is not allowed: use plain objects and functions");
    },
    Function(path) {
      if (path.node.generator) {
        add(path.node, "*", "generator functions are not allowed: return an array instead");
      }
    },
    YieldExpression(path) {
      add(path.node, "yield", "'yield' is not allowed: return an array instead");
    },
    ThisExpression(path) {
      add(path.node, "this", "'this' is not allowed in a distilled tool");
    },
    Super(path) {
      add(path.node, "super", "'super' is not allowed in a distilled tool");
    },
    LabeledStatement(path) {
      const label = path.node.label.name;
      add(path.node, label, `label '${label}' is not allowed: use for…of with break or return`);
    },
    DebuggerStatement(path) {
      add(path.node, "debugger", "'debugger' is not allowed in a distilled tool");
    },
    TSEnumDeclaration(path) {
      add(path.node, "enum", `'enum' is not allowed: ${NON_ERASABLE}; use an object literal`);
      path.skip();
    },
    TSModuleDeclaration(path) {
      const kind = path.node.kind ?? "namespace";
      add(path.node, kind, `'${kind}' is not allowed: ${NON_ERASABLE}`);
      path.skip();
    },
    TSImportEqualsDeclaration(path) {
      add(path.node, "import", `'import ${path.node.id.name} =' is not allowed: ${ONLY_IMPORT}`);
      path.skip();
    },
    TSParameterProperty(path) {
      const param = path.node.parameter;
      const name = param.type === "Identifier" ? param.name : tokenOf(param);
      add(path.node, name, `parameter property '${name}' is not allowed: ${NON_ERASABLE}`);
    },
    Decorator(path) {
      const token = tokenOf(path.node);
      add(path.node, token, `decorator '${token}' is not allowed: ${NON_ERASABLE}`);
      path.skip();
    },
    MetaProperty(path) {
      if (path.node.meta.name === "import") {
        add(path.node, "import.meta", "'import.meta' is not allowed in a distilled tool");
      }
      path.skip();
    },
    NewExpression(path) {
      const { callee } = path.node;
      if (callee.type === "Identifier" && callee.name === "Date" && path.node.arguments.length === 0) {
        add(path.node, "new Date()", `'new Date()' reads the clock: ${NO_CLOCK}`);
      }
    },
    CallExpression(path) {
      const { callee } = path.node;
      if (callee.type === "Identifier" && callee.name === "Date") {
        add(callee, "Date()", `'Date()' reads the clock: ${NO_CLOCK}`);
      }
      if (callee.type === "Import") {
        add(callee, "import", `dynamic import() is not allowed: ${ONLY_IMPORT}`);
      } else if (callee.type === "Identifier" && callee.name === "call" && isImported(path, "call")) {
        checkBaseCall(path.node);
      } else if (isMember(callee) && memberName(callee) === "then" && path.node.arguments.length >= 2) {
        add(callee.property, "then", `'.then' with a rejection handler is not allowed: ${FAIL_FAST}`);
      }
    },
    "MemberExpression|OptionalMemberExpression"(path) {
      const node = path.node as NodeOf<"MemberExpression" | "OptionalMemberExpression">;
      const name = memberName(node);
      if (name === null) return;
      checkName(name, node.property, false);
      const owner = node.object.type === "Identifier" ? node.object.name : null;
      const absent = owner === null ? undefined : ABSENT_MEMBERS[`${owner}.${name}`];
      if (absent !== undefined)
        add(node, `${owner}.${name}`, `'${owner}.${name}' is not available: ${absent}`);
      if (name === "catch") add(node.property, "catch", `'.catch' is not allowed: ${FAIL_FAST}`);
    },
    "ObjectProperty|ObjectMethod"(path) {
      const node = path.node as NodeOf<"ObjectProperty" | "ObjectMethod">;
      if (node.type === "ObjectProperty" && node.shorthand) return; // the value names the same binding
      const name = propertyKey(node);
      // A key in a destructuring pattern reads a property; a key in an object literal only defines one.
      if (name !== null) checkName(name, node.key, path.parent.type !== "ObjectPattern");
    },
    Identifier(path) {
      const { node, parent } = path;
      const asKey =
        (parent.type === "ObjectProperty" || parent.type === "ObjectMethod") && path.key === "key";
      const asProperty = isMember(parent) && path.key === "property";
      const asLabel =
        (parent.type === "LabeledStatement" ||
          parent.type === "BreakStatement" ||
          parent.type === "ContinueStatement") &&
        path.key === "label";
      if (((asKey || asProperty) && !("computed" in parent && parent.computed)) || asLabel) return;
      checkName(node.name, node, false);
      if (node.name !== "call" && node.name !== "distilledTool") return;
      const binding = path.scope.getBinding(node.name);
      if (binding && binding.kind !== "module") {
        if (binding.identifier === node) {
          add(node, node.name, `'${node.name}' cannot be redeclared: it is imported from "${MODULE}"`);
        }
        return;
      }
      if (node.name === "call" && !(parent.type === "CallExpression" && path.key === "callee")) {
        add(node, "call", `'call' must be called directly: call("<base tool>", {...})`);
      }
      const inDefaultExport =
        path.key === "callee" && path.parentPath?.parent.type === "ExportDefaultDeclaration";
      if (node.name === "distilledTool" && !inDefaultExport) {
        add(node, "distilledTool", "'distilledTool' may only be used as export default distilledTool({...})");
      }
    },
  };
  traverse(ast, visitor);

  if (callCount === 0) {
    add(
      null,
      undefined,
      "the tool calls no base tool: a distilled tool must call at least one base tool through call(...)",
    );
  }

  if (read === null || read.name === null || read.description === null || read.inputSchema === null) {
    return finish(null);
  }
  return finish({
    name: read.name,
    description: read.description,
    inputSchema: read.inputSchema,
    dependencies: [...dependencies].sort(),
    hasCheck: read.hasCheck,
  });
}

type Add = (node: Node | null, token: string | undefined, message: string) => void;

/** Judges imports and top-level statements; returns the object of `export default distilledTool({...})`. */
function checkTopLevel(
  body: readonly NodeOf<"Program">["body"][number][],
  add: Add,
  tokens: Tokens,
): NodeOf<"ObjectExpression"> | null {
  let config: NodeOf<"ObjectExpression"> | null = null;
  let sawDefault = false;
  for (const stmt of body) {
    switch (stmt.type) {
      case "ImportDeclaration":
        checkImport(stmt, add);
        break;
      case "ExportDefaultDeclaration": {
        // The parser already rejects a second default export.
        sawDefault = true;
        const decl = unwrap(stmt.declaration);
        const arg =
          decl.type === "CallExpression" && decl.arguments.length === 1 ? decl.arguments[0] : undefined;
        if (
          decl.type === "CallExpression" &&
          decl.callee.type === "Identifier" &&
          decl.callee.name === "distilledTool" &&
          arg?.type === "ObjectExpression"
        ) {
          config = arg;
        } else {
          add(decl, tokens.of(decl), "export default must be distilledTool({...}) with one object literal");
        }
        break;
      }
      case "ExportNamedDeclaration":
        if (
          stmt.exportKind !== "type" &&
          stmt.declaration?.type !== "TSTypeAliasDeclaration" &&
          stmt.declaration?.type !== "TSInterfaceDeclaration"
        ) {
          add(stmt, "export", TOP_LEVEL);
        }
        break;
      case "TSTypeAliasDeclaration":
      case "TSInterfaceDeclaration":
      case "EmptyStatement":
        break;
      default:
        if (!REPORTED_ELSEWHERE.has(stmt.type)) add(stmt, tokens.first(stmt), TOP_LEVEL);
    }
  }
  if (!sawDefault) {
    add(null, undefined, "missing export default distilledTool({ name, description, inputSchema, run })");
  }
  return config;
}

function checkImport(stmt: NodeOf<"ImportDeclaration">, add: Add): void {
  const from = stmt.source.value;
  if (from !== MODULE) {
    add(stmt.source, from, `import from '${from}' is not allowed: ${ONLY_IMPORT}`);
    return;
  }
  if (stmt.importKind === "type") return;
  for (const spec of stmt.specifiers) {
    const local = spec.local.name;
    if (spec.type === "ImportDefaultSpecifier") {
      add(spec, local, `default import '${local}' is not allowed: ${ONLY_IMPORT}`);
    } else if (spec.type === "ImportNamespaceSpecifier") {
      add(spec, local, `namespace import '${local}' is not allowed: ${ONLY_IMPORT}`);
    } else if (spec.importKind !== "type") {
      const imported = spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value;
      if (imported !== "distilledTool" && imported !== "call") {
        add(spec, imported, `import of '${imported}' is not allowed: ${ONLY_IMPORT}`);
      } else if (local !== imported) {
        add(
          spec.local,
          local,
          `import of '${imported}' as '${local}' is not allowed: import it under its own name so base calls can be read`,
        );
      }
    }
  }
}

interface ReadConfig {
  name: string | null;
  description: string | null;
  inputSchema: JsonSchema | null;
  hasCheck: boolean;
}

/** Reads the literals of `distilledTool({...})` and checks the shape of each key. */
function readConfig(
  object: NodeOf<"ObjectExpression">,
  baseByName: ReadonlyMap<string, ToolDef>,
  add: Add,
  tokens: Tokens,
): ReadConfig {
  const props = new Map<string, NodeOf<"ObjectProperty" | "ObjectMethod">>();
  for (const prop of object.properties) {
    const key = prop.type === "SpreadElement" || prop.computed ? null : propertyKey(prop);
    if (key === null) {
      add(
        prop,
        tokens.first(prop),
        `distilledTool({...}) accepts only plain keys: ${CONFIG_KEYS.join(", ")}`,
      );
    } else if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
      add(
        prop,
        key,
        `unknown key '${key}' in distilledTool({...})${suggestion(key, CONFIG_KEYS)}: allowed keys are ${CONFIG_KEYS.join(", ")}`,
      );
    } else if (props.has(key)) {
      add(prop, key, `duplicate key '${key}' in distilledTool({...})`);
    } else {
      props.set(key, prop as NodeOf<"ObjectProperty" | "ObjectMethod">);
    }
  }
  for (const key of REQUIRED_CONFIG_KEYS) {
    if (!props.has(key)) add(object, undefined, `distilledTool({...}) has no '${key}'`);
  }

  const readString = (key: "name" | "description"): string | null => {
    const prop = props.get(key);
    if (prop === undefined) return null;
    const value = prop.type === "ObjectProperty" ? stringValue(prop.value) : null;
    if (value === null) {
      add(prop, key, `'${key}' must be a string literal so it can be read without running the tool`);
    }
    return value;
  };

  const name = readString("name");
  if (name !== null) {
    const at = props.get("name")!;
    if (!TOOL_NAME_PATTERN.test(name)) {
      add(
        at,
        name,
        `tool name '${name}' must match ${TOOL_NAME_PATTERN.source} (lowercase letters, digits and _, 3 to 36 characters)`,
      );
    }
    if (name.includes("__")) add(at, name, `tool name '${name}' must not contain '__'`);
    if (baseByName.has(name)) {
      add(
        at,
        name,
        `tool name '${name}' is a base tool's name: a distilled tool must not shadow a base tool`,
      );
    }
  }

  const description = readString("description");
  if (description !== null && description.trim() === "") {
    add(props.get("description")!, "description", "'description' must not be empty: say what the tool does");
  }

  let inputSchema: JsonSchema | null = null;
  const schemaProp = props.get("inputSchema");
  if (schemaProp !== undefined) {
    const bad: Node[] = [];
    const value = schemaProp.type === "ObjectProperty" ? literalValue(schemaProp.value, bad) : undefined;
    if (schemaProp.type === "ObjectMethod") bad.push(schemaProp);
    for (const node of bad) {
      add(
        node,
        tokens.of(node),
        "'inputSchema' may contain only literals (strings, numbers, booleans, null, arrays and objects of those)",
      );
    }
    if (bad.length === 0 && isPlainObject(value)) inputSchema = value;
    if (bad.length === 0 && !(isPlainObject(value) && value["type"] === "object")) {
      add(schemaProp, "inputSchema", `'inputSchema' must be an object with type: "object"`);
    }
  }

  const run = props.get("run");
  if (run !== undefined && !isFunction(run, true)) {
    add(run, "run", "'run' must be an async function: async run(input) { ... }");
  }
  const check = props.get("check");
  if (check !== undefined && !isFunction(check, false)) {
    add(check, "check", "'check' must be a function of the result: check: (result) => ...");
  }
  return { name, description, inputSchema, hasCheck: check !== undefined };
}

function isFunction(prop: NodeOf<"ObjectProperty" | "ObjectMethod">, mustBeAsync: boolean): boolean {
  if (prop.type === "ObjectMethod") return prop.kind === "method" && (prop.async || !mustBeAsync);
  const value = unwrap(prop.value);
  return (
    (value.type === "ArrowFunctionExpression" || value.type === "FunctionExpression") &&
    (value.async || !mustBeAsync)
  );
}

/** Compares the literal keys of a base call's arguments with the base tool's current input schema. */
function checkArguments(tool: ToolDef, keys: ReadonlyMap<string, Node>, at: Node, add: Add): void {
  const schema = tool.input_schema;
  const properties = schema["properties"];
  const additional = schema["additionalProperties"];
  const open =
    (additional !== undefined && additional !== false) || schema["patternProperties"] !== undefined;
  if (isPlainObject(properties) && !open) {
    const known = Object.keys(properties);
    for (const [key, node] of keys) {
      if (!Object.hasOwn(properties, key)) {
        add(node, key, `call to '${tool.name}' — unknown property '${key}'${suggestion(key, known)}`);
      }
    }
  }
  const required = Array.isArray(schema["required"]) ? schema["required"] : [];
  for (const key of required) {
    if (typeof key === "string" && !keys.has(key)) {
      add(at, tool.name, `call to '${tool.name}' — missing required property '${key}' of '${tool.name}'`);
    }
  }
}

/** The keys of an object literal, or null when a spread or computed key makes them unknowable statically. */
function literalKeys(object: NodeOf<"ObjectExpression">): Map<string, Node> | null {
  const keys = new Map<string, Node>();
  for (const prop of object.properties) {
    if (prop.type === "SpreadElement") return null;
    const key = propertyKey(prop);
    if (key === null) return null;
    keys.set(key, prop.key);
  }
  return keys;
}

/** Evaluates a JSON-like literal; nodes that are not literals are pushed onto `bad`. */
function literalValue(input: Node, bad: Node[]): unknown {
  const node = unwrap(input);
  switch (node.type) {
    case "StringLiteral":
    case "NumericLiteral":
    case "BooleanLiteral":
      return node.value;
    case "NullLiteral":
      return null;
    case "TemplateLiteral": {
      const value = stringValue(node);
      if (value === null) bad.push(node);
      return value;
    }
    case "UnaryExpression":
      if (node.operator === "-" && node.argument.type === "NumericLiteral") return -node.argument.value;
      break;
    case "ArrayExpression":
      return node.elements.map((el) => {
        if (el === null || el.type === "SpreadElement") {
          bad.push(el ?? node);
          return null;
        }
        return literalValue(el, bad);
      });
    case "ObjectExpression": {
      const out: Record<string, unknown> = {};
      for (const prop of node.properties) {
        const key = prop.type === "ObjectProperty" && !prop.computed ? propertyKey(prop) : null;
        if (prop.type !== "ObjectProperty" || key === null) {
          bad.push(prop);
          continue;
        }
        // defineProperty so that a `__proto__` key stays data and never swaps the prototype
        Object.defineProperty(out, key, {
          value: literalValue(prop.value, bad),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
  bad.push(node);
  return undefined;
}

/** A string literal's value (a template without expressions counts), or null. */
export function stringValue(input: Node): string | null {
  const node = unwrap(input);
  if (node.type === "StringLiteral") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) {
    const quasi = node.quasis[0];
    return quasi ? (quasi.value.cooked ?? quasi.value.raw) : "";
  }
  return null;
}

/** The name a property key spells: plain identifiers, string and number literals, literal computed keys. */
export function propertyKey(prop: NodeOf<"ObjectProperty" | "ObjectMethod">): string | null {
  const key = prop.key;
  if (!prop.computed && key.type === "Identifier") return key.name;
  if (key.type === "NumericLiteral") return String(key.value);
  return stringValue(key);
}

function isMember(node: Node): node is NodeOf<"MemberExpression" | "OptionalMemberExpression"> {
  return node.type === "MemberExpression" || node.type === "OptionalMemberExpression";
}

/** The property a member expression reads when it is statically known (`o.x`, `o["x"]`, ``o[`x`]``). */
function memberName(node: NodeOf<"MemberExpression" | "OptionalMemberExpression">): string | null {
  const prop = node.property;
  if (!node.computed) return prop.type === "Identifier" ? prop.name : null;
  return stringValue(prop);
}

/** True when `name` refers to the import (or to no binding at all), not to a local declaration. */
function isImported(path: NodePath, name: string): boolean {
  const binding = path.scope.getBinding(name);
  return binding === undefined || binding.kind === "module";
}

/** Looks through erasable TypeScript wrappers (`as const`, `satisfies`, `!`, parentheses). */
function unwrap(node: Node): Node {
  let current = node;
  while (
    current.type === "TSAsExpression" ||
    current.type === "TSSatisfiesExpression" ||
    current.type === "TSNonNullExpression" ||
    current.type === "ParenthesizedExpression"
  ) {
    current = current.expression;
  }
  return current;
}

const TOKEN = /^(?:[A-Za-z_$][\w$]*|\.\.\.|\S)/;

/** Source tokens for problems: a short node's whole text, otherwise its first token. */
class Tokens {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
  of(node: Node): string {
    const text = this.text(node);
    return text.length <= 40 && !text.includes("\n") ? text : this.first(node);
  }
  first(node: Node): string {
    const text = this.text(node);
    return text.match(TOKEN)?.[0] ?? text;
  }
  private text(node: Node): string {
    return this.source.slice(node.start ?? 0, node.end ?? 0);
  }
}

/** A parse failure as a problem: Babel's message without its `(line:column)` suffix, and the token there. */
function syntaxProblem(err: unknown, source: string): Found {
  if (!(err instanceof SyntaxError)) throw err;
  const loc = (err as SyntaxError & { loc?: { line: number; column: number; index: number } }).loc;
  const message = `syntax error: ${err.message.replace(/\.? \(\d+:\d+\)$/, "")}`;
  if (loc === undefined) return { problem: { message }, line: Number.POSITIVE_INFINITY, column: 0 };
  const token = source.slice(loc.index).match(TOKEN)?.[0];
  const problem: Problem =
    token === undefined ? { line: loc.line, message } : { line: loc.line, token, message };
  return { problem, line: loc.line, column: loc.column };
}
