import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  assertNodeVersion
} from "./chunk-AFD4KMO3.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// core/node/node-gate.ts
assertNodeVersion();

// core/distill/tool-declaration.ts
function distilledTool(definition) {
  return definition;
}
async function call(tool, _args, _outcomes) {
  throw new DistillError(
    "USAGE",
    `call('${tool}') runs only inside the tooldistill sandbox: run distilled tools through trace.execute, not by importing them`
  );
}
function notApplicable(reason) {
  throw new DistillError(
    "USAGE",
    `notApplicable(${JSON.stringify(reason)}) runs only inside the tooldistill sandbox: run distilled tools through trace.execute`
  );
}

export {
  distilledTool,
  call,
  notApplicable
};
