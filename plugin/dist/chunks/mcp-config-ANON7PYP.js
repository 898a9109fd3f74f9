import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadMcpServers
} from "./chunk-3NZE2JVK.js";
import "./chunk-XSOUOFOT.js";
import "./chunk-GWZUS3JX.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  loadMcpServers
};
