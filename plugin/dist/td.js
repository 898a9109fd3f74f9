import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-ZCFTJBWR.js";
import "./chunks/chunk-AFD4KMO3.js";
import "./chunks/chunk-WEYMVVQ3.js";
import "./chunks/chunk-UTY5CP2H.js";

// server/td.ts
if (nodeSupported()) {
  (await import("node:module")).enableCompileCache?.();
  const { main } = await import("./chunks/main-H5IVT3JJ.js");
  await main();
}
