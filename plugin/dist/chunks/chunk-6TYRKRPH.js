import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/registry-loader.ts
async function loadConfiguredStore(config, options = {}, location = config.store) {
  return (await import("./registry-open-PIP5CPN7.js")).openConfiguredStore(config, options, location);
}

export {
  loadConfiguredStore
};
