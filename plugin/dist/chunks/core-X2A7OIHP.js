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
} from "./chunk-3Y2YTLYP.js";
import {
  DEFAULT_SETTINGS,
  loadConfig,
  runTokens,
  validateConfig
} from "./chunk-HBRSV4NN.js";
import {
  MCPToolkit,
  mcpResultToValue
} from "./chunk-Q5FRN7I7.js";
import "./chunk-QMZU5RRW.js";
import {
  ClaudeDistiller,
  PROPOSE_INPUT_SCHEMA,
  proposalPrompt
} from "./chunk-POCT4HZ6.js";
import {
  verdictReport,
  verdictText
} from "./chunk-O4NDKIK6.js";
import "./chunk-RYYHHNJW.js";
import "./chunk-LPVZYSRE.js";
import "./chunk-A6E7RSNK.js";
import {
  Store
} from "./chunk-IR76D6NA.js";
import "./chunk-OGWWFJGY.js";
import {
  stderrLogger
} from "./chunk-27JIJYWJ.js";
import "./chunk-EPNEU7NH.js";
import {
  silentLogger
} from "./chunk-J2PGGSMV.js";
import "./chunk-LMZH4FWR.js";
import {
  MIN_NODE_VERSION
} from "./chunk-GLB7ED25.js";
import "./chunk-XNNFATCV.js";
import "./chunk-DB4N7OMT.js";
import {
  PROPOSE_TOOL_NAME
} from "./chunk-RHGQ5VNB.js";
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
