import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadMcpServers
} from "./chunk-LPGC4WEZ.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-4UHCGHMJ.js";
import "./chunk-F4WBWD6I.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  loadMcpServers
};
