import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadMcpServers
<<<<<<<< HEAD:plugin/dist/chunks/mcp-config-ANON7PYP.js
} from "./chunk-3NZE2JVK.js";
import "./chunk-XSOUOFOT.js";
import "./chunk-GWZUS3JX.js";
========
} from "./chunk-LPGC4WEZ.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-4UHCGHMJ.js";
import "./chunk-F4WBWD6I.js";
>>>>>>>> writers-cli:plugin/dist/chunks/mcp-config-7ZTR3IDH.js
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  loadMcpServers
};
