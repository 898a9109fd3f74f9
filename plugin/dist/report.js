import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-ZCFTJBWR.js";
import "./chunks/chunk-AFD4KMO3.js";
import "./chunks/chunk-WEYMVVQ3.js";
import "./chunks/chunk-UTY5CP2H.js";

// hooks/report.ts
if (nodeSupported()) {
  const { runReport } = await import("./chunks/report-run-OXVF34YJ.js");
  process.exitCode = await runReport(
    process.argv.slice(2),
    process.env,
    (text) => process.stdout.write(text)
  );
}
