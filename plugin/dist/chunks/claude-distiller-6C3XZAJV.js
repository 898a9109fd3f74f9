import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ClaudeDistiller
} from "./chunk-RTC3Y7I5.js";
import "./chunk-OKH2WWIC.js";
import "./chunk-HCN7KP44.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";
export {
  ClaudeDistiller
};
