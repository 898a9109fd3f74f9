import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/util/text.ts
function clip(text, max) {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\u2026 (${text.length - max} more characters)`;
}
function oneLine(text, max) {
  const flat = text.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}\u2026`;
}

export {
  clip,
  oneLine
};
