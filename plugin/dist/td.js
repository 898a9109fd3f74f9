import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-JL7VN5BG.js";
import "./chunks/chunk-UTY5CP2H.js";

// server/td.ts
if (nodeSupported()) {
  const { main } = await import("./chunks/main-OPBNKM43.js");
  await main();
}
