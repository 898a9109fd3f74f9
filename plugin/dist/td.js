import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-43ZM4OKA.js";
import "./chunks/chunk-GLB7ED25.js";
import "./chunks/chunk-WEYMVVQ3.js";
import "./chunks/chunk-UTY5CP2H.js";

// server/td.ts
if (nodeSupported()) {
  const { main } = await import("./chunks/main-Y7W3CJ65.js");
  await main();
}
