import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ClaudeDistiller
} from "./chunk-K6DWIT74.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-XBNY6BE7.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  ClaudeDistiller
};
