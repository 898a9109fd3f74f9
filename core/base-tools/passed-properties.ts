/**
 * Which top-level properties a distilled tool's calls pass to each base tool, read from its source. A change of a
 * base tool's schema is judged by what the tool's calls need (core/base-tools/definition-change.ts): a property no call passes
 * cannot be refused, retyped or ignored for this tool.
 */
import { locateCallSites } from "../verify/call-sites.ts";
import { literalKeys, unwrap } from "../verify/static/static-values.ts";

/**
 * Per base tool, the property names its calls pass; `null` when some call's arguments are not an object literal
 * with plain keys (a variable, a spread, a computed key), so what it passes cannot be told.
 */
export type PassedProperties = ReadonlyMap<string, ReadonlySet<string> | null>;

/**
 * The properties `source`'s calls pass to each base tool named by a literal. A call whose tool is not a literal
 * makes every tool unknown (it could be any of them); a source that does not parse tells nothing (`null`).
 */
export function passedProperties(source: string): PassedProperties | null {
  let located: ReturnType<typeof locateCallSites>;
  try {
    located = locateCallSites(source);
  } catch {
    // A stored version parsed when it was verified; one that no longer does is judged as if it passed anything,
    // which is the judgement without this analysis (the re-verification then reports the parse error).
    return null;
  }
  const passed = new Map<string, Set<string> | null>();
  for (const site of located.sites) {
    if (site.tool === null) return null;
    const given = site.path.node.arguments[1];
    const args = given === undefined ? undefined : unwrap(given);
    let keys: ReadonlySet<string> | null;
    if (args === undefined) keys = new Set();
    else if (args.type === "ObjectExpression") {
      const literal = literalKeys(args);
      keys = literal === null ? null : new Set(literal.keys());
    } else keys = null;
    const before = passed.has(site.tool) ? passed.get(site.tool)! : new Set<string>();
    passed.set(site.tool, before === null || keys === null ? null : new Set([...before, ...keys]));
  }
  return passed;
}
