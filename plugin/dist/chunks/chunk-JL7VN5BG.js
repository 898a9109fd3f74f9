import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// hooks/node-check.ts
function nodeSupported() {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || major === 22 && minor >= 18) return true;
  process.stderr.write(`tooldistill needs Node.js 22.18 or newer (found v${process.versions.node})
`);
  process.exitCode = 1;
  return false;
}

export {
  nodeSupported
};
