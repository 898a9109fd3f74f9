import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
} from "./chunk-3U4J7U5A.js";
import "./chunk-OGWWFJGY.js";
import "./chunk-KWZDXMQB.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-RYZN5VFB.js";
import "./chunk-4UHCGHMJ.js";
import "./chunk-F4WBWD6I.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
};
