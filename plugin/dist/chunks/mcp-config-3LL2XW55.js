import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadMcpServers
} from "./chunk-F7FMCNXH.js";
import "./chunk-PLUU42V4.js";
import "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  loadMcpServers
};
