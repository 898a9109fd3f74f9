#!/usr/bin/env node
// The `tooldistill` command. Plain JavaScript with no static imports on purpose: an old Node must be able to
// parse this file and print one clear message, where `.ts` sources or a static `node:sqlite` import would crash.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(`tooldistill needs Node.js 22.18 or newer (found v${process.versions.node})\n`);
  process.exit(1);
}

// One shim for the checkout and the package, chosen by which file exists rather than rewritten by the build:
// in a checkout the CLI's TypeScript sources (cli/) sit beside this folder and run as they are (so `npx
// tooldistill` never runs a stale build); the npm package ships this file without the sources and loads the
// compiled CLI from dist/.
const { existsSync } = await import("node:fs");
// Every command is a new process: Node's compile cache (under the system's temp directory) keeps the compiled
// modules between them, so only the first run after an install or an edit compiles the CLI.
(await import("node:module")).enableCompileCache?.();
const source = new URL("../cli/main.ts", import.meta.url);
const cli = await import(
  existsSync(source) ? source.href : new URL("../dist/cli/main.js", import.meta.url).href
);
process.exitCode = await cli.main(process.argv.slice(2));
