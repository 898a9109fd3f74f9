import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/types.ts
var silentLogger = { info() {
}, warn() {
}, error() {
} };

// core/text.ts
function clip(text, max) {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\u2026 (${text.length - max} more characters)`;
}

export {
  silentLogger,
  clip
};
