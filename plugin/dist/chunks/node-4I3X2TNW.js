import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  child_process,
  crypto,
  fs,
  os,
  path,
  stream,
  util
} from "./chunk-LN34C3LA.js";
import "./chunk-UTY5CP2H.js";
export {
  child_process,
  crypto,
  fs,
  os,
  path,
  stream,
  util
};
