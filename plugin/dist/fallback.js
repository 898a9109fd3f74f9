import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-ZCFTJBWR.js";
import "./chunks/chunk-AFD4KMO3.js";
import "./chunks/chunk-WEYMVVQ3.js";
import "./chunks/chunk-UTY5CP2H.js";

// hooks/fallback.ts
if (nodeSupported()) {
  const { runFallback } = await import("./chunks/fallback-run-AQP5IJAB.js");
  await runFallback(process.argv[2] ?? "", process.argv[3] ?? "");
}
