import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  ClaudeDistiller
<<<<<<<< HEAD:plugin/dist/chunks/claude-distiller-YYNP2EU3.js
<<<<<<<< HEAD:plugin/dist/chunks/claude-distiller-JN6K7HCR.js
} from "./chunk-GJCSP7XP.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-GWZUS3JX.js";
========
} from "./chunk-4VDOQW56.js";
========
} from "./chunk-W7TRJ6E2.js";
>>>>>>>> verify-bounds:plugin/dist/chunks/claude-distiller-SEUE5NNC.js
import "./chunk-RYYHHNJW.js";
import "./chunk-NV5JO7FK.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-XLRDCVB2.js";
import "./chunk-F4WBWD6I.js";
>>>>>>>> writers-cli:plugin/dist/chunks/claude-distiller-YYNP2EU3.js
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  ClaudeDistiller
};
