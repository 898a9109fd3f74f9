import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadMcpServers
} from "./chunk-I5S26EEK.js";
import "./chunk-PLUU42V4.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-6YXHXBUL.js";
import "./chunk-WEYMVVQ3.js";
import "./chunk-UTY5CP2H.js";
export {
  loadMcpServers
};
