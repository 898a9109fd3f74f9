/**
 * What `/tooldistill:distill` tells the model: the core nudge (or the replacement request after a failed
 * distilled tool), the base calls of the span in order, the user's notes, and the plugin's proposal tool.
 */
import { PROPOSE_TOOL_NAME, type Store } from "../core/index.ts";
import { clip, nudgeText, resultContent } from "../core/internal.ts";
import { PLUGIN_TOOL_PREFIX } from "./plugin-names.ts";

/** How much of each recorded result the model is shown: enough to recognise it, never a whole page. */
const SUMMARY_CHARS = 200;

function short(value: unknown): string {
  return clip(resultContent(value), SUMMARY_CHARS);
}

/** The context `/tooldistill:distill` adds for the model, for the span whose trace is `traceId`. */
export function distillContext(store: Store, traceId: string, notes: string): string {
  const calls = store
    .getCalls(traceId)
    .filter((c) => c.kind === "base" && c.parentId === null && c.status !== "started");
  const flags = store.getTraceFlags(traceId);
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
  );
  return lines.join("\n");
}
