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
} from "./chunk-5KJKFXMW.js";
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
