/**
 * The public API, locked: the package's value exports are a snapshot (a change to it is a deliberate edit of this
 * file), and every type that appears in a public signature is itself exported, so users can name what they get.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const INDEX = fileURLToPath(new URL("../core/index.ts", import.meta.url));
const CORE = fileURLToPath(new URL("../core/", import.meta.url));

/** Every value export of `tooldistill`, with what it is. Edit deliberately: this is the public API. */
const VALUE_EXPORTS: Record<string, string> = {
  ClaudeDistiller: "class",
  DEFAULT_SETTINGS: "object",
  DistillError: "class",
  MCPToolkit: "class",
  MIN_NODE_VERSION: "string",
  PROPOSE_INPUT_SCHEMA: "object",
  PROPOSE_TOOL_NAME: "string",
  Sandbox: "class",
  ToolDistill: "class",
  call: "function",
  classifyBaseFailure: "function",
  distilledTool: "function",
  fingerprint: "function",
  loadConfig: "function",
  mcpResultToValue: "function",
  notApplicable: "function",
  proposalPrompt: "function",
  reportHtml: "function",
  runTokens: "function",
  silentLogger: "object",
  stderrLogger: "object",
  validateConfig: "function",
  verdictReport: "function",
  verdictText: "function",
};

function kind(value: unknown): string {
  if (typeof value === "function")
    return /^class\b/.test(Function.prototype.toString.call(value)) ? "class" : "function";
  return typeof value;
}

test("the package's value exports are exactly the snapshot", async () => {
  const lib = (await import("../core/index.ts")) as Record<string, unknown>;
  const got = Object.fromEntries(
    Object.keys(lib)
      .sort()
      .map((name) => [name, kind(lib[name])]),
  );
  assert.deepEqual(got, VALUE_EXPORTS);
});

test("the package entry (entry.ts) exports the same values as index.ts", async () => {
  const entry = (await import("../core/entry.ts")) as Record<string, unknown>;
  assert.deepEqual(Object.keys(entry).sort(), Object.keys(VALUE_EXPORTS).sort());
});

test("every type named in a public signature is exported", () => {
  const program = ts.createProgram([INDEX], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const index = program.getSourceFile(INDEX);
  assert.ok(index);
  const moduleSymbol = checker.getSymbolAtLocation(index);
  assert.ok(moduleSymbol);
  const exported = checker.getExportsOfModule(moduleSymbol);
  const exportedNames = new Set(exported.map((s) => s.getName()));
  const missing = new Map<string, string>();
  const seen = new Set<ts.Node>();

  /** Walks the type annotations of a declaration; every named type declared in core/ must be exported. */
  const visit = (node: ts.Node, from: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const at = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
      let symbol = checker.getSymbolAtLocation(at);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const declaration = symbol?.declarations?.[0];
      const file = declaration?.getSourceFile().fileName ?? "";
      if (symbol && file.startsWith(CORE) && !(symbol.flags & ts.SymbolFlags.TypeParameter)) {
        if (!exportedNames.has(symbol.getName())) missing.set(symbol.getName(), from);
      }
    }
    // Private members are not part of the public API.
    if (
      ts.isPropertyDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessor(node) ||
      ts.isConstructorDeclaration(node)
    ) {
      if (!ts.isConstructorDeclaration(node) && ts.isPrivateIdentifier(node.name)) return;
      const mods = ts.getModifiers(node) ?? [];
      if (mods.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) return;
    }
    // Bodies and initialisers are implementation, not signature.
    if (ts.isBlock(node)) return;
    if (ts.isVariableDeclaration(node) && node.type === undefined) return;
    ts.forEachChild(node, (child) => {
      if (ts.isFunctionDeclaration(node) && child === node.body) return;
      visit(child, from);
    });
  };

  for (const symbol of exported) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    // A class exported as a type only cannot be constructed by users: its constructor is not their API.
    const typeOnly = symbol.declarations?.some(
      (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly),
    );
    for (const declaration of target.declarations ?? []) {
      if (typeOnly && ts.isClassDeclaration(declaration)) {
        for (const member of declaration.members)
          if (!ts.isConstructorDeclaration(member)) visit(member, symbol.getName());
      } else {
        visit(declaration, symbol.getName());
      }
    }
  }
  assert.deepEqual(
    Object.fromEntries([...missing].sort()),
    {},
    "types used in a public signature (type → where) that tooldistill does not export",
  );
});
