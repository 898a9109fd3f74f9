/**
 * The Node version gate of every hook and of the plugin's MCP server. It imports only the library's version rule
 * (which imports nothing that needs a newer Node), so an old Node can load it and print one clear message, where
 * the real entry (static `node:sqlite`) would crash unreadably.
 */
import * as nodeModule from "node:module";
import { nodeVersionProblem } from "../core/node/node-version.ts";

/**
 * True on Node 22.18+ (node:sqlite's ExperimentalWarning silenced, Node's compile cache on); otherwise prints the
 * one-line message and sets a non-blocking error exit code.
 */
export function nodeSupported(): boolean {
  const problem = nodeVersionProblem();
  if (problem === null) {
    quietSqliteWarning();
    // A hook is a new process for every tool call: compiling its bundle once (in Node's cache folder under the
    // system's temp directory) instead of at every start is most of what its start-up can still save.
    nodeModule.enableCompileCache?.();
    return true;
  }
  process.stderr.write(`${problem}\n`);
  // Exit code 1 is a non-blocking hook error in Claude Code: the session goes on and the user sees the message.
  process.exitCode = 1;
  return false;
}

/**
 * Node 22 prints "ExperimentalWarning: SQLite is an experimental feature" on stderr when node:sqlite loads, and
 * Claude Code shows a hook's stderr; only that one warning is dropped, every other warning still prints.
 */
function quietSqliteWarning(): void {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const first = rest[0];
    const type = typeof first === "string" ? first : (first as { type?: string } | undefined)?.type;
    const text = typeof warning === "string" ? warning : warning.message;
    if (type === "ExperimentalWarning" && text.startsWith("SQLite ")) return;
    Reflect.apply(emit, process, [warning, ...rest]);
  }) as typeof process.emitWarning;
}
