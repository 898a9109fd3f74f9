/**
 * The project's own import graph, as the cycle test reads it: every relative import of every `.ts` file under the
 * given folders (static imports, `import type`, `export … from`, `export * as`, `import("./x.ts")` with a literal,
 * and type queries `import("./x.ts").T`), read from TypeScript's own syntax tree rather than by hand regexes.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Every `.ts` file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every module specifier `source` names: declarations, re-exports, dynamic imports and import types. */
function specifiers(file: string, source: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg !== undefined && ts.isStringLiteralLike(arg)) found.push(arg.text);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) found.push(arg.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return found;
}

/** File → the files it imports, both relative to `root`; only edges between the walked files are kept. */
export function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const files = folders.flatMap((folder) => sources(join(root, folder)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(file, readFileSync(file, "utf8"))
      .filter((spec) => spec.startsWith("."))
      .map((spec) => resolve(dirname(file), spec))
      .filter((target) => known.has(target));
    graph.set(relative(root, file), [...new Set(targets.map((t) => relative(root, t)))].sort());
  }
  return graph;
}

/** The strongly connected sets of `graph` with more than one file, or one file importing itself (Tarjan). */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const sets: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1 || graph.get(v)?.includes(v)) sets.push(set.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return sets.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The shortest path from `from` back to itself inside `members` (breadth first), as its list of files. */
function shortestCycle(graph: Map<string, string[]>, members: Set<string>, from: string): string[] {
  const parent = new Map<string, string>();
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === from) {
        const path = [v];
        while (path[0] !== from) path.unshift(parent.get(path[0]!)!);
        return [...path, from];
      }
      if (parent.has(w)) continue;
      parent.set(w, v);
      queue.push(w);
    }
  }
  return [];
}

/** One import cycle: the files of its strongly connected set, and the shortest cycle through each of them. */
export interface ImportCycle {
  files: string[];
  paths: string[];
}

/**
 * Every import cycle of `graph`, one entry per strongly connected set, naming the shortest cycle through each
 * of its files as `a → b → a` (a set can hold many cycles; these name every file that takes part).
 */
export function importCycles(graph: Map<string, string[]>): ImportCycle[] {
  return stronglyConnected(graph).map((files) => {
    const members = new Set(files);
    const paths = new Set<string>();
    for (const file of files) {
      const cycle = shortestCycle(graph, members, file);
      // The same cycle found from each of its files: name it once, from its smallest file.
      const ring = cycle.slice(0, -1);
      const start = ring.indexOf([...ring].sort()[0]!);
      const turned = [...ring.slice(start), ...ring.slice(0, start)];
      paths.add([...turned, turned[0]].join(" → "));
    }
    return { files, paths: [...paths].sort() };
  });
}
