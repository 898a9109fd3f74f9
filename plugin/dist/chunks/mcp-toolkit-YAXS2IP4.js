import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
} from "./chunk-UEVEZT5O.js";
import "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";
export {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
};
