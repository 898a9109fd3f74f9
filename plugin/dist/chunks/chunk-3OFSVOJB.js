import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);
import {
  loadConfiguredStore
} from "./chunk-BD5LZ5WU.js";
import {
  CONFIG_FILE_NAME,
  defaultConfig,
  findConfig,
  loadConfig
} from "./chunk-G4NVZV74.js";
import {
  countToolFiles,
  isPostgresUrl
} from "./chunk-VPKFMVD7.js";
import {
  DistillError
} from "./chunk-WEYMVVQ3.js";

// cli/project.ts
import { existsSync } from "node:fs";
import { join } from "node:path";
async function projectConfig(where) {
  if (where.configPath !== void 0) return loadConfig(where.configPath);
  const found = findConfig(where.io.cwd);
  return found === null ? defaultConfig(where.io.cwd) : loadConfig(found);
}
async function withRegistry(where, fn, mode = "write") {
  const config = await projectConfig(where);
  requireStore(config);
  const store = await loadConfiguredStore(config, { readOnly: mode === "read", logger: ioLogger(where.io) });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
async function withLibrary(where, fn) {
  const config = await projectConfig(where);
  requireStore(config);
  const { ToolDistill } = await import("./core-SUX3UYX4.js");
  const td = await ToolDistill.fromLoadedConfig(config, { logger: ioLogger(where.io) });
  try {
    return await fn(td);
  } finally {
    await td.close();
  }
}
function requireStore(config) {
  if (isPostgresUrl(config.store)) return;
  if (existsSync(config.store) && !existsSync(join(config.store, "tools")) && !existsSync(join(config.store, ".gitignore")))
    return;
  if (existsSync(join(config.store, "registry.db")) || countToolFiles(config.store) > 0) return;
  const where = config.path === null ? `no ${CONFIG_FILE_NAME} in ${config.dir} and ` : "";
  throw new DistillError(
    "NOT_FOUND",
    `${where}no store at ${config.store}: nothing has been recorded there yet. ` + (config.path === null ? "Run this in the project's folder, pass --config <path to its tooldistill.yaml>, or run tooldistill init." : `Check store: in ${config.path}, or record a run first.`)
  );
}
function ioLogger(io) {
  return {
    info: (m) => io.stderr(`${m}
`),
    warn: (m) => io.stderr(`${m}
`),
    error: (m) => io.stderr(`${m}
`)
  };
}

export {
  projectConfig,
  withRegistry,
  withLibrary,
  ioLogger
};
