import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  call,
  distilledTool,
  notApplicable
} from "./chunk-VDJMRFMR.js";
import {
  Sandbox,
  ToolDistill,
  classifyBaseFailure,
  fingerprint,
  reportHtml
} from "./chunk-ASUB56OA.js";
import {
  DEFAULT_SETTINGS,
  loadConfig,
  runTokens,
  validateConfig
} from "./chunk-G4NVZV74.js";
import "./chunk-ZJCKCYN7.js";
import {
  stderrLogger
} from "./chunk-UT4SHXKT.js";
import "./chunk-VPKFMVD7.js";
import "./chunk-PLUU42V4.js";
import {
  ClaudeDistiller
} from "./chunk-RTC3Y7I5.js";
import {
  PROPOSE_INPUT_SCHEMA,
  proposalPrompt
} from "./chunk-OKH2WWIC.js";
import {
  verdictReport,
  verdictText
} from "./chunk-HCN7KP44.js";
import "./chunk-LMZH4FWR.js";
import {
  MCPToolkit
} from "./chunk-UEVEZT5O.js";
import {
  mcpResultToValue
} from "./chunk-FCTBTAFV.js";
import "./chunk-PA5A5OBP.js";
import "./chunk-QNKRPA2X.js";
import "./chunk-7GUC6VD2.js";
import "./chunk-DFWB4XA7.js";
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import {
  PROPOSE_TOOL_NAME
} from "./chunk-6YXHXBUL.js";
import {
  MIN_NODE_VERSION
} from "./chunk-AFD4KMO3.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
import "./chunk-DJFBGJU6.js";
import "./chunk-A6E7RSNK.js";
import "./chunk-UTY5CP2H.js";
export {
  ClaudeDistiller,
  DEFAULT_SETTINGS,
  DistillError,
  MCPToolkit,
  MIN_NODE_VERSION,
  PROPOSE_INPUT_SCHEMA,
  PROPOSE_TOOL_NAME,
  Sandbox,
  ToolDistill,
  call,
  classifyBaseFailure,
  distilledTool,
  fingerprint,
  loadConfig,
  mcpResultToValue,
  notApplicable,
  proposalPrompt,
  reportHtml,
  runTokens,
  silentLogger,
  stderrLogger,
  validateConfig,
  verdictReport,
  verdictText
};
