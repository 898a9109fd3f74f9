import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  QuickJSAsyncWASMModule
} from "./chunk-C37ZN2VE.js";
import "./chunk-GNLRVJN4.js";
import "./chunk-UTY5CP2H.js";
export {
  QuickJSAsyncWASMModule
};
