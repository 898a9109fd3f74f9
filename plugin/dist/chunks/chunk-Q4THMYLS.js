import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// hooks/node-check.ts
function nodeSupported() {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || major === 22 && minor >= 18) {
    quietSqliteWarning();
    return true;
  }
  process.stderr.write(`tooldistill needs Node.js 22.18 or newer (found v${process.versions.node})
`);
  process.exitCode = 1;
  return false;
}
function quietSqliteWarning() {
  const emit = process.emitWarning;
  process.emitWarning = ((warning, ...rest) => {
    const first = rest[0];
    const type = typeof first === "string" ? first : first?.type;
    const text = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && text.startsWith("SQLite ")) return;
    Reflect.apply(emit, process, [warning, ...rest]);
  });
}

export {
  nodeSupported
};
