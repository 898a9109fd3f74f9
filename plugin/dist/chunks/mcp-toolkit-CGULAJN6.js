import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
} from "./chunk-Q5FRN7I7.js";
import "./chunk-QMZU5RRW.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
};
