import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
} from "./chunk-IR76D6NA.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-27JIJYWJ.js";
import "./chunk-EPNEU7NH.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-GLB7ED25.js";
import "./chunk-DB4N7OMT.js";
import "./chunk-RHGQ5VNB.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
};
