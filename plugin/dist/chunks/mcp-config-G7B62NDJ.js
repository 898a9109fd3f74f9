import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadMcpServers
} from "./chunk-KQUWBPSA.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-Q4INTZUV.js";
import "./chunk-MRSILD2U.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  loadMcpServers
};
