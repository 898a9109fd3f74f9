import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  nodeSupported
} from "./chunks/chunk-JL7VN5BG.js";
import "./chunks/chunk-UTY5CP2H.js";

// hooks/user-prompt-submit.ts
if (nodeSupported()) {
  const { runHook } = await import("./chunks/run-EIXJA2P5.js");
  await runHook("UserPromptSubmit");
}
