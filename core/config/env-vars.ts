/**
 * `${VAR}` and `${VAR:-default}` in config values, expanded from the environment the way Claude Code expands
 * them in `.mcp.json`, so the same text means the same thing to both. Shared by the MCP entries (mcp-config.ts)
 * and the `store:` key (config.ts).
 */

const VAR_PATTERN = /\$\{([^}]*)\}/g;

/**
 * Expands every `${VAR}` and `${VAR:-default}` in `value`. A variable that is set (even to "") wins over the
 * default; one that is unset and has no default is passed to `missing` (which records the problem) and left as
 * written.
 */
export function expandVars(
  value: string,
  env: NodeJS.ProcessEnv,
  missing: (varName: string) => void,
): string {
  return value.replace(VAR_PATTERN, (match, body: string) => {
    const sep = body.indexOf(":-");
    const varName = sep === -1 ? body : body.slice(0, sep);
    const fallback = sep === -1 ? undefined : body.slice(sep + 2);
    const set = env[varName];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    missing(varName);
    return match;
  });
}
