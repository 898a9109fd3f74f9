import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  QuickJSModuleCallbacks,
  QuickJSWASMModule,
  applyBaseRuntimeOptions,
  applyModuleEvalRuntimeOptions
} from "./chunk-D2D4KXVE.js";
import "./chunk-UTY5CP2H.js";
export {
  QuickJSModuleCallbacks,
  QuickJSWASMModule,
  applyBaseRuntimeOptions,
  applyModuleEvalRuntimeOptions
};
