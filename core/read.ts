/**
 * The light entry for the CLI's frame and its read verbs (list, show, traces): the config, opening the store, the
 * errors and the formatting helpers, and nothing that runs or checks a tool. A read must not pay for the sandbox,
 * Babel, the MCP SDK or the Anthropic SDK at start-up (`test/cli-imports.test.ts` walks the imports to prove it);
 * verbs that need the whole library load core/index.ts or core/internal.ts when they run.
 */
export { defaultConfig, loadConfig } from "./config/config.ts";
export { CONFIG_FILE_NAME, findConfig } from "./config/config-file.ts";
export { DistillError, errorMessage } from "./errors.ts";
export { resolveVersion } from "./lifecycle/version-lookup.ts";
export { loadConfiguredStore } from "./store/registry-loader.ts";
export { isPostgresUrl } from "./store/store-url.ts";
export { countToolFiles } from "./store/tool-files.ts";
export { runTokens } from "./trace/run-tokens.ts";
export { Statuses } from "./types.ts";
export { oneLine } from "./util/text.ts";
export { evidenceLines, verdictReport } from "./verify/verdict.ts";
