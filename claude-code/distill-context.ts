/**
 * What `/tooldistill:distill` tells the model: the core nudge (or the replacement request after a failed
 * distilled tool), the base calls of the span in order, the user's notes, and the plugin's proposal tool.
 */
import {
  clip,
  nudgeText,
  PROPOSE_TOOL_NAME,
  type RegistryData,
  resultContent,
  TOOL_FORMAT_GUIDE,
} from "../core/recording.ts";
import { PLUGIN_TOOL_PREFIX } from "./plugin-names.ts";

/** How much of each recorded result the model is shown: enough to recognise it, never a whole page. */
const SUMMARY_CHARS = 200;

/**
 * The proposal tool is deferred on releases that defer MCP tools (it is needed once per distilled task, and its
 * schema is long): the model is told how to load it, which a release without deferral never needs.
 */
export const PROPOSE_TOOL_LOAD_HINT =
  `If ${PLUGIN_TOOL_PREFIX}${PROPOSE_TOOL_NAME} is among your deferred tools, load it first with ToolSearch, ` +
  `query "select:${PLUGIN_TOOL_PREFIX}${PROPOSE_TOOL_NAME}".`;

function short(value: unknown): string {
  return clip(resultContent(value), SUMMARY_CHARS);
}

/** The context `/tooldistill:distill` adds for the model, for the span whose trace is `traceId`. */
export async function distillContext(data: RegistryData, traceId: string, notes: string): Promise<string> {
  const calls = (await data.getCalls(traceId)).filter(
    (c) => c.kind === "base" && c.parentId === null && c.status !== "started",
  );
  const flags = await data.getTraceFlags(traceId);
  const head = `tooldistill: the user ran /tooldistill:distill, confirming that the task of this session went well (trace ${traceId}).`;
  const lines = [head];
  if (notes.trim()) lines.push(`The user's notes: ${notes.trim()}`);
  if (calls.length === 0 && !flags.replaceName) {
    lines.push(
      "No base tool calls (tools of the project's MCP servers) were recorded for this task, so there is nothing to distill: tell the user so in one sentence.",
    );
    return lines.join("\n");
  }
  lines.push("", nudgeText({ baseCalls: calls.length, replaceName: flags.replaceName }), "");
  lines.push(
    "The base tool calls of this task, in order. In the code, call base tools by these library names " +
      "(`<server>__<tool>`, e.g. `crm__find_contact`), never by Claude Code's `mcp__<server>__<tool>` names:",
  );
  calls.forEach((c, i) => {
    const result = c.status === "ok" ? short(c.output) : `error: ${short(c.error)}`;
    lines.push(`${i + 1}. ${c.tool} ${JSON.stringify(c.args)} → ${result}`);
  });
  lines.push(
    "",
    `The proposal tool is ${PLUGIN_TOOL_PREFIX}${PROPOSE_TOOL_NAME}. Keep calling it with the corrected code until the verdict starts with "verified:", then tell the user the tool's name and that \`tooldistill promote <name>\` makes it available.`,
    PROPOSE_TOOL_LOAD_HINT,
  );
  return lines.join("\n");
}

/**
 * The context of `/tooldistill:distill` when the hook cannot read the store (a PostgreSQL registry, which hooks
 * never connect to): the same request, with the base calls taken from the conversation instead of the store.
 */
export function spilledDistillContext(notes: string): string {
  const lines = [
    "tooldistill: the user ran /tooldistill:distill, confirming that the task of this session went well.",
  ];
  if (notes.trim()) lines.push(`The user's notes: ${notes.trim()}`);
  lines.push(
    "",
    "If you made no calls to the project's MCP servers' tools (base tools) for this task, there is nothing to distill: tell the user so in one sentence. Otherwise turn the path you found, the base tool calls of this task in the order you made them, into a distilled tool so the next run needs one call.",
    `Call ${PROPOSE_TOOL_NAME} with the code of the tool and test inputs. You get a verdict back: if it is rejected, fix every problem it lists and call it again with the whole corrected code. If the task is not worth a tool, answer briefly without calling it.`,
    "",
    TOOL_FORMAT_GUIDE,
    "",
    "In the code, call base tools by their library names (`<server>__<tool>`, e.g. `crm__find_contact`), never by Claude Code's `mcp__<server>__<tool>` names.",
    `The proposal tool is ${PLUGIN_TOOL_PREFIX}${PROPOSE_TOOL_NAME}. Keep calling it with the corrected code until the verdict starts with "verified:", then tell the user the tool's name and that \`tooldistill promote <name>\` makes it available.`,
    PROPOSE_TOOL_LOAD_HINT,
  );
  return lines.join("\n");
}
