import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ClaudeDistiller
} from "./chunk-2PK73LHC.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-6P6L5GZQ.js";
import "./chunk-WGRAGIMS.js";
import "./chunk-UTY5CP2H.js";
export {
  ClaudeDistiller
};
