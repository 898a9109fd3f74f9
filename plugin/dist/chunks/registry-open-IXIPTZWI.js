import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
} from "./chunk-ZJCKCYN7.js";
import "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-J2PGGSMV.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-AFD4KMO3.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  configuredStoreOptions,
  openConfiguredStore,
  openRegistryStore
};
