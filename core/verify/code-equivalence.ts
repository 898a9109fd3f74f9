/**
 * When two sources are one program: the fingerprint of a module's syntax tree (Babel's AST without locations,
 * comments and raw text), the same for code that differs only in comments and formatting. The lifecycle uses it
 * to recognise a held-back version proposed again; it lives in verify/ because only verify/ parses code.
 */
import { parse } from "@babel/parser";
import { hashSource } from "../store/tool-files.ts";

/** What tells two spellings of one program apart and nothing else: positions, comments, raw text, parentheses. */
const FORMATTING = new Set([
  "start",
  "end",
  "loc",
  "range",
  "leadingComments",
  "trailingComments",
  "innerComments",
  "comments",
  "extra",
  "tokens",
  "errors",
]);

/** The fingerprint of a module's syntax tree, the same for code that differs only in comments and formatting. */
export function codeFingerprint(source: string): string | null {
  let program: unknown;
  try {
    program = parse(source, { sourceType: "module", plugins: ["typescript"] }).program;
  } catch {
    // Code that does not parse has no tree to compare; the static check reports it.
    return null;
  }
  return hashSource(JSON.stringify(program, (key, value) => (FORMATTING.has(key) ? undefined : value)));
}
