import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  clip
} from "./chunk-DFWB4XA7.js";
import {
  PROPOSE_TOOL_NAME,
  TOOL_FORMAT_GUIDE
} from "./chunk-6YXHXBUL.js";

// core/distill/distiller.ts
var PROPOSE_INPUT_SCHEMA = {
  type: "object",
  properties: {
    code: {
      type: "string",
      description: 'The whole TypeScript module of the distilled tool: import { distilledTool, call, notApplicable } from "tooldistill" and one export default distilledTool({...}).'
    },
    test_inputs: {
      type: "array",
      items: {
        type: "object",
        properties: {
          trace: {
            type: "string",
            description: "The id of another successful recorded run of the same task."
          },
          input: { type: "object", description: "The tool's input for that run." }
        }
      },
      description: 'Inputs to run the tool with during replay, taken from the source run (the replay answers each base call with the response recorded in that run). An entry { "trace": "<id>", "input": {...} } is replayed against another successful recorded run of the same task instead; any entry with a "trace" key is read that way.'
    }
  },
  required: ["code", "test_inputs"]
};
var OUTPUT_LIMIT = 800;
var ARGS_LIMIT = 4e3;
function proposalPrompt(request) {
  const { trace, calls, tools, reason, note, replacing } = request;
  const baseline = calls.filter(
    (c) => c.kind === "base" && c.parentId === null && c.status !== "started"
  ).length;
  const sections = [];
  sections.push(
    `You distil an agent's run into a distilled tool: a small TypeScript module that calls the base tools in a fixed, known-good sequence, so the next run of the same kind of task makes one call instead of reasoning through it again. Answer by calling ${PROPOSE_TOOL_NAME} once with the whole module and its test inputs.`
  );
  sections.push(`## Why you are asked
${reasonText(request)}${note ? `
Note: ${note}` : ""}`);
  sections.push(`## Task of the run
${trace.task}`);
  sections.push(
    `## Calls the agent made (${calls.length} recorded, ${baseline} top-level base tool calls)
` + (calls.length > 0 ? callList(calls) : "(no calls were recorded)") + "\n\nFailed calls are marked FAILED; they are replayed as failures, so the tool must not repeat them" + (reason === "rebuild" ? " (except a call to the recovered tool: replay runs it live when allow_live_verification is on). " : ". ") + "Calls marked 'inside' ran inside a distilled tool and were recorded too; they replay like any other call."
  );
  sections.push(
    `## Base tools (as they are now)
${tools.length > 0 ? tools.map(toolText).join("\n") : "(none)"}`
  );
  sections.push(
    `## How to write the tool
${TOOL_FORMAT_GUIDE}

Replay matches each call on its exact tool name and arguments (schema defaults applied, key order ignored) and consumes the recorded responses in order: use the same arguments as the successful calls above, derived from the tool's input and earlier results rather than hard-coded where they vary between tasks. The efficiency check compares the replayed call count with this run's ${baseline} top-level base tool calls` + (replacing ? ` (or the baseline of ${replacing.name} v${replacing.version} when larger)` : "") + ": leave out the exploration, the failed attempts and the repeated lookups."
  );
  if (replacing) {
    sections.push(
      `## The version being replaced: ${replacing.name} v${replacing.version}
Keep the name '${replacing.name}' and its input schema unless the task forces a change.

\`\`\`ts
` + replacing.code.trimEnd() + "\n```"
    );
  }
  return sections.join("\n\n");
}
function reasonText(request) {
  const name = request.replacing?.name;
  switch (request.reason) {
    case "fallback":
      return "The agent completed this task successfully and the run is worth distilling, but the agent did not propose a tool. Write one that does this kind of task; choose a name that says what it does.";
    case "rebuild":
      return `A base tool that ${name ? `'${name}'` : "the distilled tool"} avoided (every call to it failed in the source run) has recovered. Write a new version under the same name that uses it where that takes fewer base tool calls. It must make fewer base calls than the version it replaces.`;
    case "replacement":
      return `The distilled tool${name ? ` '${name}'` : ""} failed at run time and was disabled; the agent then completed the task with the base tools. Write a replacement under the same name that follows the path that worked in this run.`;
  }
}
function callList(calls) {
  const number = /* @__PURE__ */ new Map();
  calls.forEach((c, i) => {
    number.set(c.id, i + 1);
  });
  const byId = new Map(calls.map((c) => [c.id, c]));
  return calls.map((c, i) => {
    const parent = c.parentId === null ? void 0 : byId.get(c.parentId);
    const inside = c.parentId === null ? "" : `   inside #${number.get(c.parentId) ?? "?"}${parent ? ` ${parent.tool}` : ""}: `;
    const kind = c.kind === "base" ? "" : ` [${c.kind === "other" ? "not a base tool" : c.kind}]`;
    const head = `${inside}#${i + 1} ${c.tool}${kind} ${clip(json(c.args), ARGS_LIMIT)}`;
    return `${head}
${inside ? "      " : "   "}${callOutcome(c)}`;
  }).join("\n");
}
function callOutcome(c) {
  if (c.status === "started") return "\u2192 never finished (not counted)";
  if (c.status === "error") return `\u2192 FAILED: ${clip(c.error ?? "(no error message)", OUTPUT_LIMIT)}`;
  return `\u2192 ok: ${clip(json(c.output), OUTPUT_LIMIT)}`;
}
function toolText(t) {
  return `- ${t.name}: ${t.description}
  input_schema: ${json(t.input_schema)}`;
}
function json(value) {
  if (value === void 0) return "(nothing)";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export {
  PROPOSE_INPUT_SCHEMA,
  proposalPrompt
};
