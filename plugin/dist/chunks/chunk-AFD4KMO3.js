import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// core/node/node-version.ts
var MIN_NODE_VERSION = "22.18";
function nodeVersionProblem(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > 22 || major === 22 && minor >= 18) return null;
  return `tooldistill needs Node.js ${MIN_NODE_VERSION} or newer (found v${version})`;
}
function assertNodeVersion() {
  const problem = nodeVersionProblem();
  if (problem !== null) throw new DistillError("NODE_VERSION", problem);
}

export {
  MIN_NODE_VERSION,
  nodeVersionProblem,
  assertNodeVersion
};
