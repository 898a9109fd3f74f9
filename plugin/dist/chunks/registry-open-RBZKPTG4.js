import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
} from "./chunk-UAOKGEVO.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-MOQGWUYL.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-XSOUOFOT.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
};
