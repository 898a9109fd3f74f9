/**
 * The package's runtime entry (`import … from "tooldistill"`; its types are index.ts's). On a Node older than the
 * library needs, static imports would fail while linking, before any of our code runs, with an error about a
 * missing built-in. So this module checks the version first and only then loads the library; every value export
 * of index.ts is re-exported here (a test keeps the two lists equal).
 */
import { assertNodeVersion } from "./node/node-version.ts";

assertNodeVersion();
const lib = await import("./index.ts");

export const {
  classifyBaseFailure,
  ClaudeDistiller,
  DEFAULT_SETTINGS,
  loadConfig,
  validateConfig,
  call,
  distilledTool,
  notApplicable,
  PROPOSE_INPUT_SCHEMA,
  proposalPrompt,
  reportHtml,
  runTokens,
  verdictReport,
  verdictText,
  DistillError,
  fingerprint,
  stderrLogger,
  mcpResultToValue,
  MCPToolkit,
  MIN_NODE_VERSION,
  PROPOSE_TOOL_NAME,
  Sandbox,
  ToolDistill,
  silentLogger,
} = lib;
