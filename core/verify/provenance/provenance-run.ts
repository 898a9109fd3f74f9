/**
 * The source run as the provenance rule reads it: the task text, the test inputs, then each base call's
 * arguments and response, in order; where a value first appears, and whether the run explains it for a tool.
 */

/** One base call of the source run, in the order it was made (calls inside distilled tools included). */
export interface RunCall {
  tool: string;
  args: Record<string, unknown>;
  /** The response, when the call answered. */
  output?: unknown;
  ok: boolean;
}

/** What the provenance rule knows of the source run: its task, the proposal's test inputs, its base calls. */
export interface RunFacts {
  /** The source run's task text. */
  task: string;
  /** The proposal's test inputs. */
  inputs: readonly Record<string, unknown>[];
  /** The source run's base calls in order, inner ones included. */
  calls: readonly RunCall[];
  /**
   * The base tools that may write (not declared read-only): calls to these get the inverted rule, every
   * argument traced (provenance-writes.ts). Verification always passes them; absent, no call gets it.
   */
  writes?: readonly string[];
  /**
   * Base calls of the source runs of earlier verified versions of the same tool: for calls to tools that may
   * write, a constant one of them passed to a tool is one "the run passed" (see provenance-facts.ts).
   */
  earlier?: readonly RunCall[];
}

/** Strings shorter than this must match whole: a 3-character substring of some response is no evidence. */
export const MIN_SUBSTRING_CHARS = 4;

/** Where a value was seen in the source run; `tool` names the call for arguments and responses. */
export type Seen =
  | { kind: "task" }
  | { kind: "input" }
  | { kind: "arguments"; tool: string }
  | { kind: "response"; tool: string };

/** One place of the run, in order, with its text prepared for lookups. */
interface Place {
  seen: Seen;
  data: Leaves | null;
  text: string | null;
}

/** The string and number leaves of a JSON value (object keys are names, not values, and are left out). */
interface Leaves {
  strings: Set<string>;
  numbers: Set<number>;
  /** Every string leaf joined by a separator no checked value contains, for one substring search. */
  joined: string;
}

const JOIN = "\u0000";

/** The source run's places in the order the run saw them: task text, test inputs, then each call's arguments and response. */
export class RunIndex {
  readonly #places: Place[] = [];
  readonly #first = new Map<string, Seen | null>();

  constructor(facts: RunFacts) {
    this.#places.push({ seen: { kind: "task" }, data: null, text: facts.task });
    for (const input of facts.inputs)
      this.#places.push({ seen: { kind: "input" }, data: leaves(input), text: null });
    for (const call of facts.calls) {
      this.#places.push({
        seen: { kind: "arguments", tool: call.tool },
        data: leaves(call.args),
        text: null,
      });
      if (call.output !== undefined) {
        this.#places.push({
          seen: { kind: "response", tool: call.tool },
          data: leaves(call.output),
          text: null,
        });
      }
    }
  }

  /** Where the run first saw `value`, or null when it never did. */
  firstSeen(value: string | number): Seen | null {
    const key = `${typeof value}:${value}`;
    if (this.#first.has(key)) return this.#first.get(key) ?? null;
    const place = this.#places.find((p) => appearsIn(value, p));
    const seen = place?.seen ?? null;
    this.#first.set(key, seen);
    return seen;
  }

  /** True when the task, a test input, a response or `tool`'s own recorded arguments have `value`. */
  explains(value: string | number, tool: string): boolean {
    return this.#places.some(
      (p) => (p.seen.kind !== "arguments" || p.seen.tool === tool) && appearsIn(value, p),
    );
  }
}

function appearsIn(value: string | number, place: Place): boolean {
  if (place.text !== null) return appearsInText(value, place.text);
  const data = place.data;
  if (data === null) return false;
  if (typeof value === "number") return data.numbers.has(value) || data.strings.has(String(value));
  if (data.strings.has(value)) return true;
  if (/^-?\d+(\.\d+)?$/.test(value) && data.numbers.has(Number(value)) && String(Number(value)) === value) {
    return true;
  }
  if (value.length < MIN_SUBSTRING_CHARS) return false;
  if (!value.includes(JOIN)) return data.joined.includes(value);
  for (const leaf of data.strings) if (leaf.includes(value)) return true;
  return false;
}

/**
 * In prose (the task text): a string of MIN_SUBSTRING_CHARS or more anywhere; a shorter string or a number
 * only as a whole token, so `7` is not found in `17` nor `EU` in `EUR`.
 */
function appearsInText(value: string | number, text: string): boolean {
  if (typeof value === "string" && value.length >= MIN_SUBSTRING_CHARS) return text.includes(value);
  const escaped = String(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern =
    typeof value === "number"
      ? new RegExp(`(?<![\\d.])${escaped}(?!\\d|\\.\\d)`)
      : new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "u");
  return pattern.test(text);
}

/** The leaves of a JSON value, walked without recursion so deep data cannot exhaust the stack. */
function leaves(root: unknown): Leaves {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") strings.add(value);
    else if (typeof value === "number") numbers.add(value);
    else if (typeof value === "object" && value !== null) {
      // One at a time: spreading a huge array into push() would exceed the argument limit.
      for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
    }
  }
  return { strings, numbers, joined: [...strings].join(JOIN) };
}

/** A hole in a format: a part of the text that the code takes from data. */
export const HOLE: unique symbol = Symbol("hole");
/** One part of a format: literal text, or a hole. */
export type Piece = string | typeof HOLE;

/** A path as it is compared: every index and run-time key is `[]`. */
function normalPath(path: string): string {
  return path.replace(/\[(\d+|…)\]/g, "[]");
}

/**
 * The arguments the source run passed to each tool, leaf by leaf with its path (`.to`, `.lines[].sku`): what
 * the inverted rule for tools that may write reads to decide whether a constant is one the run passed there.
 */
export class ArgumentIndex {
  readonly #byTool = new Map<string, { path: string; value: unknown }[]>();

  constructor(calls: readonly RunCall[]) {
    for (const call of calls) {
      const leaves = this.#byTool.get(call.tool) ?? [];
      this.#byTool.set(call.tool, leaves);
      const stack: { value: unknown; path: string }[] = [{ value: call.args, path: "" }];
      while (stack.length > 0) {
        const { value, path } = stack.pop()!;
        if (Array.isArray(value)) for (const v of value) stack.push({ value: v, path: `${path}[]` });
        else if (typeof value === "object" && value !== null) {
          for (const [k, v] of Object.entries(value))
            stack.push({ value: v, path: normalPath(path + pathStepOf(k)) });
        } else leaves.push({ path, value });
      }
    }
  }

  /** The leaves the run passed to `tool` at `at` (anywhere, when `at` has a key known only at run time). */
  #leaves(tool: string, at: string): unknown[] {
    const anywhere = at.includes("[…]");
    const want = normalPath(at);
    return (this.#byTool.get(tool) ?? []).filter((l) => anywhere || l.path === want).map((l) => l.value);
  }

  /** True when the run passed `value` to `tool` at `at` (a number and its decimal text count as the same). */
  passed(tool: string, at: string, value: string | number | boolean | null): boolean {
    return this.#leaves(tool, at).some(
      (leaf) =>
        leaf === value ||
        (typeof value === "string" && typeof leaf === "number" && String(leaf) === value) ||
        (typeof value === "number" && typeof leaf === "string" && leaf === String(value)),
    );
  }

  /**
   * True when a text the run passed to `tool` at `at` fits `shape`: its literal pieces in order, each hole at
   * least one character (so a hole cannot be used to splice letters out of the run's text), anchored at both
   * ends. `joined`: the separator of a join, which fits when the text contains it.
   */
  formatPassed(tool: string, at: string, shape: readonly Piece[], joined = false): boolean {
    const texts = this.#leaves(tool, at).flatMap((l) =>
      typeof l === "string" ? [l] : typeof l === "number" ? [String(l)] : [],
    );
    if (!shape.some((p) => p !== HOLE && p !== "")) return true;
    if (joined) return texts.some((t) => shape.every((p) => p === HOLE || t.includes(p)));
    return texts.some((t) => fits(t, shape));
  }
}

function pathStepOf(key: string): string {
  return /^\d+$/.test(key)
    ? `[${key}]`
    : /^[A-Za-z_$][\w$]*$/.test(key)
      ? `.${key}`
      : `[${JSON.stringify(key)}]`;
}

/** Whether `text` is `shape`'s literal pieces with at least one character for each hole; leftmost matching suffices. */
function fits(text: string, shape: readonly Piece[]): boolean {
  const parts: Piece[] = [];
  for (const p of shape) {
    if (p === "") continue;
    const last = parts[parts.length - 1];
    if (p === HOLE && last === HOLE) continue;
    if (p !== HOLE && typeof last === "string") parts[parts.length - 1] = last + p;
    else parts.push(p);
  }
  let pos = 0;
  let hole = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === HOLE) {
      hole = true;
      continue;
    }
    const from = pos + (hole ? 1 : 0);
    if (i === parts.length - 1) {
      if (i === 0) return text === part;
      if (!text.endsWith(part) || text.length - part.length < from) return false;
      return true;
    }
    const at = i === 0 ? (text.startsWith(part) ? 0 : -1) : text.indexOf(part, from);
    if (at === -1) return false;
    pos = at + part.length;
    hole = false;
  }
  return text.length >= pos + (hole ? 1 : 0);
}
