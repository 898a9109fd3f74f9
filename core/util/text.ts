/** Small text helpers shared by every message the library writes. */

/**
 * `text` cut to at most `max` characters (plus the mark), saying how much was left out, so a huge value
 * (a 16 MB tool name, a page of output) never goes whole into a message for a model, a person or the store.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** `text` on one line (runs of whitespace become one space), then clipped to `max` characters with `…`. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
