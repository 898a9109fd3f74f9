import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeVersionProblem
} from "./chunk-AFD4KMO3.js";

// claude-code/node-check.ts
import * as nodeModule from "node:module";
function nodeSupported() {
  const problem = nodeVersionProblem();
  if (problem === null) {
    quietSqliteWarning();
    nodeModule.enableCompileCache?.();
    return true;
  }
  process.stderr.write(`${problem}
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
