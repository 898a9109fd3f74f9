/**
 * The CLI as the Claude Code plugin ships it (`plugin/dist/cli.js`, bundled by scripts/render-plugin.ts with only
 * `node:` built-ins, beside the hooks and the `td` server): the plugin's slash commands run it, so a user who has
 * only the plugin can list, show, promote, deprecate and verify without installing the npm package.
 */
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));
