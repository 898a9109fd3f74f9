import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeVersionProblem
} from "./chunks/chunk-AFD4KMO3.js";
import "./chunks/chunk-WEYMVVQ3.js";
import "./chunks/chunk-UTY5CP2H.js";

// cli/plugin-cli.ts
var problem = nodeVersionProblem();
if (problem === null) {
  (await import("node:module")).enableCompileCache?.();
  const { main } = await import("./chunks/main-CHUPXSB3.js");
  process.exitCode = await main(process.argv.slice(2));
} else {
  process.stderr.write(`${problem}
`);
  process.exitCode = 1;
}
