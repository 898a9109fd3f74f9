/**
 * Turns a distilled tool module (TypeScript, ESM) into the body of a strict function that the sandbox's
 * engine evaluates: types stripped, the `tooldistill` import bound to a parameter, the default export
 * returned. Pure: source text in, source text out, line numbers kept so errors point at the tool's lines.
 */
import { stripTypeScriptTypes } from "node:module";
import { parse } from "@babel/parser";
import { DistillError, errorMessage } from "../errors.ts";
import { LIBRARY_PARAM } from "../sandbox/sandbox-guest.ts";

/** The parameter through which the body receives `{ distilledTool, call, notApplicable }`. */
export { LIBRARY_PARAM };
/** What a tool module may import from "tooldistill". */
export const LIBRARY_NAMES: readonly string[] = ["distilledTool", "call", "notApplicable"];
const DEFAULT_BINDING = "__tooldistill_default";

/** A tool's function body, and where an offset of the tool's source ended up in it. */
export interface MappedBody {
  body: string;
  /** The body offset of `offset` in the source (types stripped in place keep every offset of the source). */
  offsetOf(offset: number): number;
}

/**
 * Strips a tool module's types and turns it into a strict function body that takes the library object
 * (`{ distilledTool, call }`) as `__tooldistill` and returns the default export.
 * Throws DistillError("PROPOSAL_INVALID") when the source cannot be made into one.
 */
export function toFunctionBody(source: string): string {
  return toMappedBody(source).body;
}

/** `toFunctionBody`, with the map from the source's offsets to the body's (the call sites need it). */
export function toMappedBody(source: string): MappedBody {
  const js = stripTypes(source);
  let program: ReturnType<typeof parse>["program"];
  try {
    program = parse(js, { sourceType: "module" }).program;
  } catch (err) {
    throw new DistillError("PROPOSAL_INVALID", `the tool's code does not parse: ${errorMessage(err)}`, {
      cause: err,
    });
  }

  const edits: { start: number; end: number; text: string }[] = [];
  let exported: string | null = null;
  for (const node of program.body) {
    const start = node.start ?? 0;
    const end = node.end ?? start;
    const line = node.loc?.start.line ?? 0;
    if (node.type === "ImportDeclaration") {
      if (node.source.value !== "tooldistill") {
        throw new DistillError(
          "PROPOSAL_INVALID",
          `line ${line}: a tool module may import only from "tooldistill" (found "${node.source.value}")`,
        );
      }
      edits.push({ start, end, text: keepLines(importBinding(node.specifiers, line), js.slice(start, end)) });
    } else if (node.type === "ExportDefaultDeclaration") {
      const decl = node.declaration;
      const declStart = decl.start ?? start;
      const named =
        (decl.type === "FunctionDeclaration" || decl.type === "ClassDeclaration") && decl.id
          ? decl.id.name
          : null;
      if (named !== null) {
        // A named declaration stays a declaration (hoisting as in the module); only `export default` goes.
        edits.push({ start, end: declStart, text: "" });
        exported = named;
      } else {
        edits.push({ start, end: declStart, text: `const ${DEFAULT_BINDING} = ` });
        if (decl.type === "FunctionDeclaration" || decl.type === "ClassDeclaration") {
          // An anonymous declaration becomes an expression statement and needs its own terminator.
          edits.push({ start: decl.end ?? end, end: decl.end ?? end, text: ";" });
        }
        exported = DEFAULT_BINDING;
      }
    } else if (node.type === "ExportNamedDeclaration" || node.type === "ExportAllDeclaration") {
      // Type-only exports are left as `export {};` by type stripping.
      const empty =
        node.type === "ExportNamedDeclaration" && !node.declaration && node.specifiers.length === 0;
      if (!empty || node.source) {
        throw new DistillError(
          "PROPOSAL_INVALID",
          `line ${line}: a tool module exports only its default (export default distilledTool({...}))`,
        );
      }
      edits.push({ start, end, text: "" });
    }
  }
  if (exported === null) {
    throw new DistillError(
      "PROPOSAL_INVALID",
      "the tool's code has no `export default distilledTool({...})`",
    );
  }

  let body = "";
  let at = 0;
  const sorted = edits.sort((a, b) => a.start - b.start);
  for (const edit of sorted) {
    body += js.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  // The return comes last so that code after `export default` (helpers, constants) still runs first.
  body += `${js.slice(at)}\nreturn ${exported};\n`;

  let script: ReturnType<typeof parse>["program"];
  try {
    // What parses as a module may not parse as a function body (top-level await, import.meta).
    script = parse(body, {
      sourceType: "script",
      strictMode: true,
      allowReturnOutsideFunction: true,
      allowNewTargetOutsideFunction: true,
    }).program;
  } catch (err) {
    throw new DistillError("PROPOSAL_INVALID", `the tool's code cannot run as a tool: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  // `import()` would reach the child's module loader. With code generation off in the context it can only
  // be written literally, so finding it in the syntax tree is complete; the runner also refuses it.
  const dynamicImport = findNode(script, (n) => n.type === "Import" || n.type === "ImportExpression");
  if (dynamicImport) {
    throw new DistillError(
      "PROPOSAL_INVALID",
      `line ${dynamicImport.loc?.start.line ?? "?"}: import() is not available in a distilled tool`,
    );
  }
  const offsetOf = (offset: number): number => {
    let shift = 0;
    for (const edit of sorted) {
      if (edit.end > offset) break;
      shift += edit.text.length - (edit.end - edit.start);
    }
    return offset + shift;
  };
  return { body, offsetOf };
}

interface SyntaxNode {
  type: string;
  loc?: { start: { line: number } } | null;
}

/** The first node of a Babel tree matching `test`, walked without recursion (deep trees stay safe). */
function findNode(root: object, test: (node: SyntaxNode) => boolean): SyntaxNode | null {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    const node = value as Record<string, unknown>;
    if (typeof node["type"] === "string" && test(node as unknown as SyntaxNode))
      return node as unknown as SyntaxNode;
    for (const [key, child] of Object.entries(node)) {
      if (
        key !== "loc" &&
        key !== "leadingComments" &&
        key !== "trailingComments" &&
        key !== "innerComments"
      ) {
        stack.push(child);
      }
    }
  }
  return null;
}

type ImportSpecifiers = Extract<
  ReturnType<typeof parse>["program"]["body"][number],
  { type: "ImportDeclaration" }
>["specifiers"];

/** `import { call as c } from "tooldistill"` → `const { call: c } = __tooldistill;` */
function importBinding(specifiers: ImportSpecifiers, line: number): string {
  const props: string[] = [];
  const statements: string[] = [];
  for (const spec of specifiers) {
    if (spec.type === "ImportNamespaceSpecifier") {
      statements.push(`const ${spec.local.name} = ${LIBRARY_PARAM};`);
    } else if (spec.type === "ImportDefaultSpecifier") {
      throw new DistillError(
        "PROPOSAL_INVALID",
        `line ${line}: "tooldistill" has no default export; import { distilledTool, call } from "tooldistill"`,
      );
    } else {
      const imported = spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value;
      if (!LIBRARY_NAMES.includes(imported)) {
        throw new DistillError(
          "PROPOSAL_INVALID",
          `line ${line}: "tooldistill" exports only distilledTool, call and notApplicable (found '${imported}')`,
        );
      }
      props.push(imported === spec.local.name ? imported : `${imported}: ${spec.local.name}`);
    }
  }
  if (props.length > 0) statements.unshift(`const { ${props.join(", ")} } = ${LIBRARY_PARAM};`);
  return statements.join(" ");
}

/** Pads a replacement with the newlines of the text it replaces, so line numbers stay those of the source. */
function keepLines(text: string, replaced: string): string {
  const newlines = replaced.split("\n").length - 1;
  return text + "\n".repeat(newlines);
}

/**
 * `stripTypeScriptTypes` emits a one-time ExperimentalWarning that must never reach users' output: only that
 * warning is dropped, for the duration of the (synchronous) call.
 */
function stripTypes(source: string): string {
  const original = process.emitWarning;
  const filtered = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    if (isTypeStrippingWarning(warning, rest[0])) return;
    Reflect.apply(original, this, [warning, ...rest]);
  };
  process.emitWarning = filtered as typeof process.emitWarning;
  try {
    return stripTypeScriptTypes(source, { mode: "strip" });
  } catch (err) {
    const unsupported = (err as { code?: unknown } | null)?.code === "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX";
    const message = unsupported
      ? `the tool's code uses TypeScript that is not erasable (use only erasable syntax): ${errorMessage(err)}`
      : `the tool's code does not parse: ${errorMessage(err)}`;
    throw new DistillError("PROPOSAL_INVALID", message, { cause: err });
  } finally {
    process.emitWarning = original;
  }
}

function isTypeStrippingWarning(warning: string | Error, typeOrOptions: unknown): boolean {
  const message = typeof warning === "string" ? warning : warning.message;
  const type =
    typeof warning !== "string"
      ? warning.name
      : typeof typeOrOptions === "string"
        ? typeOrOptions
        : typeof typeOrOptions === "object" && typeOrOptions !== null
          ? (typeOrOptions as { type?: unknown }).type
          : undefined;
  return type === "ExperimentalWarning" && /strip ?TypeScript ?Types|type stripping/i.test(message);
}
