import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-43ZM4OKA.js";
import "./chunks/chunk-GLB7ED25.js";
import "./chunks/chunk-WEYMVVQ3.js";
import "./chunks/chunk-UTY5CP2H.js";

// hooks/fallback.ts
if (nodeSupported()) {
  const { runFallback } = await import("./chunks/fallback-run-VN77JDAE.js");
  await runFallback(process.argv[2] ?? "", process.argv[3] ?? "");
}
