import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-Q4THMYLS.js";
import "./chunks/chunk-UTY5CP2H.js";

// hooks/fallback.ts
if (nodeSupported()) {
  const { runFallback } = await import("./chunks/fallback-run-IGJPGO3R.js");
  await runFallback(process.argv[2] ?? "", process.argv[3] ?? "");
}
