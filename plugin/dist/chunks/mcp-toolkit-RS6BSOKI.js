import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
} from "./chunk-N7AFQOOM.js";
import "./chunk-T3E2EGFY.js";
import "./chunk-6IVW537M.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
};
