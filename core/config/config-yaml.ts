/**
 * YAML for tooldistill.yaml: parsed with the `yaml` package, keeping a way back from a key path to the line it was
 * written on, so every problem of the file names its line; a document whose aliases expand to too much data is
 * refused with the line of its first alias.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from "yaml";
import { errorMessage } from "../errors.ts";

/** A key path in parsed config data: keys, and list indexes as numbers. */
export type KeyPath = (string | number)[];

/** Parses YAML text, keeping a way back from a key path to the line it was written on. */
export function parseYaml(text: string): {
  data: unknown;
  syntax: { line: number | null; message: string }[];
  lineOf: (keyPath: KeyPath) => number | null;
} {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;
  const syntax = doc.errors.map((error) => {
    const first = error.message.split("\n")[0] ?? error.message;
    const message =
      error.code === "MULTIPLE_DOCS"
        ? "the file must hold a single YAML document (found a second '---')"
        : first.replace(/ at line \d+, column \d+:?$/, "");
    return { line: error.linePos?.[0].line ?? null, message: `invalid YAML: ${message}` };
  });
  const lineOf = (keyPath: KeyPath): number | null => {
    let node: unknown = doc.contents;
    let line: number | null = doc.contents?.range ? lineAt(doc.contents.range[0]) : null;
    for (const segment of keyPath) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (pair === undefined || !isScalar(pair.key)) return line;
        if (pair.key.range) line = lineAt(pair.key.range[0]);
        node = pair.value;
      } else if (isSeq(node)) {
        const item: unknown = node.items[Number(segment)];
        if (!isScalar(item) && !isMap(item) && !isSeq(item)) return line;
        if (item.range) line = lineAt(item.range[0]);
        node = item;
      } else {
        return line;
      }
    }
    return line;
  };
  let data: unknown = null;
  if (doc.errors.length === 0) {
    try {
      data = doc.toJS();
    } catch (err) {
      // yaml refuses to expand aliases past its resource guard (a "billion laughs" document) by throwing.
      const at = firstAlias(doc);
      syntax.push({
        line: at?.line ?? null,
        message: `invalid YAML${at?.key ? ` at ${at.key}` : ""}: its aliases (*name) expand to too much data (${errorMessage(err)}); write the values out instead of repeating aliases`,
      });
    }
  }
  return { data, syntax, lineOf };

  /** Where the first alias is: the top-level key that holds it and its line. */
  function firstAlias(d: typeof doc): { key: string | null; line: number } | null {
    let found: { key: string | null; line: number } | null = null;
    visit(d, {
      Alias(_, node, path) {
        const pair = path.find((p) => isPair(p) && isScalar((p as { key?: unknown }).key));
        const key = pair ? String((pair as { key: { value: unknown } }).key.value) : null;
        found = { key, line: node.range ? lineAt(node.range[0]) : 1 };
        return visit.BREAK;
      },
    });
    return found;
  }
}
