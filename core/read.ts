/**
 * The light entry for the CLI's frame and its read verbs (list, show, traces): the config, opening the store, the
 * errors and the formatting helpers, and nothing that runs or checks a tool. A read must not pay for the sandbox,
 * Babel, the MCP SDK or the Anthropic SDK at start-up (`test/cli-imports.test.ts` walks the imports to prove it);
 * verbs that need the whole library load core/index.ts or core/internal.ts when they run.
 */
export { defaultConfig, loadConfig } from "./config.ts";
export { CONFIG_FILE_NAME, findConfig } from "./config-file.ts";
export { DistillError, errorMessage } from "./errors.ts";
export { isPostgresUrl } from "./postgres-connect.ts";
export { loadConfiguredStore } from "./registry-loader.ts";
export { runTokens } from "./run-tokens.ts";
export { oneLine } from "./text.ts";
export { countToolFiles } from "./tool-files.ts";
export { Statuses } from "./types.ts";
export { evidenceLines, verdictReport } from "./verdict.ts";
export { resolveVersion } from "./version-lookup.ts";
