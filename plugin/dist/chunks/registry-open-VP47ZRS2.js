import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
<<<<<<<< HEAD:plugin/dist/chunks/registry-open-QCKSMA4L.js
<<<<<<<< HEAD:plugin/dist/chunks/registry-open-I635GLTR.js
} from "./chunk-HBGP6CBP.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-2SZMPL7T.js";
========
} from "./chunk-Z5VAEU4H.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-TBHEERC5.js";
>>>>>>>> verify-inputs:plugin/dist/chunks/registry-open-OVZKZX3I.js
========
} from "./chunk-HPY5IHWG.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-UAGPJX33.js";
>>>>>>>> writers-runtime:plugin/dist/chunks/registry-open-VP47ZRS2.js
import "./chunk-J2PGGSMV.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-XSOUOFOT.js";
import "./chunk-GWZUS3JX.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
};
