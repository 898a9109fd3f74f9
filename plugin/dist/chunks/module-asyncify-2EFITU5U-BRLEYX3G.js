import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  QuickJSAsyncWASMModule
} from "./chunk-7ADYRQKV.js";
import "./chunk-PNRSC5BF.js";
import "./chunk-UTY5CP2H.js";
export {
  QuickJSAsyncWASMModule
};
