/**
 * The static check's rules on the module's body, run in one walk of the tree: syntax a fixed sequence of base
 * calls has no use for, names that reach outside the tool's data or that the sandbox leaves out, the clock, and
 * the base calls with their arguments. The visitor at the end says which rule judges which node.
 */
import type { Node, NodePath, Visitor } from "@babel/traverse";
import { ABSENT_GLOBALS, ABSENT_MEMBERS, NO_CLOCK } from "../../sandbox/sandbox-guest.ts";
import type { ToolDef } from "../../types.ts";
import { isPlainObject } from "../../util/canonical.ts";
import { suggestion } from "../../util/did-you-mean.ts";
import { traverse } from "../babel-traverse.ts";
import type { CheckState } from "./static-check.ts";
import { MODULE, ONLY_IMPORT } from "./static-module.ts";
import { checkDeclaredOutcomes } from "./static-outcomes.ts";
import {
  isMember,
  literalKeys,
  type MemberNode,
  memberName,
  type NodeOf,
  propertyKey,
  stringValue,
} from "./static-values.ts";

const FAIL_FAST = "a failed base call must fail the tool so the agent can fall back";
const BOUNDED = "use for…of over a bounded list";
const NON_ERASABLE = "non-erasable TypeScript";

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

/** A name the tool may not use: reserved `__` names, escape hatches and globals the sandbox leaves out. */
function checkName(state: CheckState, name: string, node: Node, isObjectKey: boolean): void {
  if (name.startsWith("__")) {
    state.add(node, name, `'${name}' is not allowed: names starting with __ are reserved`);
  } else if (!isObjectKey && Object.hasOwn(ABSENT_GLOBALS, name)) {
    state.add(node, name, `'${name}' is not available: ${ABSENT_GLOBALS[name]}`);
  } else if (!isObjectKey && ESCAPE_HATCHES.has(name)) {
    state.add(
      node,
      name,
      name === "require"
        ? `'require' is not allowed: ${ONLY_IMPORT}`
        : `'${name}' is not allowed in a distilled tool`,
    );
  }
}

/** A member the sandbox leaves out of a global (`Math.random`, `Date.now`), and `.catch`, which hides a failure. */
function checkMember(state: CheckState, node: MemberNode): void {
  const name = memberName(node);
  if (name === null) return;
  checkName(state, name, node.property, false);
  const owner = node.object.type === "Identifier" ? node.object.name : null;
  const absent = owner === null ? undefined : ABSENT_MEMBERS[`${owner}.${name}`];
  if (absent !== undefined) {
    state.add(node, `${owner}.${name}`, `'${owner}.${name}' is not available: ${absent}`);
  }
  if (name === "catch") state.add(node.property, "catch", `'.catch' is not allowed: ${FAIL_FAST}`);
}

/** A property key: one in a destructuring pattern reads a property, one in an object literal only defines it. */
function checkPropertyKey(
  state: CheckState,
  path: NodePath<NodeOf<"ObjectProperty" | "ObjectMethod">>,
): void {
  const node = path.node;
  if (node.type === "ObjectProperty" && node.shorthand) return; // the value names the same binding
  const name = propertyKey(node);
  if (name !== null) checkName(state, name, node.key, path.parent.type !== "ObjectPattern");
}

/** An identifier that reads a binding: its name, and the imported `call` and `distilledTool` used as intended. */
function checkIdentifier(state: CheckState, path: NodePath<NodeOf<"Identifier">>): void {
  const { node, parent } = path;
  const asKey = (parent.type === "ObjectProperty" || parent.type === "ObjectMethod") && path.key === "key";
  const asProperty = isMember(parent) && path.key === "property";
  const asLabel =
    (parent.type === "LabeledStatement" ||
      parent.type === "BreakStatement" ||
      parent.type === "ContinueStatement") &&
    path.key === "label";
  if (((asKey || asProperty) && !("computed" in parent && parent.computed)) || asLabel) return;
  checkName(state, node.name, node, false);
  if (node.name === "call" || node.name === "distilledTool" || node.name === "notApplicable")
    checkImportedUse(state, path);
}

/** The imported names are never redeclared; `call` is only called, `distilledTool` only exported. */
function checkImportedUse(state: CheckState, path: NodePath<NodeOf<"Identifier">>): void {
  const { node, parent } = path;
  const binding = path.scope.getBinding(node.name);
  if (binding && binding.kind !== "module") {
    if (binding.identifier === node) {
      state.add(node, node.name, `'${node.name}' cannot be redeclared: it is imported from "${MODULE}"`);
    }
    return;
  }
  if (node.name === "call" && !(parent.type === "CallExpression" && path.key === "callee")) {
    state.add(node, "call", `'call' must be called directly: call("<base tool>", {...})`);
  }
  const inDefaultExport =
    path.key === "callee" && path.parentPath?.parent.type === "ExportDefaultDeclaration";
  if (node.name === "distilledTool" && !inDefaultExport) {
    state.add(
      node,
      "distilledTool",
      "'distilledTool' may only be used as export default distilledTool({...})",
    );
  }
}

/** `Date()` and `new Date()` read the clock, which the sandbox does not have. */
function checkClock(state: CheckState, node: NodeOf<"CallExpression" | "NewExpression">): void {
  const { callee } = node;
  if (callee.type !== "Identifier" || callee.name !== "Date") return;
  if (node.type === "CallExpression") state.add(callee, "Date()", `'Date()' reads the clock: ${NO_CLOCK}`);
  else if (node.arguments.length === 0) {
    state.add(node, "new Date()", `'new Date()' reads the clock: ${NO_CLOCK}`);
  }
}

/** Calls: dynamic import, base calls (never inside check), and `.then` with a rejection handler. */
function checkCall(state: CheckState, path: NodePath<NodeOf<"CallExpression">>): void {
  const { callee } = path.node;
  checkClock(state, path.node);
  if (callee.type === "Import") {
    state.add(callee, "import", `dynamic import() is not allowed: ${ONLY_IMPORT}`);
  } else if (callee.type === "Identifier" && callee.name === "call" && isImported(path, "call")) {
    if (!checkCallInCheck(state, path)) checkBaseCall(state, path.node);
  } else if (
    callee.type === "Identifier" &&
    callee.name === "notApplicable" &&
    isImported(path, "notApplicable")
  ) {
    const checkFn = state.checkFunction;
    if (checkFn !== null && path.findParent((p) => p.node === checkFn)) {
      state.add(
        path.node,
        "notApplicable",
        'notApplicable() inside check() is not allowed: check looks only at the result; end run() with return notApplicable("why") instead',
      );
    }
  } else if (isMember(callee) && memberName(callee) === "then" && path.node.arguments.length >= 2) {
    state.add(callee.property, "then", `'.then' with a rejection handler is not allowed: ${FAIL_FAST}`);
  }
}

/** check() looks only at the result run() returned: a base call inside it is refused. True when it was one. */
function checkCallInCheck(state: CheckState, path: NodePath<NodeOf<"CallExpression">>): boolean {
  const checkFn = state.checkFunction;
  if (checkFn === null || !path.findParent((p) => p.node === checkFn)) return false;
  const first = path.node.arguments[0];
  const tool = first ? stringValue(first) : null;
  state.add(
    path.node,
    "call",
    `call${tool === null ? "" : ` to '${tool}'`} inside check() is not allowed: check looks only at the result run() returned; make base calls in run()`,
  );
  return true;
}

/**
 * A base call names a current base tool by a literal, so its dependencies are known, with arguments that fit,
 * and declares its outcomes in a form the check can read (static-outcomes.ts).
 */
function checkBaseCall(state: CheckState, node: NodeOf<"CallExpression">): void {
  state.baseCalls++;
  checkDeclaredOutcomes(state, node);
  const [first, second] = node.arguments;
  const toolName = first ? stringValue(first) : null;
  if (first === undefined || toolName === null) {
    state.add(
      first ?? node,
      first ? state.tokens.of(first) : "call",
      "call needs a string-literal base tool name as its first argument so dependencies can be read",
    );
    return;
  }
  const tool = state.baseByName.get(toolName);
  if (tool === undefined) {
    const typed = toolName.startsWith("mcp__") ? toolName.slice("mcp__".length) : toolName;
    state.add(
      first,
      toolName,
      `call to '${toolName}' — no such base tool${suggestion(typed, state.baseByName.keys())}`,
    );
    return;
  }
  state.dependencies.add(toolName);
  if (second === undefined) checkArguments(state, tool, new Map(), node);
  else if (second.type === "ObjectExpression") {
    const keys = literalKeys(second);
    if (keys !== null) checkArguments(state, tool, keys, second);
  }
}

/** Compares the literal keys of a base call's arguments with the base tool's current input schema. */
function checkArguments(state: CheckState, tool: ToolDef, keys: ReadonlyMap<string, Node>, at: Node): void {
  const schema = tool.input_schema;
  const properties = schema["properties"];
  const additional = schema["additionalProperties"];
  const open =
    (additional !== undefined && additional !== false) || schema["patternProperties"] !== undefined;
  if (isPlainObject(properties) && !open) {
    const known = Object.keys(properties);
    for (const [key, node] of keys) {
      if (!Object.hasOwn(properties, key)) {
        state.add(node, key, `call to '${tool.name}' — unknown property '${key}'${suggestion(key, known)}`);
      }
    }
  }
  const required = Array.isArray(schema["required"]) ? schema["required"] : [];
  for (const key of required) {
    if (typeof key === "string" && !keys.has(key)) {
      state.add(
        at,
        tool.name,
        `call to '${tool.name}' — missing required property '${key}' of '${tool.name}'`,
      );
    }
  }
}

/** A distilled tool exists to replace base calls: one that makes none is refused. */
export function checkSomeBaseCall(state: CheckState): void {
  if (state.baseCalls === 0) {
    state.add(
      null,
      undefined,
      "the tool calls no base tool: a distilled tool must call at least one base tool through call(...)",
    );
  }
}

/** True when `name` refers to the import (or to no binding at all), not to a local declaration. */
function isImported(path: NodePath, name: string): boolean {
  const binding = path.scope.getBinding(name);
  return binding === undefined || binding.kind === "module";
}

/** A rule for syntax that is refused wherever it appears. */
function banned(token: string, message: string): (path: NodePath, state: CheckState) => void {
  return (path, state) => state.add(path.node, token, message);
}

/** Imports are judged by the top-level rules; type positions are erased before the code runs. */
const NOT_WALKED: Visitor<CheckState> = {
  ImportDeclaration: skip,
  TSTypeAnnotation: skip,
  TSTypeParameterDeclaration: skip,
  TSTypeParameterInstantiation: skip,
  TSInterfaceDeclaration: skip,
  TSTypeAliasDeclaration: skip,
  TSDeclareFunction: skip,
  TSType: skip,
};

/**
 * Syntax a distilled tool may not use: what hides a failure, loops without a bound, classes, generators, and
 * TypeScript that is not erased but compiled.
 */
const BANNED_SYNTAX: Visitor<CheckState> = {
  TryStatement: banned("try", `'try' is not allowed: ${FAIL_FAST}`),
  WhileStatement: banned("while", `'while' is not allowed: ${BOUNDED}`),
  DoWhileStatement: banned("do", `'do' is not allowed: ${BOUNDED}`),
  ForStatement: banned("for", `'for(;;)' is not allowed: ${BOUNDED}`),
  ForInStatement: banned("for", "'for…in' is not allowed: use for…of over Object.keys(...)"),
  Class: banned("class", "'class' is not allowed: use plain objects and functions"),
  Function(path, state) {
    if (path.node.generator) {
      state.add(path.node, "*", "generator functions are not allowed: return an array instead");
    }
  },
  YieldExpression: banned("yield", "'yield' is not allowed: return an array instead"),
  ThisExpression: banned("this", "'this' is not allowed in a distilled tool"),
  Super: banned("super", "'super' is not allowed in a distilled tool"),
  LabeledStatement(path, state) {
    const label = path.node.label.name;
    state.add(path.node, label, `label '${label}' is not allowed: use for…of with break or return`);
  },
  DebuggerStatement: banned("debugger", "'debugger' is not allowed in a distilled tool"),
  TSEnumDeclaration(path, state) {
    state.add(path.node, "enum", `'enum' is not allowed: ${NON_ERASABLE}; use an object literal`);
    path.skip();
  },
  TSModuleDeclaration(path, state) {
    const kind = path.node.kind ?? "namespace";
    state.add(path.node, kind, `'${kind}' is not allowed: ${NON_ERASABLE}`);
    path.skip();
  },
  TSImportEqualsDeclaration(path, state) {
    state.add(path.node, "import", `'import ${path.node.id.name} =' is not allowed: ${ONLY_IMPORT}`);
    path.skip();
  },
  TSParameterProperty(path, state) {
    const param = path.node.parameter;
    const name = param.type === "Identifier" ? param.name : state.tokens.of(param);
    state.add(path.node, name, `parameter property '${name}' is not allowed: ${NON_ERASABLE}`);
  },
  Decorator(path, state) {
    const token = state.tokens.of(path.node);
    state.add(path.node, token, `decorator '${token}' is not allowed: ${NON_ERASABLE}`);
    path.skip();
  },
  MetaProperty(path, state) {
    if (path.node.meta.name === "import") {
      state.add(path.node, "import.meta", "'import.meta' is not allowed in a distilled tool");
    }
    path.skip();
  },
};

/** The rules of the module's body by the node they judge: one walk of the tree runs them all. */
/**
 * The statement types the banned-syntax rules report (`Class` is Babel's alias of `ClassDeclaration` here), so the
 * top-level rule does not report them a second time.
 */
export const BANNED_STATEMENTS: ReadonlySet<string> = new Set(
  Object.keys(BANNED_SYNTAX).map((type) => (type === "Class" ? "ClassDeclaration" : type)),
);

export const BODY_RULES: Visitor<CheckState> = {
  ...NOT_WALKED,
  ...BANNED_SYNTAX,
  NewExpression(path, state) {
    checkClock(state, path.node);
  },
  CallExpression(path, state) {
    checkCall(state, path);
  },
  "MemberExpression|OptionalMemberExpression"(path, state) {
    checkMember(state, path.node as MemberNode);
  },
  "ObjectProperty|ObjectMethod"(path, state) {
    checkPropertyKey(state, path as NodePath<NodeOf<"ObjectProperty" | "ObjectMethod">>);
  },
  Identifier(path, state) {
    checkIdentifier(state, path);
  },
};

function skip(path: NodePath): void {
  path.skip();
}

/**
 * A failed walk as a problem. Babel's scope tracker throws `Duplicate declaration "x"` without a location instead
 * of reporting it: the second declaration of that name is found by a walk without scopes and named with its line.
 */
export function reportWalkFailure(state: CheckState, err: unknown, ast: Node): void {
  const message = err instanceof Error ? err.message : String(err);
  const duplicate = /^Duplicate declaration "([^"]+)"/.exec(message);
  if (duplicate === null) {
    state.add(null, undefined, `the code could not be analysed: ${message}`);
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
  state.add(
    declared[1] ?? declared[0] ?? null,
    name,
    `'${name}' is declared twice in the same scope: ${why}`,
  );
}
