import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  Sandbox,
  ToolDistill,
  call,
  classifyBaseFailure,
  distilledTool,
  fingerprint,
  notApplicable,
  reportHtml
} from "./chunk-2CDCRBX2.js";
import {
  DEFAULT_SETTINGS,
  loadConfig,
  runTokens,
  validateConfig
} from "./chunk-Q43EQ4S5.js";
import {
  MCPToolkit,
  mcpResultToValue
} from "./chunk-AKW4E22I.js";
import "./chunk-PA5A5OBP.js";
import {
  ClaudeDistiller,
  PROPOSE_INPUT_SCHEMA,
  proposalPrompt
} from "./chunk-C76PIVXH.js";
import {
  verdictReport,
  verdictText
} from "./chunk-LNPORMZP.js";
import "./chunk-DFWB4XA7.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import {
  Store
} from "./chunk-UMZBALXE.js";
import "./chunk-QNKRPA2X.js";
import {
  stderrLogger
} from "./chunk-GHTTQKRX.js";
import "./chunk-KWE2AXCZ.js";
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import {
  MIN_NODE_VERSION
} from "./chunk-AFD4KMO3.js";
import "./chunk-PLUU42V4.js";
import "./chunk-ZQYAE2VL.js";
import {
  PROPOSE_TOOL_NAME
} from "./chunk-VH3A3DZF.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";
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
  Store,
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
