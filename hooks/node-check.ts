/**
 * The Node version gate of every hook and of the plugin's MCP server. It imports nothing, so an old Node can
 * load it and print one clear message, where the real entry (static `node:sqlite`) would crash unreadably.
 */

/** True on Node 22.18+; otherwise prints the one-line message and sets a non-blocking error exit code. */
export function nodeSupported(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 18)) return true;
  process.stderr.write(`tooldistill needs Node.js 22.18 or newer (found v${process.versions.node})\n`);
  // Exit code 1 is a non-blocking hook error in Claude Code: the session goes on and the user sees the message.
  process.exitCode = 1;
  return false;
}
