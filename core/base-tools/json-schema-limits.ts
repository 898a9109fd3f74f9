/**
 * What keeps a JSON Schema from freezing the host that validates with it. A distilled tool's `inputSchema` is
 * the proposer's data, compiled by Ajv and run on the host's own thread at every replay and every live call:
 * its regular expressions run on a linear-time engine (RE2, through re2js), never on V8's backtracking one,
 * and its size and depth are bounded before anything compiles it. Pure.
 */
import { RE2JS } from "re2js";
import { isPlainObject } from "../util/canonical.ts";

/** Largest `inputSchema` of a distilled tool, as JSON text. A real one is a few hundred bytes. */
export const MAX_SCHEMA_BYTES = 16_384;
/** Deepest nesting of objects and arrays in a distilled tool's `inputSchema`. */
export const MAX_SCHEMA_DEPTH = 32;
/** Longest regular expression in a schema (RE2 also refuses repeat counts over 1000 and huge programs). */
export const MAX_PATTERN_CHARS = 1000;

/** Keywords whose values are data, not schemas: a string in them named `pattern` is not a regular expression. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["const", "default", "enum", "examples"]);

/** A regular expression compiled for Ajv: `test` runs in time linear in the input, whatever the pattern. */
export interface LinearRegExp {
  test(text: string): boolean;
}

/**
 * Compiles `pattern` with RE2 (re2js, pure JavaScript, linear time: no backtracking, so `^(a+)+$` costs the
 * same as `^a+$`). Throws the engine's syntax error for what RE2 does not have (lookaround, backreferences).
 */
export function compileLinear(pattern: string): LinearRegExp {
  const re = RE2JS.compile(pattern);
  return { test: (text) => re.test(text) };
}

/** Why `pattern` cannot be used in a schema, or null: too long, or not RE2 syntax. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_CHARS) {
    return `is ${pattern.length} characters long, over the limit of ${MAX_PATTERN_CHARS}`;
  }
  try {
    compileLinear(pattern);
    return null;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return `is not a pattern the linear-time engine (RE2) accepts (${why.slice(0, 200)}): lookahead, lookbehind and backreferences are not available`;
  }
}

/** One reason a schema cannot be used, at its JSON path (`inputSchema.properties.code.pattern`). */
export interface SchemaLimitProblem {
  path: string;
  message: string;
}

/**
 * Every reason a distilled tool's `inputSchema` could make validation slow or unbounded: its size, its depth,
 * and each `pattern` / `patternProperties` key that is too long or not RE2 syntax. Walked without recursion.
 */
export function schemaLimitProblems(schema: unknown, root = "inputSchema"): SchemaLimitProblem[] {
  const problems: SchemaLimitProblem[] = [];
  const bytes = Buffer.byteLength(JSON.stringify(schema) ?? "", "utf8");
  if (bytes > MAX_SCHEMA_BYTES) {
    problems.push({
      path: root,
      message: `'${root}' is ${bytes} bytes of JSON, over the limit of ${MAX_SCHEMA_BYTES}: describe the input with a smaller schema`,
    });
    return problems;
  }
  const stack: { value: unknown; path: string; depth: number; data: boolean }[] = [
    { value: schema, path: root, depth: 0, data: false },
  ];
  let deepReported = false;
  while (stack.length > 0) {
    const { value, path, depth, data } = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) {
      if (!deepReported) {
        problems.push({
          path,
          message: `'${root}' nests deeper than ${MAX_SCHEMA_DEPTH} levels (at ${path}): flatten the schema`,
        });
        deepReported = true;
      }
      continue;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        stack.push({ value: item, path: `${path}[${i}]`, depth: depth + 1, data });
      });
      continue;
    }
    if (!isPlainObject(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (!data && key === "pattern" && typeof child === "string") {
        const why = patternProblem(child);
        if (why !== null) problems.push({ path: at, message: `the regular expression at ${at} ${why}` });
      }
      if (!data && key === "patternProperties" && isPlainObject(child)) {
        for (const pattern of Object.keys(child)) {
          const why = patternProblem(pattern);
          if (why !== null) {
            problems.push({
              path: at,
              message: `the regular expression ${JSON.stringify(pattern.slice(0, 80))} (a key of ${at}) ${why}`,
            });
          }
        }
      }
      stack.push({ value: child, path: at, depth: depth + 1, data: data || DATA_KEYWORDS.has(key) });
    }
  }
  return problems;
}
