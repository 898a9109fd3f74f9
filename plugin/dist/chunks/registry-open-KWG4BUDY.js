import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
} from "./chunk-UMZBALXE.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-GHTTQKRX.js";
import "./chunk-KWE2AXCZ.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-ZQYAE2VL.js";
import "./chunk-VH3A3DZF.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
};
