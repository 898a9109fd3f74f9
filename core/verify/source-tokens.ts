/**
 * The token a static-check problem names: text of the source, so the author finds it where they wrote it, not an
 * AST node kind they never see.
 */
import type { Node } from "@babel/traverse";

/** An identifier, `...`, or any one other non-space character. */
const TOKEN = /^(?:[A-Za-z_$][\w$]*|\.\.\.|\S)/;

/** The token that starts at `index` of `source`, or undefined when only white space follows. */
export function tokenAt(source: string, index: number): string | undefined {
  return source.slice(index).match(TOKEN)?.[0];
}

/** Source tokens for problems: a short node's whole text, otherwise its first token. */
export class SourceTokens {
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
  }

  /** The node's text when it is one line of at most 40 characters, otherwise its first token. */
  of(node: Node): string {
    const text = this.#text(node);
    return text.length <= 40 && !text.includes("\n") ? text : this.first(node);
  }

  /** The node's first token (its whole text when it starts with none). */
  first(node: Node): string {
    const text = this.#text(node);
    return text.match(TOKEN)?.[0] ?? text;
  }

  #text(node: Node): string {
    return this.#source.slice(node.start ?? 0, node.end ?? 0);
  }
}
