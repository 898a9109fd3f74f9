import { createRequire as __tdCreateRequire } from "node:module";
const require = __tdCreateRequire(import.meta.url);

// core/config/env-vars.ts
var VAR_PATTERN = /\$\{([^}]*)\}/g;
function expandVars(value, env, missing) {
  return value.replace(VAR_PATTERN, (match, body) => {
    const sep = body.indexOf(":-");
    const varName = sep === -1 ? body : body.slice(0, sep);
    const fallback = sep === -1 ? void 0 : body.slice(sep + 2);
    const set = env[varName];
    if (set !== void 0) return set;
    if (fallback !== void 0) return fallback;
    missing(varName);
    return match;
  });
}

export {
  expandVars
};
