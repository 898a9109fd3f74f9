/**
 * The CLI as the Claude Code plugin ships it (`plugin/dist/cli.js`, bundled by scripts/render-plugin.ts with only
 * `node:` built-ins, beside the hooks and the `td` server): the plugin's slash commands run it, so a user who has
 * only the plugin can list, show, promote, deprecate and verify without installing the npm package. The Node
 * version is checked before the CLI (and its static `node:sqlite`) loads, so an old Node gets one clear line.
 */
import { nodeVersionProblem } from "../core/node/node-version.ts";

const problem = nodeVersionProblem();
if (problem === null) {
  // Every slash command is a new process: Node's compile cache (under the system's temp directory) keeps the
  // compiled chunks between them, as the npm package's bin does.
  (await import("node:module")).enableCompileCache?.();
  const { main } = await import("./main.ts");
  process.exitCode = await main(process.argv.slice(2));
} else {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 1;
}
