/** Rule `config-keys`: `distilledTool({...})` has only its known keys, each once, and every required one. */
import { suggestion } from "../../../util/did-you-mean.ts";
import { CONFIG_KEYS, isConfigKey, REQUIRED_CONFIG_KEYS } from "../static-config.ts";
import { propertyKey } from "../static-values.ts";
import type { StaticRule } from "../types.ts";

const KEYS = CONFIG_KEYS.join(", ");

const messages = {
  plainKeys: `distilledTool({...}) accepts only plain keys: ${KEYS}`,
  unknownKey: `unknown key '{{key}}' in distilledTool({...}){{suggestion}}: allowed keys are ${KEYS}`,
  duplicateKey: "duplicate key '{{key}}' in distilledTool({...})",
  missingKey: "distilledTool({...}) has no '{{key}}'",
} as const;

/** The config is read key by key: a spread, a computed or unknown key, or a second one hides what the tool is. */
export const configKeys: StaticRule<keyof typeof messages> = {
  id: "config-keys",
  description: `distilledTool({...}) has only plain keys among ${KEYS}, each once, with name, description, inputSchema and run`,
  messages,
  config(state, { object }) {
    const seen = new Set<string>();
    for (const prop of object.properties) {
      const key = prop.type === "SpreadElement" || prop.computed ? null : propertyKey(prop);
      if (key === null) {
        state.report(configKeys, "plainKeys", prop, state.tokens.first(prop));
      } else if (!isConfigKey(key)) {
        state.report(configKeys, "unknownKey", prop, key, { key, suggestion: suggestion(key, CONFIG_KEYS) });
      } else if (seen.has(key)) {
        state.report(configKeys, "duplicateKey", prop, key, { key });
      } else {
        seen.add(key);
      }
    }
    for (const key of REQUIRED_CONFIG_KEYS) {
      if (!seen.has(key)) state.report(configKeys, "missingKey", object, undefined, { key });
    }
  },
};
