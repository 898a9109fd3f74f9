import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
} from "./chunk-NW7IKZUA.js";
import "./chunk-JZ3MG7G2.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-WGRAGIMS.js";
import "./chunk-UTY5CP2H.js";
export {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
};
