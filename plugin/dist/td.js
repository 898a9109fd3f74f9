import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-Q4THMYLS.js";
import "./chunks/chunk-UTY5CP2H.js";

// server/td.ts
if (nodeSupported()) {
  const { main } = await import("./chunks/main-X5B5PKVQ.js");
  await main();
}
