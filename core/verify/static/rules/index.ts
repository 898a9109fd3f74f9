/**
 * Every static check rule, in the order the check runs them: the top level, the config literal, the walk of the
 * module's body, each base call, the end. A new rule is a module here, listed below, with its cases in
 * test/static-rules.test.ts and its line in docs/verification.md (both tests fail without them).
 */
import type { StaticRule } from "../types.ts";
import { boundedLoops } from "./bounded-loops.ts";
import { callArguments } from "./call-arguments.ts";
import { callLiteralName } from "./call-literal-name.ts";
import { checkReadsResult } from "./check-reads-result.ts";
import { configFunctions } from "./config-functions.ts";
import { configKeys } from "./config-keys.ts";
import { declaredOutcomes } from "./declared-outcomes.ts";
import { erasableTypescript } from "./erasable-typescript.ts";
import { failFast } from "./fail-fast.ts";
import { importFromTooldistill } from "./import-from-tooldistill.ts";
import { importedNames } from "./imported-names.ts";
import { inputSchema } from "./input-schema.ts";
import { literalMetadata } from "./literal-metadata.ts";
import { moduleShape } from "./module-shape.ts";
import { noDynamicImport } from "./no-dynamic-import.ts";
import { noEscapeHatch } from "./no-escape-hatch.ts";
import { plainCode } from "./plain-code.ts";
import { sandboxGlobals } from "./sandbox-globals.ts";
import { someBaseCall } from "./some-base-call.ts";
import { toolName } from "./tool-name.ts";
import { unknownBaseTool } from "./unknown-base-tool.ts";

/** The rules, in the order they run; problems come out in source order whatever this order is. */
export const RULES: readonly StaticRule[] = [
  importFromTooldistill,
  moduleShape,
  configKeys,
  literalMetadata,
  toolName,
  inputSchema,
  configFunctions,
  noEscapeHatch,
  sandboxGlobals,
  importedNames,
  failFast,
  boundedLoops,
  plainCode,
  erasableTypescript,
  noDynamicImport,
  checkReadsResult,
  declaredOutcomes,
  callLiteralName,
  unknownBaseTool,
  callArguments,
  someBaseCall,
];
