import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/types.ts
var silentLogger = { info() {
}, warn() {
}, error() {
} };

export {
  silentLogger
};
