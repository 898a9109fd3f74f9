import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
<<<<<<<< HEAD:plugin/dist/chunks/mcp-toolkit-GSTR37ED.js
<<<<<<<< HEAD:plugin/dist/chunks/mcp-toolkit-GSTR37ED.js
} from "./chunk-3PVCE3ZL.js";
========
} from "./chunk-ZTOAOY7G.js";
>>>>>>>> writers-lifecycle:plugin/dist/chunks/mcp-toolkit-NILYFKQF.js
import "./chunk-RYYHHNJW.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-XSOUOFOT.js";
import "./chunk-GWZUS3JX.js";
========
} from "./chunk-KWROAIR3.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-4UHCGHMJ.js";
import "./chunk-F4WBWD6I.js";
>>>>>>>> writers-cli:plugin/dist/chunks/mcp-toolkit-AIQT3LB5.js
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  MAX_CONCURRENT_STARTS,
  MCPToolkit
};
