import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  applySpilledEvents,
  cacheBaseTools,
  callForToolUse,
  canonicalizeTrace,
  currentSpan
} from "./chunk-HZDX3NIU.js";

// claude-code/session-recorder.ts
function sessionRecorder(store, spillRoot) {
  return {
    applySpills: (baseServers) => applySpilledEvents(store, spillRoot, null, baseServers),
    cacheBaseTools: (tools) => store.transaction((tx) => cacheBaseTools(tx, tools)),
    callForToolUse: (id, tool, hint) => callForToolUse(store, id, tool, hint),
    currentTrace: (sessionId) => store.transaction(async (tx) => (await currentSpan(tx, sessionId)).traceId),
    canonicalizeTrace: (traceId, tools) => store.transaction((tx) => canonicalizeTrace(tx, traceId, tools))
  };
}

export {
  sessionRecorder
};
